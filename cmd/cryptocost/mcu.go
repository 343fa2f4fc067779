package main

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/mcu"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newMCUCmd) }

func newMCUCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "mcu",
		Short:   "Measure cryptography on simulated microcontrollers (cycles, instructions, RAM, ROM)",
		Example: helpExamples("mcu"),
		Long:    helpLong("mcu"),
	}
	cmd.AddCommand(newMCUBenchCmd(), newMCUListCmd(), newMCUCompareCmd())
	return cmd
}

// mcuBenchFlags are mcu bench's flags: the request's values, the device
// it is priced on, and the pricing check resolves.
type mcuBenchFlags struct {
	req    mcu.BenchRequest
	device string
	r      runner
	prices []costing.TargetPrice
}

func newMCUBenchCmd() *cobra.Command {
	var m mcuBenchFlags
	cmd := &cobra.Command{
		Use:     "bench",
		Short:   "Measure the kernels on simulated microcontrollers (default: ATmega328P, Arduino Uno)",
		Long:    helpLong("mcu-bench"),
		Example: helpExamples("mcu-bench"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return m.r.execute(cmd, job{
				check: func() error { return m.check(cmd) },
				run: func(ctx context.Context) (*result.Run, error) {
					return m.req.Run(ctx, progress.New("mcu", m.r.quiet)), nil
				},
				// The costing stage: a target's simulated time is a
				// device's when the device's profile names that target.
				price: func(run *result.Run) error { return costing.PriceTargets(run, m.prices) },
				table: mcu.TableFormat{},
				after: func(cmd *cobra.Command, run *result.Run) error { return m.req.WriteComparisons(cmd.OutOrStdout(), run) },
			})
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&m.req.Targets, "target", []string{mcu.DefaultTarget}, "the microcontrollers, or all (cryptocost mcu list --targets)")
	f.StringVar(&m.device, "device", "", "price each operation's energy on this device profile (default: the device each target simulates, such as arduino-uno for atmega328p; '' for none)")
	f.StringSliceVar(&m.req.Opts, "opt", mcu.DefaultOpts, "gcc optimisation levels: Os, O1, O2, O3")
	f.IntVar(&m.req.MaxInputs, "inputs", 0, "time each operation on at most this many inputs (0: all; eight secrets for an operation on a secret)")
	f.StringSliceVar(&m.req.Kernels, "kernel", nil, "only these kernels: names or globs ('rsa1024-*'); see cryptocost mcu list")
	f.DurationVar(&m.req.Timeout, "timeout", 10*time.Minute, "kill an image's simulation after this long on the host")
	f.IntVar(&m.req.Jobs, "jobs", min(runtime.NumCPU(), 4), "simulations run at once")
	f.StringVar(&m.req.CacheDir, "cache-dir", "", "where firmware images are kept (default: the user cache directory/cryptocost/mcu)")
	f.StringVar(&m.req.Reference, "reference", "", "measure the kernels a study's table names (those that are not slow, unless --kernel says) and print the table beside them: "+strings.Join(mcu.ReferenceNames(), ", "))
	f.BoolVar(&m.req.Quick, "quick", false, "seconds, not minutes: -Os only and the symmetric-key kernels")
	f.BoolVarP(&m.r.quiet, "quiet", "q", false, "no progress bar on stderr")
	m.r.register(cmd)
	return cmd
}

// check resolves mcu bench's flags before any work: the plan, the
// pricing, the toolchains, the image cache.
func (m *mcuBenchFlags) check(cmd *cobra.Command) error {
	fl := cmd.Flags()
	m.req.OptsGiven, m.req.KernelsGiven = fl.Changed("opt"), fl.Changed("kernel")
	if err := m.req.Resolve(); err != nil {
		return err
	}
	var err error
	if m.prices, err = costing.TargetPricing(m.req.Plan.TargetNames(), m.device, fl.Changed("device")); err != nil {
		return err
	}
	return m.req.Check(cmd.Context())
}

func newMCUListCmd() *cobra.Command {
	var onlyTargets bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the microcontroller targets and kernels",
		Example: helpExamples("mcu-list"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return mcu.WriteList(cmd.OutOrStdout(), onlyTargets) },
	}
	cmd.Flags().BoolVar(&onlyTargets, "targets", false, "list the targets only")
	return cmd
}

// mcuCompareFlags are mcu compare's flags: the request's values and the
// store the runs are read from.
type mcuCompareFlags struct {
	db  dbFlag
	req mcu.CompareRequest
}

func newMCUCompareCmd() *cobra.Command {
	var m mcuCompareFlags
	cmd := &cobra.Command{
		Use:     "compare STUDY [RUN...]",
		Short:   "Print a study's published table (S004's) beside the kernels measured here",
		Long:    helpLong("mcu-compare"),
		Example: helpExamples("mcu-compare"),
		Args:    cobra.MinimumNArgs(1),
		RunE:    m.run,
	}
	f := cmd.Flags()
	f.StringVar(&m.req.Target, "target", "atmega328p", "compare the kernels measured on this target")
	f.StringVar(&m.req.Format, "format", "table", "table or json")
	m.db.register(cmd)
	return cmd
}

// run is mcu compare: the study's table beside the runs' kernels.
func (m *mcuCompareFlags) run(cmd *cobra.Command, args []string) error {
	m.req.Study = args[0]
	if err := m.req.Check(); err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), &m.db, args[1:], false)
	if err != nil {
		return err
	}
	return m.req.Write(cmd.OutOrStdout(), loadedRuns(loaded)...)
}
