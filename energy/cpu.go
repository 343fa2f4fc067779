package energy

import (
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// CPUEnergy prices CPU time on device d: E = V · I_active · t, where t is
// the time the work takes on d. cpu was measured on the machine env
// describes; onDevice says that machine is d itself (cryptocost running on
// the board), so cpu is d's time (measured). Otherwise it is scaled by the
// clock ratio, and only between machines of the same architecture (the
// clock-ratio estimator's rule), and labelled estimated; across
// architectures there is no honest scale and CPUEnergy says so.
// Runners whose CPU time is not one scheme's operation (a TLS connection's
// I/O, a scenario's parsing) use it; per-operation results use Annotate.
func CPUEnergy(d *Device, env result.Environment, cpu time.Duration, onDevice bool) (joules float64, label result.Label, method string, err error) {
	p, err := opPower(d, "", 0, "")
	if err != nil {
		return 0, "", "", err
	}
	t := cpu.Seconds()
	label, how := result.Measured, fmt.Sprintf("%.4g s CPU measured on %s", t, d.Name)
	if !onDevice {
		if d.CPU.Arch != env.Arch {
			return 0, "", "", fmt.Errorf("CPU time was measured on %s and %s is %s: no scale across architectures (run cryptocost on the device, or calibrate it)", env.Arch, d.Name, d.CPU.Arch)
		}
		if env.CPUMHz <= 0 || !d.CPU.Clock.Known() {
			return 0, "", "", fmt.Errorf("no clock ratio: the clock rate of this machine or of %s is unknown", d.Name)
		}
		scale := env.CPUMHz / d.CPU.Clock.MustIn("MHz")
		t *= scale
		label = result.Estimated
		how = fmt.Sprintf("%.4g s CPU here × clock ratio %.4g (%.0f MHz here / %.0f MHz on %s, same architecture %s; ±2×)",
			cpu.Seconds(), scale, env.CPUMHz, d.CPU.Clock.MustIn("MHz"), d.Name, env.Arch)
	}
	return p.Watts * t, label, "E = V·I·t: " + p.How + " × " + how, nil
}
