// Package report turns runs into figures and a self-contained HTML report.
//
// Charts come from a registry of builders (Builders), each keyed on the
// subjects and metric names it draws — throughput per algorithm and input
// size, signature cost by security level, key-generation distributions,
// handshake bytes by message, energy per connection by component, overhead
// and throughput against transfer size, model sweeps, battery life — and
// each returning no chart when the runs lack its data. Adding a chart is
// adding a builder in one file; docs/store-and-reports.md lists the metric
// names each one expects, so the runners being written (TLS lab, energy,
// radio, models) light charts up by naming their metrics accordingly.
//
// Charts are drawn with gonum.org/v1/plot as SVG (inlined in the HTML, so
// the report opens offline with no script and no CDN) or PNG
// (`cryptocost plot`). Every chart carries a caption saying what it shows
// and the provenance of its numbers (measured, imported, modelled or
// estimated, and how); the report adds the tables, the environment and the
// method of every run. PlotRequest and Request are the plot and report
// commands' requests, checked before any run is read.
package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
)

// Chart is one figure: a styled plot (figure.Figure) with what the report
// says around it.
type Chart struct {
	// ID is stable across reports of the same data ("throughput-hash"),
	// for `cryptocost plot --chart ID`.
	ID    string
	Title string
	// Builder is the name of the builder that made it.
	Builder string
	// Caption says what the chart shows and how to read it.
	Caption string
	// Sources say how the plotted numbers were obtained, one line per
	// distinct label and method.
	Sources []string
	// Table holds the numbers behind the chart.
	Table *Table
	*figure.Figure
}

// newChart starts a chart in the house style.
func newChart(id, title, xLabel, yLabel string) *Chart {
	return &Chart{ID: id, Title: title, Figure: figure.New(title, xLabel, yLabel)}
}

// Check applies the readability rules (figure.Figure.Check) to the chart.
func (c *Chart) Check() error {
	if err := c.Figure.Check(); err != nil {
		return fmt.Errorf("chart %s: %w", c.ID, err)
	}
	return nil
}

// Input is what builders draw from: runs, each with a short label (A,
// B, …) used in series names when there are several.
type Input struct {
	Runs   []*result.Run
	Labels []string
}

// NewInput labels runs A, B, C….
func NewInput(runs ...*result.Run) *Input {
	in := &Input{Runs: runs}
	for i := range runs {
		in.Labels = append(in.Labels, runLabel(i))
	}
	return in
}

func runLabel(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return "R" + strconv.Itoa(i+1)
}

// item is one result with the run it came from.
type item struct {
	run   int
	label string
	r     *result.Result
	env   result.Environment
}

// results lists every result without an error, in run order.
func (in *Input) results() []item {
	var out []item
	for i, run := range in.Runs {
		for j := range run.Results {
			r := &run.Results[j]
			if r.Error == "" {
				out = append(out, item{run: i, label: in.Labels[i], r: r, env: run.Environment})
			}
		}
	}
	return out
}

// series names a series, adding the run label when the report has
// several runs.
func (in *Input) series(it item, name string) string {
	if len(in.Runs) > 1 {
		return name + " (" + it.label + ")"
	}
	return name
}

// Builder makes charts from an input; it returns none when the input
// lacks the data.
type Builder struct {
	// Name identifies the builder (`cryptocost plot --chart NAME` draws
	// all its charts).
	Name  string
	Title string
	// Expects says which subjects and metrics the builder draws: shown in
	// the report when a chart is absent, and in the docs.
	Expects string
	Build   func(in *Input) ([]*Chart, error)
}

// builders is the registry (internal/registry), in report order:
// primitives, then protocols, then models. Adding a chart is writing a
// Builder and listing it here.
var builders = func() *registry.Registry[Builder] {
	r := registry.New[Builder]("chart builder")
	for _, b := range []Builder{
		throughputBuilder, signatureBuilder, keygenBuilder, providerBuilder,
		mcuBuilder, handshakeBuilder, energyBuilder, transferBuilder,
		sweepBuilder, batteryBuilder,
	} {
		r.MustAdd(b.Name, b)
	}
	return r
}()

// Builders returns the chart builders in report order.
func Builders() []Builder { return builders.Values() }

// Pick is what `cryptocost plot --chart NAME` draws from charts: the chart
// with ID name, else every chart of the builder so named (case and
// punctuation ignored). None is an error listing the IDs there are and the
// closest.
func Pick(charts []*Chart, name string) ([]*Chart, error) {
	ids := registry.New[*Chart]("chart")
	for _, c := range charts {
		ids.Add(c.ID, c) // IDs are unique within one BuildAll
	}
	if c, ok := ids.Lookup(name); ok {
		return []*Chart{c}, nil
	}
	var picked []*Chart
	if b, ok := builders.Lookup(name); ok {
		for _, c := range charts {
			if c.Builder == b.Name {
				picked = append(picked, c)
			}
		}
	}
	if len(picked) > 0 {
		return picked, nil
	}
	if ids.Len() == 0 {
		return nil, fmt.Errorf("no chart %q: these runs hold data for no chart", name)
	}
	u := ids.Unknown(name)
	msg := fmt.Sprintf("no chart %q for these runs: want one of %s", name, strings.Join(u.Want, ", "))
	if len(u.Closest) > 0 {
		msg += "; did you mean " + strings.Join(u.Closest, ", ") + "?"
	}
	return nil, errors.New(msg)
}

// BuildAll runs every builder; absent lists the builders that found no
// data.
func BuildAll(in *Input) (charts []*Chart, absent []Builder, err error) {
	for _, b := range builders.Values() {
		cs, err := b.Build(in)
		if err != nil {
			return nil, nil, fmt.Errorf("chart %s: %w", b.Name, err)
		}
		if len(cs) == 0 {
			absent = append(absent, b)
		}
		for _, c := range cs {
			c.Builder = b.Name
		}
		charts = append(charts, cs...)
	}
	return charts, absent, nil
}

// sources collects the provenance lines of a chart's numbers.
type sources struct {
	seen  map[string]bool
	lines []string
}

func (s *sources) add(in *Input, it item, m *result.Metric) {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	line := Provenance(it.r, m)
	if len(in.Runs) > 1 {
		line = "run " + it.label + ": " + line
	}
	if !s.seen[line] {
		s.seen[line] = true
		s.lines = append(s.lines, line)
	}
}

func (s *sources) list() []string {
	out := slices.Clone(s.lines)
	sort.Strings(out)
	return out
}

// Provenance says how a metric's values were obtained, in a few words:
// its label, then the metric's method, or the result's method and source.
func Provenance(r *result.Result, m *result.Metric) string {
	label := m.Label
	if label == "" {
		label = r.Provenance.Label
	}
	var how []string
	switch {
	case m.Method != "":
		how = append(how, m.Method)
	default:
		meth := r.Provenance.Method
		if meth.Name != "" {
			s := meth.Name + " method"
			if meth.Timer != "" {
				s += ", " + meth.Timer
			}
			how = append(how, s)
		}
	}
	if r.Provenance.Source != "" {
		how = append(how, "source: "+r.Provenance.Source)
	}
	if len(how) == 0 {
		return string(label)
	}
	return string(label) + " — " + strings.Join(how, "; ")
}

// timeScale picks a unit for nanosecond values so the largest shows as
// a readable number.
func timeScale(maxSeconds float64) (div float64, unit string) {
	switch {
	case maxSeconds >= 1:
		return 1, "s"
	case maxSeconds >= 1e-3:
		return 1e-3, "ms"
	case maxSeconds >= 1e-6:
		return 1e-6, "µs"
	}
	return 1e-9, "ns"
}

// logTicks are the house style's.
type logTicks = figure.LogTicks

func colorN(i int) color.Color      { return figure.Color(i) }
func glyphN(i int) draw.GlyphDrawer { return figure.Glyph(i) }

// sizeLabel prints a byte count the way the studies' axes do.
func sizeLabel(n float64) string {
	switch {
	case n >= 1<<20 && math.Mod(n, 1<<20) == 0:
		return fmt.Sprintf("%.0f MiB", n/(1<<20))
	case n >= 1<<10 && math.Mod(n, 1<<10) == 0:
		return fmt.Sprintf("%.0f KiB", n/(1<<10))
	case n >= 1e6 && math.Mod(n, 1e6) == 0:
		return fmt.Sprintf("%.0f MB", n/1e6)
	case n >= 1e3 && math.Mod(n, 1e3) == 0:
		return fmt.Sprintf("%.0f kB", n/1e3)
	}
	return fmt.Sprintf("%.0f B", n)
}

// sizeTicks labels a log axis of byte counts at the sizes present.
type sizeTicks []float64

func (s sizeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, v := range s {
		ticks = append(ticks, plot.Tick{Value: v, Label: sizeLabel(v)})
	}
	return ticks
}
