package bench

import (
	"slices"
	"strings"
	"testing"
)

// TestPrepareRefusesZeroSize checks a 0-byte --sizes entry is refused
// before any work. Tier: fast.
func TestPrepareRefusesZeroSize(t *testing.T) {
	var opts Options
	cfg := RunConfig{Method: MethodAdaptive}
	if _, err := Prepare(&opts, &cfg, []string{"0"}, nil); err == nil {
		t.Error("Prepare accepted --sizes 0")
	}
}

// TestRequestCheck checks that a request is planned by Check, its sizes
// parsed, and that the note on what was left out is written unless
// quiet. Tier: fast.
func TestRequestCheck(t *testing.T) {
	r := Request{Sizes: []string{"0"}, Config: RunConfig{Method: MethodAdaptive}}
	if err := r.Check(); err == nil {
		t.Error("Check accepted --sizes 0")
	}
	r = Request{Sizes: []string{"1k"}, Options: Options{Algos: []string{"SHA-256"}},
		Config: RunConfig{Method: MethodAdaptive, TargetRelCI: 0.02, MinSamples: 10, Keys: 10, Repetitions: 10}}
	if err := r.Check(); err != nil || r.plan == nil || !slices.Equal(r.Options.Sizes, []int{1024}) {
		t.Fatalf("check: %v, sizes %v: want a plan at 1024 bytes", err, r.Options.Sizes)
	}
	var note strings.Builder
	r.plan = &Plan{Skipped: []string{"RSA-15360 sign: slow, add --slow"}}
	r.NoteSkipped(&note)
	if note.String() != "1 schemes or operations left out (legacy or slow): --legacy and --slow add them\n" {
		t.Errorf("note %q", note.String())
	}
	note.Reset()
	r.Quiet = true
	r.NoteSkipped(&note)
	if note.Len() != 0 {
		t.Errorf("quiet: note %q", note.String())
	}
}
