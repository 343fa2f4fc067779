package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var sweepBuilder = Builder{
	Name:  "model-sweep",
	Title: "Model sweeps against a parameter",
	Expects: `subjects of kind "model" with params sweep=<parameter> and <parameter>=<value>; every metric is ` +
		`drawn against the parameter, one line per series (params series, else the subject name without ` +
		`its "<parameter>=<value>" element)`,
	Build: sweepCharts,
}

var batteryBuilder = Builder{
	Name:  "battery-life",
	Title: "Battery life by algorithm and device",
	Expects: `any subject with a "battery-life" metric (unit days, h, years, s); the device from params device, ` +
		`else the run's environment device; the algorithm from params workload, else the scheme, else the name`,
	Build: batteryCharts,
}

// sweepCharts: one chart per swept parameter and metric.
func sweepCharts(in *Input) ([]*Chart, error) {
	type key struct{ param, metric, unit string }
	type pointSet struct {
		series map[string]ciXYs
		order  []string
		src    sources
		table  *Table
		ys     []float64 // the table rows' values, in the base unit
		labels map[result.Label]bool
	}
	sets := map[key]*pointSet{}
	var keys []key
	for _, it := range in.results() {
		s := it.r.Subject
		param := s.Params["sweep"]
		if s.Kind != "model" || param == "" {
			continue
		}
		x, err := strconv.ParseFloat(s.Params[param], 64)
		if err != nil {
			continue
		}
		name := in.series(it, sweepSeries(s, param))
		for i := range it.r.Metrics {
			m := &it.r.Metrics[i]
			k := key{param, m.Name, m.Unit}
			ps := sets[k]
			if ps == nil {
				ps = &pointSet{series: map[string]ciXYs{}, labels: map[result.Label]bool{}, table: &Table{}}
				sets[k] = ps
				keys = append(keys, k)
			}
			if _, ok := ps.series[name]; !ok {
				ps.order = append(ps.order, name)
			}
			lo, hi := ciOf(m.Summary, 1)
			ps.series[name] = append(ps.series[name], struct{ X, Y, Lo, Hi float64 }{x, m.Summary.Median, lo, hi})
			ps.src.add(in, it, m)
			ps.labels[m.Label] = true
			ps.table.Rows = append(ps.table.Rows, []string{name, num(x), "", string(m.Label)})
			ps.ys = append(ps.ys, m.Summary.Median)
		}
	}
	var charts []*Chart
	for _, k := range keys {
		ps := sets[k]
		// One display unit for the chart: the SI prefix of its largest value.
		maxY := 0.0
		for _, y := range ps.ys {
			maxY = max(maxY, math.Abs(y))
		}
		div, unit := result.DisplayScale(k.unit, maxY)
		ps.table.Header = []string{"series", k.param, k.metric + " (" + unit + ")", "label"}
		for i := range ps.table.Rows {
			ps.table.Rows[i][2] = num(ps.ys[i] / div)
		}
		for name, xy := range ps.series {
			for i := range xy {
				xy[i].Y, xy[i].Lo, xy[i].Hi = xy[i].Y/div, xy[i].Lo/div, xy[i].Hi/div
			}
			ps.series[name] = xy
		}
		title := fmt.Sprintf("%s against %s", k.metric, k.param)
		p := newPlot(title, k.param, fmt.Sprintf("%s (%s)", k.metric, unit))
		p.Add(plotter.NewGrid())
		c := &Chart{ID: "sweep-" + slug(k.param) + "-" + slug(k.metric), Title: title, Plot: p, Table: ps.table, Sources: ps.src.list()}
		for i, name := range ps.order {
			xy := ps.series[name]
			slices.SortFunc(xy, func(a, b struct{ X, Y, Lo, Hi float64 }) int { return cmp.Compare(a.X, b.X) })
			if err := addLine(p, c, name, xy, i, true); err != nil {
				return nil, err
			}
		}
		var labels []string
		for l := range ps.labels {
			labels = append(labels, string(l))
		}
		slices.Sort(labels)
		c.Caption = fmt.Sprintf("%s per protocol variant as %s varies (values %s), in the manner of S003's energy-per-node figures "+
			"for SecSyWiSe and TinySeRSync against the number of neighbours. Where lines cross, the cheaper variant changes.",
			k.metric, k.param, strings.Join(labels, ", "))
		charts = append(charts, c)
	}
	return charts, nil
}

// sweepSeries is params series, else the subject name without its
// "<param>=<value>" path element.
func sweepSeries(s result.Subject, param string) string {
	if v := s.Params["series"]; v != "" {
		return v
	}
	var keep []string
	for _, part := range strings.Split(s.Name, "/") {
		if strings.HasPrefix(part, param+"=") {
			continue
		}
		keep = append(keep, part)
	}
	return cmp.Or(strings.Join(keep, "/"), s.Name)
}

// lifeToDays converts battery-life units to days.
var lifeToDays = map[string]float64{"days": 1, "d": 1, "day": 1, "h": 1.0 / 24, "hours": 1.0 / 24,
	"years": 365.25, "y": 365.25, "s": 1.0 / 86400, "min": 1.0 / 1440}

// batteryCharts: a dot plot, one row per algorithm, one glyph per device,
// log scale (lifetimes span hours to years).
func batteryCharts(in *Input) ([]*Chart, error) {
	type dot struct {
		algo, device string
		days         float64
		it           item
		m            *result.Metric
	}
	var dots []dot
	var src sources
	for _, it := range in.results() {
		m := it.r.Metric("battery-life")
		if m == nil {
			continue
		}
		f, ok := lifeToDays[m.Unit]
		if !ok {
			return nil, fmt.Errorf("%s: battery-life in %q; use days, h, years or s", it.r.Subject.Name, m.Unit)
		}
		if m.Summary.Median <= 0 || math.IsInf(m.Summary.Median, 0) {
			continue
		}
		s := it.r.Subject
		device := cmp.Or(s.Params["device"], it.env.Device, "host")
		algo := in.series(it, cmp.Or(s.Params["workload"], s.Scheme, s.Name))
		dots = append(dots, dot{algo, device, m.Summary.Median * f, it, m})
		src.add(in, it, m)
	}
	if len(dots) == 0 {
		return nil, nil
	}
	var algos, devices []string
	for _, d := range dots {
		if !slices.Contains(algos, d.algo) {
			algos = append(algos, d.algo)
		}
		if !slices.Contains(devices, d.device) {
			devices = append(devices, d.device)
		}
	}
	slices.Sort(devices)
	// Longest-lived algorithm at the top.
	best := map[string]float64{}
	for _, d := range dots {
		best[d.algo] = max(best[d.algo], d.days)
	}
	slices.SortStableFunc(algos, func(a, b string) int { return cmp.Compare(best[a], best[b]) })
	title := "Battery life by algorithm and device"
	p := newPlot(title, "battery life (days, log scale)", "")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	p.Add(plotter.NewGrid())
	c := &Chart{ID: "battery-life", Title: title, Plot: p, Sources: src.list()}
	table := &Table{Header: []string{"algorithm", "device", "days", "years", "label"}}
	for i, dev := range devices {
		var xy plotter.XYs
		for _, d := range dots {
			if d.device == dev {
				xy = append(xy, plotter.XY{X: d.days, Y: float64(slices.Index(algos, d.algo))})
			}
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colorN(i), Shape: glyphN(i), Radius: vg.Points(3.5)}
		p.Add(sc)
		c.Legend = append(c.Legend, LegendEntry{Name: dev, Thumbs: []plot.Thumbnailer{sc}})
	}
	for _, d := range dots {
		table.Rows = append(table.Rows, []string{d.algo, d.device, num(d.days), num(d.days / 365.25), string(d.m.Label)})
	}
	p.NominalY(algos...)
	// Room around the extreme dots (a factor on a log axis).
	p.X.Min, p.X.Max = p.X.Min/1.5, p.X.Max*1.5
	c.Table = table
	c.Height = vg.Length(len(algos))*16 + 70
	c.Caption = "Battery life of each workload on each device (a dot per device), log scale: the battery's usable energy over the average power of the " +
		"workload including sleep between events — e.g. \"one ECDSA P-256 signature every 10 minutes on a TelosB with 2×AA\". Lifetimes are modelled from " +
		"device profiles unless the sources say measured."
	return []*Chart{c}, nil
}
