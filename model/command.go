package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// This file holds model eval, sweep and compare as requests: the
// command binds its flags to a request's fields, and the runner calls
// its Check before any work and its Run; the formats a model command
// adds to the result package's; and model show.

// Request is what every evaluating model command is given: the --set,
// --vary, --variant and --inputs values, how a model's costs are opened
// and where the notes go.
type Request struct {
	Set, Vary, Variants []string
	Inputs              string
	// Costs opens a model's costs from the command's cost sources
	// (--costs, --device, --radio, --op-times: costing.OpenModelCosts,
	// supplied by the command, as package costing imports this one).
	Costs func(*Model) (*Costs, error)
	// Log is where the notes and the files written are said (stderr;
	// nil: nowhere).
	Log io.Writer
}

// Plan opens m's costs and plans m with o, first reading the --inputs
// run JSON; the notes say which values were read.
func (r *Request) Plan(m *Model, o Options) (*Plan, error) {
	costs, err := r.Costs(m)
	if err != nil {
		return nil, err
	}
	p, notes, err := PlanWithInputs(m, costs, o, r.Inputs)
	r.notes(notes)
	return p, err
}

// Open parses the options and plans the named model.
func (r *Request) Open(name string) (*Plan, Options, error) {
	o, err := ParseOptions(r.Set, r.Vary, r.Variants)
	if err != nil {
		return nil, o, err
	}
	m, err := Open(name)
	if err != nil {
		return nil, o, err
	}
	p, err := r.Plan(m, o)
	return p, o, err
}

func (r *Request) log() io.Writer {
	if r.Log == nil {
		return io.Discard
	}
	return r.Log
}

func (r *Request) notes(notes []string) {
	for _, n := range notes {
		fmt.Fprintln(r.log(), "note:", n)
	}
}

// evaluate fills a new model run; a cancelled evaluation is an
// interrupted run (its points written, exit status 130).
func evaluate(fill func(*result.Run) error) (*result.Run, error) {
	run := NewRun()
	if err := fill(run); err != nil {
		if !errors.Is(err, context.Canceled) {
			return nil, err
		}
		run.Status = result.Interrupted
	}
	return run, nil
}

// EvalRequest is model eval: one model at one point, each variant.
type EvalRequest struct {
	Request
	// Name is the model, a built-in name or a file.
	Name string
	// Detail shows every variant's parameters, messages and operations
	// (and adds Breakdown's metrics); Breakdown adds per-message and
	// per-operation metrics to the run.
	Detail, Breakdown bool

	plan *Plan
}

// Check parses the options and plans the model.
func (e *EvalRequest) Check() (err error) {
	e.plan, _, err = e.Open(e.Name)
	return err
}

// Run evaluates the point (each variant) into a model run.
func (e *EvalRequest) Run(ctx context.Context) (*result.Run, error) {
	return evaluate(func(run *result.Run) error { return e.plan.AppendResults(ctx, run, e.Breakdown || e.Detail) })
}

// Table is model eval's table (Plan.WriteEval), evaluated with ctx.
func (e *EvalRequest) Table(ctx context.Context) result.Format {
	return Table(func(w io.Writer) error { return e.plan.WriteEval(ctx, w, e.Detail) })
}

// SweepRequest is model sweep: one model over the --vary grid, streamed
// as a table or a wide CSV (Stream), or held as a run (Run).
type SweepRequest struct {
	Request
	// Name is the model, a built-in name or a file.
	Name string
	// Plots are the --plot OUTPUT=FILE values, drawn against the first
	// --vary.
	Plots []string

	plan    *Plan
	written int
}

// Check parses the plots and the options, refuses a sweep of one point,
// plans the model and draws the plots.
func (s *SweepRequest) Check(ctx context.Context) error {
	specs, err := ParsePlots(s.Plots)
	if err != nil {
		return err
	}
	if len(s.Vary) == 0 {
		return fmt.Errorf("sweep needs at least one --vary, such as --vary n=2..14 (model eval evaluates one point)")
	}
	p, o, err := s.Open(s.Name)
	if err != nil {
		return err
	}
	s.plan = p
	return SavePlots(ctx, s.log(), []*Plan{p}, o.Vary, specs)
}

// Run evaluates every point into a model run.
func (s *SweepRequest) Run(ctx context.Context) (*result.Run, error) {
	return evaluate(func(run *result.Run) error { return s.plan.AppendResults(ctx, run, false) })
}

// Points is how many points the grid has.
func (s *SweepRequest) Points() int { return s.plan.Points() }

// Stream writes the sweep to w point by point: its table for format
// "table", else its wide CSV (with the header). A cancelled stream keeps
// what it wrote and returns the cancellation.
func (s *SweepRequest) Stream(ctx context.Context, w io.Writer, format string) error {
	s.written = s.plan.Points()
	if format == "table" {
		return s.plan.WriteSweepTable(ctx, w)
	}
	n, err := s.plan.WriteSweepCSV(ctx, w, true)
	s.written = n
	return err
}

// Written is how many points Stream wrote.
func (s *SweepRequest) Written() int { return s.written }

// StreamedRun is the run a streamed sweep is saved as, or nil: a table
// sweep's points are evaluated again into a run, unless the grid is too
// large to hold as results (the note says why); a wide-csv sweep is not
// saved, its file is the record (docs/model.md; the note says so unless
// quiet).
func (s *SweepRequest) StreamedRun(ctx context.Context, format string, quiet bool) *result.Run {
	if format == "wide-csv" {
		if !quiet {
			fmt.Fprintln(s.log(), "note: a wide-csv sweep is not saved in the results store: its file is the record (--format json saves one)")
		}
		return nil
	}
	run := NewRun()
	if err := s.plan.AppendResults(ctx, run, false); err != nil {
		fmt.Fprintf(s.log(), "note: run not saved: %v\n", err)
		return nil
	}
	return run
}

// SweepTiming is the note of a sweep written to a file: its points per
// second since now, writing included, on log; quiet, nothing.
func SweepTiming(log io.Writer, quiet bool) func(points int) {
	start := time.Now()
	return func(points int) {
		if !quiet {
			el := time.Since(start)
			fmt.Fprintf(log, "%d points in %.3g s (%.3g points/s, writing included)\n", points, el.Seconds(), float64(points)/el.Seconds())
		}
	}
}

// CompareRequest is model compare: models along --vary (crossovers in
// words, plots) or with the measurements of runs, or both.
type CompareRequest struct {
	Request
	// Names are the models compared, built-in names or files.
	Names []string
	// Metrics are the outputs compared; Plots the --plot OUTPUT=FILE
	// values; Measured the run JSON compared with (or the built-in
	// reference run s003; empty: none).
	Metrics, Plots []string
	Measured       string

	o       Options
	metrics []string
	plots   []PlotSpec
	runs    []*result.Run
	plans   []*Plan
	cmp     *Comparison
	rows    []MeasuredRow
}

// Check checks the request and plans the models compared.
func (c *CompareRequest) Check() error {
	var err error
	if c.plots, err = ParsePlots(c.Plots); err != nil {
		return err
	}
	if c.o, err = ParseOptions(c.Set, c.Vary, c.Variants); err != nil {
		return err
	}
	if c.metrics, err = CompareMetrics(c.o, c.Measured, c.Metrics, c.plots); err != nil {
		return err
	}
	if c.Measured != "" {
		if c.runs, err = ReadMeasured(c.Measured); err != nil {
			return err
		}
	}
	var notes []string
	c.plans, notes, err = ComparePlans(c.Names, c.o, func(m *Model, o Options) (*Plan, []string, error) {
		p, err := c.Plan(m, o)
		return p, nil, err
	})
	c.notes(notes)
	return err
}

// Run compares the plans along --vary (drawing the plots) and with the
// measured runs, and holds it all as a run.
func (c *CompareRequest) Run(ctx context.Context) (*result.Run, error) {
	var err error
	if len(c.o.Vary) > 0 {
		if c.cmp, err = Compare(ctx, c.plans, c.o.Vary, c.metrics); err != nil {
			return nil, err
		}
		if err := c.cmp.SavePlots(c.log(), c.plots); err != nil {
			return nil, err
		}
	}
	if c.Measured != "" {
		if c.rows, err = CompareAll(ctx, c.plans, c.runs); err != nil {
			return nil, err
		}
	}
	return evaluate(func(run *result.Run) error { return ComparisonRun(ctx, run, c.plans, c.rows, c.cmp) })
}

// Table is model compare's table (WriteComparisonTable).
func (c *CompareRequest) Table() result.Format {
	return Table(func(w io.Writer) error { return WriteComparisonTable(w, c.cmp, c.rows) })
}

// Table is a model command's own table, written in place of the result
// package's: the run it is given is the same evaluation's.
type Table func(w io.Writer) error

// Name is "table", the format it replaces.
func (Table) Name() string { return "table" }

// Description describes the format.
func (Table) Description() string { return "the model's table" }

// Write writes the table; the runs are the same evaluation's.
func (t Table) Write(w io.Writer, _ ...*result.Run) error { return t(w) }

// WideCSV is model sweep's streamed grid, one row per point: a name for
// --format only, written by Plan.WriteSweepCSV, never as a run.
type WideCSV struct{}

// Name is "wide-csv".
func (WideCSV) Name() string { return "wide-csv" }

// Description describes the format.
func (WideCSV) Description() string { return "one row per point, streamed (model sweep)" }

// Write refuses: wide-csv is not a run format.
func (WideCSV) Write(io.Writer, ...*result.Run) error {
	return fmt.Errorf("wide-csv streams a sweep's points: it is not a run format")
}

// FormatHelp lists a model command's formats for --help: the model's
// own table first, then extra (if any), then the result formats but the
// generic table (the model's replaces it).
func FormatHelp(extra string) string {
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

// Show is model show: the model's or cost table's description (arg, a
// built-in name or a file), or with yaml its YAML source.
func Show(w io.Writer, arg string, yaml bool) error {
	m, t, err := OpenAny(arg)
	if err != nil {
		return err
	}
	if t != nil {
		if yaml {
			return WriteSource(w, t.File)
		}
		return WriteCostTable(w, t)
	}
	if yaml {
		return WriteSource(w, m.File)
	}
	return WriteModel(w, m)
}
