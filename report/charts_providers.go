package report

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var providerBuilder = Builder{
	Name:  "providers",
	Title: "Implementations side by side",
	Expects: `subjects of kind "primitive" with a "time" metric, where one scheme, operation and input size ` +
		`was measured by several providers and one of them has param baseline=yes (bench --provider go,openssl,...)`,
	Build: providerCharts,
}

// providerCharts draws, per run, every other provider's time relative to
// the baseline (Go) implementation of the same scheme, operation and size:
// a ratio on a log axis, 1 = as fast as Go. The ratio's interval is the
// quotient of the two medians' 95% intervals (other low / baseline high,
// other high / baseline low): conservative, since both must hold at once.
func providerCharts(in *Input) ([]*Chart, error) {
	var charts []*Chart
	for ri := range in.Runs {
		type point struct {
			it   item
			m    *result.Metric
			base *result.Metric
		}
		key := func(s result.Subject) string {
			if s.InputBytes > 0 {
				return fmt.Sprintf("%s %s %s", s.Scheme, s.Operation, sizeLabel(float64(s.InputBytes)))
			}
			return s.Scheme + " " + s.Operation
		}
		baselines := map[string]*result.Metric{}
		var items []item
		for _, it := range in.results() {
			s := it.r.Subject
			if it.run != ri || s.Kind != "primitive" || it.r.Metric("time") == nil {
				continue
			}
			items = append(items, it)
			if s.Params["baseline"] == "yes" {
				baselines[key(s)] = it.r.Metric("time")
			}
		}
		var pts []point
		for _, it := range items {
			s := it.r.Subject
			base := baselines[key(s)]
			if s.Params["baseline"] == "yes" || base == nil || base.Summary.Median <= 0 {
				continue
			}
			pts = append(pts, point{it, it.r.Metric("time"), base})
		}
		if len(pts) == 0 {
			continue
		}
		slices.SortStableFunc(pts, func(a, b point) int {
			return cmp.Compare(key(b.it.r.Subject)+b.it.r.Subject.Provider, key(a.it.r.Subject)+a.it.r.Subject.Provider)
		})
		title := "Implementations side by side: time relative to Go"
		if len(in.Runs) > 1 {
			title += " (" + in.Labels[ri] + ")"
		}
		c := newChart("providers-"+slug(in.Labels[ri]), title, "time / Go's time (log scale; 1 = as fast as Go, below 1 = faster)", "")
		p := c.Plot
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
		var src sources
		table := &Table{Header: []string{"scheme op size", "provider", "ratio to Go", "ratio interval", "median ns/op", "Go median ns/op"}}
		xy := make(ciXYs, len(pts))
		names := make([]string, len(pts))
		minX, maxX := 1.0, 1.0
		for i, pt := range pts {
			s := pt.it.r.Subject
			r := pt.m.Summary.Median / pt.base.Summary.Median
			lo, hi := r, r
			if olo, ohi := ciOf(pt.m.Summary, 1); olo > 0 {
				if blo, bhi := ciOf(pt.base.Summary, 1); blo > 0 {
					lo, hi = olo/bhi, ohi/blo
				}
			}
			xy[i] = struct{ X, Y, Lo, Hi float64 }{r, float64(i), lo, hi}
			names[i] = key(s) + " @" + s.Provider
			minX, maxX = min(minX, lo), max(maxX, hi)
			src.add(in, pt.it, pt.m)
			table.Rows = append(table.Rows, []string{key(s), s.Provider, num(r), "[" + num(lo) + ", " + num(hi) + "]",
				num(pt.m.Summary.Median), num(pt.base.Summary.Median)})
		}
		for _, v := range xy {
			c.Drew(figure.X, v.X)
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Color = colorN(1)
		p.Add(sc)
		if eb, err := plotter.NewXErrorBars(xy); err == nil {
			eb.LineStyle.Width = vg.Points(0.8)
			p.Add(eb)
		}
		one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: -0.5}, {X: 1, Y: float64(len(pts)) - 0.5}})
		if err == nil {
			one.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			p.Add(one)
		}
		c.Categories(names...)
		p.Add(plotter.NewGrid())
		p.X.Min, p.X.Max = minX/1.3, maxX*1.3
		c.Table, c.Sources = table, src.list()
		c.Height = vg.Length(len(pts))*11 + 80
		c.Caption = "Each point is one provider's median time for one scheme, operation and input size divided by the Go " +
			"implementation's in the same run (the one a name without a provider resolves to), on a log axis: 1 is as " +
			"fast as Go, 2 twice as slow, 0.5 twice as fast. Whiskers are the quotient of the two medians' 95% intervals " +
			"(conservative). C libraries run n calls per cgo crossing, so the crossing is not in these times."
		charts = append(charts, c)
	}
	return charts, nil
}
