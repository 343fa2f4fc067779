package main

import (
	"fmt"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/device"
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
			return device.WriteListAs(cmd.OutOrStdout(), format, device.All())
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "table or json")
	cmd.AddCommand(newDevicesShowCmd())
	return cmd
}

func newDevicesShowCmd() *cobra.Command {
	var name, file, format string
	cmd := &cobra.Command{
		Use:     "show NAME",
		Short:   "Show one device profile with the source of every number",
		Example: helpExamples("devices-show"),
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				name = args[0]
			}
			return device.Show(cmd.OutOrStdout(), name, file, format)
		},
	}
	cmd.Flags().StringVar(&file, "device-file", "", "read the profile from `FILE` (YAML or JSON) instead of a built-in")
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	return cmd
}

// deviceFlags are --device and --device-file, bound to a costing.Selection.
type deviceFlags struct {
	sel *costing.Selection
}

func (f deviceFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.sel.Device, "device", "", "price on this device profile (cryptocost devices lists them)")
	cmd.Flags().StringVar(&f.sel.DeviceFile, "device-file", "", "price on the device profile in `FILE` (YAML or JSON; see docs/energy.md)")
}

func (f deviceFlags) resolve() (*device.Device, error) {
	return device.Resolve(f.sel.Device, f.sel.DeviceFile)
}

func (f deviceFlags) enabled() bool { return f.sel.Device != "" || f.sel.DeviceFile != "" }

// energyFlags price a run's results on a device: --device/--device-file,
// --on-device, --no-estimates, --calibrations, --radio, bound to the
// fields of a costing.Selection, which holds the rules. A runner (bench,
// and every later one) wires them with register, then check before any
// work and apply after it:
//
//	var ef energyFlags
//	ef.register(cmd)
//	... if err := ef.check(); err != nil { return err }   // before measuring
//	... if err := ef.apply(run); err != nil { return err } // before writing
type energyFlags struct {
	sel costing.Selection
}

// dev is the --device and --device-file pair.
func (f *energyFlags) dev() deviceFlags { return deviceFlags{&f.sel} }

// note says on stderr what pricing without a device did.
func (f *energyFlags) note(cmd *cobra.Command, quiet bool) {
	if f.sel.PricedOn != "" && !quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "priced the traffic alone on radio %s (energy/radio; --device prices the rest)\n", f.sel.PricedOn)
	}
}

// registerScenario adds the flags a scenario command prices with, leaving
// out those the scenario defines itself (remote-sign has its own
// --on-device and --calibrations; fromScenario reads them).
func (f *energyFlags) registerScenario(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.sel.Device, "device", "", "the constrained party's device profile (cryptocost devices): its time, energy and battery life")
	fl.StringVar(&f.sel.DeviceFile, "device-file", "", "price on the device profile in `FILE` (YAML or JSON; see docs/energy.md)")
	f.registerPricing(cmd)
	f.registerRadio(cmd)
}

// fromScenario takes what a scenario's own flags say about pricing: its
// default device when none is named, --on-device, speed, calibrations.
func (f *energyFlags) fromScenario(p scenario.Pricing) { f.sel.Scenario = p }

// registerRadio adds --radio, for commands whose runs carry traces.
func (f *energyFlags) registerRadio(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.sel.Radio, "radio", "", "price the traffic on this radio profile (default: the --device's radio for the --link's technology; cryptocost radio list)")
}

func (f *energyFlags) register(cmd *cobra.Command) {
	f.dev().register(cmd)
	f.registerPricing(cmd)
}

// registerPricing adds --on-device, --no-estimates and --calibrations,
// but not a flag the command defines itself.
func (f *energyFlags) registerPricing(cmd *cobra.Command) {
	fl := cmd.Flags()
	if fl.Lookup("on-device") == nil {
		fl.BoolVar(&f.sel.OnDevice, "on-device", false, "the run is measured on the --device itself (cryptocost running on that board)")
	}
	fl.BoolVar(&f.sel.NoEstimates, "no-estimates", false, "refuse times scaled from another machine: price only what was measured on the device or imported")
	if fl.Lookup("calibrations") == nil {
		fl.StringVar(&f.sel.Calibrations, "calibrations", "", "where calibrations are stored (default $CRYPTOCOST_CALIBRATIONS or the user config dir)")
	}
}

// enabled reports whether a device was named (or is a scenario's default).
func (f *energyFlags) enabled() bool { return f.sel.Enabled() }

// check resolves the device, so a bad name or file fails before any work
// (costing.Selection.Check, which may drop a link the scenario's default
// device has no radio for).
func (f *energyFlags) check() error { return f.sel.Check() }

// apply adds energy figures to run's results: on the device, or without
// one the traffic alone on the radio (Selection.PricedOn says which), or
// nothing.
func (f *energyFlags) apply(run *result.Run) error { return f.sel.Apply(run) }
