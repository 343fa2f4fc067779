package model

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
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
// and condition (S003's figures 6.4 and 6.5), in format "png" or "svg".
func (cmp *Comparison) Plot(w io.Writer, metric, format string) error {
	o, err := LookupOutput(metric)
	if err != nil {
		return err
	}
	if !cmp.hasMetric(metric) {
		return fmt.Errorf("the comparison has no %s: compare it (--metrics %s)", metric, metric)
	}
	p := plot.New()
	p.Title.Text = strings.ToUpper(o.Name[:1]) + o.Name[1:]
	if cmp.Per != "" {
		p.Title.Text += " per " + cmp.Per
	}
	p.X.Label.Text = cmp.X.Param
	if cmp.XUnit != "" {
		p.X.Label.Text += " (" + cmp.XUnit + ")"
	}
	p.Y.Label.Text = fmt.Sprintf("%s (%s, modelled)", o.Name, o.Display())
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	var args []any
	for _, l := range cmp.Lines {
		ys := l.Y[metric]
		pts := make(plotter.XYs, 0, len(ys))
		for i, y := range ys {
			if finite(y) {
				pts = append(pts, plotter.XY{X: cmp.X.Values[i], Y: o.Shown(y)})
			}
		}
		if len(pts) == 0 {
			continue
		}
		args = append(args, l.Name, pts)
	}
	if len(args) == 0 {
		return fmt.Errorf("nothing to plot: %s is unknown on every line", metric)
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return err
	}
	wt, err := p.WriterTo(16*vg.Centimeter, 11*vg.Centimeter, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
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
	tmp, err := os.CreateTemp(filepath.Dir(file), ".cryptocost-plot-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", file, err)
	}
	defer os.Remove(tmp.Name())
	if err := cmp.Plot(tmp, metric, format); err != nil {
		tmp.Close()
		return fmt.Errorf("plotting %s: %w", file, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
