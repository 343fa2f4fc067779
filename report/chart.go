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
// method of every run.
package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is one figure.
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
	Plot  *plot.Plot
	// Legend entries are drawn below the plot, in columns, so they never
	// cover data.
	Legend []LegendEntry
	Width  vg.Length
	Height vg.Length
}

// LegendEntry is one series' name and its swatch.
type LegendEntry struct {
	Name   string
	Thumbs []plot.Thumbnailer
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

// builders is the registry, in report order: primitives, then protocols,
// then models. Adding a chart is writing a Builder and listing it here.
var builders = []Builder{
	throughputBuilder, signatureBuilder, keygenBuilder, providerBuilder,
	handshakeBuilder, energyBuilder, transferBuilder,
	sweepBuilder, batteryBuilder,
}

// Builders returns the chart builders in report order.
func Builders() []Builder { return slices.Clone(builders) }

// BuildAll runs every builder; absent lists the builders that found no
// data.
func BuildAll(in *Input) (charts []*Chart, absent []Builder, err error) {
	for _, b := range builders {
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

// Sizes.
const (
	defaultWidth  = 17 * vg.Centimeter
	defaultHeight = 10 * vg.Centimeter
)

// The typeface of every chart: Liberation Sans, which gonum/plot bundles
// for layout and the HTML report embeds, so text measures the same when
// drawn and when displayed.
var (
	sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// palette is Okabe & Ito's colour-blind-safe palette ("Color Universal
// Design", 2008), black last.
var palette = []color.RGBA{
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x00, 0x00, 0x00, 0xFF}, // black
}

func colorN(i int) color.Color { return palette[i%len(palette)] }

// newPlot makes a plot with cryptocost's fonts and grid.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Title.TextStyle.Font = font.From(sansFont, 12)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sansFont, 10)
		a.Tick.Label.Font = font.From(sansFont, 8)
	}
	p.Legend.TextStyle.Font = font.From(sansFont, 8)
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	return p
}

// glyphShapes cycle with the colours so series differ in print too.
var glyphShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

func glyphN(i int) draw.GlyphDrawer { return glyphShapes[(i/len(palette)+i)%len(glyphShapes)] }

// Render writes the chart as "svg" or "png".
func (c *Chart) Render(w io.Writer, format string) error {
	width, height := c.Width, c.Height
	if width == 0 {
		width = defaultWidth
	}
	if height == 0 {
		height = defaultHeight
	}
	legendH, cols, colW := c.legendLayout(width)
	total := height + legendH
	var canvas vg.CanvasWriterTo
	switch strings.ToLower(format) {
	case "svg":
		canvas = vgsvg.New(width, total)
	case "png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, total), vgimg.UseDPI(150),
			vgimg.UseBackgroundColor(color.White))}
	default:
		return fmt.Errorf("unknown image format %q: want svg or png", format)
	}
	dc := draw.New(canvas)
	c.Plot.Draw(draw.Crop(dc, 0, 0, legendH, 0))
	if len(c.Legend) > 0 {
		c.drawLegend(draw.Crop(dc, 0, 0, 0, -height), cols, colW)
	}
	if format == "svg" {
		var buf bytes.Buffer
		if _, err := canvas.WriteTo(&buf); err != nil {
			return err
		}
		_, err := w.Write(withFallbackFonts(buf.Bytes()))
		return err
	}
	_, err := canvas.WriteTo(w)
	return err
}

const (
	legendFontSize = 8
	legendPadding  = vg.Length(2)
)

func (c *Chart) legendLayout(width vg.Length) (height vg.Length, cols int, colW vg.Length) {
	if len(c.Legend) == 0 {
		return 0, 0, 0
	}
	f := plot.DefaultTextHandler.Cache().Lookup(font.From(sansFont, legendFontSize), legendFontSize)
	maxW := vg.Length(0)
	for _, e := range c.Legend {
		maxW = max(maxW, f.Width(e.Name))
	}
	colW = maxW + 30 // thumbnail and gaps
	cols = max(1, int((width-20)/colW))
	rows := (len(c.Legend) + cols - 1) / cols
	lineH := f.Extents().Height + legendPadding
	return vg.Length(rows)*lineH + 12, cols, colW
}

func (c *Chart) drawLegend(dc draw.Canvas, cols int, colW vg.Length) {
	rows := (len(c.Legend) + cols - 1) / cols
	for col := range cols {
		l := plot.NewLegend()
		l.TextStyle.Font = font.From(sansFont, legendFontSize)
		l.Top, l.Left = true, true
		l.ThumbnailWidth = 16
		l.Padding = legendPadding
		for _, e := range c.Legend[min(col*rows, len(c.Legend)):min((col+1)*rows, len(c.Legend))] {
			l.Add(e.Name, e.Thumbs...)
		}
		x0 := 10 + vg.Length(col)*colW
		l.Draw(draw.Crop(dc, x0, -(dc.Max.X - dc.Min.X - x0 - colW), 0, -5))
	}
}

var svgFamily = regexp.MustCompile(`font-family:(Liberation (Sans|Serif|Mono));`)

// withFallbackFonts adds metric-compatible fallbacks to the SVG's
// font-family declarations (Liberation Sans is metric-compatible with
// Arial and Helvetica), for viewers of a lone SVG file without Liberation.
func withFallbackFonts(svg []byte) []byte {
	return svgFamily.ReplaceAllFunc(svg, func(m []byte) []byte {
		fam := string(svgFamily.FindSubmatch(m)[1])
		generic := map[string]string{"Liberation Sans": "Arial,Helvetica,sans-serif",
			"Liberation Serif": "'Times New Roman',serif", "Liberation Mono": "'Courier New',monospace"}[fam]
		return []byte("font-family:'" + fam + "'," + generic + ";")
	})
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

// logTicks labels a log axis at 1, 2 and 5 × 10ⁿ when it spans few
// decades, at powers of ten otherwise; gonum's LogTicks labels only
// powers of ten, leaving a narrow range with one label or none.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= 0 || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	decades := math.Log10(hi) - math.Log10(lo)
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := base * float64(m)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (decades <= 3 && (m == 2 || m == 5)) {
				t.Label = tickLabel(v)
			}
			ticks = append(ticks, t)
		}
	}
	labelled := 0
	for _, t := range ticks {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		// Less than one decade shown with no 1-2-5 value inside: label
		// the ends.
		return append(ticks, plot.Tick{Value: lo, Label: tickLabel(lo)}, plot.Tick{Value: hi, Label: tickLabel(hi)})
	}
	return ticks
}

func tickLabel(v float64) string {
	switch {
	case v >= 1e6 || v < 1e-3:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

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

// plainTicks are gonum's default linear ticks with plain number labels
// (2500, not 2500.00).
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}
