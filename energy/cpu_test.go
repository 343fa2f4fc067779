package energy

import (
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

func TestCPUEnergy(t *testing.T) {
	d, err := Lookup("telosb")
	if err != nil {
		t.Fatal(err)
	}
	// On the device: 2 s × 2.65 V × 1.8 mA = 9.54 mJ, measured.
	j, label, method, err := CPUEnergy(d, result.Environment{Arch: "amd64"}, 2*time.Second, true)
	if err != nil || label != result.Measured || j < 9.539e-3 || j > 9.541e-3 || !strings.Contains(method, "1.8 mA") {
		t.Errorf("on device: %v J, %s, %q, %v", j, label, method, err)
	}
	// Measured on amd64, priced for an MSP430: refused, with the reason.
	if _, _, _, err := CPUEnergy(d, result.Environment{Arch: "amd64", CPUMHz: 2000}, time.Second, false); err == nil || !strings.Contains(err.Error(), "across architectures") {
		t.Errorf("across architectures: %v", err)
	}
	// Same architecture: scaled by the clock ratio and labelled estimated.
	pi, err := Lookup("pi-zero-2w")
	if err != nil {
		t.Fatal(err)
	}
	mhz := pi.CPU.Clock.MustIn("MHz")
	_, label, method, err = CPUEnergy(pi, result.Environment{Arch: pi.CPU.Arch, CPUMHz: 2 * mhz}, time.Second, false)
	if err != nil || label != result.Estimated || !strings.Contains(method, "clock ratio 2") {
		t.Errorf("clock ratio: %s %q %v", label, method, err)
	}
}
