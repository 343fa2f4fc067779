package main

import (
	"encoding/json"
	"fmt"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newDevicesCmd) }

func newDevicesCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:     "devices",
		Short:   "List device power profiles (CPU, supply, currents, battery, radios)",
		Long:    helpLong("devices"),
		Example: helpExamples("devices"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "table":
				return device.WriteList(cmd.OutOrStdout(), device.All())
			case "json":
				return writeJSON(cmd, device.All())
			}
			return fmt.Errorf("unknown --format %q: want table or json", format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "table or json")
	cmd.AddCommand(newDevicesShowCmd())
	return cmd
}

func newDevicesShowCmd() *cobra.Command {
	var (
		dev    deviceFlags
		format string
	)
	cmd := &cobra.Command{
		Use:     "show NAME",
		Short:   "Show one device profile with the source of every number",
		Example: helpExamples("devices-show"),
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				dev.name = args[0]
			}
			d, err := dev.resolve()
			if err != nil {
				return err
			}
			switch format {
			case "text":
				return device.WriteDevice(cmd.OutOrStdout(), d)
			case "json":
				return writeJSON(cmd, d)
			}
			return fmt.Errorf("unknown --format %q: want text or json", format)
		},
	}
	cmd.Flags().StringVar(&dev.file, "device-file", "", "read the profile from `FILE` (YAML or JSON) instead of a built-in")
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	return cmd
}

func writeJSON(cmd *cobra.Command, v any) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// deviceFlags are --device and --device-file.
type deviceFlags struct {
	name, file string
}

func (f *deviceFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.name, "device", "", "price on this device profile (cryptocost devices lists them)")
	cmd.Flags().StringVar(&f.file, "device-file", "", "price on the device profile in `FILE` (YAML or JSON; see docs/energy.md)")
}

func (f *deviceFlags) resolve() (*device.Device, error) { return device.Resolve(f.name, f.file) }

// energyFlags price a run's results on a device: --device/--device-file,
// --on-device, --no-estimates, --calibrations. A runner (bench, and every
// later one) wires them with register, then check before any work and
// apply after it:
//
//	var ef energyFlags
//	ef.register(cmd)
//	... if err := ef.check(); err != nil { return err }   // before measuring
//	... if err := ef.apply(run); err != nil { return err } // before writing
type energyFlags struct {
	dev          deviceFlags
	onDevice     bool
	noEstimates  bool
	calibrations string
	// radio names the radio profile a run's traces are priced on, when
	// the command has traces (registerRadio); link is the link they
	// crossed, set by the command.
	radio string
	link  *link.Profile
	// speed is an assumed device speed relative to this machine, from a
	// scenario's own flag (remote-sign's --signer-speed).
	speed float64
	// references names an operation whose literature figures the run
	// shows beside it (costing.Options.References).
	references string
	// defaulted: the device is the scenario's default, not the user's
	// choice (fromScenario).
	defaulted bool

	device *device.Device
	// pricedOn is the radio the traffic alone was priced on (no device).
	pricedOn string
}

// note says on stderr what pricing without a device did.
func (f *energyFlags) note(cmd *cobra.Command, quiet bool) {
	if f.pricedOn != "" && !quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "priced the traffic alone on radio %s (energy/radio; --device prices the rest)\n", f.pricedOn)
	}
}

// registerScenario adds the flags a scenario command prices with, leaving
// out those the scenario defines itself (remote-sign has its own
// --on-device and --calibrations; fromScenario reads them).
func (f *energyFlags) registerScenario(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.dev.name, "device", "", "the constrained party's device profile (cryptocost devices): its time, energy and battery life")
	fl.StringVar(&f.dev.file, "device-file", "", "price on the device profile in `FILE` (YAML or JSON; see docs/energy.md)")
	if fl.Lookup("on-device") == nil {
		fl.BoolVar(&f.onDevice, "on-device", false, "the run is measured on the --device itself (cryptocost running on that board)")
	}
	fl.BoolVar(&f.noEstimates, "no-estimates", false, "refuse times scaled from another machine: price only what was measured on the device or imported")
	if fl.Lookup("calibrations") == nil {
		fl.StringVar(&f.calibrations, "calibrations", "", "where calibrations are stored (default $CRYPTOCOST_CALIBRATIONS or the user config dir)")
	}
	f.registerRadio(cmd)
}

// fromScenario takes what a scenario's own flags say about pricing: its
// default device when none is named, --on-device, speed, calibrations.
func (f *energyFlags) fromScenario(p scenario.Pricing) {
	if !f.enabled() && p.DefaultDevice != "" {
		f.dev.name, f.defaulted = p.DefaultDevice, true
	}
	f.onDevice = f.onDevice || p.OnDevice
	if p.Speed > 0 {
		f.speed = p.Speed
	}
	if p.Calibrations != "" {
		f.calibrations = p.Calibrations
	}
	f.references = p.References
}

// registerRadio adds --radio, for commands whose runs carry traces.
func (f *energyFlags) registerRadio(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.radio, "radio", "", "price the traffic on this radio profile (default: the --device's radio for the --link's technology; cryptocost radio list)")
}

func (f *energyFlags) register(cmd *cobra.Command) {
	f.dev.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&f.onDevice, "on-device", false, "the run is measured on the --device itself (cryptocost running on that board)")
	fl.BoolVar(&f.noEstimates, "no-estimates", false, "refuse times scaled from another machine: price only what was measured on the device or imported")
	fl.StringVar(&f.calibrations, "calibrations", "", "where calibrations are stored (default $CRYPTOCOST_CALIBRATIONS or the user config dir)")
}

// enabled reports whether a device was named.
func (f *energyFlags) enabled() bool { return f.dev.name != "" || f.dev.file != "" }

// check resolves the device, so a bad name or file fails before any work.
func (f *energyFlags) check() error {
	if !f.enabled() {
		if f.onDevice || f.noEstimates {
			return fmt.Errorf("--on-device and --no-estimates need --device NAME or --device-file FILE")
		}
		if f.trafficOnly() {
			_, err := costing.RadioFor(nil, f.link, f.radio)
			return err
		}
		return nil
	}
	d, err := f.dev.resolve()
	if err != nil {
		return err
	}
	if err := costing.CheckDevice(d); err != nil {
		return err
	}
	f.device = d
	// One rule for the radio, checked before any work: a device without a
	// radio of the link's technology is refused, naming the radios it has.
	// A scenario's default device is not refused for a link the user
	// chose: the run goes ahead and each result's traffic is left
	// unpriced with that reason (costing prices a trace by its own link).
	if f.link != nil || f.radio != "" {
		if _, err := costing.RadioFor(d, f.link, f.radio); err != nil {
			if !f.defaulted || f.radio != "" {
				return err
			}
			f.link = nil
		}
	}
	return nil
}

// trafficOnly: no device, but a radio to price the traffic on (--radio,
// or a --link of a radio technology, priced on the link's radio).
func (f *energyFlags) trafficOnly() bool {
	return !f.enabled() && (f.radio != "" || f.link != nil && f.link.Technology != "")
}

// apply adds energy figures to run's results: on the device, or without
// one the traffic alone on the radio (trafficOnly; pricedOn says which),
// or nothing.
func (f *energyFlags) apply(run *result.Run) error {
	if f.trafficOnly() {
		rp, err := costing.RadioFor(nil, f.link, f.radio)
		if err != nil {
			return err
		}
		f.pricedOn = rp.Name
		return costing.PriceTraffic(run, f.link, f.radio)
	}
	if !f.enabled() {
		return nil
	}
	if f.device == nil {
		if err := f.check(); err != nil {
			return err
		}
	}
	cal, err := costing.StoredCalibration(f.calibrations, f.device.Name)
	if err != nil {
		return err
	}
	return costing.Price(run, f.options(cal))
}

// options are the costing options these flags give.
func (f *energyFlags) options(cal *costing.Calibration) costing.Options {
	return costing.Options{Device: f.device, OnDevice: f.onDevice, NoEstimates: f.noEstimates, Calibration: cal, Link: f.link, Radio: f.radio, Speed: f.speed, References: f.references}
}
