package radio

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestSimulateRequest checks radio simulate's request as the runner
// calls it: a bad --plot refused before the simulation is prepared, then
// a transfer priced on two radios into a valid run, and one timeline
// file per breakdown named on the log. Tier: fast.
func TestSimulateRequest(t *testing.T) {
	bad := SimulateRequest{Plot: "t.jpg"}
	if err := bad.Check(); err == nil || err.Error() != `--plot: plot file "t.jpg": want a name ending in .svg, .png or .pdf` {
		t.Errorf("--plot t.jpg: %v", err)
	}
	dir := t.TempDir()
	var log bytes.Buffer
	r := SimulateRequest{Simulation: Simulation{Radios: "lte,wifi", Transfer: "up=1k,down=4k,rate=1Mbit/s"},
		Timeline: filepath.Join(dir, "t.csv"), Log: &log}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := r.Run(result.NewRun("radio", result.Environment{}))
	if err != nil || len(run.Results) != 2 || run.Finished.IsZero() {
		t.Fatalf("Run = %+v, %v", run, err)
	}
	if err := r.Files(); err != nil {
		t.Fatal(err)
	}
	for i, title := range r.Titles {
		name := filepath.Join(dir, "t-"+string(rune('1'+i))+".csv")
		if _, err := os.Stat(name); err != nil || !strings.Contains(log.String(), name+": "+title) {
			t.Errorf("timeline %s (%s): %v; log %q", name, title, err, log.String())
		}
	}
}

// TestShow shows a built-in profile as text and as its data file, and
// refuses neither or both of a name and a file. Tier: fast.
func TestShow(t *testing.T) {
	var text, data bytes.Buffer
	if err := Show(&text, []string{"lte"}, "", false); err != nil || !strings.Contains(text.String(), "PARAMETER") {
		t.Errorf("show lte: %q, %v", text.String(), err)
	}
	if err := Show(&data, []string{"lte"}, "", true); err != nil || data.Len() == 0 {
		t.Errorf("show lte --data: %v", err)
	}
	want := "give a profile NAME or --radio-file FILE (`cryptocost radio list` names them)"
	for _, c := range []struct {
		names []string
		file  string
	}{{nil, ""}, {[]string{"lte"}, "lte.yaml"}} {
		if err := Show(&bytes.Buffer{}, c.names, c.file, false); err == nil || err.Error() != want {
			t.Errorf("show %v --radio-file %q: %v", c.names, c.file, err)
		}
	}
	if err := Show(&bytes.Buffer{}, []string{"nosuch"}, "", false); err == nil {
		t.Error("show nosuch: no error")
	}
}
