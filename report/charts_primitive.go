package report

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var throughputBuilder = Builder{
	Name:  "throughput",
	Title: "Throughput per algorithm and input size",
	Expects: `subjects of kind "primitive" with input_bytes > 0 and a "throughput" metric (MB/s); ` +
		`one chart per family (hash, mac, block, stream, aead, …)`,
	Build: throughputCharts,
}

var signatureBuilder = Builder{
	Name:  "signature-cost",
	Title: "Signature cost by security level",
	Expects: `subjects of kind "primitive", family "sign", operations sign / verify / keygen, ` +
		`a "time" metric (ns/op) and params security_bits and key_type`,
	Build: signatureCharts,
}

var keygenBuilder = Builder{
	Name:    "keygen-distribution",
	Title:   "Key generation time distributions",
	Expects: `subjects of kind "primitive", operation "keygen", a "time" metric with raw samples (≥ 2)`,
	Build:   keygenCharts,
}

// throughputCharts: one chart per family (more when a family has more
// series than a legend can name); lines over input sizes, or bars when
// the family was measured at one size. Both axes are logarithmic: slow
// and fast ciphers differ by orders of magnitude.
func throughputCharts(in *Input) ([]*Chart, error) {
	type point struct {
		it   item
		m    *result.Metric
		size float64
	}
	byFamily := map[string][]point{}
	var families []string
	for _, it := range in.results() {
		s := it.r.Subject
		m := it.r.Metric("throughput")
		if s.Kind != "primitive" || s.InputBytes <= 0 || m == nil || m.Summary.Median <= 0 {
			continue
		}
		fam := cmp.Or(s.Family, "other")
		if _, ok := byFamily[fam]; !ok {
			families = append(families, fam)
		}
		byFamily[fam] = append(byFamily[fam], point{it, inMBps(m), float64(s.InputBytes)})
	}
	var charts []*Chart
	for _, fam := range families {
		pts := byFamily[fam]
		sizes := map[float64]bool{}
		for _, p := range pts {
			sizes[p.size] = true
		}
		unit := pts[0].m.Unit
		title := fmt.Sprintf("Throughput: %s", fam)
		if len(sizes) < 2 {
			var src sources
			for _, p := range pts {
				src.add(in, p.it, p.m)
			}
			c := newChart("throughput-"+slug(fam), title, "", "")
			c.Sources = src.list()
			c.Table = &Table{Header: []string{"series", "input", "median " + unit, "95% CI", "label"}}
			c.barChart(unit, pts2bars(in, pts, func(p point) (item, *result.Metric) { return p.it, p.m }), c.Table, true)
			c.Caption = fmt.Sprintf("Median throughput (%s, log scale) of each %s algorithm and operation at %s input, fastest first; "+
				"whiskers are the 95%% confidence interval of the median.", unit, fam, sizeLabel(pts[0].size))
			charts = append(charts, c)
			continue
		}
		// Lines over input sizes (log x), one per algorithm and operation,
		// fastest first so each page holds neighbours.
		series := map[string]ciXYs{}
		var order []string
		fastest := map[string]float64{}
		for _, pt := range pts {
			s := pt.it.r.Subject
			name := in.series(pt.it, fmt.Sprintf("%s@%s %s", s.Scheme, s.Provider, s.Operation))
			if _, ok := series[name]; !ok {
				order = append(order, name)
			}
			lo, hi := ciOf(pt.m.Summary, 1)
			series[name] = append(series[name], struct{ X, Y, Lo, Hi float64 }{pt.size, pt.m.Summary.Median, lo, hi})
			fastest[name] = max(fastest[name], pt.m.Summary.Median)
		}
		slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(fastest[b], fastest[a]) })
		var xs []float64
		for s := range sizes {
			xs = append(xs, s)
		}
		slices.Sort(xs)
		pg := pages(order)
		for k, names := range pg {
			id, t := paged("throughput-"+slug(fam), title, k, len(pg))
			c := newChart(id, t, "input size (log scale)", unit+" (log scale)")
			p := c.Plot
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.X.Tick.Marker = sizeTicks(xs)
			p.Y.Tick.Marker = logTicks{}
			table := &Table{Header: []string{"series", "input", "median " + unit, "95% CI", "label"}}
			var src sources
			for _, pt := range pts {
				s := pt.it.r.Subject
				name := in.series(pt.it, fmt.Sprintf("%s@%s %s", s.Scheme, s.Provider, s.Operation))
				if !slices.Contains(names, name) {
					continue
				}
				src.add(in, pt.it, pt.m)
				table.Rows = append(table.Rows, []string{name, sizeLabel(pt.size), num(pt.m.Summary.Median), ciText(pt.m.Summary, 1), string(pt.m.Label)})
			}
			for i, name := range names {
				xy := series[name]
				slices.SortFunc(xy, func(a, b struct{ X, Y, Lo, Hi float64 }) int { return cmp.Compare(a.X, b.X) })
				if err := c.addLine(name, xy, i, true); err != nil {
					return nil, err
				}
			}
			c.Table, c.Sources = table, src.list()
			c.Caption = fmt.Sprintf("Median throughput (%s) of each %s algorithm and operation against the input size, both on log scales; "+
				"error bars are the 95%% confidence interval of the median where it exists. As in the seed002 study's tables, larger inputs amortise per-call setup.", unit, fam)
			if len(pg) > 1 {
				c.Caption += fmt.Sprintf(" %d series in all, fastest first, %d charts of at most %d so each line can be named.", len(order), len(pg), len(names))
			}
			charts = append(charts, c)
		}
	}
	return charts, nil
}

// inMBps is a throughput metric (stored in B/s) in MB/s = 10⁶ B/s, the
// unit openssl speed and Go benchmarks report, for the charts' axes.
func inMBps(m *result.Metric) *result.Metric {
	c := *m
	c.Unit = "MB/s"
	c.Summary = m.Summary.Scaled(1e-6)
	c.Samples = nil
	return &c
}

// signatureCharts: per operation, time against security level, one line
// per signature type (the fastest scheme of that type at each level).
func signatureCharts(in *Input) ([]*Chart, error) {
	type best = sigBest
	var charts []*Chart
	for _, op := range []string{"sign", "verify", "keygen"} {
		cells := map[string]map[float64]best{} // series -> bits -> fastest
		var order []string
		var all []best
		for _, it := range in.results() {
			s := it.r.Subject
			m := it.r.Metric("time")
			if s.Kind != "primitive" || s.Family != "sign" || s.Operation != op || m == nil || m.Summary.Median <= 0 {
				continue
			}
			bits, err := strconv.ParseFloat(s.Params["security_bits"], 64)
			if err != nil || bits <= 0 {
				continue
			}
			all = append(all, best{in, it, m, bits})
			name := in.series(it, signatureType(s))
			if cells[name] == nil {
				cells[name] = map[float64]best{}
				order = append(order, name)
			}
			if b, ok := cells[name][bits]; !ok || m.Summary.Median < b.m.Summary.Median {
				cells[name][bits] = best{in, it, m, bits}
			}
		}
		if len(order) == 0 {
			continue
		}
		maxNs := 0.0
		levels := map[float64]bool{}
		for _, byBits := range cells {
			for bits, b := range byBits {
				maxNs = max(maxNs, b.m.Summary.Median)
				levels[bits] = true
			}
		}
		div, unit := timeScale(maxNs)
		if len(levels) < 2 {
			// One level: a line against the level would be a column of
			// dots; bars per scheme say more.
			title := fmt.Sprintf("Signature schemes: %s time at %s bits", op, strconv.FormatFloat(all[0].bits, 'f', -1, 64))
			var bars []bar
			var src sources
			for _, b := range all {
				s := b.it.r.Subject
				sum := b.m.Summary
				lo, hi := ciOf(sum, div)
				bars = append(bars, bar{name: in.series(b.it, s.Scheme+"@"+s.Provider), median: sum.Median / div, lo: lo, hi: hi,
					label: b.m.Label, sum: sum, div: div})
				src.add(in, b.it, b.m)
			}
			table := &Table{Header: []string{"scheme", "", "median (" + unit + ")", "95% CI (" + unit + ")", "label"}}
			c := newChart("signature-"+op, title, "", "")
			c.barChart(fmt.Sprintf("%s per %s", unit, op), bars, table, false)
			c.Table, c.Sources = table, src.list()
			c.Caption = fmt.Sprintf("Median %s time of each signature scheme measured, all at one security strength; whiskers are the "+
				"95%% confidence interval of the median. With schemes at several strengths this chart plots time against strength, as S001 did.", op)
			charts = append(charts, c)
			continue
		}
		slices.Sort(order)
		pg := pages(order)
		for k, names := range pg {
			id, title := paged("signature-"+op, fmt.Sprintf("Signature schemes: %s time by security level", op), k, len(pg))
			c, err := signatureLines(id, title, op, unit, div, levels, names, cells)
			if err != nil {
				return nil, err
			}
			charts = append(charts, c)
		}
	}
	return charts, nil
}

// signatureLines draws time against security strength, one line per
// signature type, from each type's fastest scheme at each level.
func signatureLines(id, title, op, unit string, div float64, levels map[float64]bool, order []string, cells map[string]map[float64]sigBest) (*Chart, error) {
	{
		c := newChart(id, title, "security strength (bits, NIST SP 800-57)", fmt.Sprintf("%s per %s (log scale)", unit, op))
		p := c.Plot
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
		var ticks []plot.Tick
		for l := range levels {
			ticks = append(ticks, plot.Tick{Value: l, Label: strconv.FormatFloat(l, 'f', -1, 64)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Padding = vg.Points(12)
		p.Add(plotter.NewGrid())
		table := &Table{Header: []string{"type", "bits", "fastest scheme", "median", "95% CI", "label"}}
		var src sources
		for i, name := range order {
			var xy ciXYs
			bitsSorted := make([]float64, 0, len(cells[name]))
			for b := range cells[name] {
				bitsSorted = append(bitsSorted, b)
			}
			slices.Sort(bitsSorted)
			for _, bits := range bitsSorted {
				b := cells[name][bits]
				lo, hi := ciOf(b.m.Summary, div)
				xy = append(xy, struct{ X, Y, Lo, Hi float64 }{bits, b.m.Summary.Median / div, lo, hi})
				src.add(b.in, b.it, b.m)
				table.Rows = append(table.Rows, []string{name, strconv.FormatFloat(bits, 'f', -1, 64),
					b.it.r.Subject.Scheme + "@" + b.it.r.Subject.Provider, durationText(b.m.Summary.Median),
					ciText(b.m.Summary, 1), string(b.m.Label)})
			}
			if err := c.addLine(name, xy, i, true); err != nil {
				return nil, err
			}
		}
		c.Table, c.Sources = table, src.list()
		c.Caption = fmt.Sprintf("Median %s time of each signature type against its security strength, log scale, as the S001 signing-token "+
			"study compared RSA, DSA and ECDSA at 128, 192 and 256 bits. Each point is the fastest scheme of that type at that level "+
			"(named in the table); error bars are the 95%% confidence interval of the median.", op)
		return c, nil
	}
}

// sigBest is a signature type's fastest scheme at one level.
type sigBest struct {
	in   *Input
	it   item
	m    *result.Metric
	bits float64
}

var trailingParams = regexp.MustCompile(`[- ]\d.*$`)

// signatureType names a signature scheme's type from its key type:
// "ECDSA P-256" → ECDSA, "RSA-2048" → RSA, "ML-DSA-65" → ML-DSA,
// "SLH-DSA-SHA2-128s" → SLH-DSA-SHA2, "Ed25519" / "Ed448" → EdDSA.
func signatureType(s result.Subject) string {
	kt := cmp.Or(s.Params["key_type"], s.Scheme)
	if strings.HasPrefix(kt, "Ed") {
		return "EdDSA"
	}
	if i := strings.IndexByte(kt, ' '); i > 0 {
		kt = kt[:i]
	}
	return cmp.Or(trailingParams.ReplaceAllString(kt, ""), kt)
}

// keygenCharts: box plots of key-generation times from raw samples,
// fastest at the top, log scale.
func keygenCharts(in *Input) ([]*Chart, error) {
	type box struct {
		name string
		it   item
		m    *result.Metric
	}
	var boxes []box
	maxNs := 0.0
	for _, it := range in.results() {
		s := it.r.Subject
		m := it.r.Metric("time")
		if s.Kind != "primitive" || s.Operation != "keygen" || m == nil || len(m.Samples) < 2 || slices.Min(m.Samples) <= 0 {
			continue
		}
		boxes = append(boxes, box{in.series(it, s.Scheme+"@"+s.Provider), it, m})
		maxNs = max(maxNs, slices.Max(m.Samples))
	}
	if len(boxes) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(boxes, func(a, b box) int { return cmp.Compare(b.m.Summary.Median, a.m.Summary.Median) })
	div, unit := timeScale(maxNs)
	title := "Key generation: distribution of times"
	c := newChart("keygen-distribution", title, fmt.Sprintf("time per key pair (%s, log scale)", unit), "")
	p := c.Plot
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	var names []string
	var src sources
	table := &Table{Header: []string{"scheme", "n", "min", "q1", "median", "q3", "max", "label"}}
	for i, b := range boxes {
		vals := make(plotter.Values, len(b.m.Samples))
		for j, v := range b.m.Samples {
			vals[j] = v / div
		}
		bp, err := plotter.NewBoxPlot(vg.Points(8), float64(i), vals)
		if err != nil {
			return nil, err
		}
		bp.Horizontal = true
		quartilesHF8(bp, vals)
		bp.FillColor = colorN(1)
		bp.GlyphStyle.Shape = draw.CircleGlyph{}
		bp.GlyphStyle.Radius = vg.Points(1.5)
		p.Add(bp)
		c.Drew(figure.X, vals...)
		names = append(names, b.name)
		src.add(in, b.it, b.m)
		s := stats.Summarize(b.m.Samples)
		table.Rows = append(table.Rows, []string{b.name, strconv.Itoa(s.N), durationText(s.Min), durationText(s.Q1),
			durationText(s.Median), durationText(s.Q3), durationText(s.Max), string(b.m.Label)})
	}
	c.Categories(names...)
	p.Add(plotter.NewGrid())
	slices.Reverse(table.Rows)
	c.Table, c.Sources = table, src.list()
	c.Height = vg.Length(len(boxes))*14 + 70
	c.Caption = "Each box spans the quartiles of the key-generation times measured (raw samples; each sample is a batch's time per key pair), " +
		"the line is the median, whiskers reach the most extreme sample within 1.5 × IQR (Tukey), dots are the samples beyond. " +
		"Key generation with prime search (RSA, DSA, ElGamal) varies from key to key, which the seed002 study found too slow for phones; " +
		"the spread matters as much as the median."
	return []*Chart{c}, nil
}

// quartilesHF8 sets the box's quartiles to the ones cryptocost reports
// everywhere (stats.Summarize: Hyndman–Fan definition 8) and recomputes
// Tukey's whiskers and outside points from them, so the plot and the
// tables agree.
func quartilesHF8(bp *plotter.BoxPlot, vals plotter.Values) {
	s := stats.Summarize(vals)
	bp.Median, bp.Quartile1, bp.Quartile3 = s.Median, s.Q1, s.Q3
	iqr := s.Q3 - s.Q1
	lo, hi := s.Q1-1.5*iqr, s.Q3+1.5*iqr
	bp.AdjLow, bp.AdjHigh = math.Inf(1), math.Inf(-1)
	bp.Outside = bp.Outside[:0]
	for i, v := range bp.Values {
		if v < lo || v > hi {
			bp.Outside = append(bp.Outside, i)
			continue
		}
		bp.AdjLow, bp.AdjHigh = min(bp.AdjLow, v), max(bp.AdjHigh, v)
	}
}

func slug(s string) string {
	return strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(s), "-"), "-")
}
