package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var sweepBuilder = Builder{
	Name:  "model-sweep",
	Title: "Model sweeps against a parameter",
	Expects: `subjects of kind "model" with params sweep=<parameter> and <parameter>=<value> (model sweep and ` +
		`model compare set them: the first --vary); the model's headline outputs (energy, time, bytes-sent, bytes-received) ` +
		`are drawn against the parameter, one line per series (params series, else the subject name without its ` +
		`"<parameter>=<value>" element)`,
	Build: sweepCharts,
}

var batteryBuilder = Builder{
	Name:  "battery-life",
	Title: "Battery life by algorithm and device",
	Expects: `any subject with a "battery-life" metric (stored in s; days, h, years also read); the device from ` +
		`params device, else the run's environment device; the workload from params workload, else the subject ` +
		`name without its device`,
	Build: batteryCharts,
}

// sweepMetrics are the outputs a sweep chart draws, in this order: the
// ones S003's figures show and a reader asks of a protocol first. The
// rest (per-direction energies and times, packets) are in the run.
var sweepMetrics = []string{"energy", "time", "bytes-sent", "bytes-received"}

// sweepCharts: one chart per swept parameter and headline metric (more
// when it has more lines than a legend can name).
func sweepCharts(in *Input) ([]*Chart, error) {
	type key struct{ param, metric, unit string }
	type row struct {
		name string
		x, y float64
		it   item
		m    *result.Metric
	}
	type pointSet struct {
		series map[string]ciXYs
		order  []string
		rows   []row
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
			if !slices.Contains(sweepMetrics, m.Name) {
				continue
			}
			k := key{param, m.Name, m.Unit}
			ps := sets[k]
			if ps == nil {
				ps = &pointSet{series: map[string]ciXYs{}, labels: map[result.Label]bool{}}
				sets[k] = ps
				keys = append(keys, k)
			}
			if _, ok := ps.series[name]; !ok {
				ps.order = append(ps.order, name)
			}
			lo, hi := ciOf(m.Summary, 1)
			ps.series[name] = append(ps.series[name], struct{ X, Y, Lo, Hi float64 }{x, m.Summary.Median, lo, hi})
			ps.labels[m.Label] = true
			ps.rows = append(ps.rows, row{name, x, m.Summary.Median, it, m})
		}
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.param, b.param), cmp.Compare(slices.Index(sweepMetrics, a.metric), slices.Index(sweepMetrics, b.metric)))
	})
	var charts []*Chart
	for _, k := range keys {
		ps := sets[k]
		// One display unit for the chart: the SI prefix of its largest value.
		maxY := 0.0
		for _, r := range ps.rows {
			maxY = max(maxY, math.Abs(r.y))
		}
		div, unit := result.DisplayScale(k.unit, maxY)
		for name, xy := range ps.series {
			for i := range xy {
				xy[i].Y, xy[i].Lo, xy[i].Hi = xy[i].Y/div, xy[i].Lo/div, xy[i].Hi/div
			}
			slices.SortFunc(xy, func(a, b struct{ X, Y, Lo, Hi float64 }) int { return cmp.Compare(a.X, b.X) })
			ps.series[name] = xy
		}
		var labels []string
		for l := range ps.labels {
			labels = append(labels, string(l))
		}
		slices.Sort(labels)
		pg := pages(ps.order)
		for pi, names := range pg {
			id, title := paged("sweep-"+slug(k.param)+"-"+slug(k.metric), fmt.Sprintf("%s against %s", k.metric, k.param), pi, len(pg))
			c := newChart(id, title, k.param, fmt.Sprintf("%s (%s)", k.metric, unit))
			c.Plot.Add(plotter.NewGrid())
			c.Table = &Table{Header: []string{"series", k.param, k.metric + " (" + unit + ")", "label"}}
			var src sources
			for _, r := range ps.rows {
				if slices.Contains(names, r.name) {
					src.add(in, r.it, r.m)
					c.Table.Rows = append(c.Table.Rows, []string{r.name, num(r.x), num(r.y / div), string(r.m.Label)})
				}
			}
			c.Sources = src.list()
			for i, name := range names {
				if err := c.addLine(name, ps.series[name], i, true); err != nil {
					return nil, err
				}
			}
			c.Finish()
			c.Caption = fmt.Sprintf("%s per protocol variant as %s varies (values %s), in the manner of S003's energy-per-node figures "+
				"for SecSyWiSe and TinySeRSync against the number of neighbours. Where lines cross, the cheaper variant changes.",
				k.metric, k.param, strings.Join(labels, ", "))
			charts = append(charts, c)
		}
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

// workloadName is what a battery-life subject runs: params workload, else
// its name without the device element ("telosb/ECDSA-P256-SHA256/sign/
// every-10min" on telosb: "ECDSA-P256-SHA256/sign/every-10min").
func workloadName(s result.Subject, device string) string {
	if w := s.Params["workload"]; w != "" {
		return w
	}
	var keep []string
	for _, part := range strings.Split(s.Name, "/") {
		if part != device {
			keep = append(keep, part)
		}
	}
	return cmp.Or(strings.Join(keep, "/"), s.Name)
}

// batteryCharts: a dot plot, one row per workload, one glyph per device,
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
			return nil, fmt.Errorf("%s: battery-life in %q; use s (or days, h, years)", it.r.Subject.Name, m.Unit)
		}
		if m.Summary.Median <= 0 || math.IsInf(m.Summary.Median, 0) {
			continue
		}
		s := it.r.Subject
		dev := cmp.Or(s.Params["device"], it.env.Device, device.Host().Name) // no device: this machine
		dots = append(dots, dot{in.series(it, workloadName(s, dev)), dev, m.Summary.Median * f, it, m})
		src.add(in, it, m)
	}
	if len(dots) == 0 {
		return nil, nil
	}
	// A workload label shared by two subjects on one device (runs of two
	// scenarios, say) would put two dots on one row: those rows take
	// their subject names.
	seen := map[[2]string]string{}
	clash := map[string]bool{}
	for _, d := range dots {
		k := [2]string{d.algo, d.device}
		if prev, ok := seen[k]; ok && prev != d.it.r.Subject.Name {
			clash[d.algo] = true
		}
		seen[k] = d.it.r.Subject.Name
	}
	for i, d := range dots {
		if clash[d.algo] {
			dots[i].algo = in.series(d.it, d.it.r.Subject.Name)
		}
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
	// Longest-lived workload at the top.
	best := map[string]float64{}
	for _, d := range dots {
		best[d.algo] = max(best[d.algo], d.days)
	}
	slices.SortStableFunc(algos, func(a, b string) int { return cmp.Compare(best[a], best[b]) })
	title := "Battery life by workload and device"
	c := newChart("battery-life", title, "battery life (days, log scale)", "")
	p := c.Plot
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	p.Add(plotter.NewGrid())
	c.Sources = src.list()
	table := &Table{Header: []string{"workload", "device", "days", "years", "label"}}
	for i, dev := range devices {
		var xy plotter.XYs
		for _, d := range dots {
			if d.device == dev {
				xy = append(xy, plotter.XY{X: d.days, Y: float64(slices.Index(algos, d.algo))})
				c.Drew(figure.X, d.days)
			}
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colorN(i), Shape: glyphN(i), Radius: vg.Points(3.5)}
		p.Add(sc)
		c.AddLegend(dev, sc)
	}
	for _, d := range dots {
		table.Rows = append(table.Rows, []string{d.algo, d.device, num(d.days), num(d.days / 365.25), string(d.m.Label)})
	}
	c.Categories(algos...)
	// Room around the extreme dots (a factor on a log axis).
	p.X.Min, p.X.Max = p.X.Min/1.5, p.X.Max*1.5
	c.Table = table
	c.Height = vg.Length(len(algos))*16 + 70
	c.Caption = "Battery life of each workload on each device (a dot per device), log scale: the battery's usable energy over the average power of the " +
		"workload including sleep between events — e.g. \"one ECDSA P-256 signature every 10 minutes on a TelosB with 2×AA\". Lifetimes are modelled from " +
		"device profiles unless the sources say measured."
	return []*Chart{c}, nil
}
