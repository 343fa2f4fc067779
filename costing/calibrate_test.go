package costing

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestCheckCalibrate checks calibrate's required flags, word for word as
// the command line shows them. Tier: fast.
func TestCheckCalibrate(t *testing.T) {
	for _, tc := range []struct {
		from   string
		device bool
		want   string
	}{
		{"", true, "--from RESULTS.json is required: a cryptocost run (--format json) made on the device"},
		{"run.json", false, "--device NAME or --device-file FILE is required: the device the run was made on"},
	} {
		if err := CheckCalibrate(tc.from, tc.device); err == nil || err.Error() != tc.want {
			t.Errorf("from %q, device %v: %v; want %q", tc.from, tc.device, err, tc.want)
		}
	}
	if err := CheckCalibrate("run.json", true); err != nil {
		t.Error(err)
	}
}

// TestCalibrate checks that a calibration is stored in the directory
// given and reported as the command prints it. Tier: fast.
func TestCalibrate(t *testing.T) {
	pi := mustDevice(t, "pi-zero-2w")
	amd64 := fixtureRun()
	amd64.Environment.Arch = "amd64"
	if _, _, err := Calibrate(pi, amd64, "r.json", t.TempDir()); err == nil || !strings.Contains(err.Error(), "not pi-zero-2w") {
		t.Errorf("an amd64 run for the Pi: %v", err)
	}
	run := fixtureRun()
	run.Environment.Arch, run.Environment.CPUModel, run.Environment.OS = "arm", "", "linux"
	run.Results, run.Status = run.Results[:1], result.Complete
	run.Results[0].Metrics[0] = result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{20000, 20000, 20000})
	dir := t.TempDir()
	cal, path, err := Calibrate(pi, run, "pi.json", dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "pi-zero-2w.json") {
		t.Errorf("stored in %s", path)
	}
	var out, warn strings.Builder
	cal.WriteStored(&out, &warn, path)
	want := "calibrated pi-zero-2w with 1 times per operation from run " + run.ID + " (linux/arm, -)\nstored in " + path + "\n"
	if out.String() != want || warn.Len() != 0 {
		t.Errorf("printed %q and %q; want %q and no warnings", out.String(), warn.String(), want)
	}
	cal.Warnings = []string{"the run was measured in a virtual machine (kvm)"}
	cal.WriteStored(&out, &warn, path)
	if warn.String() != "warning: the run was measured in a virtual machine (kvm)\n" {
		t.Errorf("warnings %q", warn.String())
	}
}
