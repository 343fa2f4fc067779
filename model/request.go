package model

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// This file holds the rules of a model command's request (model eval,
// sweep and compare): their flag values checked before any work, the
// plans of the models compared, and what a comparison writes and holds.

// ParseOptions parses the --set, --vary and --variant values of a
// request, refusing a parameter varied twice.
func ParseOptions(set, vary, variants []string) (Options, error) {
	var o Options
	var err error
	if o.Set, err = ParseSet(set); err != nil {
		return o, err
	}
	for _, v := range vary {
		vr, err := ParseVary(v)
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
	o.Variants = variants
	return o, nil
}

// PlanWithInputs plans m on costs with o, first reading the measured
// parameter values of the run JSON inputs (--inputs, if not empty); the
// notes say which values were read.
func PlanWithInputs(m *Model, costs *Costs, o Options, inputs string) (*Plan, []string, error) {
	var notes []string
	if inputs != "" {
		runs, err := ReadRuns(inputs)
		if err != nil {
			return nil, nil, err
		}
		o.Inputs, notes, err = ReadInputs(m, runs)
		if err != nil {
			return nil, nil, fmt.Errorf("--inputs %s: %w", inputs, err)
		}
	}
	p, err := NewPlan(m, costs, o)
	return p, notes, err
}

// PlotSpec is one --plot OUTPUT=FILE.
type PlotSpec struct{ Metric, File string }

// ParsePlots parses --plot OUTPUT=FILE values before any work.
func ParsePlots(specs []string) ([]PlotSpec, error) {
	var out []PlotSpec
	for _, s := range specs {
		metric, file, ok := strings.Cut(s, "=")
		if !ok || file == "" {
			return nil, fmt.Errorf("--plot %q: want OUTPUT=FILE, such as energy=energy.svg", s)
		}
		if _, err := LookupOutput(metric); err != nil {
			return nil, fmt.Errorf("--plot %q: %w", s, err)
		}
		if _, err := PlotFormat(file); err != nil {
			return nil, fmt.Errorf("--plot %q: %w", s, err)
		}
		out = append(out, PlotSpec{metric, file})
	}
	return out, nil
}

// SavePlots compares plans along vary's first parameter and draws each
// plot, saying on log which files it wrote; without plots it does
// nothing.
func SavePlots(ctx context.Context, log io.Writer, plans []*Plan, vary []Vary, specs []PlotSpec) error {
	if len(specs) == 0 {
		return nil
	}
	var metrics []string
	for _, s := range specs {
		if !slices.Contains(metrics, s.Metric) {
			metrics = append(metrics, s.Metric)
		}
	}
	cmp, err := Compare(ctx, plans, vary, metrics)
	if err != nil {
		return err
	}
	return cmp.SavePlots(log, specs)
}

// SavePlots draws the comparison's plots, saying on log which files it
// wrote.
func (cmp *Comparison) SavePlots(log io.Writer, specs []PlotSpec) error {
	for _, s := range specs {
		if err := cmp.SavePlot(s.Metric, s.File); err != nil {
			return err
		}
		fmt.Fprintf(log, "wrote %s\n", s.File)
	}
	return nil
}

// CompareMetrics checks a comparison's request: something to compare
// along (vary) or with (measured), known metrics, and plots only along a
// --vary. It returns the metrics with those plotted added.
func CompareMetrics(o Options, measured string, metrics []string, plots []PlotSpec) ([]string, error) {
	if len(o.Vary) == 0 && measured == "" {
		return nil, fmt.Errorf("compare needs --vary NAME=VALUES (the first is the x axis), --measured RUN.json, or both")
	}
	for _, m := range metrics {
		if _, err := LookupOutput(m); err != nil {
			return nil, fmt.Errorf("--metrics: %w", err)
		}
	}
	metrics = slices.Clone(metrics)
	for _, ps := range plots {
		if len(o.Vary) == 0 {
			return nil, fmt.Errorf("--plot needs --vary: plots show an output against the first --vary parameter")
		}
		if !slices.Contains(metrics, ps.Metric) {
			metrics = append(metrics, ps.Metric)
		}
	}
	return metrics, nil
}

// ComparePlans opens and plans (with plan) each model compared, leniently
// when several (a parameter one lacks is a note), refusing one given
// twice and a --set or --vary parameter no compared model has. The notes
// are plan's and those of the parameters a model does not depend on.
func ComparePlans(names []string, o Options, plan func(*Model, Options) (*Plan, []string, error)) ([]*Plan, []string, error) {
	o.Lenient = len(names) > 1
	var plans []*Plan
	var notes []string
	for _, a := range names {
		m, err := Open(a)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range plans {
			if p.Model.Name == m.Name {
				return nil, nil, fmt.Errorf("model %s is given twice: compare different models, or its variants with --variant", m.Name)
			}
		}
		p, n, err := plan(m, o)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, n...)
		plans = append(plans, p)
	}
	if err := CheckVaried(plans, o); err != nil {
		return nil, nil, err
	}
	for _, p := range plans {
		for _, name := range p.Unused {
			notes = append(notes, fmt.Sprintf("%s has no parameter %s: its cost does not depend on it", p.Model.Name, name))
		}
	}
	return plans, notes, nil
}

// CheckVaried refuses --set/--vary parameters no compared model has.
func CheckVaried(plans []*Plan, o Options) error {
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

// CompareAll compares each plan with the measured runs.
func CompareAll(ctx context.Context, plans []*Plan, runs []*result.Run) ([]MeasuredRow, error) {
	var rows []MeasuredRow
	for _, p := range plans {
		r, err := p.CompareMeasured(ctx, runs)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// ComparisonRun appends a comparison's results to run: each plan's
// points, the measured rows, the crossovers (cmp may be nil) as notes.
func ComparisonRun(ctx context.Context, run *result.Run, plans []*Plan, rows []MeasuredRow, cmp *Comparison) error {
	for _, p := range plans {
		if err := p.AppendResults(ctx, run, false); err != nil {
			return err
		}
	}
	MeasuredRun(run, rows)
	if cmp != nil {
		for _, s := range cmp.Statements {
			run.Environment.Notes = append(run.Environment.Notes, "crossover: "+s.Text)
		}
	}
	return nil
}

// WriteComparisonTable is model compare's table: the crossovers (cmp may
// be nil), then the measured rows (rows may be nil).
func WriteComparisonTable(w io.Writer, cmp *Comparison, rows []MeasuredRow) error {
	if cmp != nil {
		if err := cmp.WriteComparison(w); err != nil {
			return err
		}
	}
	if rows != nil {
		if cmp != nil {
			fmt.Fprintln(w)
		}
		return WriteMeasured(w, rows)
	}
	return nil
}
