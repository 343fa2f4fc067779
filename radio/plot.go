package radio

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strings"

	"github.com/cryptocost/cryptocost/report/figure"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// PlotFormats are the file types Plot writes, by extension.
var PlotFormats = []string{"svg", "png", "pdf"}

// PlotFormat returns the plot format for a file name, or an error that says
// which extensions work.
func PlotFormat(file string) (string, error) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
	for _, f := range PlotFormats {
		if ext == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("plot file %q: want a name ending in .svg, .png or .pdf", file)
}

// phaseColors make phases recognisable across plots.
var phaseColors = map[Phase]color.RGBA{
	Promotion: {R: 0xe6, G: 0x8a, B: 0x00, A: 0xff},
	Transfer:  {R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	Tail:      {R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	Idle:      {R: 0x99, G: 0x99, B: 0x99, A: 0xff},
}

// maxPlotSegments bounds what a plot draws; longer timelines are drawn
// with neighbouring segments of a phase merged at their average power.
const maxPlotSegments = 4000

// Plot writes the breakdown's timeline, power over time coloured by phase,
// in format (svg, png or pdf) to w.
func Plot(w io.Writer, b *Breakdown, title, format string) error {
	rects := rectangles(b)
	maxW := 0.0
	for _, r := range rects {
		maxW = max(maxW, r.y1)
	}
	unit, scale := "W", 1.0
	if maxW < 0.1 {
		unit, scale = "mW", 1e3
	}
	// The report's style (report/figure): its fonts, the legend below the
	// plot (never over the curve), the font embedded in an SVG. The power
	// axis stays linear whatever its span: the area under the curve is the
	// energy, which a log axis would misdraw.
	f := figure.New(title, "time since the first packet (s)", "radio power ("+unit+"), modelled")
	p := f.Plot
	p.Y.Min = 0
	p.Y.Max = 1.05 * maxW * scale
	total := b.Total()
	for _, ph := range Phases {
		var rings []plotter.XYer
		for _, r := range rects {
			if r.phase == ph {
				rings = append(rings, plotter.XYs{{X: r.x0, Y: r.y0 * scale}, {X: r.x1, Y: r.y0 * scale},
					{X: r.x1, Y: r.y1 * scale}, {X: r.x0, Y: r.y1 * scale}})
			}
		}
		if len(rings) == 0 {
			continue
		}
		poly, err := plotter.NewPolygon(rings...)
		if err != nil {
			return err
		}
		poly.Color = phaseColors[ph]
		poly.LineStyle.Width = 0
		p.Add(poly)
		share := 0.0
		if total > 0 {
			share = 100 * b.Energy(ph) / total
		}
		f.AddLegend(fmt.Sprintf("%s %.3g J (%.0f %%)", ph, b.Energy(ph), share), poly)
	}
	for _, r := range rects {
		f.Drew(figure.X, r.x0, r.x1)
	}
	f.Width, f.Height = 8*vg.Inch, 4*vg.Inch
	return f.Render(w, format)
}

// rect is a filled area of the plot: seconds on x, watts on y.
type rect struct {
	x0, x1, y0, y1 float64
	phase          Phase
}

// rectangles draws each segment at its average power, or, for a timeline
// longer than maxPlotSegments, the average power of each phase over equal
// time bins, stacked: energy is kept, only detail is lost.
func rectangles(b *Breakdown) []rect {
	span := (b.End - b.Start).Seconds()
	var out []rect
	if len(b.Segments) <= maxPlotSegments || span <= 0 {
		for _, s := range b.Segments {
			if s.End > s.Start {
				out = append(out, rect{(s.Start - b.Start).Seconds(), (s.End - b.Start).Seconds(), 0, s.PowerW(), s.Phase})
			}
		}
		return out
	}
	bins := maxPlotSegments / len(Phases)
	width := span / float64(bins)
	energy := make([]map[Phase]float64, bins)
	for i := range energy {
		energy[i] = map[Phase]float64{}
	}
	for _, s := range b.Segments {
		x0, x1 := (s.Start - b.Start).Seconds(), (s.End - b.Start).Seconds()
		if x1 <= x0 {
			energy[min(int(x0/width), bins-1)][s.Phase] += s.EnergyJ
			continue
		}
		for i := int(x0 / width); i < bins && float64(i)*width < x1; i++ {
			lo, hi := max(x0, float64(i)*width), min(x1, float64(i+1)*width)
			energy[i][s.Phase] += s.EnergyJ * (hi - lo) / (x1 - x0)
		}
	}
	for i, e := range energy {
		y := 0.0
		for _, ph := range Phases {
			if e[ph] > 0 {
				out = append(out, rect{float64(i) * width, float64(i+1) * width, y, y + e[ph]/width, ph})
				y += e[ph] / width
			}
		}
	}
	return out
}
