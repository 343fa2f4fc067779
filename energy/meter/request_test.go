package meter

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast. The requests of energy trace, attribute and measure: their
// refusals, word for word what the commands say, and the runs they make.

func TestTraceRequest(t *testing.T) {
	if _, err := (&TraceRequest{}).Read(); err == nil || err.Error() != "--trace FILE is required: a CSV from the meter (time and current or power columns)" {
		t.Errorf("Read() without a file = %v", err)
	}
	if _, err := (&TraceRequest{File: filepath.Join(t.TempDir(), "no.csv")}).Read(); err == nil || !strings.HasPrefix(err.Error(), "--trace: open ") {
		t.Errorf("Read() of a missing file = %v", err)
	}
	run, err := (&TraceRequest{File: "testdata/ina219.csv"}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if run.Kind != "energy-trace" || len(run.Results) != 1 || run.Results[0].Subject.Name != "trace/testdata/ina219.csv" || run.Results[0].Metric("energy") == nil {
		t.Errorf("run %s: %+v", run.Kind, run.Results)
	}
}

// TestTraceRequestInterval: --sample-interval is the trace options'
// interval, in seconds, for a logger that prints no time.
func TestTraceRequestInterval(t *testing.T) {
	f := filepath.Join(t.TempDir(), "ina226.log")
	write(t, f, "Bus Voltage: 4.00 V\nCurrent: 100.00 mA\nBus Voltage: 4.00 V\nCurrent: 100.00 mA\nBus Voltage: 4.00 V\nCurrent: 100.00 mA\n")
	if _, err := (&TraceRequest{File: f}).Read(); err == nil || !strings.Contains(err.Error(), "give --sample-interval") {
		t.Fatalf("Read() without an interval = %v", err)
	}
	req := &TraceRequest{File: f, Interval: 500 * time.Millisecond}
	tr, err := req.Read()
	if err != nil {
		t.Fatal(err)
	}
	if req.Options.Interval != 0.5 || len(tr.Samples) < 2 || tr.Samples[1].T-tr.Samples[0].T != 0.5 {
		t.Errorf("interval %v, samples %+v", req.Options.Interval, tr.Samples)
	}
}

func TestAttributeRequest(t *testing.T) {
	const want = "give --markers FILE.jsonl (the start and end of each phase) or --digital CHANNEL (the trace's own digital input, high during each phase), one of them"
	for _, a := range []AttributeRequest{{}, {Markers: "m.jsonl", Digital: "D0"}} {
		if err := a.Check(); err == nil || err.Error() != want {
			t.Errorf("%+v.Check() = %v", a, err)
		}
	}
	a := AttributeRequest{Trace: TraceRequest{File: "testdata/ina219.csv"}, Markers: "testdata/markers.jsonl"}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := a.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if run.Kind != "energy-attribute" || len(run.Results) == 0 || run.Results[0].Subject.Name != "phase/sign" {
		t.Errorf("run %s: %+v", run.Kind, run.Results)
	}
	a.Markers = filepath.Join(t.TempDir(), "no.jsonl")
	if _, err := a.Run(context.Background()); err == nil || !strings.HasPrefix(err.Error(), "--markers: open ") {
		t.Errorf("Run() with a missing markers file = %v", err)
	}
}

func TestMeasureRequestCheck(t *testing.T) {
	for _, c := range []struct {
		req  MeasureRequest
		want string
	}{
		{MeasureRequest{}, "--meter NAME is required: one of " + strings.Join(Names(), ", ") + " (cryptocost energy meters says which work here)"},
		{MeasureRequest{Meter: "powercap"}, "give --duration D or a command after --"},
		{MeasureRequest{Meter: "powercap", Duration: time.Millisecond, Config: Config{Root: t.TempDir()}}, "meter powercap is not available here: no RAPL zones"},
	} {
		if err := c.req.Check(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v.Check() = %v, want %q", c.req, err, c.want)
		}
	}
}

// TestMeasureRequestRun reads a sysfs-shaped RAPL tree while idling and
// while a command runs: the command's output goes to Output, a non-zero
// exit is a CommandError with its status beside the run.
func TestMeasureRequestRun(t *testing.T) {
	root := raplTree(t)
	idle := &MeasureRequest{Meter: "powercap", Duration: time.Millisecond, Config: Config{Root: root, Interval: time.Millisecond}}
	run, err := idle.Run(context.Background()) // Run checks a request not yet checked
	if err != nil {
		t.Fatal(err)
	}
	if run.Kind != "energy-measure" || run.Status != result.Complete || run.Results[0].Subject.Name != "meter/powercap/idle for 1ms" {
		t.Errorf("idle run %s %s: %+v", run.Kind, run.Status, run.Results)
	}

	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to run a command under the meter")
	}
	var out bytes.Buffer
	cmd := &MeasureRequest{Meter: "powercap", Command: []string{sh, "-c", "echo measured; exit 3"}, Output: &out, Config: Config{Root: root, Interval: time.Millisecond}}
	if err := cmd.Check(); err != nil {
		t.Fatal(err)
	}
	run, err = cmd.Run(context.Background())
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Status != 3 || err.Error() != "the measured command exited with status 3" {
		t.Fatalf("Run() = %v, want the command's exit status 3", err)
	}
	if run == nil || len(run.Results) != 1 || !strings.HasSuffix(run.Results[0].Subject.Name, "-c echo measured; exit 3") || out.String() != "measured\n" {
		t.Errorf("run %+v, output %q", run, out.String())
	}
}
