package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

var handshakeBuilder = Builder{
	Name:  "handshake-bytes",
	Title: "Handshake bytes by message, per suite and mode",
	Expects: `any subject with metrics "bytes-up/<Message>" and "bytes-down/<Message>" (the TLS lab's names; ` +
		`"bytes.up.<Message>" and "bytes.down.<Message>" also work) (unit B; up = sent by the ` +
		`device/client), or else a packet trace whose packets are labelled with the message (application data ` +
		`labelled "app data" or "application data" is left out)`,
	Build: handshakeCharts,
}

var energyBuilder = Builder{
	Name:  "energy-components",
	Title: "Energy per connection, by component",
	Expects: `any subject with metrics "energy/<component>" (the TLS lab's names; "energy.<component>" also ` +
		`works) (energy units: J, mJ, µJ, nJ, Wh, mWh), e.g. energy/asymmetric, energy/hashing, energy/io, energy/radio`,
	Build: energyCharts,
}

var transferBuilder = Builder{
	Name:  "transfer",
	Title: "Overhead and throughput against transfer size",
	Expects: `subjects not of kind "primitive" with params transfer_bytes (else input_bytes) and a metric ` +
		`"overhead" (%) and/or "throughput"; series from params series, else the subject name without its size`,
	Build: transferCharts,
}

// messageOrder is the order of handshake messages on the wire (RFC 5246
// §7.3, RFC 8446 §2), so stacks read bottom-up as the handshake runs.
var messageOrder = []string{"ClientHello", "HelloRetryRequest", "ServerHello", "EncryptedExtensions", "Certificate",
	"ServerKeyExchange", "CertificateRequest", "ServerHelloDone", "ClientKeyExchange", "CertificateVerify",
	"ChangeCipherSpec", "Finished", "NewSessionTicket", "EndOfEarlyData", "KeyUpdate", "Alert"}

func messageRank(m string) int {
	if i := slices.Index(messageOrder, m); i >= 0 {
		return i
	}
	return len(messageOrder)
}

// stack is one stacked bar's parts.
type stack struct {
	name  string
	parts map[string]float64
}

// handshakeCharts: for every subject, a bar per direction stacked by
// message.
func handshakeCharts(in *Input) ([]*Chart, error) {
	var stacks []stack
	var src sources
	for _, it := range in.results() {
		up, down := map[string]float64{}, map[string]float64{}
		for i := range it.r.Metrics {
			m := &it.r.Metrics[i]
			if msg, ok := cutPrefix(m.Name, "bytes-up/", "bytes.up."); ok {
				up[msg] += m.Summary.Median
				src.add(in, it, m)
			} else if msg, ok := cutPrefix(m.Name, "bytes-down/", "bytes.down."); ok {
				down[msg] += m.Summary.Median
				src.add(in, it, m)
			}
		}
		if len(up)+len(down) == 0 && it.r.Trace != nil {
			// The packet trace, when its packets are labelled.
			for _, pk := range it.r.Trace.Packets {
				l := strings.ToLower(pk.Label)
				if pk.Label == "" || l == "app data" || l == "application data" {
					continue
				}
				n := float64(cmp.Or(pk.Payload, pk.Bytes))
				if pk.Dir == result.Up {
					up[pk.Label] += n
				} else {
					down[pk.Label] += n
				}
			}
			if len(up)+len(down) > 0 {
				line := "packet trace" + map[bool]string{true: " (" + it.r.Trace.HeaderModel + ")", false: ""}[it.r.Trace.HeaderModel != ""] +
					": " + Provenance(it.r, &result.Metric{Label: it.r.Provenance.Label})
				if src.seen == nil {
					src.seen = map[string]bool{}
				}
				if !src.seen[line] {
					src.seen[line] = true
					src.lines = append(src.lines, line)
				}
			}
		}
		name := in.series(it, it.r.Subject.Name)
		if len(up) > 0 {
			stacks = append(stacks, stack{name + " ↑ sent", up})
		}
		if len(down) > 0 {
			stacks = append(stacks, stack{name + " ↓ received", down})
		}
	}
	if len(stacks) == 0 {
		return nil, nil
	}
	c := stackedChart("handshake-bytes", "Handshake bytes by message", "bytes", stacks, messageRank)
	c.Sources = src.list()
	c.Caption = "Bytes of each handshake message, sent (↑, client/device to server) and received (↓), for each suite and mode, " +
		"stacked in wire order — the S000 study's per-direction handshake table as a figure. Resumed handshakes skip Certificate and the key exchange; " +
		"DHE adds ServerKeyExchange; client authentication adds Certificate and CertificateVerify in the sent bar."
	return []*Chart{c}, nil
}

// energyToMilliJoules converts energy units to mJ.
var energyToMilliJoules = map[string]float64{"J": 1e3, "mJ": 1, "µJ": 1e-3, "uJ": 1e-3, "nJ": 1e-6, "Wh": 3.6e6, "mWh": 3.6e3, "µWh": 3.6}

// componentOrder puts the components in the order S000 split a
// connection's energy: asymmetric, symmetric, hashing, I/O, radio.
var componentOrder = []string{"asymmetric", "symmetric", "mac", "hashing", "io", "cpu", "radio", "radio.promotion",
	"radio.transfer", "radio.tail", "radio.idle"}

func componentRank(c string) int {
	if i := slices.Index(componentOrder, c); i >= 0 {
		return i
	}
	return len(componentOrder)
}

func energyCharts(in *Input) ([]*Chart, error) {
	var stacks []stack
	var src sources
	missing := map[string][]string{} // component -> subjects without it
	all := map[string]bool{}
	for _, it := range in.results() {
		parts := map[string]float64{}
		for i := range it.r.Metrics {
			m := &it.r.Metrics[i]
			comp, ok := cutPrefix(m.Name, "energy/", "energy.")
			if !ok {
				continue
			}
			f, ok := energyToMilliJoules[m.Unit]
			if !ok {
				return nil, fmt.Errorf("%s: metric %s has unit %q; energy units are %s", it.r.Subject.Name, m.Name, m.Unit, "J, mJ, µJ, nJ, Wh, mWh")
			}
			parts[comp] += m.Summary.Median * f
			all[comp] = true
			src.add(in, it, m)
		}
		if len(parts) > 0 {
			stacks = append(stacks, stack{in.series(it, it.r.Subject.Name), parts})
		}
	}
	if len(stacks) == 0 {
		return nil, nil
	}
	for comp := range all {
		for _, s := range stacks {
			if _, ok := s.parts[comp]; !ok {
				missing[comp] = append(missing[comp], s.name)
			}
		}
	}
	c := stackedChart("energy-components", "Energy per connection by component", "energy (mJ)", stacks, componentRank)
	c.Sources = src.list()
	c.Caption = "Energy of each connection or operation split into its components, stacked (mJ): asymmetric cryptography, symmetric " +
		"encryption and MACs, hashing, I/O and radio, as S000 split a TLS connection's energy on the N95. Labels in the sources say which parts " +
		"are measured and which are modelled or estimated from a device profile."
	var notes []string
	for _, comp := range sortedKeys(missing) {
		notes = append(notes, fmt.Sprintf("%s not given for %s (absent, not zero)", comp, strings.Join(missing[comp], ", ")))
	}
	if len(notes) > 0 {
		c.Caption += " Not drawn: " + strings.Join(notes, "; ") + "."
	}
	return []*Chart{c}, nil
}

// stackedChart draws one horizontal bar per stack, parts in rank order.
func stackedChart(id, title, unit string, stacks []stack, rank func(string) int) *Chart {
	partSet := map[string]bool{}
	for _, s := range stacks {
		for p := range s.parts {
			partSet[p] = true
		}
	}
	parts := sortedKeys(partSet)
	slices.SortStableFunc(parts, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	p := newPlot(title, unit, "")
	c := &Chart{ID: id, Title: title, Plot: p}
	table := &Table{Header: append([]string{"subject"}, append(slices.Clone(parts), "total")...)}
	var below *plotter.BarChart
	for i, part := range parts {
		vals := make(plotter.Values, len(stacks))
		for j, s := range stacks {
			vals[len(stacks)-1-j] = s.parts[part]
		}
		bc, _ := plotter.NewBarChart(vals, 9)
		bc.Horizontal = true
		bc.Color = colorN(i)
		bc.LineStyle.Width = vg.Points(0.3)
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
		c.Legend = append(c.Legend, LegendEntry{Name: part, Thumbs: []plot.Thumbnailer{bc}})
	}
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
	p.NominalY(names...)
	p.X.Min = 0
	p.Add(plotter.NewGrid())
	p.X.Max *= 1.04 // room after the longest bar
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

// transferCharts: overhead (%) and throughput against transfer size, one
// line per series.
func transferCharts(in *Input) ([]*Chart, error) {
	var charts []*Chart
	for _, metric := range []string{"overhead", "throughput"} {
		series := map[string]ciXYs{}
		var order []string
		var src sources
		unit := ""
		sizes := map[float64]bool{}
		table := &Table{Header: []string{"series", "transfer", "median", "95% CI", "label"}}
		for _, it := range in.results() {
			s := it.r.Subject
			m := it.r.Metric(metric)
			if s.Kind == "primitive" || m == nil {
				continue
			}
			size, err := strconv.ParseFloat(s.Params["transfer_bytes"], 64)
			if err != nil {
				size = float64(s.InputBytes)
			}
			if size <= 0 {
				continue
			}
			if unit == "" {
				unit = m.Unit
			} else if m.Unit != unit {
				return nil, fmt.Errorf("%s: %s in %s, others in %s", s.Name, metric, m.Unit, unit)
			}
			name := in.series(it, seriesName(s, strconv.FormatFloat(size, 'f', -1, 64)))
			if _, ok := series[name]; !ok {
				order = append(order, name)
			}
			lo, hi := ciOf(m.Summary, 1)
			series[name] = append(series[name], struct{ X, Y, Lo, Hi float64 }{size, m.Summary.Median, lo, hi})
			sizes[size] = true
			src.add(in, it, m)
			table.Rows = append(table.Rows, []string{name, sizeLabel(size), num(m.Summary.Median) + " " + m.Unit, ciText(m.Summary, 1), string(m.Label)})
		}
		if len(order) == 0 {
			continue
		}
		title := map[string]string{"overhead": "Data overhead against transfer size", "throughput": "Throughput against transfer size"}[metric]
		p := newPlot(title, "transfer size (log scale)", fmt.Sprintf("%s (%s)", metric, unit))
		p.X.Scale = plot.LogScale{}
		var xs []float64
		for s := range sizes {
			xs = append(xs, s)
		}
		slices.Sort(xs)
		p.X.Tick.Marker = sizeTicks(xs)
		if metric == "overhead" {
			p.Y.Min = 0
		}
		p.Add(plotter.NewGrid())
		c := &Chart{ID: "transfer-" + metric, Title: title, Plot: p, Table: table, Sources: src.list()}
		for i, name := range order {
			xy := series[name]
			slices.SortFunc(xy, func(a, b struct{ X, Y, Lo, Hi float64 }) int { return cmp.Compare(a.X, b.X) })
			if err := addLine(p, c, name, xy, i, true); err != nil {
				return nil, err
			}
		}
		if metric == "overhead" {
			c.Caption = "Bytes on the wire beyond the payload, as a percentage of the payload, against the transfer size (S000: overhead = total − payload; " +
				"265.7 % at 1 KB falling to 3.7 % at 5 MB with RSA on the N95): the handshake dominates small transfers."
		} else {
			c.Caption = "Throughput (size × connections / total time) against the transfer size, with and without TLS where both were run — S000's " +
				"throughput table as a figure."
		}
		charts = append(charts, c)
	}
	return charts, nil
}

// seriesName is the subject's series: params series, else its name
// without the path element that is the size.
func seriesName(s result.Subject, size string) string {
	if v := s.Params["series"]; v != "" {
		return v
	}
	var keep []string
	for _, part := range strings.Split(s.Name, "/") {
		if part == size || part == strings.TrimSuffix(sizeLabel(mustFloat(size)), " B") || isSizeToken(part) {
			continue
		}
		keep = append(keep, part)
	}
	return strings.Join(keep, "/")
}

func mustFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// isSizeToken recognises size path elements such as "1k", "10KB", "5M".
func isSizeToken(s string) bool {
	s = strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(s), "b"), "i")
	s = strings.TrimRight(s, "kmg")
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// cutPrefix is strings.CutPrefix with several accepted prefixes.
func cutPrefix(s string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return s, false
}
