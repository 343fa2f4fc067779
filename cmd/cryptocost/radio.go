package main

import (
	"context"
	"os"

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
		RunE:    func(cmd *cobra.Command, args []string) error { return radio.Show(cmd.OutOrStdout(), args, file, data) },
	}
	cmd.Flags().StringVar(&file, "radio-file", "", "show the profile in `FILE` instead of a built-in one")
	cmd.Flags().BoolVar(&data, "data", false, "print the profile's data file (a template for --radio-file)")
	return cmd
}

// radioSimFlags are radio simulate's flags: the request's values and
// the runner's.
type radioSimFlags struct {
	req radio.SimulateRequest
	r   runner
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
			f.req.AfterSet, f.req.BatchSet, f.req.HandshakeSet = fl.Changed("after"), fl.Changed("batch"), fl.Changed("handshake-packets")
			if !f.r.quiet {
				f.req.Log = cmd.ErrOrStderr()
			}
			return f.r.execute(cmd, job{
				check: f.req.Check,
				run:   func(context.Context) (*result.Run, error) { return f.req.Run(newRun("radio")) },
				files: func(*cobra.Command, *result.Run) error { return f.req.Files() },
			})
		},
	}
	f.register(cmd)
	return cmd
}

// register declares radio simulate's flags.
func (f *radioSimFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.req.Radios, "radio", "", "radio profiles, comma-separated `NAMES`: lte, 3g, wifi, ble, 802.15.4, ... (cryptocost radio list)")
	retireLink(cmd, "radio simulate prices the trace on radio profiles")
	fl.StringVar(&f.req.RadioFile, "radio-file", "", "a radio profile `FILE` of your own (YAML or JSON; `cryptocost radio show NAME --data` gives a template)")
	fl.StringVar(&f.req.TracePath, "trace", "", "the trace: a cryptocost run (JSON), a trace JSON, or a pcap/pcapng `FILE`")
	fl.StringVar(&f.req.Transfer, "transfer", "", "price a synthetic transfer instead: up=1k,down=50k,rate=1Mbit/s[,mss=1460]")
	fl.StringVar(&f.req.DeviceAddr, "device-addr", "", "the device's IP `address` in a capture (default: the host that opened the first TCP connection)")
	fl.StringVar(&f.req.Subject, "subject", "", "only the run's results whose subject matches `PATTERN` (* matches anything)")
	fl.DurationVar(&f.req.Until, "until", 0, "simulate at least this long from the first packet, idle after the tail (compare traces over the same window; never cuts a tail short)")
	fl.BoolVar(&f.req.Associate, "associate", false, "WiFi: add the profile's scan and association cost before the first packet")
	fl.StringVar(&f.req.Plot, "plot", "", "write the timeline, power over time by phase, to `FILE` (.svg, .png or .pdf)")
	fl.StringVar(&f.req.Timeline, "timeline", "", "write the timeline's segments as CSV to `FILE`")
	fl.DurationVar(&f.req.After, "after", 0, "what-if: a second connection this long after the first ends")
	fl.StringVar(&f.req.Then, "then", "", "with --after: the second connection's trace `FILE` (default: the same trace)")
	fl.IntVar(&f.req.Batch, "batch", 0, "what-if: N readings sent separately (every --every) against all in one connection")
	fl.DurationVar(&f.req.Every, "every", 0, "with --batch: the interval between separate readings")
	fl.IntVar(&f.req.Handshake, "handshake-packets", 0, "the first K packets of the trace are the handshake (for --batch and --resumed)")
	fl.StringVar(&f.req.Resumed, "resumed", "", "what-if: replace the handshake with the trace in `FILE` (a resumed handshake)")
	fl.IntVar(&f.req.ResumedPackets, "resumed-packets", 0, "with --resumed: take only FILE's first M packets (default: all)")
	fl.BoolVarP(&f.r.quiet, "quiet", "q", false, "no notes on stderr")
	f.r.register(cmd)
}

// newRun starts a run of kind made by this command line.
func newRun(kind string) *result.Run {
	run := measure.NewRun(kind)
	run.Tool, run.Command = tool(), os.Args
	return run
}
