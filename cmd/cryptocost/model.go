package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/radio"
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

// modelFlags are the flags every evaluating subcommand shares.
type modelFlags struct {
	set      []string
	vary     []string
	variants []string
	costs    string
	device   string
	radio    string
	opTimes  []string
	inputs   string
	format   string
	out      string
	saves    saveFlags
}

func (f *modelFlags) register(cmd *cobra.Command, vary bool, formats string) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.set, "set", nil, "parameter values, NAME=VALUE[,NAME=VALUE...] (e.g. n=6,d=20)")
	if vary {
		fl.StringArrayVar(&f.vary, "vary", nil, "sweep a parameter: NAME=LO..HI[:STEP], NAME=V1,V2,... or NAME (its study values); repeatable")
	}
	fl.StringSliceVar(&f.variants, "variant", nil, "only these variants (default: all)")
	fl.StringVar(&f.costs, "costs", "", "cost table: a built-in name (telosb) or a YAML file (default: the model's)")
	fl.StringVar(&f.device, "device", "", "price operations on this device profile through the costing stage (cryptocost devices), as its runs are; the cost table only where it is the device's own")
	fl.StringVar(&f.radio, "radio", "", "price bits with a radio profile's per-bit costs (an 802.15.4 profile: cryptocost radio list) instead of the cost table's")
	fl.StringArrayVar(&f.opTimes, "op-times", nil, "price operations with the times of a bench run JSON (over the cost table); repeatable")
	fl.StringVar(&f.inputs, "inputs", "", "read measured parameter values (TLS lab byte counts) from a run JSON")
	fl.StringVar(&f.format, "format", "table", "output format: "+formats)
	fl.StringVarP(&f.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
	f.saves.register(cmd)
}

// save saves an evaluation's run in the results store (unless --no-save),
// whatever format it was written in: fill appends its results to a new
// run. A run that cannot be held (a sweep of more points than results
// hold) is not saved, and the note says why.
func (f *modelFlags) save(cmd *cobra.Command, run *result.Run, quiet bool, fill func(*result.Run) error) {
	if f.saves.noSave {
		return
	}
	if run == nil {
		run = model.NewRun()
		if err := fill(run); err != nil {
			if !errors.Is(err, context.Canceled) {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: run not saved: %v\n", err)
				return
			}
		}
	}
	stamp(run)
	f.saves.save(cmd, run, quiet)
}

// options parses --set, --vary and --variant before any work.
func (f *modelFlags) options() (model.Options, error) {
	var o model.Options
	var err error
	if err := f.saves.validate(); err != nil {
		return o, err
	}
	if o.Set, err = model.ParseSet(f.set); err != nil {
		return o, err
	}
	for _, v := range f.vary {
		vr, err := model.ParseVary(v)
		if err != nil {
			return o, err
		}
		for _, prev := range o.Vary {
			if prev.Param == vr.Param {
				return o, fmt.Errorf("--vary %s is given twice: list every value in one, such as --vary %s=2,6,10", vr.Param, vr.Param)
			}
		}
		o.Vary = append(o.Vary, vr)
	}
	o.Variants = f.variants
	return o, nil
}

// plan opens the cost sources and builds the model's plan.
func (f *modelFlags) plan(m *model.Model, o model.Options) (*model.Plan, []string, error) {
	costs, err := f.openCosts(m)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if f.inputs != "" {
		runs, err := model.ReadRuns(f.inputs)
		if err != nil {
			return nil, nil, err
		}
		o.Inputs, notes, err = model.ReadInputs(m, runs)
		if err != nil {
			return nil, nil, fmt.Errorf("--inputs %s: %w", f.inputs, err)
		}
	}
	p, err := model.NewPlan(m, costs, o)
	return p, notes, err
}

func (f *modelFlags) openCosts(m *model.Model) (*model.Costs, error) {
	name := f.costs
	if name == "" {
		name = m.DefaultCosts
	}
	if name == "" {
		return nil, fmt.Errorf("model %s names no cost table: give one with --costs (built-in: telosb) or a file", m.Name)
	}
	t, err := model.OpenCosts(name)
	if err != nil {
		return nil, err
	}
	var rp *radio.Profile
	if f.radio != "" {
		if rp, err = radio.Lookup(f.radio); err != nil {
			return nil, fmt.Errorf("--radio: %w", err)
		}
	}
	var costs *model.Costs
	if f.device != "" {
		d, err := device.Lookup(f.device)
		if err != nil {
			return nil, fmt.Errorf("--device: %w", err)
		}
		if rp != nil {
			if rp, err = costing.RadioFor(d, nil, f.radio); err != nil {
				return nil, fmt.Errorf("--radio: %w", err)
			}
		}
		// The device's figures through the costing stage's resolver, the
		// same as every run priced on it; the cost table only where it is
		// this device's own.
		if costs, err = costing.ModelCostsOn(&costing.Pricer{Device: d}, m, t, rp); err != nil {
			return nil, fmt.Errorf("--device: %w", err)
		}
	} else {
		costs = t.Costs()
		if rp != nil {
			if costs.Radio, err = model.RadioCosts(rp); err != nil {
				return nil, fmt.Errorf("--radio: %w", err)
			}
		}
	}
	for _, file := range f.opTimes {
		runs, err := model.ReadRuns(file)
		if err != nil {
			return nil, err
		}
		rc, err := model.NewRunCosts(file, runs)
		if err != nil {
			return nil, err
		}
		costs.Ops = append(costs.Ops, rc)
	}
	return costs, nil
}

// resolveFormat checks --format (from -o's extension unless given) with
// the one resolver, outputFlags.resolve; a sweep also takes wide-csv.
func (f *modelFlags) resolveFormat(cmd *cobra.Command, wide bool) error {
	o := outputFlags{format: f.format, out: f.out}
	if wide {
		o.own = []result.Format{wideCSV{}}
	}
	format, err := o.resolve(cmd)
	if err != nil {
		return err
	}
	f.format = format.Name()
	return nil
}

// wideCSV is model sweep's streamed grid, one row per point: a name for
// --format only, written by Plan.WriteSweepCSV, never as a run.
type wideCSV struct{}

func (wideCSV) Name() string        { return "wide-csv" }
func (wideCSV) Description() string { return "one row per point, streamed (model sweep)" }
func (wideCSV) Write(io.Writer, ...*result.Run) error {
	return fmt.Errorf("wide-csv streams a sweep's points: it is not a run format")
}

// finishRun writes a model run in a result format.
func finishRun(cmd *cobra.Command, format, out string, run *result.Run) error {
	stamp(run)
	of := outputFlags{format: format, out: out}
	f, err := result.FormatByName(format)
	if err != nil {
		return err
	}
	return of.write(cmd, f, run)
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			ms, err := model.Builtins()
			if err != nil {
				return err
			}
			ts, err := model.BuiltinCostTables()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "MODEL\tPER\tPARAMETERS\tVARIANTS\tCOSTS\tTITLE")
			for _, m := range ms {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", m.Name, m.Per, len(m.Params), strings.Join(m.VariantNames(), ", "), m.DefaultCosts, m.Title)
			}
			fmt.Fprintln(tw)
			fmt.Fprintln(tw, "COST TABLE\tDEVICE\tOPERATIONS\tTITLE")
			for _, t := range ts {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", t.Name, t.Device, len(t.Ops), t.Title)
			}
			return tw.Flush()
		},
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
					return writeSource(w, t.File)
				}
				return model.WriteCostTable(w, t)
			}
			if yaml {
				return writeSource(w, m.File)
			}
			return model.WriteModel(w, m)
		},
	}
	cmd.Flags().BoolVar(&yaml, "yaml", false, "print the model's YAML source (a template for your own)")
	return cmd
}

func writeSource(w io.Writer, file string) error {
	var data []byte
	var err error
	if strings.HasPrefix(file, "builtin:") {
		data, err = model.BuiltinSource(file)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func newModelEvalCmd() *cobra.Command {
	var (
		f         modelFlags
		detail    bool
		breakdown bool
	)
	cmd := &cobra.Command{
		Use:     "eval NAME|FILE",
		Short:   "Evaluate a model at one point (each variant): bits, packets, time and energy per node",
		Example: helpExamples("model-eval"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.resolveFormat(cmd, false); err != nil {
				return err
			}
			o, err := f.options()
			if err != nil {
				return err
			}
			m, err := model.Open(args[0])
			if err != nil {
				return err
			}
			p, notes, err := f.plan(m, o)
			if err != nil {
				return err
			}
			for _, n := range notes {
				fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
			}
			fill := func(run *result.Run) error { return p.AppendResults(cmd.Context(), run, breakdown || detail) }
			if f.format == "table" {
				if err := writeOut(cmd, f.out, func(w io.Writer) error { return p.WriteEval(cmd.Context(), w, detail) }); err != nil {
					return err
				}
				f.save(cmd, nil, false, fill)
				return nil
			}
			run := model.NewRun()
			if err := fill(run); err != nil {
				return err
			}
			if err := finishRun(cmd, f.format, f.out, run); err != nil {
				return err
			}
			f.save(cmd, run, false, nil)
			return nil
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
			return modelCompare(cmd, args, &f, metrics, plots, measured)
		},
	}
	f.register(cmd, true, modelFormats(""))
	cmd.Flags().StringSliceVar(&metrics, "metrics", []string{"energy", "time"}, "outputs to compare: "+strings.Join(model.OutputNames(), ", "))
	cmd.Flags().StringArrayVar(&plots, "plot", nil, "plot an output against the first --vary: OUTPUT=FILE.png|.svg; repeatable")
	cmd.Flags().StringVar(&measured, "measured", "", "compare with the measurements of a run JSON (or the built-in reference run s003)")
	return cmd
}

// checkVaried refuses --set/--vary parameters no compared model has.
func checkVaried(plans []*model.Plan, o model.Options) error {
	var names []string
	for name := range o.Set {
		names = append(names, name)
	}
	for _, v := range o.Vary {
		names = append(names, v.Param)
	}
	for _, name := range names {
		found := false
		var all []string
		for _, p := range plans {
			if p.Model.Param(name) != nil {
				found = true
			}
			all = append(all, p.Model.Name+": "+strings.Join(p.Model.ParamNames(), ", "))
		}
		if !found {
			return fmt.Errorf("no compared model has a parameter %s (%s)", name, strings.Join(all, "; "))
		}
	}
	return nil
}

type plotSpec struct{ metric, file string }

// parsePlots parses --plot OUTPUT=FILE values before any work.
func parsePlots(specs []string) ([]plotSpec, error) {
	var out []plotSpec
	for _, s := range specs {
		metric, file, ok := strings.Cut(s, "=")
		if !ok || file == "" {
			return nil, fmt.Errorf("--plot %q: want OUTPUT=FILE, such as energy=energy.svg", s)
		}
		if _, err := model.LookupOutput(metric); err != nil {
			return nil, fmt.Errorf("--plot %q: %w", s, err)
		}
		if _, err := model.PlotFormat(file); err != nil {
			return nil, fmt.Errorf("--plot %q: %w", s, err)
		}
		out = append(out, plotSpec{metric, file})
	}
	return out, nil
}

// savePlots draws a sweep's plots: lines along the first --vary.
func savePlots(cmd *cobra.Command, plans []*model.Plan, vary []model.Vary, specs []plotSpec) error {
	if len(specs) == 0 {
		return nil
	}
	var metrics []string
	for _, s := range specs {
		if !slices.Contains(metrics, s.metric) {
			metrics = append(metrics, s.metric)
		}
	}
	cmp, err := model.Compare(cmd.Context(), plans, vary, metrics)
	if err != nil {
		return err
	}
	for _, s := range specs {
		if err := cmp.SavePlot(s.metric, s.file); err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", s.file)
	}
	return nil
}

// modelCompare is model compare: the models along --vary (crossovers, plots) and beside --measured runs.
func modelCompare(cmd *cobra.Command, args []string, f *modelFlags, metrics, plots []string, measured string) error {
	if err := f.resolveFormat(cmd, false); err != nil {
		return err
	}
	plotSpecs, err := parsePlots(plots)
	if err != nil {
		return err
	}
	o, err := f.options()
	if err != nil {
		return err
	}
	if len(o.Vary) == 0 && measured == "" {
		return fmt.Errorf("compare needs --vary NAME=VALUES (the first is the x axis), --measured RUN.json, or both")
	}
	for _, m := range metrics {
		if _, err := model.LookupOutput(m); err != nil {
			return fmt.Errorf("--metrics: %w", err)
		}
	}
	for _, ps := range plotSpecs {
		if len(o.Vary) == 0 {
			return fmt.Errorf("--plot needs --vary: plots show an output against the first --vary parameter")
		}
		if !slices.Contains(metrics, ps.metric) {
			metrics = append(metrics, ps.metric)
		}
	}
	var runs []*result.Run
	if measured != "" {
		if runs, err = model.ReadMeasured(measured); err != nil {
			return err
		}
	}
	plans, err := modelComparePlans(cmd, args, f, o)
	if err != nil {
		return err
	}
	var cmp *model.Comparison
	if len(o.Vary) > 0 {
		if cmp, err = model.Compare(cmd.Context(), plans, o.Vary, metrics); err != nil {
			return err
		}
		for _, ps := range plotSpecs {
			if err := cmp.SavePlot(ps.metric, ps.file); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", ps.file)
		}
	}
	var rows []model.MeasuredRow
	if measured != "" {
		for _, p := range plans {
			r, err := p.CompareMeasured(cmd.Context(), runs)
			if err != nil {
				return err
			}
			rows = append(rows, r...)
		}
	}
	fill := compareFill(cmd.Context(), plans, rows, cmp)
	if f.format == "table" {
		if err := writeOut(cmd, f.out, func(w io.Writer) error { return writeModelComparison(w, cmp, rows) }); err != nil {
			return err
		}
		f.save(cmd, nil, false, fill)
		return nil
	}
	run := model.NewRun()
	if err := fill(run); err != nil {
		return interrupted(err, "points")
	}
	if err := finishRun(cmd, f.format, f.out, run); err != nil {
		return err
	}
	f.save(cmd, run, false, nil)
	return nil
}

// modelSweep is model sweep: one model over the --vary grid, streamed to a table or CSV, or held as a run.
func modelSweep(cmd *cobra.Command, args []string, f *modelFlags, plots []string, quiet bool) error {
	if err := f.resolveFormat(cmd, true); err != nil {
		return err
	}
	plotSpecs, err := parsePlots(plots)
	if err != nil {
		return err
	}
	o, err := f.options()
	if err != nil {
		return err
	}
	if len(o.Vary) == 0 {
		return fmt.Errorf("sweep needs at least one --vary, such as --vary n=2..14 (model eval evaluates one point)")
	}
	m, err := model.Open(args[0])
	if err != nil {
		return err
	}
	p, notes, err := f.plan(m, o)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	if err := savePlots(cmd, []*model.Plan{p}, o.Vary, plotSpecs); err != nil {
		return err
	}
	start := time.Now()
	points := p.Points()
	fill := func(run *result.Run) error { return p.AppendResults(cmd.Context(), run, false) }
	var saved *result.Run
	switch f.format {
	case "table":
		err = writeOut(cmd, f.out, func(w io.Writer) error { return p.WriteSweepTable(cmd.Context(), w) })
	case "wide-csv":
		err = writeOut(cmd, f.out, func(w io.Writer) error {
			n, err := p.WriteSweepCSV(cmd.Context(), w, true)
			points = n
			return err
		})
	default:
		saved = model.NewRun()
		err = fill(saved)
		if err == nil || errors.Is(err, context.Canceled) {
			if werr := finishRun(cmd, f.format, f.out, saved); werr != nil {
				return werr
			}
		}
	}
	switch {
	case f.format == "wide-csv" && !f.saves.noSave:
		// A streamed grid is too large to hold as results: the CSV
		// is the record (docs/model.md).
		if !quiet {
			fmt.Fprintln(cmd.ErrOrStderr(), "note: a wide-csv sweep is not saved in the results store: its file is the record (--format json saves one)")
		}
	case err == nil, errors.Is(err, context.Canceled) && saved != nil:
		f.save(cmd, saved, quiet, fill)
	}
	if err != nil {
		return interrupted(err, "points")
	}
	if !quiet && f.out != "" {
		el := time.Since(start)
		fmt.Fprintf(cmd.ErrOrStderr(), "%d points in %.3g s (%.3g points/s, writing included)\n", points, el.Seconds(), float64(points)/el.Seconds())
	}
	return nil
}

// modelComparePlans opens and plans each model compared (leniently when
// several: a parameter one lacks is a note), refusing one given twice.
func modelComparePlans(cmd *cobra.Command, args []string, f *modelFlags, o model.Options) ([]*model.Plan, error) {
	o.Lenient = len(args) > 1
	var plans []*model.Plan
	for _, a := range args {
		m, err := model.Open(a)
		if err != nil {
			return nil, err
		}
		for _, p := range plans {
			if p.Model.Name == m.Name {
				return nil, fmt.Errorf("model %s is given twice: compare different models, or its variants with --variant", m.Name)
			}
		}
		p, notes, err := f.plan(m, o)
		if err != nil {
			return nil, err
		}
		for _, n := range notes {
			fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
		}
		plans = append(plans, p)
	}
	if err := checkVaried(plans, o); err != nil {
		return nil, err
	}
	for _, p := range plans {
		for _, name := range p.Unused {
			fmt.Fprintf(cmd.ErrOrStderr(), "note: %s has no parameter %s: its cost does not depend on it\n", p.Model.Name, name)
		}
	}
	return plans, nil
}

// compareFill appends a comparison's results to a run: each plan's
// points, the measured rows, the crossovers as notes.
func compareFill(ctx context.Context, plans []*model.Plan, rows []model.MeasuredRow, cmp *model.Comparison) func(*result.Run) error {
	return func(run *result.Run) error {
		for _, p := range plans {
			if err := p.AppendResults(ctx, run, false); err != nil {
				return err
			}
		}
		model.MeasuredRun(run, rows)
		if cmp != nil {
			for _, s := range cmp.Statements {
				run.Environment.Notes = append(run.Environment.Notes, "crossover: "+s.Text)
			}
		}
		return nil
	}
}

// writeModelComparison is model compare's table: the crossovers, then the
// measured rows.
func writeModelComparison(w io.Writer, cmp *model.Comparison, rows []model.MeasuredRow) error {
	if cmp != nil {
		if err := cmp.WriteComparison(w); err != nil {
			return err
		}
	}
	if rows != nil {
		if cmp != nil {
			fmt.Fprintln(w)
		}
		return model.WriteMeasured(w, rows)
	}
	return nil
}
