package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

var handshakeBuilder = Builder{
	Name:  "handshake-bytes",
	Title: "Handshake bytes by message, per suite and mode",
	Expects: `any subject with metrics "bytes-up/<Message>" and "bytes-down/<Message>" (the TLS lab's names; ` +
		`"bytes.up.<Message>" and "bytes.down.<Message>" also work) (unit B; up = sent by the ` +
		`device/client), or else a packet trace whose packet labels name handshake messages (a flight such as "ServerHello, Certificate" ` +
		`counts as one part; DTLS's and EDHOC's messages too); application data (bytes-*/ApplicationData) and every other ` +
		`packet (TCP segments, readings, sync messages, encrypted records) are left out`,
	Build: handshakeCharts,
}

// messageOrder is the order of handshake messages on the wire (RFC 5246
// §7.3, RFC 8446 §2), so stacks read bottom-up as the handshake runs.
var messageOrder = []string{"ClientHello", "HelloRetryRequest", "ServerHello", "EncryptedExtensions", "Certificate",
	"ServerKeyExchange", "CertificateRequest", "ServerHelloDone", "ClientKeyExchange", "CertificateVerify",
	"ChangeCipherSpec", "Finished", "NewSessionTicket", "EndOfEarlyData", "KeyUpdate", "Alert"}

// messageRank ranks a message, or a packet's flight of them ("ServerHello,
// Certificate, ServerHelloDone") by its first, in wire order.
func messageRank(m string) int {
	first, _, _ := strings.Cut(m, ",")
	first, _, _ = strings.Cut(first, "(")
	if i := slices.Index(messageOrder, strings.TrimSpace(first)); i >= 0 {
		return i
	}
	return len(messageOrder)
}

// bulk reports whether a handshake-bytes metric's message is
// application data — the transfer, not the handshake.
func bulk(msg string) bool {
	l := strings.ToLower(strings.TrimSpace(msg))
	return l == "" || l == "app data" || l == "application data" || strings.HasPrefix(l, "applicationdata")
}

// handshakeMessages are what a packet label must name to count as
// handshake bytes: TLS/DTLS handshake messages (DTLS adds
// HelloVerifyRequest, RFC 6347 §4.2.1) and EDHOC's (RFC 9528 §5). A
// scenario's readings, registrations, sync messages and protected
// records are its traffic, not a handshake.
var handshakeMessages = append(slices.Clone(messageOrder), "HelloVerifyRequest", "EDHOC message_")

func handshakeLabel(label string) bool {
	if strings.HasPrefix(label, "reading ") {
		return false // a reading's traffic, even when it resumes a session
	}
	for _, m := range handshakeMessages {
		if strings.Contains(label, m) {
			return true
		}
	}
	return false
}

// handshakeCharts: for every subject, a bar per direction stacked by
// handshake message; application data is left out (the transfer charts
// show it) and named in the table.
func handshakeCharts(in *Input) ([]*Chart, error) {
	var stacks []stack
	var src sources
	bulkBytes := map[string]float64{}
	for _, it := range in.results() {
		up, down := map[string]float64{}, map[string]float64{}
		var upBulk, downBulk float64
		for i := range it.r.Metrics {
			m := &it.r.Metrics[i]
			msg, isUp := cutPrefix(m.Name, "bytes-up/", "bytes.up.")
			msgDown, isDown := cutPrefix(m.Name, "bytes-down/", "bytes.down.")
			switch {
			case isUp && bulk(msg):
				upBulk += m.Summary.Median
			case isUp:
				up[msg] += m.Summary.Median
				src.add(in, it, m)
			case isDown && bulk(msgDown):
				downBulk += m.Summary.Median
			case isDown:
				down[msgDown] += m.Summary.Median
				src.add(in, it, m)
			}
		}
		if len(up)+len(down) == 0 && it.r.Trace != nil {
			// The packet trace, when its packets are labelled: TLS payload
			// bytes of each packet (a packet may carry a flight of several
			// messages, named together).
			for _, pk := range it.r.Trace.Packets {
				n := float64(pk.Payload)
				if pk.Payload == 0 && pk.Bytes > 0 && it.r.Trace.HeaderModel == "" {
					n = float64(pk.Bytes) // a trace of payloads only
				}
				switch {
				case n <= 0:
				case !handshakeLabel(pk.Label) && pk.Dir == result.Up:
					upBulk += n
				case !handshakeLabel(pk.Label):
					downBulk += n
				case pk.Dir == result.Up:
					up[pk.Label] += n
				default:
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
			bulkBytes[name+" ↑ sent"] = upBulk
		}
		if len(down) > 0 {
			stacks = append(stacks, stack{name + " ↓ received", down})
			bulkBytes[name+" ↓ received"] = downBulk
		}
	}
	if len(stacks) == 0 {
		return nil, nil
	}
	c := stackedChart("handshake-bytes", "Handshake bytes by message", "bytes", stacks, messageRank)
	c.Sources = src.list()
	c.Table.Header = append(c.Table.Header, "other traffic (not drawn)")
	for i, row := range c.Table.Rows {
		c.Table.Rows[i] = append(row, num(bulkBytes[row[0]]))
	}
	c.Caption = "Bytes of each handshake message, sent (↑, client/device to server) and received (↓), for each suite and mode, " +
		"stacked in wire order — the S000 study's per-direction handshake table as a figure. Application data and other traffic are left out (the transfer " +
		"charts show it; the table gives its bytes), so the handshake is not a sliver beside a bulk transfer. Resumed handshakes skip " +
		"Certificate and the key exchange; DHE adds ServerKeyExchange; client authentication adds Certificate and CertificateVerify in the sent bar."
	if _, isLog := c.Plot.X.Scale.(plot.LogScale); isLog {
		c.Caption += " The totals span more than two decades, so the axis is logarithmic: compare the bars' ends, not the parts' lengths."
	}
	if len(c.Legend) == figure.MaxLegend && c.Legend[len(c.Legend)-1].Name == "other" {
		c.Caption += " The smallest messages are drawn together as other; the table has each."
	}
	return []*Chart{c}, nil
}

var energyBuilder = Builder{
	Name:  "energy-components",
	Title: "Energy per connection, by component",
	Expects: `any subject with at least two metrics "energy/<component>" (the TLS lab's names; "energy.<component>" also ` +
		`works) for the components asymmetric, symmetric+mac (or symmetric and mac), hashing, io, cpu and radio (or its phases ` +
		`radio.promotion, .transfer, .tail, .idle), in energy units (J, mJ, µJ, nJ, Wh, mWh); or a radio simulation's ` +
		`energy-promotion, energy-transfer, energy-tail and energy-idle (J), drawn as the radio's phases`,
	Build: energyCharts,
}

// energyToMilliJoules converts energy units to mJ.
var energyToMilliJoules = map[string]float64{"J": 1e3, "mJ": 1, "µJ": 1e-3, "uJ": 1e-3, "nJ": 1e-6, "Wh": 3.6e6, "mWh": 3.6e3, "µWh": 3.6}

// componentOrder puts the components in the order S000 split a
// connection's energy: asymmetric, symmetric, hashing, I/O, radio. Only
// these are components: "energy/reading" (a sensor's energy per reading)
// is a total, not a part of one.
var componentOrder = []string{"asymmetric", "symmetric+mac", "symmetric", "mac", "hashing", "io", "cpu", "radio", "radio.promotion",
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
		var used []*result.Metric
		for i := range it.r.Metrics {
			m := &it.r.Metrics[i]
			comp, ok := cutPrefix(m.Name, "energy/", "energy.")
			if !ok || !slices.Contains(componentOrder, comp) {
				continue
			}
			if m.Summary.Median == 0 {
				continue // a part of nothing: no colour for it
			}
			f, ok := energyToMilliJoules[m.Unit]
			if !ok {
				return nil, fmt.Errorf("%s: metric %s has unit %q; energy units are %s", it.r.Subject.Name, m.Name, m.Unit, "J, mJ, µJ, nJ, Wh, mWh")
			}
			parts[comp] += m.Summary.Median * f
			used = append(used, m)
		}
		if len(parts) == 0 {
			// A radio simulation's split of the radio's energy into its
			// phases (radio simulate: energy-promotion, -transfer, -tail,
			// -idle) is the radio component's own split.
			for _, ph := range []string{"promotion", "transfer", "tail", "idle"} {
				if m := it.r.Metric("energy-" + ph); m != nil && m.Unit == "J" && m.Summary.Median > 0 {
					parts["radio."+ph] += m.Summary.Median * 1e3
					used = append(used, m)
				}
			}
		}
		// One component is not a split: a bar of one colour says nothing a
		// table does not.
		if len(parts) < 2 {
			continue
		}
		for _, m := range used {
			src.add(in, it, m)
		}
		for comp := range parts {
			all[comp] = true
		}
		stacks = append(stacks, stack{in.series(it, it.r.Subject.Name), parts})
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
		"encryption and MACs, hashing, I/O and radio — or, for a radio simulation, the radio's promotion, transfer, tail and idle — as S000 " +
		"split a TLS connection's energy on the N95. Labels in the sources say which parts are measured and which are modelled or estimated " +
		"from a device or radio profile."
	if _, isLog := c.Plot.X.Scale.(plot.LogScale); isLog {
		c.Caption += " The totals span more than two decades, so the axis is logarithmic: compare the bars' ends, not the parts' lengths."
	}
	var notes []string
	for _, comp := range sortedKeys(missing) {
		notes = append(notes, fmt.Sprintf("%s not given for %s (absent, not zero)", comp, strings.Join(missing[comp], ", ")))
	}
	if len(notes) > 0 {
		c.Caption += " Not drawn: " + strings.Join(notes, "; ") + "."
	}
	return []*Chart{c}, nil
}

var transferBuilder = Builder{
	Name:  "transfer",
	Title: "Overhead and throughput against transfer size",
	Expects: `subjects not of kind "primitive" with param transfer (the TLS lab's; transfer_bytes, else input_bytes, also work) and a metric ` +
		`"overhead" (%) and/or "throughput" (B/s); series from params series, else the subject name without its size`,
	Build: transferCharts,
}

// transferSize is a subject's transfer size in bytes, or 0.
func transferSize(s result.Subject) float64 {
	for _, k := range []string{"transfer", "transfer_bytes"} {
		if v, err := strconv.ParseFloat(s.Params[k], 64); err == nil && v > 0 {
			return v
		}
	}
	return float64(s.InputBytes)
}

// transferCharts: overhead (%) and throughput against transfer size, one
// line per series, on log axes (transfers span decades of size; the
// overhead falls by orders of magnitude with it).
func transferCharts(in *Input) ([]*Chart, error) {
	var charts []*Chart
	for _, metric := range []string{"overhead", "throughput"} {
		series := map[string]ciXYs{}
		var order []string
		unit := ""
		sizes := map[float64]bool{}
		type row struct {
			name string
			it   item
			m    *result.Metric
			size float64
		}
		var rows []row
		for _, it := range in.results() {
			s := it.r.Subject
			m := it.r.Metric(metric)
			if s.Kind == "primitive" || m == nil || !(m.Summary.Median > 0) {
				continue
			}
			size := transferSize(s)
			if size <= 0 {
				continue
			}
			if metric == "throughput" {
				m = inMBps(m)
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
			rows = append(rows, row{name, it, m, size})
		}
		if len(order) == 0 {
			continue
		}
		var xs []float64
		for s := range sizes {
			xs = append(xs, s)
		}
		slices.Sort(xs)
		baseTitle := map[string]string{"overhead": "Data overhead against transfer size", "throughput": "Throughput against transfer size"}[metric]
		pg := pages(order)
		for k, names := range pg {
			id, title := paged("transfer-"+metric, baseTitle, k, len(pg))
			c := newChart(id, title, "transfer size (log scale)", fmt.Sprintf("%s (%s, log scale)", metric, unit))
			p := c.Plot
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.X.Tick.Marker, p.Y.Tick.Marker = sizeTicks(xs), logTicks{}
			p.Add(plotter.NewGrid())
			table := &Table{Header: []string{"series", "transfer", "median", "95% CI", "label"}}
			var src sources
			for _, r := range rows {
				if slices.Contains(names, r.name) {
					src.add(in, r.it, r.m)
					table.Rows = append(table.Rows, []string{r.name, sizeLabel(r.size), num(r.m.Summary.Median) + " " + r.m.Unit, ciText(r.m.Summary, 1), string(r.m.Label)})
				}
			}
			for i, name := range names {
				xy := series[name]
				slices.SortFunc(xy, func(a, b struct{ X, Y, Lo, Hi float64 }) int { return cmp.Compare(a.X, b.X) })
				if err := c.addLine(name, xy, i, true); err != nil {
					return nil, err
				}
			}
			c.Table, c.Sources = table, src.list()
			if metric == "overhead" {
				c.Caption = "Bytes on the wire beyond the payload, as a percentage of the payload, against the transfer size, both on log scales (S000: overhead = total − payload; " +
					"265.7 % at 1 KB falling to 3.7 % at 5 MB with RSA on the N95): the handshake dominates small transfers."
			} else {
				c.Caption = "Throughput (payload / connection time, MB/s) against the transfer size, both on log scales, with and without TLS where both were run — S000's " +
					"throughput table as a figure."
			}
			charts = append(charts, c)
		}
	}
	return charts, nil
}

// seriesName is the subject's series: params series, else its name
// without the size — a path element that is a size ("transfer/tls/1k"),
// or the size inside one ("tls1.3/…/down-1024/go-go": "down").
func seriesName(s result.Subject, size string) string {
	if v := s.Params["series"]; v != "" {
		return v
	}
	var keep []string
	for _, part := range strings.Split(s.Name, "/") {
		if part == size || part == strings.TrimSuffix(sizeLabel(mustFloat(size)), " B") || isSizeToken(part) {
			continue
		}
		var tokens []string
		for _, tok := range strings.Split(part, "-") {
			if tok != size {
				tokens = append(tokens, tok)
			}
		}
		if len(tokens) > 0 {
			keep = append(keep, strings.Join(tokens, "-"))
		}
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
