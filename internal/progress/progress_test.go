package progress

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The event log gets one line per event, in order, from a bar that draws
// nothing (stderr is not a terminal under go test). It runs in a child
// process so that CRYPTOCOST_EVENT_LOG is read at its first use. Fast tier.
func TestEventLog(t *testing.T) {
	if os.Getenv("PROGRESS_CHILD") != "" {
		b := New("bench", true)
		b.Begin(3)
		b.Step(0, "round 1: A")
		b.Step(1, "round 2: B")
		b.End()
		var silent Bar // the zero value logs nothing and does not panic
		silent.Begin(1)
		silent.Step(1, "x")
		silent.End()
		return
	}
	log := filepath.Join(t.TempDir(), "events")
	cmd := exec.Command(os.Args[0], "-test.run=^TestEventLog$")
	cmd.Env = append(os.Environ(), "PROGRESS_CHILD=1", EventLogEnv+"="+log)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "bench begin 3\nbench step 0/3 round 1: A\nbench step 1/3 round 2: B\nbench end\n"
	if string(got) != want {
		t.Errorf("event log:\n%s\nwant:\n%s", got, want)
	}
}
