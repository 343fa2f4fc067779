package mcu

import (
	"fmt"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// AddEnergy prices every measured mcu result of run on a device: energy per
// operation = time per operation × the device's active power while
// computing, appended as a metric labelled modelled (the time is
// simulated, the power comes from a device profile, e.g. the Arduino
// Uno's). activePower must be a power ("W", "mW"...); device names the
// profile in the metric's method. Results with an error are left alone.
//
// This is the hook the energy package's device profiles plug into
// (`cryptocost mcu bench --device arduino-uno`): it keeps costing separate
// from measuring, so one run can be priced for several boards.
func AddEnergy(run *result.Run, device string, activePower catalog.Quantity) error {
	watts, err := activePower.In("W")
	if err != nil {
		return fmt.Errorf("device %q: active power: %w", device, err)
	}
	for i := range run.Results {
		r := &run.Results[i]
		t := r.Metric("time")
		if r.Subject.Kind != "mcu" || r.Error != "" || t == nil || r.Metric("energy") != nil {
			continue
		}
		joules := make([]float64, 0, max(len(t.Samples), 1))
		if len(t.Samples) > 0 {
			for _, ns := range t.Samples {
				joules = append(joules, ns*watts)
			}
		} else {
			joules = append(joules, t.Summary.Median*watts)
		}
		var m result.Metric
		if len(joules) == 1 {
			m = result.NewScalar("energy", "J/op", result.Lower, result.Modelled, joules[0])
		} else {
			m = result.NewSampled("energy", "J/op", result.Lower, result.Modelled, joules)
		}
		m.Method = fmt.Sprintf("simulated time × %s active power %s", device, activePower.String())
		r.Metrics = append(r.Metrics, m)
	}
	return nil
}
