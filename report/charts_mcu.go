package report

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cryptocost/cryptocost/report/figure"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var mcuBuilder = Builder{
	Name:  "mcu",
	Title: "Microcontroller kernels: time per operation, RAM and ROM",
	Expects: `subjects of kind "mcu" (cryptocost mcu bench) with a "time" metric (and "cycles"), and "ram" / "rom" ` +
		`metrics in B; params target and opt; one pair of charts per target`,
	Build: mcuCharts,
}

// mcuCharts: per target, the time of every kernel's operations at each
// optimisation level (bars on a log axis: a block cipher's 16 bytes and a
// public-key operation differ by four decades), and each kernel's RAM and
// ROM (dots on a log axis), as S004 tabulated public-key cryptography on
// an Arduino Uno.
func mcuCharts(in *Input) ([]*Chart, error) {
	byTarget := map[string][]item{}
	var targets []string
	for _, it := range in.results() {
		if it.r.Subject.Kind != "mcu" || it.r.Metric("time") == nil {
			continue
		}
		t := cmp.Or(it.r.Subject.Params["target"], "mcu")
		if _, ok := byTarget[t]; !ok {
			targets = append(targets, t)
		}
		byTarget[t] = append(byTarget[t], it)
	}
	var charts []*Chart
	for _, t := range targets {
		its := byTarget[t]
		charts = append(charts, mcuTimeChart(in, t, its))
		if c := mcuMemoryChart(in, t, its); c != nil {
			charts = append(charts, c)
		}
	}
	return charts, nil
}

// mcuRow names a kernel operation: "AES-128 encrypt 16 B".
func mcuRow(in *Input, it item) string {
	s := it.r.Subject
	name := cmp.Or(s.Params["label"], s.Scheme) + " " + s.Operation
	if s.InputBytes > 0 {
		name += " " + sizeLabel(float64(s.InputBytes))
	}
	return in.series(it, name)
}

func mcuOpt(it item) string { return cmp.Or(it.r.Subject.Params["opt"], "default") }

func mcuTimeChart(in *Input, target string, its []item) *Chart {
	var rows, opts []string
	maxS := 0.0
	for _, it := range its {
		if r := mcuRow(in, it); !slices.Contains(rows, r) {
			rows = append(rows, r)
		}
		if o := mcuOpt(it); !slices.Contains(opts, o) {
			opts = append(opts, o)
		}
		maxS = max(maxS, it.r.Metric("time").Summary.Median)
	}
	// Slowest at the top: gonum draws row 0 at the bottom.
	slowest := map[string]float64{}
	for _, it := range its {
		r := mcuRow(in, it)
		slowest[r] = max(slowest[r], it.r.Metric("time").Summary.Median)
	}
	slices.SortStableFunc(rows, func(a, b string) int { return cmp.Compare(slowest[a], slowest[b]) })
	div, unit := timeScale(maxS)
	title := "Kernels on " + target + ": time per operation"
	c := newChart("mcu-time-"+slug(target), title, fmt.Sprintf("time per operation (%s, log scale)", unit), "")
	p := c.Plot
	// One row per operation; with several optimisation levels, one bar of
	// each level's colour side by side within the row.
	thick := vg.Points(9) / vg.Length(len(opts))
	var src sources
	c.Table = &Table{Header: []string{"kernel operation", "opt", "time (" + unit + ")", "cycles", "label"}}
	for oi, opt := range opts {
		vals := make([]float64, len(rows))
		for _, it := range its {
			if mcuOpt(it) != opt {
				continue
			}
			m := it.r.Metric("time")
			v := m.Summary.Median / div
			vals[slices.Index(rows, mcuRow(in, it))] = v
			c.Drew(figure.X, v)
			src.add(in, it, m)
			cycles := "—"
			if cy := it.r.Metric("cycles"); cy != nil {
				cycles = num(cy.Summary.Median)
			}
			c.Table.Rows = append(c.Table.Rows, []string{mcuRow(in, it), opt, num(v), cycles, string(m.Label)})
		}
		bars := figure.NewBars(vals, colorN(oi))
		bars.Thickness = thick
		bars.Offset = (vg.Length(oi) - vg.Length(len(opts)-1)/2) * thick
		p.Add(bars)
		c.AddLegend(opt, bars)
	}
	if len(opts) == 1 {
		c.Legend = nil // one level: the title's opt says it
		c.Title += " (" + opts[0] + ")"
		p.Title.Text = c.Title
	}
	c.Categories(rows...)
	p.Add(plotter.NewGrid())
	p.X.Min = 0
	logAxis(&p.X)
	c.Finish()
	p.X.Max *= 1.3
	c.Height = vg.Length(len(rows))*12 + 80
	c.Sources = src.list()
	c.Caption = fmt.Sprintf("Simulated time of each kernel operation on %s (cycles ÷ the target's clock; the table gives the cycles), "+
		"log scale, slowest at the top, one bar per optimisation level — S004's table of public-key operations on an Arduino Uno as a figure. "+
		"Counts come from a simulator of the part, exact for its model of the chip, not from silicon.", target)
	return c
}

// mcuMemoryChart: each kernel's RAM (its largest operation's: stack +
// static data + the caller's state) and ROM, per optimisation level.
func mcuMemoryChart(in *Input, target string, its []item) *Chart {
	type mem struct{ ram, rom float64 }
	byRow := map[string]*mem{}
	var rows []string
	var src sources
	for _, it := range its {
		ram, rom := it.r.Metric("ram"), it.r.Metric("rom")
		if ram == nil && rom == nil {
			continue
		}
		s := it.r.Subject
		row := in.series(it, fmt.Sprintf("%s (%s)", cmp.Or(s.Params["label"], s.Scheme), mcuOpt(it)))
		m := byRow[row]
		if m == nil {
			m = &mem{}
			byRow[row] = m
			rows = append(rows, row)
		}
		if ram != nil {
			m.ram = max(m.ram, ram.Summary.Median)
			src.add(in, it, ram)
		}
		if rom != nil {
			m.rom = max(m.rom, rom.Summary.Median)
			src.add(in, it, rom)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	slices.SortStableFunc(rows, func(a, b string) int { return cmp.Compare(byRow[a].rom, byRow[b].rom) })
	title := "Kernels on " + target + ": RAM and ROM"
	c := newChart("mcu-memory-"+slug(target), title, "bytes (log scale)", "")
	p := c.Plot
	c.Table = &Table{Header: []string{"kernel (opt)", "RAM B", "ROM B"}}
	for si, what := range []string{"RAM", "ROM"} {
		var xy plotter.XYs
		for i, r := range rows {
			v := byRow[r].ram
			if what == "ROM" {
				v = byRow[r].rom
			}
			if v > 0 {
				xy = append(xy, plotter.XY{X: v, Y: float64(i)})
				c.Drew(figure.X, v)
			}
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			continue
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colorN(si + 4), Shape: glyphN(si), Radius: vg.Points(3.5)}
		p.Add(sc)
		c.AddLegend(what, sc)
	}
	for i := len(rows) - 1; i >= 0; i-- {
		m := byRow[rows[i]]
		c.Table.Rows = append(c.Table.Rows, []string{rows[i], num(m.ram), num(m.rom)})
	}
	c.Categories(rows...)
	p.Add(plotter.NewGrid())
	logAxis(&p.X)
	p.X.Min, p.X.Max = p.X.Min/1.5, p.X.Max*1.5
	c.Height = vg.Length(len(rows))*14 + 80
	c.Sources = src.list()
	c.Caption = fmt.Sprintf("RAM and ROM of each kernel on %s at each optimisation level, log scale: RAM is the largest operation's stack "+
		"(painted and read back in the simulator) plus the kernel's static data and the caller's key, context and buffers; ROM is the kernel's "+
		"code and constants from the linker map; the part's flash and SRAM bound what fits.", target)
	return c
}
