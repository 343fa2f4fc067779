package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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

// mcuBenchFlags are mcu bench's flags, and what check resolves from them.
type mcuBenchFlags struct {
	opts                      mcu.Options
	timeout                   time.Duration
	jobs                      int
	cacheDir, device, refName string
	quick                     bool
	r                         runner
	ref                       *mcu.Reference
	plan                      *mcu.Plan
	prices                    []costing.TargetPrice
	cfg                       mcu.RunConfig
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
					return mcu.Run(ctx, m.plan, m.cfg, progress.New("mcu", m.r.quiet)), nil
				},
				// The costing stage: a target's simulated time is a
				// device's when the device's profile names that target.
				price: func(run *result.Run) error { return costing.PriceTargets(run, m.prices) },
				table: mcuTable{},
				after: m.comparisons,
			})
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&m.opts.Targets, "target", []string{mcu.DefaultTarget}, "the microcontrollers, or all (cryptocost mcu list --targets)")
	f.StringVar(&m.device, "device", "", "price each operation's energy on this device profile (default: the device each target simulates, such as arduino-uno for atmega328p; '' for none)")
	f.StringSliceVar(&m.opts.Opts, "opt", mcu.DefaultOpts, "gcc optimisation levels: Os, O1, O2, O3")
	f.IntVar(&m.opts.MaxInputs, "inputs", 0, "time each operation on at most this many inputs (0: all; eight secrets for an operation on a secret)")
	f.StringSliceVar(&m.opts.Kernels, "kernel", nil, "only these kernels: names or globs ('rsa1024-*'); see cryptocost mcu list")
	f.DurationVar(&m.timeout, "timeout", 10*time.Minute, "kill an image's simulation after this long on the host")
	f.IntVar(&m.jobs, "jobs", min(runtime.NumCPU(), 4), "simulations run at once")
	f.StringVar(&m.cacheDir, "cache-dir", "", "where firmware images are kept (default: the user cache directory/cryptocost/mcu)")
	f.StringVar(&m.refName, "reference", "", "measure the kernels a study's table names (those that are not slow, unless --kernel says) and print the table beside them: "+strings.Join(mcu.ReferenceNames(), ", "))
	f.BoolVar(&m.quick, "quick", false, "seconds, not minutes: -Os only and the symmetric-key kernels")
	f.BoolVarP(&m.r.quiet, "quiet", "q", false, "no progress bar on stderr")
	m.r.register(cmd)
	return cmd
}

// check resolves mcu bench's flags before any work: the plan, the
// pricing, the toolchains, the image cache.
func (m *mcuBenchFlags) check(cmd *cobra.Command) error {
	if m.quick {
		if !cmd.Flags().Changed("opt") {
			m.opts.Opts = []string{"Os"}
		}
		if !cmd.Flags().Changed("kernel") {
			m.opts.Kernels = mcu.QuickKernels()
		}
	}
	var err error
	if m.refName != "" {
		if m.ref, err = mcu.ReferenceByName(m.refName); err != nil {
			return fmt.Errorf("--reference: %w", err)
		}
		if !cmd.Flags().Changed("kernel") {
			m.opts.Kernels = m.ref.FastKernels()
		}
	}
	if m.plan, err = mcu.NewPlan(m.opts); err != nil {
		return err
	}
	if m.prices, err = costing.TargetPricing(targetNames(m.plan), m.device, cmd.Flags().Changed("device")); err != nil {
		return err
	}
	switch {
	case m.timeout <= 0:
		return fmt.Errorf("--timeout %s: want a positive duration such as 10m", m.timeout)
	case m.jobs < 1:
		return fmt.Errorf("--jobs %d: want at least 1", m.jobs)
	}
	tcs, err := mcu.Toolchains(cmd.Context(), m.plan.Targets)
	if err != nil {
		return err
	}
	if m.cacheDir == "" {
		if m.cacheDir, err = mcu.CacheDir(); err != nil {
			return err
		}
	}
	m.cfg = mcu.RunConfig{Toolchains: tcs, CacheDir: m.cacheDir, Timeout: m.timeout, Jobs: m.jobs}
	return nil
}

// comparisons prints a study's table beside the run, per target.
func (m *mcuBenchFlags) comparisons(cmd *cobra.Command, run *result.Run) error {
	if m.ref == nil {
		return nil
	}
	for _, t := range m.plan.Targets {
		fmt.Fprintln(cmd.OutOrStdout())
		if err := mcu.WriteComparison(cmd.OutOrStdout(), mcu.Compare(m.ref, t, run)); err != nil {
			return err
		}
	}
	return nil
}

// targetNames are the names of a plan's targets, for pricing.
func targetNames(plan *mcu.Plan) []string {
	names := make([]string, len(plan.Targets))
	for i, t := range plan.Targets {
		names[i] = t.Name
	}
	return names
}

// mcuTable writes the S004-shaped table in place of the generic one.
type mcuTable struct{}

func (mcuTable) Name() string                                 { return "table" }
func (mcuTable) Description() string                          { return "a table shaped like S004's" }
func (mcuTable) Write(w io.Writer, runs ...*result.Run) error { return mcu.WriteTable(w, runs...) }

func newMCUListCmd() *cobra.Command {
	var onlyTargets bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the microcontroller targets and kernels",
		Example: helpExamples("mcu-list"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			if err := mcu.WriteTargets(w); err != nil || onlyTargets {
				return err
			}
			fmt.Fprintln(w)
			return mcu.WriteKernels(w)
		},
	}
	cmd.Flags().BoolVar(&onlyTargets, "targets", false, "list the targets only")
	return cmd
}

// mcuCompareFlags are mcu compare's flags.
type mcuCompareFlags struct {
	db             dbFlag
	target, format string
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
	f.StringVar(&m.target, "target", "atmega328p", "compare the kernels measured on this target")
	f.StringVar(&m.format, "format", "table", "table or json")
	m.db.register(cmd)
	return cmd
}

// run is mcu compare: the study's table beside the runs' kernels.
func (m *mcuCompareFlags) run(cmd *cobra.Command, args []string) error {
	ref, err := mcu.ReferenceByName(args[0])
	if err != nil {
		return err
	}
	tg, err := mcu.TargetByName(m.target)
	if err != nil {
		return fmt.Errorf("--target: %w", err)
	}
	if m.format != "table" && m.format != "json" {
		return fmt.Errorf("--format %q: want table or json", m.format)
	}
	loaded, err := loadRuns(cmd.Context(), &m.db, args[1:], false)
	if err != nil {
		return err
	}
	c := mcu.Compare(ref, tg, loadedRuns(loaded)...)
	if m.format == "json" {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	return mcu.WriteComparison(cmd.OutOrStdout(), c)
}
