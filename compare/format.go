package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// Format writes a comparison in one output format.
type Format interface {
	Name() string
	Description() string
	Write(w io.Writer, c *Comparison) error
}

// formats is the registry of comparison formats (internal/registry, as
// result's formats are).
var formats = func() *registry.Registry[Format] {
	r := registry.New[Format]("format")
	for _, f := range []Format{tableFormat{}, jsonFormat{}, csvFormat{}, gobenchFormat{}} {
		r.MustAdd(f.Name(), f)
	}
	return r
}()

// Formats returns the comparison formats.
func Formats() []Format { return formats.Values() }

// FormatNames lists the formats' names.
func FormatNames() []string { return formats.Names() }

// FormatByName returns the named format.
func FormatByName(name string) (Format, error) { return formats.Get(name) }

type tableFormat struct{}

func (tableFormat) Name() string { return "table" }
func (tableFormat) Description() string {
	return "benchstat-like: medians ± CI per run, change vs the first with its CI and p-value"
}

func (tableFormat) Write(w io.Writer, c *Comparison) error {
	for _, col := range c.Columns {
		parts := []string{"run " + col.RunID}
		if col.Subjects != "" {
			parts[0] += ":" + col.Subjects
		}
		for _, p := range []string{col.Kind, col.Host, col.Device, col.Platform, col.CPU, col.Tool, col.Started, col.Origin} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		fmt.Fprintf(w, "%s: %s\n", col.Name, strings.Join(parts, " · "))
	}
	notes := map[string]int{}
	var order []string
	mark := func(text string) string {
		n, ok := notes[text]
		if !ok {
			n = len(notes) + 1
			notes[text] = n
			order = append(order, text)
		}
		return fmt.Sprintf(" [%d]", n)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, g := range groups(c.Rows) {
		fmt.Fprintln(tw)
		head := []string{g[0].Metric}
		for i, col := range c.Columns {
			head = append(head, col.Name)
			if i > 0 {
				head = append(head, "vs "+c.Columns[0].Name)
			}
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, r := range g {
			line := []string{r.Subject}
			for i, cell := range r.Cells {
				line = append(line, cellString(cell, r.Unit, mark))
				if i > 0 {
					line = append(line, changeString(cell, r.Cells[0], r.Unit, mark))
				}
			}
			fmt.Fprintln(tw, strings.Join(line, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(order) > 0 || len(c.Notes) > 0 || len(c.Warnings) > 0 {
		fmt.Fprintln(w)
	}
	for _, text := range order {
		fmt.Fprintf(w, "[%d] %s\n", notes[text], text)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, n := range c.Warnings {
		fmt.Fprintf(w, "warning: %s\n", n)
	}
	return nil
}

// groups splits rows by metric, keeping first-seen order.
func groups(rows []Row) [][]Row {
	idx := map[string]int{}
	var out [][]Row
	for _, r := range rows {
		k := r.Metric + "\x00" + r.Unit
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	return out
}

func cellString(c Cell, unit string, mark func(string) string) string {
	if !c.Present {
		return "—"
	}
	s := valueString(c.Summary.Median, unit)
	if c.Summary.N > 1 {
		rel := c.Summary.RelCI()
		switch {
		case c.Summary.N < stats.MinSamplesForCI:
			s += " ± ∞" + mark(fmt.Sprintf("need ≥ %d samples for a confidence interval of the median", stats.MinSamplesForCI))
		case math.IsInf(rel, 0) || math.IsNaN(rel) || c.Summary.CILow == c.Summary.CIHigh && c.Summary.CILow == 0:
			s += " ± ?" + mark("no confidence interval given and no samples to compute one")
		default:
			s += fmt.Sprintf(" ± %s", pct(rel))
		}
	}
	if c.Label != result.Measured && c.Label != "" {
		note := string(c.Label)
		if c.Method != "" {
			note += ": " + c.Method
		}
		s += mark(note)
	}
	return s
}

func changeString(c, base Cell, unit string, mark func(string) string) string {
	ch := c.Change
	if ch == nil {
		return ""
	}
	var s string
	switch ch.Test {
	case "exact":
		switch {
		case !ch.Significant:
			s = "="
		case base.Summary.Median == 0:
			// No relative change from zero: the difference itself.
			d := c.Summary.Median - base.Summary.Median
			s = map[bool]string{true: "+", false: ""}[d > 0] + valueString(d, unit) + " (exact)"
		default:
			s = signedPct(ch.Delta) + " (exact)"
		}
	case "none":
		s = signedPct(ch.Delta) + " (not tested)"
	default:
		n := fmt.Sprintf("n=%d+%d", base.Samples, c.Samples)
		if !ch.Significant {
			s = fmt.Sprintf("~ (p=%.3f %s)", ch.P, n)
		} else {
			ci := "[CI n/a]"
			if ch.HasCI {
				ci = fmt.Sprintf("[%s, %s]", signedPct(ch.DeltaLow), signedPct(ch.DeltaHigh))
			}
			s = fmt.Sprintf("%s %s (p=%.3f %s)", signedPct(ch.Delta), ci, ch.P, n)
		}
	}
	for _, w := range ch.Warnings {
		s += mark(w)
	}
	return s
}

func pct(f float64) string {
	if math.Abs(100*f) >= 100 {
		return fmt.Sprintf("%.0f%%", 100*f)
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

func signedPct(f float64) string {
	if math.IsInf(f, 0) {
		return map[bool]string{true: "+∞", false: "−∞"}[f > 0]
	}
	if f >= 0 {
		return "+" + pct(f)
	}
	return pct(f)
}

// valueString prints a value stored in a base unit the way the result
// tables do (result.Display: "1.23 µs", "45.6 mJ").
func valueString(v float64, unit string) string { return result.Display(v, unit) }

type jsonFormat struct{}

func (jsonFormat) Name() string { return "json" }
func (jsonFormat) Description() string {
	return "the whole comparison: columns, rows, summaries and changes"
}

func (jsonFormat) Write(w io.Writer, c *Comparison) error {
	// JSON has no infinity: unbounded intervals are written as 0 with
	// n < 6 (as the result model does) and infinite deltas as null.
	out := *c
	out.Rows = make([]Row, len(c.Rows))
	for i, r := range c.Rows {
		r.Cells = slices.Clone(r.Cells)
		for j := range r.Cells {
			s := &r.Cells[j].Summary
			if math.IsInf(s.CILow, 0) || math.IsNaN(s.CILow) {
				s.CILow = 0
			}
			if math.IsInf(s.CIHigh, 0) || math.IsNaN(s.CIHigh) {
				s.CIHigh = 0
			}
			if ch := r.Cells[j].Change; ch != nil && (math.IsInf(ch.Delta, 0) || math.IsNaN(ch.Delta)) {
				cp := *ch
				cp.Delta, cp.DeltaLow, cp.DeltaHigh, cp.HasCI = 0, 0, 0, false
				cp.Warnings = append(slices.Clone(cp.Warnings), "base median is 0: no relative change")
				r.Cells[j].Change = &cp
			}
		}
		out.Rows[i] = r
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

type csvFormat struct{}

func (csvFormat) Name() string { return "csv" }
func (csvFormat) Description() string {
	return "one row per subject, metric and run after the first (long format)"
}

var csvHeader = []string{"subject", "metric", "unit", "base_run", "run", "base_label", "label",
	"base_n", "base_median", "base_ci_low", "base_ci_high", "n", "median", "ci_low", "ci_high",
	"test", "delta", "delta_ci_low", "delta_ci_high", "delta_confidence", "p", "alpha", "significant", "warnings"}

func (csvFormat) Write(w io.Writer, c *Comparison) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	f := func(v float64) string {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 8, 64)
	}
	for _, r := range c.Rows {
		base := r.Cells[0]
		for i, cell := range r.Cells[1:] {
			row := []string{r.Subject, r.Metric, r.Unit, c.Columns[0].RunID, c.Columns[i+1].RunID,
				string(base.Label), string(cell.Label)}
			for _, s := range []Cell{base, cell} {
				if s.Present {
					row = append(row, strconv.Itoa(s.Summary.N), f(s.Summary.Median), f(s.Summary.CILow), f(s.Summary.CIHigh))
				} else {
					row = append(row, "", "", "", "")
				}
			}
			if ch := cell.Change; ch != nil {
				lo, hi, conf := "", "", ""
				if ch.HasCI {
					lo, hi, conf = f(ch.DeltaLow), f(ch.DeltaHigh), f(ch.DeltaConfidence)
				}
				p := ""
				if ch.Test == "mann-whitney" {
					p = f(ch.P)
				}
				row = append(row, ch.Test, f(ch.Delta), lo, hi, conf, p, f(c.Alpha), strconv.FormatBool(ch.Significant),
					strings.Join(ch.Warnings, "; "))
			} else {
				row = append(row, "", "", "", "", "", "", f(c.Alpha), "", "")
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

type gobenchFormat struct{}

func (gobenchFormat) Name() string { return "gobench" }
func (gobenchFormat) Description() string {
	return "the compared runs in the Go benchmark format: benchstat -col cryptocost-run reproduces the comparison"
}

// Write emits each input run (narrowed to its subjects) in the result
// package's gobench format; the file-level "cryptocost-run" key tells the
// runs apart, so `benchstat -col cryptocost-run FILE` pivots on it.
func (gobenchFormat) Write(w io.Writer, c *Comparison) error {
	f := result.GobenchByRun()
	for _, in := range c.inputs {
		run := *in.Run
		run.Results = nil
		for _, r := range in.Run.Results {
			if in.keeps(r.Subject) {
				run.Results = append(run.Results, r)
			}
		}
		if err := f.Write(w, &run); err != nil {
			return err
		}
	}
	return nil
}
