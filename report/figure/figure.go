// Package figure is the house style of every chart cryptocost draws — the
// report's, `cryptocost plot`'s, `model compare --plot`'s and `radio
// simulate --plot`'s — and the rules that keep a chart readable.
//
// A Figure is a gonum.org/v1/plot plot with Liberation Sans throughout,
// the Okabe & Ito colour-blind-safe palette, plain tick labels, and its
// legend drawn below the plot area in columns, so it never covers data and
// never clips. A standalone SVG embeds the font it was laid out with, so
// text measures the same on a machine without it; SVG inlined in the HTML
// report leaves that to the page, which embeds the font once.
//
// Builders record what they draw on each value axis (Figure.Drew) and the
// category labels (Figure.Categories); Finish puts an axis on a log scale
// when its values span more than two decades, and Check applies the
// readability rules — log axes where values span more than two decades,
// at most MaxLegend legend entries, unique labels, titles that fit — so a
// test can hold every chart to them.
//
// gonum/plot is the library; this package only styles it. The one plotter
// written here, Bars, exists because gonum's BarChart draws from zero,
// which a log axis cannot show.
package figure

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Default sizes: a column of an A4 page.
const (
	DefaultWidth  = 17 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
)

// Sans is the typeface of every chart: Liberation Sans, which gonum/plot
// bundles for layout (codeberg.org/go-fonts/liberation) and the HTML
// report and standalone SVGs embed, so text measures the same when drawn
// and when displayed. It is metric-compatible with Arial and Helvetica.
var Sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// Font sizes, points.
const (
	TitleSize  = 12
	LabelSize  = 10
	TickSize   = 8
	LegendSize = 8
)

// palette is Okabe & Ito's colour-blind-safe palette ("Color Universal
// Design", 2008) and, to give each of MaxLegend series its own colour,
// four of Paul Tol's "muted" scheme (SRON/EPS/TN/09-002, 2021) that stay
// apart from them; black last.
var palette = []color.RGBA{
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x88, 0x22, 0x55, 0xFF}, // Tol wine
	{0x99, 0x99, 0x33, 0xFF}, // Tol olive
	{0x33, 0x22, 0x88, 0xFF}, // Tol indigo
	{0xDD, 0xDD, 0xDD, 0xFF}, // Tol pale grey
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// Color is the i-th series colour.
func Color(i int) color.Color { return palette[i%len(palette)] }

// glyphShapes cycle with the colours, offset once the colours wrap, so
// series differ in shape too (in print, and past eight series).
var glyphShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// Glyph is the i-th series glyph.
func Glyph(i int) draw.GlyphDrawer { return glyphShapes[(i/len(palette)+i)%len(glyphShapes)] }

// LegendEntry is one series' name and its swatch.
type LegendEntry struct {
	Name   string
	Thumbs []plot.Thumbnailer
}

// Axis names a value axis.
type Axis int

const (
	X Axis = iota
	Y
)

func (a Axis) String() string { return [...]string{"x", "y"}[a] }

// Figure is one styled plot with its legend and what it draws.
type Figure struct {
	Plot *plot.Plot
	// Legend entries are drawn below the plot, in columns.
	Legend []LegendEntry
	// Width and Height of the plot area with its axes (the legend adds
	// its own height); zero means the defaults.
	Width, Height vg.Length

	drawn      [2][]float64
	categories []string
}

// New makes a figure with cryptocost's fonts, plain ticks and a title.
func New(title, xLabel, yLabel string) *Figure {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Title.TextStyle.Font = font.From(Sans, TitleSize)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(Sans, LabelSize)
		a.Tick.Label.Font = font.From(Sans, TickSize)
	}
	p.Legend.TextStyle.Font = font.From(Sans, LegendSize)
	p.X.Tick.Marker, p.Y.Tick.Marker = PlainTicks{}, PlainTicks{}
	return &Figure{Plot: p}
}

// Drew records values drawn along an axis, for Finish and Check.
func (f *Figure) Drew(a Axis, vals ...float64) { f.drawn[a] = append(f.drawn[a], vals...) }

// Categories sets the category labels of the y axis (bars, dot plots),
// top row last as gonum draws them.
func (f *Figure) Categories(names ...string) {
	f.categories = append([]string(nil), names...)
	f.Plot.NominalY(names...)
}

// AddLegend adds a legend entry.
func (f *Figure) AddLegend(name string, thumbs ...plot.Thumbnailer) {
	f.Legend = append(f.Legend, LegendEntry{Name: name, Thumbs: thumbs})
}

// Finish puts each value axis whose drawn values span more than
// MaxLinearDecades decades on a log scale (with 1-2-5 ticks), unless it is
// on one already. An axis with a value ≤ 0 stays linear: a log axis cannot
// show it (Check then reports the axis if it spans too much).
func (f *Figure) Finish() {
	for a, axis := range []*plot.Axis{&f.Plot.X, &f.Plot.Y} {
		_, isLog := axis.Scale.(plot.LogScale)
		if d, ok := decades(f.drawn[a]); !isLog && ok && d > MaxLinearDecades {
			axis.Scale = plot.LogScale{}
			axis.Tick.Marker = LogTicks{}
			if axis.Label.Text != "" && !strings.Contains(axis.Label.Text, "log") {
				axis.Label.Text += ", log scale"
			}
			isLog = true
		}
		if lo := minPositive(f.drawn[a]); isLog && (axis.Min <= 0 || axis.Min > lo) {
			axis.Min = lo / 1.5 // a bar's base, or room below the lowest point
		}
	}
}

// Render writes the figure as "svg" (a standalone file with its font
// embedded), "png" (150 dpi, white background) or "pdf".
func (f *Figure) Render(w io.Writer, format string) error {
	return f.render(w, strings.ToLower(format), true)
}

// RenderInline writes SVG for inlining in a page that declares the font
// itself (the HTML report): no font embedded, metric-compatible fallbacks
// named.
func (f *Figure) RenderInline(w io.Writer) error { return f.render(w, "svg", false) }

func (f *Figure) size() (width, height vg.Length) {
	width, height = f.Width, f.Height
	if width == 0 {
		width = DefaultWidth
	}
	if height == 0 {
		height = DefaultHeight
	}
	return width, height
}

func (f *Figure) render(w io.Writer, format string, embed bool) error {
	width, height := f.size()
	legendH, cols, colW := f.legendLayout(width)
	total := height + legendH
	var canvas vg.CanvasWriterTo
	switch format {
	case "svg":
		canvas = vgsvg.NewWith(vgsvg.UseWH(width, total), vgsvg.EmbedFonts(embed))
	case "png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, total), vgimg.UseDPI(150),
			vgimg.UseBackgroundColor(color.White))}
	case "pdf":
		pdf := vgpdf.New(width, total)
		pdf.EmbedFonts(true)
		canvas = pdf
	default:
		return fmt.Errorf("unknown image format %q: want svg, png or pdf", format)
	}
	dc := draw.New(canvas)
	f.drawPlot(draw.Crop(dc, 0, 0, legendH, 0))
	if len(f.Legend) > 0 {
		f.drawLegend(draw.Crop(dc, 0, 0, 0, -height), cols, colW)
	}
	if format != "svg" {
		_, err := canvas.WriteTo(w)
		return err
	}
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return err
	}
	_, err := w.Write(withFallbackFonts(buf.Bytes()))
	return err
}

// drawPlot draws the plot with its axis labels centred on the data area.
// gonum/plot v0.17 reserves room for an axis label around the data's
// arithmetic midpoint (Axis.GlyphBoxes: Norm(½(Min+Max))) but draws it at
// the canvas centre; on a log axis the midpoint is near the top, so the
// data area shrank by up to half the label's length. Here gonum lays out
// a one-space label of the same height, and the label is drawn after.
func (f *Figure) drawPlot(c draw.Canvas) {
	p := f.Plot
	xl, yl := p.X.Label.Text, p.Y.Label.Text
	blank := func(s string) string {
		if s == "" {
			return ""
		}
		return " "
	}
	p.X.Label.Text, p.Y.Label.Text = blank(xl), blank(yl)
	defer func() { p.X.Label.Text, p.Y.Label.Text = xl, yl }()
	p.Draw(c)
	da := p.DataCanvas(c)
	if xl != "" {
		sty := p.X.Label.TextStyle
		c.FillText(sty, vg.Point{X: da.Center().X, Y: c.Min.Y + sty.FontExtents().Descent}, xl)
	}
	if yl != "" {
		sty := p.Y.Label.TextStyle
		sty.Rotation += math.Pi / 2
		x := c.Min.X + p.Y.Label.TextStyle.Height(yl) - p.Y.Label.TextStyle.FontExtents().Descent
		c.FillText(sty, vg.Point{X: x, Y: da.Center().Y}, yl)
	}
}

const legendPadding = vg.Length(2)

func (f *Figure) legendLayout(width vg.Length) (height vg.Length, cols int, colW vg.Length) {
	if len(f.Legend) == 0 {
		return 0, 0, 0
	}
	face := plot.DefaultTextHandler.Cache().Lookup(font.From(Sans, LegendSize), LegendSize)
	maxW := vg.Length(0)
	for _, e := range f.Legend {
		maxW = max(maxW, face.Width(e.Name))
	}
	colW = maxW + 30 // thumbnail and gaps
	cols = max(1, int((width-20)/colW))
	rows := (len(f.Legend) + cols - 1) / cols
	lineH := face.Extents().Height + legendPadding
	return vg.Length(rows)*lineH + 12, cols, colW
}

func (f *Figure) drawLegend(dc draw.Canvas, cols int, colW vg.Length) {
	rows := (len(f.Legend) + cols - 1) / cols
	for col := range cols {
		l := plot.NewLegend()
		l.TextStyle.Font = font.From(Sans, LegendSize)
		l.Top, l.Left = true, true
		l.ThumbnailWidth = 16
		l.Padding = legendPadding
		for _, e := range f.Legend[min(col*rows, len(f.Legend)):min((col+1)*rows, len(f.Legend))] {
			l.Add(e.Name, e.Thumbs...)
		}
		x0 := 10 + vg.Length(col)*colW
		l.Draw(draw.Crop(dc, x0, -(dc.Max.X - dc.Min.X - x0 - colW), 0, -5))
	}
}

var svgFamily = regexp.MustCompile(`font-family:(Liberation (Sans|Serif|Mono));`)

// withFallbackFonts adds metric-compatible fallbacks to the SVG's
// font-family declarations (Liberation Sans is metric-compatible with
// Arial and Helvetica), for a viewer that cannot use the embedded font.
func withFallbackFonts(svg []byte) []byte {
	return svgFamily.ReplaceAllFunc(svg, func(m []byte) []byte {
		fam := string(svgFamily.FindSubmatch(m)[1])
		generic := map[string]string{"Liberation Sans": "Arial,Helvetica,sans-serif",
			"Liberation Serif": "'Times New Roman',serif", "Liberation Mono": "'Courier New',monospace"}[fam]
		return []byte("font-family:'" + fam + "'," + generic + ";")
	})
}
