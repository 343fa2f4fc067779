package store

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestShow writes a stored run under its header for a table, and as it
// is for another format. Tier: fast.
func TestShow(t *testing.T) {
	ctx := context.Background()
	run := testRun("R1-aaaa", "bench", t0, 1)
	run.Command = []string{"cryptocost", "bench", "--algo", "S0"}
	run.Tags = []string{"pi"}
	db := savedStore(t, run)
	for _, c := range []struct {
		format, want string
	}{
		{"table", "run R1-aaaa · bench · complete · started 2026-12-01 10:00:00Z · made here · tags pi\ncommand: cryptocost bench --algo S0\n"},
		{"json", `{`},
	} {
		f, err := result.FormatByName(c.format)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Show(ctx, db, "R1", f, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), c.want) {
			t.Errorf("%s: %q, want it to start with %q", c.format, out.String(), c.want)
		}
	}
	f, _ := result.FormatByName("table")
	if err := Show(ctx, db, "R9", f, &bytes.Buffer{}); err == nil {
		t.Error("showing a run not stored: no error")
	}
}

// TestWriteHeader names an imported run's origin, and leaves out the
// tags and command a run does not have. Tier: fast.
func TestWriteHeader(t *testing.T) {
	got := &Stored{Summary: Summary{ID: "R1", Kind: "tls", Status: result.Complete, Started: t0,
		Origin: Origin{Kind: Imported, From: "board.json"}}, Run: &result.Run{}}
	var out bytes.Buffer
	WriteHeader(&out, got)
	want := "run R1 · tls · complete · started 2026-12-01 10:00:00Z · " + got.Origin.String() + "\n"
	if out.String() != want {
		t.Errorf("header %q, want %q", out.String(), want)
	}
}
