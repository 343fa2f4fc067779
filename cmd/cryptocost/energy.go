package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/device"
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
	from    string
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
	cmd.Flags().StringVar(&c.from, "from", "", "the run to price, written with --format json")
	c.outputs.register(cmd)
	return cmd
}

// run prices the --from run on the device and writes it.
func (c *energyCostFlags) run(cmd *cobra.Command) error {
	format, err := c.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	if c.from == "" {
		return fmt.Errorf("--from RESULTS.json is required: a run written with --format json")
	}
	if !c.ef.enabled() {
		return fmt.Errorf("--device NAME or --device-file FILE is required (cryptocost devices lists them)")
	}
	if err := c.ef.check(); err != nil {
		return err
	}
	run, err := readRun(c.from)
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

// batteryFlags are energy battery's flags.
type batteryFlags struct {
	ef                 energyFlags
	algos, devices     []string
	op, from, capacity string
	every, opTime      time.Duration
	usable             float64
	r                  runner
	battery            *device.Battery
	ref                *result.Run
	answers            []*costing.BatteryAnswer
}

func newEnergyBatteryCmd() *cobra.Command {
	var b batteryFlags
	b.r.outputs.own = []result.Format{
		textFormat{"text", "one sentence per answer and how it was computed", func(w io.Writer) { costing.WriteBatteryText(w, b.answers) }},
		textFormat{"markdown", "a Markdown table of the answers", func(w io.Writer) { costing.WriteBatteryMarkdown(w, b.answers) }},
	}
	cmd := &cobra.Command{
		Use:     "battery --device NAME --algo ALGO --op OP --every PERIOD",
		Short:   "Battery life of a device doing one operation every PERIOD, sleeping in between",
		Long:    helpLong("energy-battery"),
		Example: helpExamples("energy-battery"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return b.r.execute(cmd, job{
				check: func() error { return b.check(cmd) },
				run:   func(context.Context) (*result.Run, error) { return b.run(cmd) },
			})
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&b.devices, "device", nil, "device profile(s), comma-separated (cryptocost devices lists them)")
	f.StringVar(&b.ef.dev.file, "device-file", "", "a device profile `FILE` (YAML or JSON)")
	f.StringSliceVar(&b.algos, "algo", nil, "registry scheme(s) or the device's literature operation keys, comma-separated")
	f.StringVar(&b.op, "op", "", "the operation: sign, verify, encrypt, ...")
	f.DurationVar(&b.every, "every", 0, "one operation every PERIOD (10m, 1h)")
	f.DurationVar(&b.opTime, "op-time", 0, "the operation's time on the device, when you measured it (overrides the profile)")
	f.StringVar(&b.from, "from", "", "a run measured on this machine (--format json), for estimates scaled from its times")
	f.StringVar(&b.capacity, "capacity", "", "battery capacity, replacing the profile's: 2500mAh, 10Wh")
	f.Float64Var(&b.usable, "usable", 1, "with --capacity: the fraction of it the device can use")
	f.BoolVar(&b.ef.noEstimates, "no-estimates", false, "refuse times scaled from another machine")
	f.StringVar(&b.ef.calibrations, "calibrations", "", "where calibrations are stored")
	b.r.register(cmd)
	return cmd
}

// check reads energy battery's flags before any work.
func (b *batteryFlags) check(cmd *cobra.Command) error {
	switch {
	case b.every < 0:
		return fmt.Errorf("--every %v is negative: give the period between operations, such as 10m", b.every)
	case b.opTime < 0:
		return fmt.Errorf("--op-time %v is negative: give the operation's measured time, such as 12ms", b.opTime)
	case len(b.algos) == 0 || b.op == "" || b.every <= 0:
		return fmt.Errorf("give --algo ALGO, --op OP and --every PERIOD (such as --algo ECDSA-P256-SHA256 --op sign --every 10m)")
	}
	if b.ef.dev.file != "" {
		b.devices = append(b.devices, b.ef.dev.file)
	}
	if len(b.devices) == 0 {
		return fmt.Errorf("--device NAME or --device-file FILE is required (cryptocost devices lists them)")
	}
	if b.capacity != "" {
		var err error
		if b.battery, err = device.GivenBattery(b.capacity, b.usable); err != nil {
			return err
		}
	} else if cmd.Flags().Changed("usable") {
		return fmt.Errorf("--usable needs --capacity (the profile's battery has its own usable fraction)")
	}
	if b.usable <= 0 || b.usable > 1 {
		return fmt.Errorf("--usable %g: want a fraction in (0, 1]", b.usable)
	}
	if b.from != "" {
		var err error
		if b.ref, err = readRun(b.from); err != nil {
			return err
		}
	}
	return nil
}

// run answers the battery question for every device and algorithm; one
// that cannot be answered is noted on stderr (or, asked alone, the error).
func (b *batteryFlags) run(cmd *cobra.Command) (*result.Run, error) {
	out := newRun("battery")
	var errs []string
	for _, name := range b.devices {
		d, err := deviceByNameOrFile(name, b.ef.dev.file)
		if err != nil {
			return nil, err
		}
		cal, err := costing.StoredCalibration(b.ef.calibrations, d.Name)
		if err != nil {
			return nil, err
		}
		for _, algo := range b.algos {
			a, err := costing.AnswerBattery(costing.BatteryQuery{Device: d, Algo: algo, Op: b.op, Period: b.every, OpTime: b.opTime,
				Reference: b.ref, Calibration: cal, NoEstimates: b.ef.noEstimates, Battery: b.battery})
			if err != nil {
				if len(b.devices)*len(b.algos) == 1 {
					return nil, err
				}
				errs = append(errs, fmt.Sprintf("%s %s: %v", d.Name, algo, err))
				continue
			}
			b.answers = append(b.answers, a)
			costing.AddAnswerInputs(out, d, cal)
			out.Results = append(out.Results, a.Result())
		}
	}
	for _, e := range errs {
		fmt.Fprintln(cmd.ErrOrStderr(), "not computed: "+e)
	}
	if len(b.answers) == 0 {
		return nil, fmt.Errorf("no battery life could be computed")
	}
	return out, nil
}

// textFormat is a command's own text output of what its run computed.
type textFormat struct {
	name, description string
	write             func(io.Writer)
}

func (t textFormat) Name() string        { return t.name }
func (t textFormat) Description() string { return t.description }
func (t textFormat) Write(w io.Writer, _ ...*result.Run) error {
	t.write(w)
	return nil
}

func deviceByNameOrFile(name, file string) (*device.Device, error) {
	if file != "" && name == file {
		return device.LoadFile(file)
	}
	return device.Lookup(name)
}

// traceFlags read a CSV trace.
type traceFlags struct {
	file     string
	opt      meter.TraceOptions
	interval time.Duration
}

func (t *traceFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&t.file, "trace", "", "the meter's CSV `FILE`: a header naming time and current (+ voltage) or power columns with units")
	f.StringVar(&t.opt.TimeUnit, "time-unit", "", "the time column's unit when the header lacks it: s, ms, us, ns")
	f.StringVar(&t.opt.CurrentUnit, "current-unit", "", "the current column's unit: A, mA, uA, nA")
	f.StringVar(&t.opt.VoltageUnit, "voltage-unit", "", "the voltage column's unit: V, mV")
	f.StringVar(&t.opt.PowerUnit, "power-unit", "", "the power column's unit: W, mW, uW")
	f.Float64Var(&t.opt.Volts, "volts", 0, "the supply voltage, for a trace with current but no voltage column")
	f.Float64Var(&t.opt.MaxGap, "max-gap", 0, "report intervals longer than this many seconds as gaps (default 10× the median interval)")
	f.StringVar(&t.opt.Format, "meter", "", "the trace's export layout: "+strings.Join(meter.TraceFormatNames(), ", ")+" (default: detected from its first lines)")
	f.DurationVar(&t.interval, "sample-interval", 0, "time between readings, for loggers that print no time (an INA226 sketch's delay)")
	f.Float64Var(&t.opt.SampleRate, "sample-rate", 0, "the instrument's sample rate in Hz where samples are timed by index (pymonsoon: default 5000)")
}

func (t *traceFlags) read() (*meter.Trace, error) {
	if t.file == "" {
		return nil, fmt.Errorf("--trace FILE is required: a CSV from the meter (time and current or power columns)")
	}
	fh, err := os.Open(t.file)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	defer fh.Close()
	t.opt.Interval = t.interval.Seconds()
	return meter.ReadTrace(t.file, fh, t.opt)
}

func newEnergyTraceCmd() *cobra.Command {
	var (
		tf traceFlags
		r  runner
	)
	cmd := &cobra.Command{
		Use:     "trace --trace FILE.csv",
		Short:   "Integrate an external meter's CSV trace: energy, mean power and current",
		Long:    helpLong("energy-trace"),
		Example: helpExamples("energy-trace"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return r.execute(cmd, job{run: func(context.Context) (*result.Run, error) { return traceRun(&tf) }})
		},
	}
	tf.register(cmd)
	r.register(cmd)
	return cmd
}

// traceRun integrates the meter's trace: one result with the energy,
// duration, mean power and (when the trace has it) current.
func traceRun(tf *traceFlags) (*result.Run, error) {
	t, err := tf.read()
	if err != nil {
		return nil, err
	}
	run := newRun("energy-trace")
	run.Results = append(run.Results, meter.TraceResult(t))
	return run, nil
}

func newEnergyAttributeCmd() *cobra.Command {
	var (
		tf       traceFlags
		markers  string
		digital  string
		offset   float64
		baseline float64
		guard    float64
		r        runner
	)
	cmd := &cobra.Command{
		Use:     "attribute --trace FILE.csv --markers FILE.jsonl",
		Short:   "Energy per phase of a meter trace, between markers, net of the idle baseline",
		Long:    helpLong("energy-attribute"),
		Example: helpExamples("energy-attribute"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return r.execute(cmd, job{
				check: func() error {
					if (markers == "") == (digital == "") {
						return fmt.Errorf("give --markers FILE.jsonl (the start and end of each phase) or --digital CHANNEL (the trace's own digital input, high during each phase), one of them")
					}
					return nil
				},
				run: func(context.Context) (*result.Run, error) {
					return attributeRun(&tf, markers, digital, offset, meter.AttributeOptions{BaselineWatts: baseline, Guard: guard})
				},
			})
		},
	}
	tf.register(cmd)
	cmd.Flags().StringVar(&markers, "markers", "", "the JSONL marker `FILE`")
	cmd.Flags().StringVar(&digital, "digital", "", "phases from the trace's digital `CHANNEL` instead of markers (PPK2 D0…D7, Joulescope in0/in1): high during each phase")
	cmd.Flags().Float64Var(&offset, "offset", 0, "seconds added to every marker time (to put markers on the trace's clock)")
	cmd.Flags().Float64Var(&baseline, "baseline-power", 0, "idle power in watts, instead of measuring it between phases")
	cmd.Flags().Float64Var(&guard, "guard", 0, "seconds trimmed from each idle interval's ends before measuring the baseline")
	r.register(cmd)
	return cmd
}

// attributeRun reads the trace and the phases (markers or a digital
// channel) and attributes the energy to them.
func attributeRun(tf *traceFlags, markers, digital string, offset float64, opt meter.AttributeOptions) (*result.Run, error) {
	t, err := tf.read()
	if err != nil {
		return nil, err
	}
	phases, source, err := meter.Phases(t, markers, digital, offset)
	if err != nil {
		return nil, err
	}
	ats, err := meter.Attribute(t, phases, opt)
	if err != nil {
		return nil, err
	}
	run := newRun("energy-attribute")
	run.Results = meter.AttributionResults(t, source, ats)
	return run, nil
}

type meterFlags struct {
	cfg  meter.Config
	name string
}

func (m *meterFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&m.cfg.Root, "sysfs-root", "/", "read sysfs under this `DIR` (a copy of another machine's, or a test tree)")
	f.DurationVar(&m.cfg.Interval, "interval", time.Second, "time between meter reads")
	f.StringVar(&m.cfg.Supply, "supply", "", "power_supply: the battery to read (BAT0); default the first")
	f.StringVar(&m.cfg.CurrentSign, "current-sign", "auto", "power_supply: auto, discharge-positive or discharge-negative")
	f.StringVar(&m.cfg.CurrentUnit, "gauge-current-unit", "auto", "power_supply: current_now's unit: auto, uA or mA")
}

func newEnergyMetersCmd() *cobra.Command {
	var mf meterFlags
	cmd := &cobra.Command{
		Use:     "meters",
		Short:   "Which live energy meters work on this machine, and why not",
		Example: helpExamples("energy-meters"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return meter.WriteMeters(cmd.OutOrStdout(), meter.Probe(mf.cfg))
		},
	}
	mf.register(cmd)
	return cmd
}

func newEnergyMeasureCmd() *cobra.Command {
	var (
		mf       meterFlags
		duration time.Duration
		r        runner
		m        meter.Meter
	)
	cmd := &cobra.Command{
		Use:     "measure --meter NAME [--duration D | -- COMMAND ARGS...]",
		Short:   "Read a live meter over a duration (an idle baseline) or while a command runs",
		Example: helpExamples("energy-measure"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.execute(cmd, job{
				check: func() (err error) {
					if mf.name == "" {
						return fmt.Errorf("--meter NAME is required: one of %s (cryptocost energy meters says which work here)", strings.Join(meter.Names(), ", "))
					}
					if len(args) == 0 && duration <= 0 {
						return fmt.Errorf("give --duration D or a command after --")
					}
					m, err = meter.Open(mf.name, mf.cfg)
					return err
				},
				run: func(ctx context.Context) (*result.Run, error) { return measureRun(ctx, cmd, m, args, duration) },
			})
		},
	}
	mf.register(cmd)
	cmd.Flags().StringVar(&mf.name, "meter", "", "the meter: "+strings.Join(meter.Names(), ", "))
	cmd.Flags().DurationVar(&duration, "duration", 0, "measure for this long (without a command)")
	r.register(cmd)
	return cmd
}

// measureRun reads the meter while the command runs, or for duration: one
// result with the energy, duration, power and each domain's energy. A
// command that exits non-zero gives its exit status.
func measureRun(ctx context.Context, cmd *cobra.Command, m meter.Meter, args []string, duration time.Duration) (*result.Run, error) {
	sess, err := m.Start(ctx)
	if err != nil {
		return nil, err
	}
	what, cmdErr := runMeasured(ctx, cmd, args, duration)
	rd, err := sess.Stop()
	if err != nil {
		return nil, err
	}
	run := newRun("energy-measure")
	if ctx.Err() != nil {
		run.Status = result.Interrupted
	}
	run.Results = append(run.Results, meter.ReadingResult(rd, what))
	var ee *exec.ExitError
	if errors.As(cmdErr, &ee) {
		return run, &statusError{ee.ExitCode(), fmt.Errorf("the measured command exited with status %d", ee.ExitCode())}
	}
	return run, cmdErr
}

// runMeasured runs what energy measure measures: the command args, or
// idling for duration; it returns what ran and the command's error.
func runMeasured(ctx context.Context, cmd *cobra.Command, args []string, duration time.Duration) (string, error) {
	if len(args) == 0 {
		select {
		case <-time.After(duration):
		case <-ctx.Done():
		}
		return "idle for " + duration.String(), nil
	}
	c := exec.CommandContext(ctx, args[0], args[1:]...)
	c.Stdout, c.Stderr = cmd.ErrOrStderr(), cmd.ErrOrStderr()
	return strings.Join(args, " "), c.Run()
}
