package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newModelCmd) }

func newModelCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "model",
		Short:   "Analytic protocol cost models: evaluate, sweep, compare with crossovers",
		Long:    helpLong("model"),
		Example: helpExamples("model"),
	}
	cmd.AddCommand(newModelListCmd(), newModelShowCmd(), newModelEvalCmd(), newModelSweepCmd(), newModelCompareCmd())
	return cmd
}

// modelFormats lists a model command's formats for --help: the model's
// own table first, then extra (if any), then the result formats but the
// generic table (the model's replaces it).
func modelFormats(extra string) string {
	names := []string{"table"}
	if extra != "" {
		names = append(names, extra)
	}
	for _, n := range result.FormatNames() {
		if n != "table" {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// modelFlags are the flags every evaluating subcommand shares; the
// runner's --format, -o and store flags among them.
type modelFlags struct {
	set      []string
	vary     []string
	variants []string
	sources  costing.ModelSources
	inputs   string
	r        runner
}

func (f *modelFlags) register(cmd *cobra.Command, vary bool, formats string) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.set, "set", nil, "parameter values, NAME=VALUE[,NAME=VALUE...] (e.g. n=6,d=20)")
	if vary {
		fl.StringArrayVar(&f.vary, "vary", nil, "sweep a parameter: NAME=LO..HI[:STEP], NAME=V1,V2,... or NAME (its study values); repeatable")
	}
	fl.StringSliceVar(&f.variants, "variant", nil, "only these variants (default: all)")
	fl.StringVar(&f.sources.Costs, "costs", "", "cost table: a built-in name (telosb) or a YAML file (default: the model's)")
	fl.StringVar(&f.sources.Device, "device", "", "price operations on this device profile through the costing stage (cryptocost devices), as its runs are; the cost table only where it is the device's own")
	fl.StringVar(&f.sources.Radio, "radio", "", "price bits with a radio profile's per-bit costs (an 802.15.4 profile: cryptocost radio list) instead of the cost table's")
	fl.StringArrayVar(&f.sources.OpTimes, "op-times", nil, "price operations with the times of a bench run JSON (over the cost table); repeatable")
	fl.StringVar(&f.inputs, "inputs", "", "read measured parameter values (TLS lab byte counts) from a run JSON")
	fl.StringVar(&f.r.outputs.format, "format", "table", "output format: "+formats)
	fl.StringVarP(&f.r.outputs.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
	f.r.saves.register(cmd)
}

// plan opens the cost sources and plans m, printing the --inputs notes.
func (f *modelFlags) plan(cmd *cobra.Command, m *model.Model, o model.Options) (*model.Plan, error) {
	costs, err := costing.OpenModelCosts(m, f.sources)
	if err != nil {
		return nil, err
	}
	p, notes, err := model.PlanWithInputs(m, costs, o, f.inputs)
	printNotes(cmd, notes)
	return p, err
}

// open parses the options and plans the named model.
func (f *modelFlags) open(cmd *cobra.Command, name string) (*model.Plan, model.Options, error) {
	o, err := model.ParseOptions(f.set, f.vary, f.variants)
	if err != nil {
		return nil, o, err
	}
	m, err := model.Open(name)
	if err != nil {
		return nil, o, err
	}
	p, err := f.plan(cmd, m, o)
	return p, o, err
}

func printNotes(cmd *cobra.Command, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
}

// evaluate fills a new model run; a cancelled evaluation is an
// interrupted run (its points written, exit status 130).
func evaluate(fill func(*result.Run) error) (*result.Run, error) {
	run := model.NewRun()
	if err := fill(run); err != nil {
		if !errors.Is(err, context.Canceled) {
			return nil, err
		}
		run.Status = result.Interrupted
	}
	return run, nil
}

// modelTable is a model command's own table, written in place of the
// result package's: the run it is given is the same evaluation's.
type modelTable func(w io.Writer) error

func (modelTable) Name() string                                { return "table" }
func (modelTable) Description() string                         { return "the model's table" }
func (t modelTable) Write(w io.Writer, _ ...*result.Run) error { return t(w) }

// wideCSV is model sweep's streamed grid, one row per point: a name for
// --format only, written by Plan.WriteSweepCSV, never as a run.
type wideCSV struct{}

func (wideCSV) Name() string        { return "wide-csv" }
func (wideCSV) Description() string { return "one row per point, streamed (model sweep)" }
func (wideCSV) Write(io.Writer, ...*result.Run) error {
	return fmt.Errorf("wide-csv streams a sweep's points: it is not a run format")
}

// interrupted turns a cancelled evaluation into exit status 130.
func interrupted(err error, what string) error {
	if errors.Is(err, context.Canceled) {
		return &statusError{exitInterrupted, fmt.Errorf("interrupted: wrote the %s computed so far", what)}
	}
	return err
}

func newModelListCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the built-in models and cost tables",
		Example: "  cryptocost model list",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return model.WriteList(cmd.OutOrStdout()) },
	}
}

func newModelShowCmd() *cobra.Command {
	var yaml bool
	cmd := &cobra.Command{
		Use:     "show NAME|FILE",
		Short:   "Show a model or cost table: parameters, messages, operations, variants, sources",
		Example: helpExamples("model-show"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			m, t, err := model.OpenAny(args[0])
			if err != nil {
				return err
			}
			if t != nil {
				if yaml {
					return model.WriteSource(w, t.File)
				}
				return model.WriteCostTable(w, t)
			}
			if yaml {
				return model.WriteSource(w, m.File)
			}
			return model.WriteModel(w, m)
		},
	}
	cmd.Flags().BoolVar(&yaml, "yaml", false, "print the model's YAML source (a template for your own)")
	return cmd
}

func newModelEvalCmd() *cobra.Command {
	var (
		f         modelFlags
		detail    bool
		breakdown bool
		p         *model.Plan
	)
	cmd := &cobra.Command{
		Use:     "eval NAME|FILE",
		Short:   "Evaluate a model at one point (each variant): bits, packets, time and energy per node",
		Example: helpExamples("model-eval"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.r.execute(cmd, job{
				check: func() (err error) { p, _, err = f.open(cmd, args[0]); return err },
				run: func(ctx context.Context) (*result.Run, error) {
					return evaluate(func(run *result.Run) error { return p.AppendResults(ctx, run, breakdown || detail) })
				},
				table: modelTable(func(w io.Writer) error { return p.WriteEval(cmd.Context(), w, detail) }),
				noun:  "points computed",
			})
		},
	}
	f.register(cmd, false, modelFormats(""))
	cmd.Flags().BoolVar(&detail, "detail", false, "show parameters, messages and operations of every variant (JSON: per-message and per-operation metrics)")
	cmd.Flags().BoolVar(&breakdown, "breakdown", false, "JSON/CSV: add per-message and per-operation metrics")
	return cmd
}

func newModelSweepCmd() *cobra.Command {
	var (
		f     modelFlags
		plots []string
		quiet bool
	)
	cmd := &cobra.Command{
		Use:     "sweep NAME|FILE --vary NAME=VALUES...",
		Short:   "Evaluate a model over a grid of parameter values",
		Long:    helpLong("model-sweep"),
		Example: helpExamples("model-sweep"),
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return modelSweep(cmd, args, &f, plots, quiet) },
	}
	f.register(cmd, true, modelFormats("wide-csv (one row per point, streamed)"))
	cmd.Flags().StringArrayVar(&plots, "plot", nil, "plot an output against the first --vary: OUTPUT=FILE.png|.svg (e.g. energy=e.svg); repeatable")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no timing note on stderr")
	return cmd
}

func newModelCompareCmd() *cobra.Command {
	var (
		f        modelFlags
		metrics  []string
		plots    []string
		measured string
	)
	cmd := &cobra.Command{
		Use:     "compare A [B...] [--vary NAME=VALUES] [--measured RUN.json]",
		Short:   "Compare models along a parameter (crossovers in words, plots) or with measurements",
		Long:    helpLong("model-compare"),
		Example: helpExamples("model-compare"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var c comparison
			return f.r.execute(cmd, job{
				check: func() error { return c.prepare(cmd, args, &f, metrics, plots, measured) },
				run:   func(ctx context.Context) (*result.Run, error) { return c.run(ctx, cmd.ErrOrStderr()) },
				table: modelTable(func(w io.Writer) error { return model.WriteComparisonTable(w, c.cmp, c.rows) }),
				noun:  "points computed",
			})
		},
	}
	f.register(cmd, true, modelFormats(""))
	cmd.Flags().StringSliceVar(&metrics, "metrics", []string{"energy", "time"}, "outputs to compare: "+strings.Join(model.OutputNames(), ", "))
	cmd.Flags().StringArrayVar(&plots, "plot", nil, "plot an output against the first --vary: OUTPUT=FILE.png|.svg; repeatable")
	cmd.Flags().StringVar(&measured, "measured", "", "compare with the measurements of a run JSON (or the built-in reference run s003)")
	return cmd
}

// comparison is model compare's work: the plans, the measured runs and
// the comparison along --vary.
type comparison struct {
	o        model.Options
	metrics  []string
	plots    []model.PlotSpec
	runs     []*result.Run
	measured bool
	plans    []*model.Plan
	cmp      *model.Comparison
	rows     []model.MeasuredRow
}

// prepare checks model compare's flags and plans the models compared.
func (c *comparison) prepare(cmd *cobra.Command, args []string, f *modelFlags, metrics, plots []string, measured string) error {
	var err error
	if c.plots, err = model.ParsePlots(plots); err != nil {
		return err
	}
	if c.o, err = model.ParseOptions(f.set, f.vary, f.variants); err != nil {
		return err
	}
	if c.metrics, err = model.CompareMetrics(c.o, measured, metrics, c.plots); err != nil {
		return err
	}
	if c.measured = measured != ""; c.measured {
		if c.runs, err = model.ReadMeasured(measured); err != nil {
			return err
		}
	}
	var notes []string
	c.plans, notes, err = model.ComparePlans(args, c.o, func(m *model.Model, o model.Options) (*model.Plan, []string, error) {
		p, err := f.plan(cmd, m, o)
		return p, nil, err
	})
	printNotes(cmd, notes)
	return err
}

// run compares the plans along --vary (drawing the plots) and with the
// measured runs, and holds it all as a run.
func (c *comparison) run(ctx context.Context, log io.Writer) (*result.Run, error) {
	var err error
	if len(c.o.Vary) > 0 {
		if c.cmp, err = model.Compare(ctx, c.plans, c.o.Vary, c.metrics); err != nil {
			return nil, err
		}
		if err := c.cmp.SavePlots(log, c.plots); err != nil {
			return nil, err
		}
	}
	if c.measured {
		if c.rows, err = model.CompareAll(ctx, c.plans, c.runs); err != nil {
			return nil, err
		}
	}
	return evaluate(func(run *result.Run) error { return model.ComparisonRun(ctx, run, c.plans, c.rows, c.cmp) })
}

// modelSweep is model sweep: one model over the --vary grid, streamed to
// a table or a wide CSV, or held as a run through the runner.
func modelSweep(cmd *cobra.Command, args []string, f *modelFlags, plots []string, quiet bool) error {
	f.r.quiet = quiet
	f.r.outputs.own = []result.Format{wideCSV{}}
	format, err := f.r.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	var p *model.Plan
	var o model.Options
	check := func() error {
		specs, err := model.ParsePlots(plots)
		if err != nil {
			return err
		}
		if len(f.vary) == 0 {
			return fmt.Errorf("sweep needs at least one --vary, such as --vary n=2..14 (model eval evaluates one point)")
		}
		if p, o, err = f.open(cmd, args[0]); err != nil {
			return err
		}
		return model.SavePlots(cmd.Context(), cmd.ErrOrStderr(), []*model.Plan{p}, o.Vary, specs)
	}
	timing := sweepTiming(cmd, quiet || f.r.outputs.out == "")
	if name := format.Name(); name == "table" || name == "wide-csv" {
		return streamSweep(cmd, f, name, check, &p, timing)
	}
	return f.r.execute(cmd, job{
		check: check,
		run: func(ctx context.Context) (*result.Run, error) {
			return evaluate(func(run *result.Run) error { return p.AppendResults(ctx, run, false) })
		},
		files: func(_ *cobra.Command, run *result.Run) error {
			if run.Status != result.Interrupted {
				timing(p.Points())
			}
			return nil
		},
		noun: "points computed",
	})
}

// sweepTiming is the note of a sweep written to a file: its points per
// second since now, writing included.
func sweepTiming(cmd *cobra.Command, quiet bool) func(points int) {
	start := time.Now()
	return func(points int) {
		if !quiet {
			el := time.Since(start)
			fmt.Fprintf(cmd.ErrOrStderr(), "%d points in %.3g s (%.3g points/s, writing included)\n", points, el.Seconds(), float64(points)/el.Seconds())
		}
	}
}

// streamSweep streams a sweep's table or wide CSV, point by point; a
// table sweep is saved as a run, a wide-csv one is not (its file is the
// record: docs/model.md).
func streamSweep(cmd *cobra.Command, f *modelFlags, format string, check func() error, pp **model.Plan, timing func(int)) error {
	if err := f.r.saves.validate(); err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	p, ctx := *pp, cmd.Context()
	points := p.Points()
	err := writeOut(cmd, f.r.outputs.out, func(w io.Writer) error {
		if format == "table" {
			return p.WriteSweepTable(ctx, w)
		}
		n, err := p.WriteSweepCSV(ctx, w, true)
		points = n
		return err
	})
	switch {
	case err != nil:
		return interrupted(err, "points")
	case format == "wide-csv" && !f.r.saves.noSave && !f.r.quiet:
		fmt.Fprintln(cmd.ErrOrStderr(), "note: a wide-csv sweep is not saved in the results store: its file is the record (--format json saves one)")
	case format == "table" && !f.r.saves.noSave:
		saveSweep(cmd, f, p)
	}
	timing(points)
	return nil
}

// saveSweep saves a streamed table sweep's points as a run; a grid too
// large to hold as results is not saved, and the note says why.
func saveSweep(cmd *cobra.Command, f *modelFlags, p *model.Plan) {
	run := model.NewRun()
	if err := p.AppendResults(cmd.Context(), run, false); err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: run not saved: %v\n", err)
		return
	}
	stamp(run)
	f.r.saves.save(cmd, run, f.r.quiet)
}
