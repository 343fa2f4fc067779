package probe

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestRequestCheck checks the errors a probe request is refused with
// before any connection, word for word as the command line shows them.
func TestRequestCheck(t *testing.T) {
	for _, tc := range []struct {
		targets []string
		compare bool
		want    string
	}{
		{nil, false, "no target: want HOST:PORT, such as example.com:443"},
		{[]string{"a:1", "b:2"}, false, "2 targets: give one target, or --compare A B C to put several side by side"},
	} {
		if err := CheckTargets(tc.targets, tc.compare); err == nil || err.Error() != tc.want {
			t.Errorf("targets %v: %v; want %q", tc.targets, err, tc.want)
		}
	}
	if err := CheckTargets([]string{"a:1", "b:2"}, true); err != nil {
		t.Errorf("--compare with two targets: %v", err)
	}
	ok := func() Request {
		return Request{Targets: []string{"example.com:443"}, Format: "table", Timeout: DefaultLimits().Timeout,
			Options: Options{Tries: 5, Concurrency: 5}}
	}
	for _, tc := range []struct {
		change func(*Request)
		want   string
	}{
		{func(r *Request) { r.Format = "xml" }, `unknown format "xml": want table, json, run, csv or gobench`},
		{func(r *Request) { r.Options.Tries = 0 }, "--tries 0: want 1 to 100 (5 is sslyze's default)"},
		{func(r *Request) { r.Versions = []string{"9"} }, `unknown protocol version "9": want one of ssl3, 1.0, 1.1, 1.2, 1.3`},
	} {
		r := ok()
		tc.change(&r)
		err := r.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want %q", r, err, tc.want)
		}
	}
	r := ok()
	if err := r.Check(); err != nil || r.write == nil || r.Options.Limits.Timeout != r.Timeout {
		t.Errorf("a good request: %v (writer set %v, timeout %v)", err, r.write != nil, r.Options.Limits.Timeout)
	}
}

// TestCheckRadio checks that a device prices a probe only on a --radio
// given, naming the device's radios.
func TestCheckRadio(t *testing.T) {
	want := "--device prices a connection's radio energy: add --radio, one of phone's radios (lte, wifi; cryptocost radio list)"
	if err := CheckRadio("phone", []string{"lte", "wifi"}, ""); err == nil || err.Error() != want {
		t.Errorf("no --radio: %v; want %q", err, want)
	}
	if err := CheckRadio("phone", []string{"lte"}, "lte"); err != nil {
		t.Errorf("--radio lte: %v", err)
	}
	if err := CheckRadio("", nil, ""); err != nil {
		t.Errorf("no device: %v", err)
	}
}

// TestOutcomeStatus checks the outcome's error: interrupted when a probe
// stopped and the context is done, else a note per target stopped at the
// time limit and the failures.
func TestOutcomeStatus(t *testing.T) {
	failed := errors.New("b:2: refused")
	o := Outcome{Failed: failed, Stopped: []string{"a:1"}}
	var log strings.Builder
	if err := o.Status(context.Background(), &log); err != failed {
		t.Errorf("status %v; want the failures", err)
	}
	if log.String() != "a:1: stopped at the --time-limit; the report has what was found by then\n" {
		t.Errorf("note %q", log.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := o.Status(ctx, &log); !errors.Is(err, ErrInterrupted) {
		t.Errorf("interrupted: %v; want ErrInterrupted", err)
	}
	if err := (Outcome{}).Status(ctx, &log); err != nil {
		t.Errorf("nothing stopped: %v", err)
	}
}
