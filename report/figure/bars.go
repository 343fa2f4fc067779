package figure

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bars are horizontal bars, one per category row (row i at y = i), each
// spanning [Lo[i], Hi[i]] along x: a plain bar from zero, or one part of
// a stacked bar. Unlike gonum's BarChart they can sit on a log axis: a
// bar from zero starts at the axis minimum there.
type Bars struct {
	Lo, Hi []float64
	// Thickness of each bar.
	Thickness vg.Length
	// Offset moves the bars along y from their row (bars of several
	// series side by side in one row).
	Offset vg.Length
	Color  color.Color
	draw.LineStyle
}

// NewBars makes bars from zero to each value.
func NewBars(values []float64, c color.Color) *Bars {
	return &Bars{Lo: make([]float64, len(values)), Hi: append([]float64(nil), values...), Thickness: vg.Points(9), Color: c,
		LineStyle: draw.LineStyle{Width: 0}}
}

// StackOn makes bars that continue each of below's bars by values.
func StackOn(below *Bars, values []float64, c color.Color) *Bars {
	b := NewBars(values, c)
	for i := range values {
		b.Lo[i] = below.Hi[i]
		b.Hi[i] = below.Hi[i] + values[i]
	}
	return b
}

// Plot implements plot.Plotter.
func (b *Bars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	_, isLog := plt.X.Scale.(plot.LogScale)
	for i := range b.Hi {
		lo, hi := b.Lo[i], b.Hi[i]
		if hi <= lo {
			continue
		}
		if isLog && lo <= 0 {
			lo = plt.X.Min
		}
		if isLog && hi <= 0 {
			continue
		}
		y := trY(float64(i)) + b.Offset
		if !c.ContainsY(y) {
			continue
		}
		x0, x1 := trX(max(lo, plt.X.Min)), trX(min(hi, plt.X.Max))
		pts := []vg.Point{{X: x0, Y: y - b.Thickness/2}, {X: x1, Y: y - b.Thickness/2},
			{X: x1, Y: y + b.Thickness/2}, {X: x0, Y: y + b.Thickness/2}}
		poly := c.ClipPolygonX(pts)
		c.FillPolygon(b.Color, poly)
		if b.LineStyle.Width > 0 {
			c.StrokeLines(b.LineStyle, c.ClipLinesX(append(pts, pts[0]))...)
		}
	}
}

// DataRange implements plot.DataRanger: x from the lowest part's start
// (or its end, for a part from zero, which a log axis cannot show) to the
// highest end.
func (b *Bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for i := range b.Hi {
		if b.Lo[i] > 0 {
			xmin = min(xmin, b.Lo[i])
		} else {
			xmin = min(xmin, 0)
		}
		xmax = max(xmax, b.Hi[i])
	}
	return xmin, xmax, -0.5, float64(len(b.Hi)) - 0.5
}

// Thumbnail implements plot.Thumbnailer.
func (b *Bars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(b.Color, c.ClipPolygonY(pts))
}
