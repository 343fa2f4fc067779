package costing

import (
	"fmt"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
)

// Selection is what a command's pricing flags choose (--device,
// --device-file, --on-device, --no-estimates, --calibrations, --radio):
// the device a run is priced on, or, without one, the radio its traffic
// alone is priced on. A runner checks it before any work (Check) and
// prices the run after it (Apply).
type Selection struct {
	// Device and DeviceFile name the device profile (device.Resolve).
	Device, DeviceFile string
	// OnDevice says the run is measured on the device itself;
	// NoEstimates refuses times scaled from another machine.
	OnDevice, NoEstimates bool
	// Calibrations is where calibrations are stored ("": the default,
	// CalibrationIn).
	Calibrations string
	// Radio names the radio profile a run's traces are priced on, when
	// the command has traces; Link is the link they crossed.
	Radio string
	Link  *link.Profile
	// Scenario is what a scenario's own flags say about pricing: its
	// default device when none is named, --on-device, an assumed speed
	// (remote-sign's --signer-speed), calibrations, the operation whose
	// literature figures the run shows beside it.
	Scenario scenario.Pricing

	// Resolved is the device Check found.
	Resolved *device.Device
	// PricedOn is the radio Apply priced the traffic alone on (no device).
	PricedOn string
}

// Enabled reports whether a device was named, by the flags or as the
// scenario's default.
func (s *Selection) Enabled() bool {
	return s.Device != "" || s.DeviceFile != "" || s.Scenario.DefaultDevice != ""
}

// defaulted: the device is the scenario's default, not the user's choice.
func (s *Selection) defaulted() bool {
	return s.Device == "" && s.DeviceFile == "" && s.Scenario.DefaultDevice != ""
}

// onDevice is --on-device, the flag's or the scenario's own.
func (s *Selection) onDevice() bool { return s.OnDevice || s.Scenario.OnDevice }

// calibrations is where calibrations are stored: the scenario's own
// flag's place, else Calibrations.
func (s *Selection) calibrations() string {
	if s.Scenario.Calibrations != "" {
		return s.Scenario.Calibrations
	}
	return s.Calibrations
}

// TrafficOnly: no device, but a radio to price the traffic on (--radio,
// or a --link of a radio technology, priced on the link's radio).
func (s *Selection) TrafficOnly() bool {
	return !s.Enabled() && (s.Radio != "" || s.Link != nil && s.Link.Technology != "")
}

// Check resolves the device, so a bad name or file fails before any
// work, and sets Resolved.
func (s *Selection) Check() error {
	if !s.Enabled() {
		if s.onDevice() || s.NoEstimates {
			return fmt.Errorf("--on-device and --no-estimates need --device NAME or --device-file FILE")
		}
		if s.TrafficOnly() {
			_, err := RadioFor(nil, s.Link, s.Radio)
			return err
		}
		return nil
	}
	name := s.Device
	if s.defaulted() {
		name = s.Scenario.DefaultDevice
	}
	d, err := device.Resolve(name, s.DeviceFile)
	if err != nil {
		return err
	}
	if err := CheckDevice(d); err != nil {
		return err
	}
	s.Resolved = d
	return s.checkRadio()
}

// checkRadio is the one rule for the radio, checked before any work: a
// device without a radio of the link's technology is refused, naming the
// radios it has. A scenario's default device is not refused for a link
// the user chose: the run goes ahead and each result's traffic is left
// unpriced with that reason (Price prices a trace by its own link), so
// Link is dropped.
func (s *Selection) checkRadio() error {
	if s.Link == nil && s.Radio == "" {
		return nil
	}
	if _, err := RadioFor(s.Resolved, s.Link, s.Radio); err != nil {
		if !s.defaulted() || s.Radio != "" {
			return err
		}
		s.Link = nil
	}
	return nil
}

// Apply adds energy figures to run's results: on the device, or without
// one the traffic alone on the radio (TrafficOnly; PricedOn says which),
// or nothing. An unchecked selection is checked first.
func (s *Selection) Apply(run *result.Run) error {
	if s.TrafficOnly() {
		rp, err := RadioFor(nil, s.Link, s.Radio)
		if err != nil {
			return err
		}
		s.PricedOn = rp.Name
		return PriceTraffic(run, s.Link, s.Radio)
	}
	if !s.Enabled() {
		return nil
	}
	if s.Resolved == nil {
		if err := s.Check(); err != nil {
			return err
		}
	}
	cal, err := StoredCalibration(s.calibrations(), s.Resolved.Name)
	if err != nil {
		return err
	}
	return Price(run, s.Options(cal))
}

// Options are the costing options the selection gives, with cal.
func (s *Selection) Options(cal *Calibration) Options {
	o := Options{Device: s.Resolved, OnDevice: s.onDevice(), NoEstimates: s.NoEstimates, Calibration: cal, Link: s.Link, Radio: s.Radio, References: s.Scenario.References}
	if s.Scenario.Speed > 0 {
		o.Speed = s.Scenario.Speed
	}
	return o
}
