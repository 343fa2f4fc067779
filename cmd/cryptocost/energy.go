package main

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/energy/meter"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newEnergyCmd) }

func newEnergyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "energy",
		Short:   "Joules, milliamps and battery life: price runs on devices, read meters and traces",
		Long:    helpLong("energy"),
		Example: helpExamples("energy"),
	}
	cmd.AddCommand(newEnergyCostCmd(), newEnergyBatteryCmd(), newEnergyTraceCmd(), newEnergyAttributeCmd(),
		newEnergyMetersCmd(), newEnergyMeasureCmd())
	return cmd
}

// energyCostFlags are energy cost's flags.
type energyCostFlags struct {
	ef      energyFlags
	req     costing.CostRequest
	outputs outputFlags
}

func newEnergyCostCmd() *cobra.Command {
	var c energyCostFlags
	cmd := &cobra.Command{
		Use:     "cost --device NAME --from RESULTS.json",
		Short:   "Add energy figures for a device to a run's results",
		Long:    helpLong("energy-cost"),
		Example: helpExamples("energy-cost"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return c.run(cmd) },
	}
	c.ef.register(cmd)
	cmd.Flags().StringVar(&c.req.From, "from", "", "the run to price, written with --format json")
	c.outputs.register(cmd)
	return cmd
}

// run prices the --from run on the device and writes it.
func (c *energyCostFlags) run(cmd *cobra.Command) error {
	format, err := c.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	c.req.DeviceGiven = c.ef.enabled()
	if err := c.req.Check(); err != nil {
		return err
	}
	if err := c.ef.check(); err != nil {
		return err
	}
	run, err := c.req.Read()
	if err != nil {
		return err
	}
	if err := c.ef.apply(run); err != nil {
		return err
	}
	if format.Name() == "table" && c.outputs.out == "" {
		return costing.WriteEnergyTable(cmd.OutOrStdout(), run)
	}
	return c.outputs.write(cmd, format, run)
}

func newEnergyBatteryCmd() *cobra.Command {
	var (
		b costing.BatteryRequest
		r runner
	)
	r.outputs.own = b.Formats()
	cmd := &cobra.Command{
		Use:     "battery --device NAME --algo ALGO --op OP --every PERIOD",
		Short:   "Battery life of a device doing one operation every PERIOD, sleeping in between",
		Long:    helpLong("energy-battery"),
		Example: helpExamples("energy-battery"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b.UsableGiven, b.Notes = cmd.Flags().Changed("usable"), cmd.ErrOrStderr()
			return r.execute(cmd, job{check: b.Check, run: b.Run})
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&b.Devices, "device", nil, "device profile(s), comma-separated (cryptocost devices lists them)")
	f.StringVar(&b.DeviceFile, "device-file", "", "a device profile `FILE` (YAML or JSON)")
	f.StringSliceVar(&b.Algos, "algo", nil, "registry scheme(s) or the device's literature operation keys, comma-separated")
	f.StringVar(&b.Op, "op", "", "the operation: sign, verify, encrypt, ...")
	f.DurationVar(&b.Every, "every", 0, "one operation every PERIOD (10m, 1h)")
	f.DurationVar(&b.OpTime, "op-time", 0, "the operation's time on the device, when you measured it (overrides the profile)")
	f.StringVar(&b.From, "from", "", "a run measured on this machine (--format json), for estimates scaled from its times")
	f.StringVar(&b.Capacity, "capacity", "", "battery capacity, replacing the profile's: 2500mAh, 10Wh")
	f.Float64Var(&b.Usable, "usable", 1, "with --capacity: the fraction of it the device can use")
	f.BoolVar(&b.NoEstimates, "no-estimates", false, "refuse times scaled from another machine")
	f.StringVar(&b.Calibrations, "calibrations", "", "where calibrations are stored")
	r.register(cmd)
	return cmd
}

// registerTrace adds the flags that read a CSV trace.
func registerTrace(cmd *cobra.Command, t *meter.TraceRequest) {
	f := cmd.Flags()
	f.StringVar(&t.File, "trace", "", "the meter's CSV `FILE`: a header naming time and current (+ voltage) or power columns with units")
	f.StringVar(&t.Options.TimeUnit, "time-unit", "", "the time column's unit when the header lacks it: s, ms, us, ns")
	f.StringVar(&t.Options.CurrentUnit, "current-unit", "", "the current column's unit: A, mA, uA, nA")
	f.StringVar(&t.Options.VoltageUnit, "voltage-unit", "", "the voltage column's unit: V, mV")
	f.StringVar(&t.Options.PowerUnit, "power-unit", "", "the power column's unit: W, mW, uW")
	f.Float64Var(&t.Options.Volts, "volts", 0, "the supply voltage, for a trace with current but no voltage column")
	f.Float64Var(&t.Options.MaxGap, "max-gap", 0, "report intervals longer than this many seconds as gaps (default 10× the median interval)")
	f.StringVar(&t.Options.Format, "meter", "", "the trace's export layout: "+strings.Join(meter.TraceFormatNames(), ", ")+" (default: detected from its first lines)")
	f.DurationVar(&t.Interval, "sample-interval", 0, "time between readings, for loggers that print no time (an INA226 sketch's delay)")
	f.Float64Var(&t.Options.SampleRate, "sample-rate", 0, "the instrument's sample rate in Hz where samples are timed by index (pymonsoon: default 5000)")
}

func newEnergyTraceCmd() *cobra.Command {
	var (
		t meter.TraceRequest
		r runner
	)
	cmd := &cobra.Command{
		Use:     "trace --trace FILE.csv",
		Short:   "Integrate an external meter's CSV trace: energy, mean power and current",
		Long:    helpLong("energy-trace"),
		Example: helpExamples("energy-trace"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return r.execute(cmd, job{run: t.Run}) },
	}
	registerTrace(cmd, &t)
	r.register(cmd)
	return cmd
}

func newEnergyAttributeCmd() *cobra.Command {
	var (
		a meter.AttributeRequest
		r runner
	)
	cmd := &cobra.Command{
		Use:     "attribute --trace FILE.csv --markers FILE.jsonl",
		Short:   "Energy per phase of a meter trace, between markers, net of the idle baseline",
		Long:    helpLong("energy-attribute"),
		Example: helpExamples("energy-attribute"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return r.execute(cmd, job{check: a.Check, run: a.Run}) },
	}
	registerTrace(cmd, &a.Trace)
	f := cmd.Flags()
	f.StringVar(&a.Markers, "markers", "", "the JSONL marker `FILE`")
	f.StringVar(&a.Digital, "digital", "", "phases from the trace's digital `CHANNEL` instead of markers (PPK2 D0…D7, Joulescope in0/in1): high during each phase")
	f.Float64Var(&a.Offset, "offset", 0, "seconds added to every marker time (to put markers on the trace's clock)")
	f.Float64Var(&a.Options.BaselineWatts, "baseline-power", 0, "idle power in watts, instead of measuring it between phases")
	f.Float64Var(&a.Options.Guard, "guard", 0, "seconds trimmed from each idle interval's ends before measuring the baseline")
	r.register(cmd)
	return cmd
}

// registerMeter adds the flags that configure a live meter.
func registerMeter(cmd *cobra.Command, cfg *meter.Config) {
	f := cmd.Flags()
	f.StringVar(&cfg.Root, "sysfs-root", "/", "read sysfs under this `DIR` (a copy of another machine's, or a test tree)")
	f.DurationVar(&cfg.Interval, "interval", time.Second, "time between meter reads")
	f.StringVar(&cfg.Supply, "supply", "", "power_supply: the battery to read (BAT0); default the first")
	f.StringVar(&cfg.CurrentSign, "current-sign", "auto", "power_supply: auto, discharge-positive or discharge-negative")
	f.StringVar(&cfg.CurrentUnit, "gauge-current-unit", "auto", "power_supply: current_now's unit: auto, uA or mA")
}

func newEnergyMetersCmd() *cobra.Command {
	var cfg meter.Config
	cmd := &cobra.Command{
		Use:     "meters",
		Short:   "Which live energy meters work on this machine, and why not",
		Example: helpExamples("energy-meters"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return meter.WriteMeters(cmd.OutOrStdout(), meter.Probe(cfg))
		},
	}
	registerMeter(cmd, &cfg)
	return cmd
}

func newEnergyMeasureCmd() *cobra.Command {
	var (
		m meter.MeasureRequest
		r runner
	)
	cmd := &cobra.Command{
		Use:     "measure --meter NAME [--duration D | -- COMMAND ARGS...]",
		Short:   "Read a live meter over a duration (an idle baseline) or while a command runs",
		Example: helpExamples("energy-measure"),
		RunE: func(cmd *cobra.Command, args []string) error {
			m.Command, m.Output = args, cmd.ErrOrStderr()
			return r.execute(cmd, job{check: m.Check, run: func(ctx context.Context) (*result.Run, error) {
				run, err := m.Run(ctx)
				// the measured command's exit status is this command's
				var ce *meter.CommandError
				if errors.As(err, &ce) {
					err = &statusError{ce.Status, err}
				}
				return run, err
			}})
		},
	}
	registerMeter(cmd, &m.Config)
	cmd.Flags().StringVar(&m.Meter, "meter", "", "the meter: "+strings.Join(meter.Names(), ", "))
	cmd.Flags().DurationVar(&m.Duration, "duration", 0, "measure for this long (without a command)")
	r.register(cmd)
	return cmd
}
