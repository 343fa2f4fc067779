package costing

import (
	"encoding/json"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// The data files a priced run's figures come from travel with the run
// (result.Run.Inputs, indexed by the store): the device profile it was
// priced on, the calibration whose times it used, the simulated table a
// figure was read from. A run read later, elsewhere, shows what it was
// priced with even when the profile has since changed. The radio profile
// a trace was priced on is one too.

// DeviceInput is the device's profile as it was read (nil when it was
// built in code and has no file).
func DeviceInput(d *device.Device) *result.Input {
	data, format := d.Content()
	if data == nil {
		return nil
	}
	in := result.NewInput("device-profile", d.Name, d.Source(), format, data)
	return &in
}

// input is the calibration as it was read from its file, or as it is
// (a calibration made in this process, not yet stored).
func (c *Calibration) input() result.Input {
	data, src := c.content, c.file
	if data == nil {
		data, _ = json.MarshalIndent(c, "", "  ")
		src = "calibration of " + c.Device + " (run " + c.RunID + ", not stored)"
	}
	return result.NewInput("calibration", c.Device, src, "json", data)
}

// input is the simulated table as it is embedded.
func (t *SimTable) input() result.Input {
	return result.NewInput("simulated-table", t.Target, "costing/simulated/"+t.Target+".json", "json", t.content)
}

// radioInput is the radio profile a trace was priced on.
func radioInput(rp *radio.Profile) result.Input {
	format := "yaml"
	if strings.HasSuffix(rp.File, ".json") {
		format = "json"
	}
	return result.NewInput("radio-profile", rp.Name, rp.File, format, rp.Data)
}

// used records an input a figure was computed from, on the run being
// priced (Pricer.Reference; nothing when the pricer prices no run).
func (p *Pricer) used(in result.Input) {
	if p.Reference != nil && p.recordInputs {
		p.Reference.AddInput(in)
	}
}

// AddAnswerInputs records on run what a battery answer for device d was
// computed with: the device's profile and, when one was used, its
// calibration.
func AddAnswerInputs(run *result.Run, d *device.Device, cal *Calibration) {
	if in := DeviceInput(d); in != nil {
		run.AddInput(*in)
	}
	if cal != nil {
		run.AddInput(cal.input())
	}
}
