package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ciXYs are points with a confidence interval on one axis.
type ciXYs []struct{ X, Y, Lo, Hi float64 }

func (c ciXYs) Len() int                        { return len(c) }
func (c ciXYs) XY(i int) (float64, float64)     { return c[i].X, c[i].Y }
func (c ciXYs) YError(i int) (float64, float64) { return c[i].Y - c[i].Lo, c[i].Hi - c[i].Y }
func (c ciXYs) XError(i int) (float64, float64) { return c[i].X - c[i].Lo, c[i].Hi - c[i].X }
func (c ciXYs) hasCI(i int) bool                { return c[i].Lo > 0 && c[i].Hi > 0 && c[i].Lo <= c[i].Hi }
func ciOf(s stats.Summary, div float64) (lo, hi float64) {
	if s.N < stats.MinSamplesForCI || s.CILow == s.CIHigh {
		return 0, 0
	}
	return s.CILow / div, s.CIHigh / div
}

// addLine adds a line with points (and CI error bars) to the chart and a
// legend entry, and records the values drawn.
func (c *Chart) addLine(name string, xy ciXYs, i int, errorBars bool) error {
	line, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	line.Color = colorN(i)
	line.Width = vg.Points(1.2)
	pts.Color = colorN(i)
	pts.Shape = glyphN(i)
	pts.Radius = vg.Points(2.5)
	c.Plot.Add(line, pts)
	for j := range xy {
		c.Drew(figure.X, xy[j].X)
		c.Drew(figure.Y, xy[j].Y)
	}
	if errorBars {
		var withCI ciXYs
		for j := range xy {
			if xy.hasCI(j) {
				withCI = append(withCI, xy[j])
			}
		}
		if len(withCI) > 0 {
			eb, err := plotter.NewYErrorBars(withCI)
			if err != nil {
				return err
			}
			eb.Color = colorN(i)
			eb.CapWidth = vg.Points(4)
			c.Plot.Add(eb)
		}
	}
	c.AddLegend(name, line, pts)
	return nil
}

// pages splits series into groups of at most figure.MaxLegend, so no
// chart has more legend entries than a reader can match to lines. Series
// come in the order given; callers order them so each page holds
// neighbours (the fastest together, the slowest together).
func pages[T any](series []T) [][]T {
	if len(series) <= figure.MaxLegend {
		return [][]T{series}
	}
	n := (len(series) + figure.MaxLegend - 1) / figure.MaxLegend
	per := (len(series) + n - 1) / n
	var out [][]T
	for i := 0; i < len(series); i += per {
		out = append(out, series[i:min(i+per, len(series))])
	}
	return out
}

// paged names page k of n of a chart: the first keeps the chart's ID, so
// `plot --chart ID` still finds it; the others add "-2", "-3", ….
func paged(id, title string, k, n int) (string, string) {
	if n == 1 {
		return id, title
	}
	if k == 0 {
		return id, fmt.Sprintf("%s (1 of %d)", title, n)
	}
	return fmt.Sprintf("%s-%d", id, k+1), fmt.Sprintf("%s (%d of %d)", title, k+1, n)
}

type bar struct {
	name   string
	median float64
	lo, hi float64
	label  result.Label
	sum    stats.Summary
	div    float64 // median, lo and hi are sum's values / div (0: 1)
}

func pts2bars[P any](in *Input, pts []P, get func(P) (item, *result.Metric)) []bar {
	var bars []bar
	for _, p := range pts {
		it, m := get(p)
		s := it.r.Subject
		lo, hi := ciOf(m.Summary, 1)
		bars = append(bars, bar{name: in.series(it, fmt.Sprintf("%s@%s %s", s.Scheme, s.Provider, s.Operation)),
			median: m.Summary.Median, lo: lo, hi: hi, label: m.Label, sum: m.Summary})
	}
	return bars
}

// barChart draws horizontal bars, largest at the top, with CI whiskers,
// on a log axis when log is set or the values span more than two
// decades, and fills the table.
func (c *Chart) barChart(unit string, bars []bar, table *Table, log bool) {
	slices.SortStableFunc(bars, func(a, b bar) int { return cmp.Compare(a.median, b.median) })
	p := c.Plot
	p.X.Label.Text = unit
	vals := make([]float64, len(bars))
	names := make([]string, len(bars))
	errs := make(ciXYs, 0, len(bars))
	for i, b := range bars {
		vals[i] = b.median
		names[i] = b.name
		if b.lo > 0 {
			errs = append(errs, struct{ X, Y, Lo, Hi float64 }{b.median, float64(i), b.lo, b.hi})
		}
	}
	for i := len(bars) - 1; i >= 0; i-- {
		b := bars[i]
		table.Rows = append(table.Rows, []string{b.name, "", num(b.median), ciText(b.sum, cmp.Or(b.div, 1)), string(b.label)})
	}
	bc := figure.NewBars(vals, colorN(1))
	bc.Thickness = vg.Points(7)
	p.Add(bc)
	c.Drew(figure.X, vals...)
	if len(errs) > 0 {
		if eb, err := plotter.NewXErrorBars(errs); err == nil {
			eb.LineStyle.Width = vg.Points(0.8)
			p.Add(eb)
		}
	}
	c.Categories(names...)
	p.Add(plotter.NewGrid())
	p.X.Min = 0
	p.X.Max *= 1.04 // room after the longest bar
	if log {
		logAxis(&p.X)
	}
	c.Finish()
	c.Height = vg.Length(len(bars))*11 + 70
}

// logAxis puts an axis on a log scale with the house ticks.
func logAxis(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks{}
	if !strings.Contains(a.Label.Text, "log") {
		a.Label.Text += " (log scale)"
	}
}

// stack is one stacked bar's parts.
type stack struct {
	name  string
	parts map[string]float64
}

// stackedChart draws one horizontal bar per stack, parts in rank order;
// a log axis when the totals span more than two decades. With more parts
// than a legend can name, the smallest overall are drawn together as
// "other" (the table keeps every part).
func stackedChart(id, title, unit string, stacks []stack, rank func(string) int) *Chart {
	partSet := map[string]float64{}
	for _, s := range stacks {
		for p, v := range s.parts {
			partSet[p] += v
		}
	}
	parts := sortedKeys(partSet)
	slices.SortStableFunc(parts, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	drawn := parts
	const other = "other"
	if len(parts) > figure.MaxLegend {
		bySize := slices.Clone(parts)
		slices.SortStableFunc(bySize, func(a, b string) int { return cmp.Compare(partSet[b], partSet[a]) })
		keep := map[string]bool{}
		for _, p := range bySize[:figure.MaxLegend-1] {
			keep[p] = true
		}
		drawn = nil
		for _, p := range parts {
			if keep[p] {
				drawn = append(drawn, p)
			}
		}
		drawn = append(drawn, other)
	}
	c := newChart(id, title, unit, "")
	p := c.Plot
	table := &Table{Header: append([]string{"subject"}, append(slices.Clone(parts), "total")...)}
	var below *figure.Bars
	totals := make([]float64, len(stacks))
	for i, part := range drawn {
		vals := make([]float64, len(stacks))
		for j, s := range stacks {
			v := s.parts[part]
			if part == other {
				for q, w := range s.parts {
					if !slices.Contains(drawn, q) {
						v += w
					}
				}
			}
			vals[len(stacks)-1-j] = v
			totals[len(stacks)-1-j] += v
		}
		var bc *figure.Bars
		if below == nil {
			bc = figure.NewBars(vals, colorN(i))
		} else {
			bc = figure.StackOn(below, vals, colorN(i))
		}
		bc.LineStyle.Width = vg.Points(0.3)
		below = bc
		p.Add(bc)
		c.AddLegend(part, bc)
	}
	c.Drew(figure.X, totals...)
	names := make([]string, len(stacks))
	for j, s := range stacks {
		names[len(stacks)-1-j] = s.name
		row := []string{s.name}
		total := 0.0
		for _, part := range parts {
			if v, ok := s.parts[part]; ok {
				row = append(row, num(v))
				total += v
			} else {
				row = append(row, "—")
			}
		}
		table.Rows = append(table.Rows, append(row, num(total)))
	}
	c.Categories(names...)
	p.X.Min = 0
	p.Add(plotter.NewGrid())
	p.X.Max *= 1.04 // room after the longest bar
	c.Finish()
	c.Table = table
	c.Height = vg.Length(len(stacks))*14 + 70
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
