package costing

import (
	"fmt"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
)

// TargetPrice is one device a simulated run (mcu bench) is priced on, and
// the target whose results it prices ("" for every result: a device the
// user named).
type TargetPrice struct {
	Device *device.Device
	Target string
}

// TargetPricing says what a simulated run over targets is priced on,
// before any work: the device named when given (every result; the costing
// stage says "not priced" for the targets it does not simulate), or by
// default the device each target simulates where a profile names it
// (arduino-uno for atmega328p), or nothing for a given name of "".
func TargetPricing(targets []string, name string, given bool) ([]TargetPrice, error) {
	if given {
		if name == "" {
			return nil, nil
		}
		d, err := device.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--device: %w", err)
		}
		if err := CheckDevice(d); err != nil {
			return nil, fmt.Errorf("--device: %w", err)
		}
		return []TargetPrice{{Device: d}}, nil
	}
	var out []TargetPrice
	for _, t := range targets {
		if d := device.ForTarget(t); d != nil {
			out = append(out, TargetPrice{Device: d, Target: t})
		}
	}
	return out, nil
}

// PriceTargets runs the costing stage on each device's share of the run:
// the results whose "target" param is the device's target.
func PriceTargets(run *result.Run, prices []TargetPrice) error {
	var devices []string
	for _, pr := range prices {
		if pr.Target == "" {
			return Price(run, Options{Device: pr.Device})
		}
		part := *run
		part.Results = nil
		var at []int
		for i, r := range run.Results {
			if r.Subject.Params["target"] == pr.Target {
				part.Results = append(part.Results, r)
				at = append(at, i)
			}
		}
		if err := Price(&part, Options{Device: pr.Device}); err != nil {
			return err
		}
		for j, i := range at {
			run.Results[i] = part.Results[j]
		}
		devices = append(devices, pr.Device.Name)
	}
	// one device names the run's; several are each in their results'
	// metrics and methods
	if len(devices) == 1 {
		run.Environment.Device = devices[0]
	}
	return nil
}
