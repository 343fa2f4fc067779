package model

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/report/figure"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// PlotFormats are the image formats plots can be written in.
var PlotFormats = []string{"png", "svg"}

// PlotFormat returns the plot format of a file name, from its extension.
func PlotFormat(file string) (string, error) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
	for _, f := range PlotFormats {
		if ext == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("plot file %q: want a .png or .svg file name", file)
}

// Plot draws metric against the x parameter, one line per model variant
// and condition (S003's figures 6.4 and 6.5), in format "png" or "svg",
// in the report's style (report/figure): its legend below the plot, a log
// axis where values span more than two decades, the font embedded in an
// SVG. A comparison with more lines than a legend can name is refused:
// compare fewer variants (--variant) or models.
func (cmp *Comparison) Plot(w io.Writer, metric, format string) error {
	f, err := cmp.Figure(metric)
	if err != nil {
		return err
	}
	return f.Render(w, format)
}

// Figure is the plot of metric as a figure.Figure (Plot renders it).
func (cmp *Comparison) Figure(metric string) (*figure.Figure, error) {
	o, err := LookupOutput(metric)
	if err != nil {
		return nil, err
	}
	if !cmp.hasMetric(metric) {
		return nil, fmt.Errorf("the comparison has no %s: compare it (--metrics %s)", metric, metric)
	}
	title := strings.ToUpper(o.Name[:1]) + o.Name[1:]
	if cmp.Per != "" {
		title += " per " + cmp.Per
	}
	xLabel := cmp.X.Param
	if cmp.XUnit != "" {
		xLabel += " (" + cmp.XUnit + ")"
	}
	f := figure.New(title, xLabel, fmt.Sprintf("%s (%s, modelled)", o.Name, o.Display()))
	f.Plot.Add(plotter.NewGrid())
	i := 0
	for _, l := range cmp.Lines {
		ys := l.Y[metric]
		pts := make(plotter.XYs, 0, len(ys))
		for j, y := range ys {
			if finite(y) {
				pts = append(pts, plotter.XY{X: cmp.X.Values[j], Y: o.Shown(y)})
				f.Drew(figure.X, cmp.X.Values[j])
				f.Drew(figure.Y, o.Shown(y))
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = figure.Color(i), vg.Points(1.2)
		points.Color, points.Shape, points.Radius = figure.Color(i), figure.Glyph(i), vg.Points(2.5)
		f.Plot.Add(line, points)
		f.AddLegend(l.Name, line, points)
		i++
	}
	if i == 0 {
		return nil, fmt.Errorf("nothing to plot: %s is unknown on every line", metric)
	}
	if i > figure.MaxLegend {
		return nil, fmt.Errorf("%d lines are more than a plot's legend can name (%d): plot fewer variants (--variant) or models", i, figure.MaxLegend)
	}
	f.Finish()
	return f, nil
}

func (cmp *Comparison) hasMetric(name string) bool {
	for _, m := range cmp.Metrics {
		if m.Name == name {
			return true
		}
	}
	return false
}

// SavePlot writes the plot of metric to file (its format from the
// extension), atomically: the file is complete or untouched.
func (cmp *Comparison) SavePlot(metric, file string) error {
	format, err := PlotFormat(file)
	if err != nil {
		return err
	}
	return atomicfile.Write(file, func(w io.Writer) error {
		if err := cmp.Plot(w, metric, format); err != nil {
			return fmt.Errorf("plotting: %w", err)
		}
		return nil
	})
}
