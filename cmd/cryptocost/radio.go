package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newRadioCmd) }

func newRadioCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "radio",
		Short:   "What bytes on the air cost: radio state machines priced from packet traces",
		Long:    helpLong("radio"),
		Example: helpExamples("radio"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newRadioListCmd(), newRadioShowCmd(), newRadioSimulateCmd())
	return cmd
}

func newRadioListCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the built-in radio profiles",
		Example: "  cryptocost radio list",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return radio.WriteList(cmd.OutOrStdout()) },
	}
}

func newRadioShowCmd() *cobra.Command {
	var file string
	var data bool
	cmd := &cobra.Command{
		Use:     "show NAME",
		Short:   "Show a radio profile's parameters, each with its source",
		Example: helpExamples("radio-show"),
		Args:    cobra.MaximumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return radioShow(cmd, args, file, data) },
	}
	cmd.Flags().StringVar(&file, "radio-file", "", "show the profile in `FILE` instead of a built-in one")
	cmd.Flags().BoolVar(&data, "data", false, "print the profile's data file (a template for --radio-file)")
	return cmd
}

// radioSimFlags are radio simulate's flags: the request's values and
// the files to write.
type radioSimFlags struct {
	sim            radio.Simulation
	plot, timeline string
	r              runner
}

func newRadioSimulateCmd() *cobra.Command {
	var f radioSimFlags
	cmd := &cobra.Command{
		Use:     "simulate",
		Short:   "Price a packet trace on radio profiles: energy by phase and state, timeline, what-ifs",
		Long:    helpLong("radio-simulate"),
		Example: helpExamples("radio-simulate"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl := cmd.Flags()
			f.sim.AfterSet, f.sim.BatchSet, f.sim.HandshakeSet = fl.Changed("after"), fl.Changed("batch"), fl.Changed("handshake-packets")
			return f.r.execute(cmd, job{
				check: func() error { return f.check(cmd) },
				run:   func(context.Context) (*result.Run, error) { return f.run(cmd) },
				files: f.files,
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.sim.Radios, "radio", "", "radio profiles, comma-separated `NAMES`: lte, 3g, wifi, ble, 802.15.4, ... (cryptocost radio list)")
	retireLink(cmd, "radio simulate prices the trace on radio profiles")
	fl.StringVar(&f.sim.RadioFile, "radio-file", "", "a radio profile `FILE` of your own (YAML or JSON; `cryptocost radio show NAME --data` gives a template)")
	fl.StringVar(&f.sim.TracePath, "trace", "", "the trace: a cryptocost run (JSON), a trace JSON, or a pcap/pcapng `FILE`")
	fl.StringVar(&f.sim.Transfer, "transfer", "", "price a synthetic transfer instead: up=1k,down=50k,rate=1Mbit/s[,mss=1460]")
	fl.StringVar(&f.sim.DeviceAddr, "device-addr", "", "the device's IP `address` in a capture (default: the host that opened the first TCP connection)")
	fl.StringVar(&f.sim.Subject, "subject", "", "only the run's results whose subject matches `PATTERN` (* matches anything)")
	fl.DurationVar(&f.sim.Until, "until", 0, "simulate at least this long from the first packet, idle after the tail (compare traces over the same window; never cuts a tail short)")
	fl.BoolVar(&f.sim.Associate, "associate", false, "WiFi: add the profile's scan and association cost before the first packet")
	fl.StringVar(&f.plot, "plot", "", "write the timeline, power over time by phase, to `FILE` (.svg, .png or .pdf)")
	fl.StringVar(&f.timeline, "timeline", "", "write the timeline's segments as CSV to `FILE`")
	fl.DurationVar(&f.sim.After, "after", 0, "what-if: a second connection this long after the first ends")
	fl.StringVar(&f.sim.Then, "then", "", "with --after: the second connection's trace `FILE` (default: the same trace)")
	fl.IntVar(&f.sim.Batch, "batch", 0, "what-if: N readings sent separately (every --every) against all in one connection")
	fl.DurationVar(&f.sim.Every, "every", 0, "with --batch: the interval between separate readings")
	fl.IntVar(&f.sim.Handshake, "handshake-packets", 0, "the first K packets of the trace are the handshake (for --batch and --resumed)")
	fl.StringVar(&f.sim.Resumed, "resumed", "", "what-if: replace the handshake with the trace in `FILE` (a resumed handshake)")
	fl.IntVar(&f.sim.ResumedPackets, "resumed-packets", 0, "with --resumed: take only FILE's first M packets (default: all)")
	fl.BoolVarP(&f.r.quiet, "quiet", "q", false, "no notes on stderr")
	f.r.register(cmd)
	return cmd
}

// check reads radio simulate's flags, the radios, the traces and the
// what-ifs' files: everything before anything is priced.
func (f *radioSimFlags) check(cmd *cobra.Command) error {
	fl := cmd.Flags()
	f.sim.AfterSet, f.sim.BatchSet, f.sim.HandshakeSet = fl.Changed("after"), fl.Changed("batch"), fl.Changed("handshake-packets")
	if f.plot != "" {
		if _, err := radio.PlotFormat(f.plot); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	return f.sim.Prepare()
}

// run prices every case on every radio.
func (f *radioSimFlags) run(cmd *cobra.Command) (*result.Run, error) {
	run := newRun("radio")
	if err := f.sim.Price(run, f.log(cmd)); err != nil {
		return nil, err
	}
	run.Finished = time.Now().UTC()
	if err := run.Validate(); err != nil {
		return nil, err // a bug: never written or saved
	}
	return run, nil
}

// files writes the --plot and --timeline files, one per breakdown.
func (f *radioSimFlags) files(cmd *cobra.Command, _ *result.Run) error {
	return f.sim.WriteFiles(f.log(cmd), f.plot, f.timeline)
}

// log is where the notes go: stderr, or nowhere with --quiet.
func (f *radioSimFlags) log(cmd *cobra.Command) io.Writer {
	if f.r.quiet {
		return nil
	}
	return cmd.ErrOrStderr()
}

// newRun starts a run of kind made by this command line.
func newRun(kind string) *result.Run {
	run := measure.NewRun(kind)
	run.Tool, run.Command = tool(), os.Args
	return run
}

// radioShow is radio show: a profile's parameters with their sources, or its data file.
func radioShow(cmd *cobra.Command, args []string, file string, data bool) error {
	var p *radio.Profile
	var err error
	switch {
	case file != "" && len(args) == 0:
		p, err = radio.LoadFile(file)
	case file == "" && len(args) == 1:
		p, err = radio.Lookup(args[0])
	default:
		return fmt.Errorf("give a profile NAME or --radio-file FILE (`cryptocost radio list` names them)")
	}
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if data {
		_, err := w.Write(p.Data)
		return err
	}
	return radio.WriteProfile(w, p)
}
