package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/device"
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
	prices                    []mcuPrice
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
				price: func(run *result.Run) error { return priceMCU(run, m.prices) },
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
			m.opts.Kernels = quickKernels()
		}
	}
	var err error
	if m.refName != "" {
		if m.ref, err = mcu.ReferenceByName(m.refName); err != nil {
			return fmt.Errorf("--reference: %w", err)
		}
		if !cmd.Flags().Changed("kernel") {
			m.opts.Kernels = referenceKernels(m.ref)
		}
	}
	if m.plan, err = mcu.NewPlan(m.opts); err != nil {
		return err
	}
	if m.prices, err = mcuPricing(m.plan, m.device, cmd.Flags().Changed("device")); err != nil {
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

// mcuPrice is one device an mcu run is priced on, and the target whose
// results it prices ("" for every result: a device the user named).
type mcuPrice struct {
	device *device.Device
	target string
}

// mcuPricing says what an mcu run is priced on, before any work: the
// device named (every result; the costing stage says "not priced" for the
// targets it does not simulate), or by default the device each target
// simulates where a profile names it (arduino-uno for atmega328p), or
// nothing for --device ”.
func mcuPricing(plan *mcu.Plan, name string, given bool) ([]mcuPrice, error) {
	if given {
		if name == "" {
			return nil, nil
		}
		d, err := device.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--device: %w", err)
		}
		if err := costing.CheckDevice(d); err != nil {
			return nil, fmt.Errorf("--device: %w", err)
		}
		return []mcuPrice{{device: d}}, nil
	}
	var out []mcuPrice
	for _, t := range plan.Targets {
		if d := device.ForTarget(t.Name); d != nil {
			out = append(out, mcuPrice{device: d, target: t.Name})
		}
	}
	return out, nil
}

// priceMCU runs the costing stage on each device's share of the run.
func priceMCU(run *result.Run, prices []mcuPrice) error {
	var devices []string
	for _, pr := range prices {
		if pr.target == "" {
			return costing.Price(run, costing.Options{Device: pr.device})
		}
		part := *run
		part.Results = nil
		var at []int
		for i, r := range run.Results {
			if r.Subject.Params["target"] == pr.target {
				part.Results = append(part.Results, r)
				at = append(at, i)
			}
		}
		if err := costing.Price(&part, costing.Options{Device: pr.device}); err != nil {
			return err
		}
		for j, i := range at {
			run.Results[i] = part.Results[j]
		}
		devices = append(devices, pr.device.Name)
	}
	// one device names the run's; several are each in their results'
	// metrics and methods
	if len(devices) == 1 {
		run.Environment.Device = devices[0]
	}
	return nil
}

// quickKernels are the kernels a --quick run measures: the symmetric ones,
// each a fraction of a second of simulation.
func quickKernels() []string {
	var names []string
	for _, k := range mcu.Kernels() {
		switch k.Family {
		case "block", "stream", "aead", "hash", "mac":
			names = append(names, k.Name)
		}
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
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "TARGET\tPART\tBOARD\tCORE\tCLOCK\tFLASH\tSRAM\tSIMULATOR\tCOUNTS\tDEBIAN PACKAGES")
			for _, t := range mcu.Targets() {
				counts := t.Unit()
				if t.Simulator.CycleRule != "" {
					counts += ", cycles estimated"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s %s\t%s\t%s\n", t.Name, t.Part, t.Board, t.Core,
					quantity(t.Clock), quantity(t.Flash), quantity(t.SRAM), t.Simulator.Name, t.Simulator.Machine, counts, strings.Join(mcu.Packages(t), " "))
			}
			if err := tw.Flush(); err != nil || onlyTargets {
				return err
			}
			fmt.Fprintln(w)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "KERNEL\tALGORITHM\tFAMILY\tSECURITY\tSOURCES\tNOTE")
			for _, k := range mcu.Kernels() {
				note := k.Label
				if k.Slow {
					note += "; slow: runs only when named"
				}
				sec := fmt.Sprint(k.SecurityBits)
				if k.SecurityBits == 0 {
					sec = "<80"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.Name, k.Algorithm, k.Family, sec, strings.Join(k.Sources, ","), note)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&onlyTargets, "targets", false, "list the targets only")
	return cmd
}

// quantity is a number and its unit without the source: "16 MHz".
func quantity(q catalog.Quantity) string {
	return strconv.FormatFloat(q.Value, 'g', -1, 64) + " " + q.Unit
}

// referenceKernels are the kernels a study's rows name that are not slow:
// a slow one (RSA-2048) runs only when --kernel names it.
func referenceKernels(ref *mcu.Reference) []string {
	var names []string
	for _, name := range ref.Kernels() {
		if k, ok := mcu.KernelByName(name); ok && !k.Slow {
			names = append(names, name)
		}
	}
	return names
}

func newMCUCompareCmd() *cobra.Command {
	var (
		db     dbFlag
		target string
		format string
	)
	cmd := &cobra.Command{
		Use:     "compare STUDY [RUN...]",
		Short:   "Print a study's published table (S004's) beside the kernels measured here",
		Long:    helpLong("mcu-compare"),
		Example: helpExamples("mcu-compare"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := mcu.ReferenceByName(args[0])
			if err != nil {
				return err
			}
			tg, err := mcu.TargetByName(target)
			if err != nil {
				return fmt.Errorf("--target: %w", err)
			}
			if format != "table" && format != "json" {
				return fmt.Errorf("--format %q: want table or json", format)
			}
			loaded, err := loadRuns(cmd.Context(), &db, args[1:], false)
			if err != nil {
				return err
			}
			var runs []*result.Run
			for _, l := range loaded {
				runs = append(runs, l.run)
			}
			c := mcu.Compare(ref, tg, runs...)
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(c)
			}
			return mcu.WriteComparison(cmd.OutOrStdout(), c)
		},
	}
	f := cmd.Flags()
	f.StringVar(&target, "target", "atmega328p", "compare the kernels measured on this target")
	f.StringVar(&format, "format", "table", "table or json")
	db.register(cmd)
	return cmd
}
