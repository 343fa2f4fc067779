package costing

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast (no external tools): the shipped tables, the profiles and
// hand arithmetic.

// A priced run carries what it was priced with: the device profile as
// read, and the calibration and simulated table when a figure came from
// them.
func TestPriceRecordsInputs(t *testing.T) {
	uno := mustDevice(t, "arduino-uno")
	run := fixtureRun()
	if err := Price(run, Options{Device: uno}); err != nil {
		t.Fatal(err)
	}
	in := run.Input("device-profile", "arduino-uno")
	raw, err := os.ReadFile("../device/devices/arduino-uno.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if in == nil || in.SHA256 != hex.EncodeToString(sum[:]) || in.Source != "device/devices/arduino-uno.yaml" || in.Format != "yaml" || in.Check() != nil {
		t.Errorf("device input %+v", in)
	}
	if in := run.Input("simulated-table", "atmega328p"); in == nil || in.Check() != nil {
		t.Errorf("the run was priced from the simulated table (SHA-256 on the Uno) and does not carry it: %v", run.Inputs)
	}
	// A calibration read from its file.
	pi := mustDevice(t, "pi-zero-2w")
	onPi := fixtureRun()
	onPi.Results = onPi.Results[:1]
	c, err := NewCalibration(pi, onPi, "pi.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, err := SaveCalibration(dir, c)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadCalibration(dir, "pi-zero-2w")
	if err != nil {
		t.Fatal(err)
	}
	host := fixtureRun()
	if err := Price(host, Options{Device: pi, Calibration: loaded}); err != nil {
		t.Fatal(err)
	}
	if in := host.Input("calibration", "pi-zero-2w"); in == nil || in.Source != path || in.Check() != nil {
		t.Errorf("calibration input %+v", in)
	}
	if host.Input("simulated-table", "atmega328p") != nil {
		t.Error("a table the run was not priced from")
	}
	// A profile built in code has no file: nothing to carry.
	if DeviceInput(&device.Device{Name: "x"}) != nil {
		t.Error("input for a profile without a file")
	}
}

// A trace priced on a radio carries the radio profile it was priced on.
func TestPriceRecordsRadioInput(t *testing.T) {
	run := &result.Run{Results: []result.Result{{
		Subject: result.Subject{Kind: "probe", Name: "h"},
		Trace: &result.Trace{Link: "802.15.4", Packets: []result.Packet{
			{TimeNs: 0, Dir: result.Up, Bytes: 60, Payload: 40}, {TimeNs: 10e6, Dir: result.Down, Bytes: 60, Payload: 40}}}}}}
	if err := Price(run, Options{Device: mustDevice(t, "telosb")}); err != nil {
		t.Fatal(err)
	}
	if run.Results[0].Metric("energy/radio") == nil {
		t.Fatalf("trace not priced: %v", run.Results[0].Warnings)
	}
	in := run.Input("radio-profile", "ieee802154-telosb") // telosb's radio cc2420
	if in == nil || in.Check() != nil || !strings.Contains(in.Content, "cc2420") {
		t.Errorf("radio input %+v (inputs %v)", in, run.Inputs)
	}
}
