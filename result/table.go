package result

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/stats"
)

func init() { registerFormat(tableFormat{}) }

type tableFormat struct{}

func (tableFormat) Name() string        { return "table" }
func (tableFormat) Description() string { return "a readable table (the default)" }

func (tableFormat) Write(w io.Writer, runs ...*Run) error {
	for i, run := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := writeTable(w, run); err != nil {
			return err
		}
	}
	return nil
}

func writeTable(w io.Writer, run *Run) error {
	env := run.Environment
	fmt.Fprintf(w, "cryptocost %s · %s · %s/%s · %s · %d CPUs · run %s\n", run.Tool.Version,
		orUnknown(env.CPUModel), env.OS, env.Arch, env.GoVersion, env.CPUs, run.ID)
	if line := env.Load.Summary(len(run.Results)); line != "" {
		fmt.Fprintln(w, line)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var primitives, others []Result
	for _, r := range run.Results {
		if r.Subject.Kind == "primitive" {
			primitives = append(primitives, r)
		} else {
			others = append(others, r)
		}
	}
	notes := map[string]int{} // footnote text -> number
	var order []string
	mark := func(text string) string {
		n, ok := notes[text]
		if !ok {
			n = len(notes) + 1
			notes[text] = n
			order = append(order, text)
		}
		return fmt.Sprintf("[%d]", n)
	}
	energy := false // energy columns only when a device priced the run
	for _, r := range primitives {
		energy = energy || r.Metric("energy") != nil
	}
	// The time column is the run's statistic: wall time, or with
	// --clock cpu the thread's CPU time (rate and throughput follow it).
	timeMetric, timeHead := "time", "TIME/OP"
	for _, r := range primitives {
		if r.Provenance.Method.Clock == "cpu" {
			timeMetric, timeHead = "cpu-time", "CPU TIME/OP"
		}
	}
	converged, measured := 0, 0
	if len(primitives) > 0 {
		head := "ALGORITHM\tPROVIDER\tOPERATION\tSIZE\t" + timeHead + "\t±95% CI\tOPS/S\tMB/S\tCYCLES/B\tALLOCS"
		if energy {
			head += "\tENERGY/OP\tNET/OP"
		}
		fmt.Fprintln(tw, head+"\tN\tSTOP")
		for _, r := range primitives {
			size := ""
			if r.Subject.InputBytes > 0 {
				size = sizeString(r.Subject.InputBytes, r.Subject.Params["input"])
			}
			if r.Error != "" {
				what := "FAILED"
				if strings.HasPrefix(r.Error, "not measured:") {
					what = "NOT MEASURED"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\t\t\t\t\t\t%s\n", r.Subject.Scheme, r.Subject.Provider,
					r.Subject.Operation, size, what, mark(r.Error))
				continue
			}
			t := r.Metric(timeMetric)
			if t == nil {
				t = r.Metric("time")
			}
			measured++
			if r.Provenance.Method.Stop == "converged" {
				converged++
			}
			row := []string{r.Subject.Scheme, r.Subject.Provider, r.Subject.Operation, size,
				Display(t.Summary.Median, t.Unit), ciString(t.Summary),
				rateString(r.Metric("rate")), throughputString(r.Metric("throughput"), mark),
				metricString(r.Metric("cycles-per-byte"), "%.2f", mark), metricString(r.Metric("allocs"), "%.0f", mark)}
			if energy {
				row = append(row, energyString(r.Metric("energy"), mark), energyString(r.Metric("energy-net"), mark))
			}
			row = append(row, fmt.Sprint(r.Provenance.Method.Samples), r.Provenance.Method.Stop)
			for _, w := range r.Warnings {
				row[len(row)-1] += mark(warningKind(w))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
	}
	if len(others) > 0 {
		if len(primitives) > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw, "SUBJECT\tMETRIC\tMEDIAN\t±95% CI\tLABEL")
		for _, r := range others {
			if r.Error != "" {
				fmt.Fprintf(tw, "%s\tFAILED %s\n", r.Subject.Name, mark(r.Error))
				continue
			}
			for i, m := range r.Metrics {
				name := r.Subject.Name
				if i > 0 {
					name = ""
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, m.Name, DisplayMetric(&m), ciString(m.Summary), m.Label)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, text := range order {
		fmt.Fprintf(w, "[%d] %s\n", notes[text], text)
	}
	if converged < measured {
		fmt.Fprintf(w, "%d of %d measured points converged (the 95%% CI of the median within the target, e.g. ±2%%: its larger half-width relative to the median); the others stopped first, see STOP\n",
			converged, measured)
	}
	if line := statusLine(run); line != "" {
		fmt.Fprintln(w, line)
	}
	return nil
}

// statusLine is the table's last line for a run that did not complete:
// its status, and its reasons when it has any ("run interrupted", never
// "run interrupted: " with nothing after it).
func statusLine(run *Run) string {
	if run.Status == Complete {
		return ""
	}
	var reasons []string
	for _, e := range run.Errors {
		if e = strings.TrimSpace(e); e != "" {
			reasons = append(reasons, e)
		}
	}
	if len(reasons) == 0 {
		return "run " + string(run.Status)
	}
	return "run " + string(run.Status) + ": " + strings.Join(reasons, "; ")
}

// warningKind is a warning's general part, before its last ": ", so a
// table gets one footnote per kind of warning, not per value (the values
// are in the row, and in full in JSON). A "not priced" warning is a
// reason, not a value after a kind: its footnote is all of it, or the
// rungs it lists and what would price it would be cut off.
func warningKind(w string) string {
	if strings.HasPrefix(w, "not priced") || strings.HasPrefix(w, "radio not priced") {
		return w
	}
	if i := strings.LastIndex(w, ": "); i > 0 {
		return w[:i]
	}
	return w
}

// energyString formats an energy metric in the unit that suits it, with
// the label footnote of metricString.
func energyString(m *Metric, mark func(string) string) string {
	if m == nil {
		return ""
	}
	s := DisplayMetric(m)
	if m.Label != Measured {
		s += mark(string(m.Label) + ": " + m.Method)
	}
	return s
}

// rateString formats operations per second with three significant figures
// and an SI prefix ("1.23M").
func rateString(m *Metric) string {
	if m == nil {
		return ""
	}
	v := m.Summary.Median
	for _, p := range []struct {
		scale  float64
		prefix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.scale {
			return sig3(v/p.scale) + p.prefix
		}
	}
	return sig3(v)
}

// throughputString is MB/s (10⁶ B/s, openssl speed's and Go's unit) with
// one decimal, footnoted when not measured.
func throughputString(m *Metric, mark func(string) string) string {
	if m == nil {
		return ""
	}
	s := fmt.Sprintf("%.1f", m.Summary.Median/1e6)
	if m.Label != Measured {
		s += mark(string(m.Label) + ": " + m.Method)
	}
	return s
}

// metricString formats a metric's median, with a footnote when it is not a
// measurement (an estimate must never look like one).
func metricString(m *Metric, format string, mark func(string) string) string {
	if m == nil {
		return ""
	}
	s := fmt.Sprintf(format, m.Summary.Median)
	if m.Label != Measured {
		s += mark(string(m.Label) + ": " + m.Method)
	}
	return s
}

func ciString(s stats.Summary) string {
	if s.N <= 1 {
		return "" // an exact value
	}
	rel := s.RelCI()
	if math.IsInf(rel, 0) || math.IsNaN(rel) {
		return "n/a"
	}
	return fmt.Sprintf("±%.1f%%", 100*rel)
}

func sizeString(n int, kind string) string {
	if kind == "count" {
		return fmt.Sprintf("×%d", n)
	}
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func sig3(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}
