package result

import (
	"testing"
	"time"
)

// StatusError's words are what a command prints for a run cut short or
// failed.
func TestStatusError(t *testing.T) {
	for _, tc := range []struct {
		run          Run
		noun, failed string
		want         string // "" for nil
	}{
		{run: Run{Status: Complete}},
		{run: Run{Status: Interrupted, Results: make([]Result, 3)}, want: "interrupted: wrote the 3 results measured so far"},
		{run: Run{Status: Interrupted}, noun: "points computed", want: "interrupted: wrote the 0 points computed so far"},
		{run: Run{Status: Failed, Errors: []string{"a", "b"}}, want: "a\n  b"},
		{run: Run{Status: Failed, Errors: []string{"a"}}, failed: "scenario sensor failed", want: "scenario sensor failed: a"},
	} {
		err := StatusError(&tc.run, tc.noun, tc.failed)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("StatusError(%s) = %q, want %q", tc.run.Status, got, tc.want)
		}
	}
}

// Stamp keeps a runner's own finish time and sets one otherwise.
func TestStamp(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := &Run{Finished: at}
	Stamp(run, Tool{Name: "cryptocost"}, []string{"cryptocost", "bench"})
	if run.Tool.Name != "cryptocost" || len(run.Command) != 2 || !run.Finished.Equal(at) {
		t.Errorf("Stamp: %+v %v %v", run.Tool, run.Command, run.Finished)
	}
	run = &Run{}
	Stamp(run, Tool{}, nil)
	if run.Finished.IsZero() || run.Finished.Location() != time.UTC {
		t.Errorf("Stamp left Finished %v, want now in UTC", run.Finished)
	}
}
