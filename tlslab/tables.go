package tlslab

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// S000's reference figures (Nokia N95, 2010; ../shared/spec/seeds.md),
// shown beside ours: the study measured TLS 1.0 with OpenSSL 0.9.8 and a
// 1024-bit RSA server key; its byte counts are TLS bytes per direction.
var (
	s000Handshake = map[string][2]int{ // kex/mode -> C→S, S→C
		"rsa/full": {249, 2368}, "dhe/full": {249, 2770},
		"rsa/client-auth": {1772, 2348}, "dhe/client-auth": {1772, 2752},
		"rsa/resumed": {142, 168}, "dhe/resumed": {142, 168},
	}
	s000Overhead   = map[int]float64{1 << 10: 265.7, 10 << 10: 29.8, 50 << 10: 8.9, 100 << 10: 6.2, 500 << 10: 4.1, 1 << 20: 3.9, 5 << 20: 3.7}
	s000Throughput = map[int][2]float64{ // with TLS, without (MB/s)
		1 << 10: {0.015, 0.057}, 10 << 10: {0.118, 0.234}, 50 << 10: {0.268, 0.425}, 100 << 10: {0.316, 0.435},
		500 << 10: {0.348, 0.484}, 1 << 20: {0.387, 0.695}, 5 << 20: {0.404, 0.644},
	}
)

// TableOptions choose the views.
type TableOptions struct {
	// Messages prints each cell's message-by-message table (default:
	// when the run has at most four cells).
	Messages bool
}

// WriteTables prints a TLS run as tables shaped like the S000 study's:
// a summary per cell, handshake bytes per direction per mode and suite,
// overhead against transaction size, throughput with and without TLS,
// energy per suite and client authentication, and, for small runs, each
// cell's messages with the time the client sent or received them.
func WriteTables(w io.Writer, run *result.Run, opt TableOptions) error {
	env := run.Environment
	fmt.Fprintf(w, "cryptocost %s · TLS lab · %s · %s/%s · %d CPUs · run %s\n", run.Tool.Version,
		cmp.Or(env.CPUModel, "unknown CPU"), env.OS, env.Arch, env.CPUs, run.ID)
	var tls, failed []result.Result
	for _, r := range run.Results {
		if r.Subject.Kind != SubjectKindTLS {
			continue
		}
		if r.Error != "" {
			failed = append(failed, r)
		} else {
			tls = append(tls, r)
		}
	}
	if len(tls) > 0 {
		fmt.Fprintf(w, "\nlink: %s\n", tls[0].Subject.Params["link"])
		if tr := tls[0].Trace; tr != nil {
			fmt.Fprintf(w, "packets: %s\n", tr.HeaderModel)
		}
		summary(w, tls)
		handshakeBytes(w, tls)
		transfers(w, tls)
		energy(w, tls)
		if opt.Messages || len(tls) <= 4 {
			for _, r := range tls {
				messages(w, r)
			}
		}
	}
	for _, r := range failed {
		fmt.Fprintf(w, "\nFAILED %s:\n  %s\n", r.Subject.Name, strings.ReplaceAll(r.Error, "\n", "\n  "))
	}
	warnings := map[string]bool{}
	var order []string
	for _, r := range tls {
		for _, wn := range r.Warnings {
			if !warnings[wn] {
				warnings[wn] = true
				order = append(order, wn)
			}
		}
	}
	if len(order) > 0 {
		fmt.Fprintln(w, "\nnotes:")
		for _, wn := range order {
			fmt.Fprintf(w, "  - %s\n", wn)
		}
	}
	if run.Status != result.Complete {
		fmt.Fprintf(w, "\nrun %s\n", run.Status)
	}
	return nil
}

func median(r result.Result, name string) (float64, bool) {
	m := r.Metric(name)
	if m == nil {
		return 0, false
	}
	return m.Summary.Median, true
}

func ms(r result.Result, name string) string {
	v, ok := median(r, name)
	if !ok {
		return "-"
	}
	return strconv.FormatFloat(v*1e3, 'f', 2, 64) // s → ms
}

func num(r result.Result, name string) string {
	v, ok := median(r, name)
	if !ok {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func newTab(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

func summary(w io.Writer, rs []result.Result) {
	fmt.Fprintln(w, "\nConnections (medians; times in ms from the client's SYN; bytes are TLS bytes)")
	tw := newTab(w)
	fmt.Fprintln(tw, "CELL\tHANDSHAKE\tRTs\tC→S B\tS→C B\tCPU CLIENT\tCPU SERVER\tCONN TIME\tN")
	for _, r := range rs {
		n := r.Provenance.Method.Samples // connections measured (with or without the tap)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", r.Subject.Name, ms(r, MetricHandshakeTime),
			num(r, MetricRoundTrips), num(r, MetricBytesUp), num(r, MetricBytesDown),
			ms(r, MetricCPUClient), ms(r, MetricCPUServer), ms(r, MetricConnectionTime), n)
	}
	tw.Flush()
}

// mode is S000's column: full handshake, with client authentication, or
// resumed — "resumed (psk-ke)", naming how, since a run can hold several
// kinds of resumption.
func mode(r result.Result) string {
	p := r.Subject.Params
	switch {
	case p["resumption"] != "" && p["resumption"] != string(ResumeNone):
		return "resumed (" + p["resumption"] + ")"
	case p["client_auth"] == "true":
		return "client-auth"
	}
	return "full"
}

// suiteKey names a row: the suite, plus key exchange and certificate.
func suiteKey(r result.Result) string {
	p := r.Subject.Params
	return fmt.Sprintf("TLS %s %s %s %s×%s %s/%s", p["version"], p["kex"], p["bulk"], p["cert"], p["chain"], p["server"], p["client"])
}

func handshakeBytes(w io.Writer, rs []result.Result) {
	type row struct {
		key  string
		kex  string
		v10  bool
		cols map[string]string
	}
	rows := map[string]*row{}
	var keys []string
	for _, r := range rs {
		p := r.Subject.Params
		if p["protocol"] == "tcp" || p["transfer"] != "0" {
			continue
		}
		k := suiteKey(r)
		if rows[k] == nil {
			rows[k] = &row{key: k, kex: p["kex"], v10: p["version"] == "1.0" && p["cert"] == string(CertRSA1024), cols: map[string]string{}}
			keys = append(keys, k)
		}
		if m := mode(r); rows[k].cols[m] == "" || p["client_auth"] != "true" {
			// A resumed handshake's column shows the one without client
			// authentication when both were run.
			rows[k].cols[m] = num(r, MetricHandshakeBytesUp) + " / " + num(r, MetricHandshakeBytesDown)
		}
	}
	if len(keys) == 0 {
		return
	}
	// One column per kind of resumption in the run (in the matrix's
	// order), "RESUMED" when there is none.
	var resumed []string
	for _, res := range Resumptions {
		for _, k := range keys {
			if rows[k].cols["resumed ("+string(res)+")"] != "" {
				resumed = append(resumed, "resumed ("+string(res)+")")
				break
			}
		}
	}
	header := "SUITE\tFULL\tCLIENT AUTH"
	for _, m := range resumed {
		header += "\t" + strings.ToUpper(m)
	}
	if len(resumed) == 0 {
		header += "\tRESUMED"
	}
	fmt.Fprintln(w, "\nHandshake bytes, C→S / S→C (handshake and ChangeCipherSpec records; S000's table)")
	tw := newTab(w)
	fmt.Fprintln(tw, header+"\tS000 REF (full, auth, resumed)")
	for _, k := range keys {
		r := rows[k]
		ref := ""
		if r.v10 {
			if f, ok := s000Handshake[r.kex+"/full"]; ok {
				a, res := s000Handshake[r.kex+"/client-auth"], s000Handshake[r.kex+"/resumed"]
				ref = fmt.Sprintf("%d/%d, %d/%d, %d/%d", f[0], f[1], a[0], a[1], res[0], res[1])
			}
		}
		line := fmt.Sprintf("%s\t%s\t%s", k, dash(r.cols["full"]), dash(r.cols["client-auth"]))
		for _, m := range resumed {
			line += "\t" + dash(r.cols[m])
		}
		if len(resumed) == 0 {
			line += "\t-"
		}
		fmt.Fprintln(tw, line+"\t"+ref)
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func transfers(w io.Writer, rs []result.Result) {
	sizes := map[int]bool{}
	byKey := map[string]map[int]result.Result{}
	var keys []string
	v10 := false
	for _, r := range rs {
		t, _ := strconv.Atoi(r.Subject.Params["transfer"])
		if t == 0 {
			continue
		}
		sizes[t] = true
		k := "TCP (no TLS)"
		if r.Subject.Params["protocol"] != "tcp" {
			k = suiteKey(r) + " " + mode(r)
			v10 = v10 || r.Subject.Params["version"] == "1.0"
		}
		if byKey[k] == nil {
			byKey[k] = map[int]result.Result{}
			keys = append(keys, k)
		}
		byKey[k][t] = r
	}
	if len(sizes) == 0 {
		return
	}
	var ss []int
	for s := range sizes {
		ss = append(ss, s)
	}
	sort.Ints(ss)
	fmt.Fprintln(w, "\nOverhead against transaction size: total bytes both ways, overhead = total − payload (S000's table); wire: modelled TCP/IPv4")
	tw := newTab(w)
	fmt.Fprintln(tw, "SIZE\tCONFIGURATION\tTOTAL B\tOVERHEAD B\tOVERHEAD %\tWIRE OVERHEAD %\tS000 REF %")
	for _, s := range ss {
		for _, k := range keys {
			r, ok := byKey[k][s]
			if !ok {
				continue
			}
			up, _ := median(r, MetricBytesUp)
			down, _ := median(r, MetricBytesDown)
			ref := ""
			if v10 && k != "TCP (no TLS)" && strings.Contains(k, " rsa ") {
				if v, ok := s000Overhead[s]; ok {
					ref = strconv.FormatFloat(v, 'f', 1, 64)
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%.0f\t%s\t%s\t%s\t%s\n", sizeName(s), k, up+down, num(r, MetricOverheadBytes),
				pct(r, MetricOverhead), pct(r, MetricWireOverhead), ref)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "\nThroughput with and without TLS, MB/s: median [95 % CI] (payload / time from SYN to the last payload byte; S000's table)")
	tw = newTab(w)
	header := "SIZE"
	for _, k := range keys {
		header += "\t" + k
	}
	if v10 {
		header += "\tS000 REF TLS / TCP"
	}
	fmt.Fprintln(tw, header)
	for _, s := range ss {
		line := sizeName(s)
		for _, k := range keys {
			line += "\t"
			if r, ok := byKey[k][s]; ok {
				if m := r.Metric(MetricThroughput); m != nil {
					line += withCI(m.Summary.Scaled(1e-6)) // B/s → MB/s, S000's unit
				}
			}
		}
		if v10 {
			if ref, ok := s000Throughput[s]; ok {
				line += fmt.Sprintf("\t%.3f / %.3f", ref[0], ref[1])
			} else {
				line += "\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	for _, n := range throughputRanking(byKey, keys, ss) {
		fmt.Fprintln(w, "  ! "+n)
	}
}

// withCI prints a throughput median with its confidence interval, or says
// there is none (fewer than stats.MinSamplesForCI connections).
func withCI(s stats.Summary) string {
	v := strconv.FormatFloat(s.Median, 'f', 3, 64)
	if !finiteCI(s) {
		return fmt.Sprintf("%s [no CI, N=%d]", v, s.N)
	}
	return fmt.Sprintf("%s [%.3f, %.3f]", v, s.CILow, s.CIHigh)
}

// finiteCI says whether s has a confidence interval. A single connection's
// metric is a scalar (its "interval" is the value itself), so the sample
// size decides, not only the bounds.
func finiteCI(s stats.Summary) bool {
	return s.N >= stats.MinSamplesForCI && !math.IsInf(s.CILow, 0) && !math.IsInf(s.CIHigh, 0) && !math.IsNaN(s.CILow) && !math.IsNaN(s.CIHigh)
}

// throughputRanking says where the throughput table cannot rank what it
// shows: two configurations at one size, or one configuration at two
// successive sizes, whose 95 % confidence intervals overlap (or that have
// none) are not ordered by their medians, however the medians fall. With a
// few connections per cell the medians are single noisy connections: the
// table then looked as if TLS beat plain TCP at 10 KiB, or a configuration
// slowed down from 10 KiB to 50 KiB, and nothing said that neither was
// significant. Both kinds are reported only where the medians contradict
// the expected order (TLS ≤ TCP; larger transfers ≥ smaller), or where a
// cell has no interval at all.
func throughputRanking(byKey map[string]map[int]result.Result, keys []string, sizes []int) []string {
	get := func(k string, s int) (stats.Summary, bool) {
		r, ok := byKey[k][s]
		if !ok {
			return stats.Summary{}, false
		}
		m := r.Metric(MetricThroughput)
		if m == nil {
			return stats.Summary{}, false
		}
		return m.Summary, true
	}
	var notes []string
	noCI := 0
	minN := 0
	for _, k := range keys {
		for _, s := range sizes {
			if v, ok := get(k, s); ok && !finiteCI(v) {
				if noCI == 0 || v.N < minN {
					minN = v.N
				}
				noCI++
			}
		}
	}
	if noCI > 0 {
		notes = append(notes, fmt.Sprintf("%d cells have no confidence interval (N=%d < %d connections): their order is not known; --repeat %d or more ranks them",
			noCI, minN, stats.MinSamplesForCI, stats.MinSamplesForCI*2))
	}
	const plain = "TCP (no TLS)"
	for _, s := range sizes {
		tcp, ok := get(plain, s)
		if !ok {
			continue
		}
		for _, k := range keys {
			v, ok := get(k, s)
			if k == plain || !ok || v.Median <= tcp.Median {
				continue
			}
			if overlap(v, tcp) {
				notes = append(notes, fmt.Sprintf("%s: %s %s above TCP %s: the intervals overlap, too wide to rank (--repeat more)",
					sizeName(s), k, withCI(v), withCI(tcp)))
			}
		}
	}
	for _, k := range keys {
		for i := 1; i < len(sizes); i++ {
			a, okA := get(k, sizes[i-1])
			b, okB := get(k, sizes[i])
			if okA && okB && b.Median < a.Median && overlap(a, b) {
				notes = append(notes, fmt.Sprintf("%s: %s %s below %s %s: the intervals overlap, too wide to rank (--repeat more)",
					k, sizeName(sizes[i]), withCI(b), sizeName(sizes[i-1]), withCI(a)))
			}
		}
	}
	return notes
}

// overlap says whether two medians' intervals overlap; a missing interval
// overlaps everything.
func overlap(a, b stats.Summary) bool {
	if !finiteCI(a) || !finiteCI(b) {
		return true
	}
	return a.CILow <= b.CIHigh && b.CILow <= a.CIHigh
}

func pct(r result.Result, name string) string {
	v, ok := median(r, name)
	if !ok {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func energy(w io.Writer, rs []result.Result) {
	priced := false
	asked := false
	for _, r := range rs {
		for _, m := range r.Metrics {
			if strings.HasPrefix(m.Name, MetricEnergy+"/") {
				priced = true
			}
			if strings.HasPrefix(m.Name, MetricCPUClient+"/") {
				asked = true
			}
		}
	}
	if !asked {
		return
	}
	fmt.Fprintln(w, "\nEnergy per connection on the device (the client), by component (S000's split); label per figure, e.g. imported, estimated")
	tw := newTab(w)
	comps := []Component{Asymmetric, Hashing, SymmetricMAC, IO, Radio}
	header := "CELL"
	for _, c := range comps {
		header += "\t" + strings.ToUpper(string(c))
	}
	fmt.Fprintln(tw, header+"\tTOTAL")
	for _, r := range rs {
		line := r.Subject.Name
		total, complete := 0.0, true
		for _, c := range comps {
			if m := r.Metric(MetricEnergy + "/" + string(c)); m != nil {
				total += m.Summary.Median
				line += "\t" + siJoules(m.Summary.Median) + " " + shortLabel(m.Label)
			} else if c != Radio && !hasWork(&r, c) {
				line += "\tnone" // a resumed handshake does no asymmetric work
			} else {
				complete = false
				cpu, cok := median(r, MetricCPUClient+"/"+string(c))
				if cok {
					line += fmt.Sprintf("\tnot priced (%.3g ms CPU here)", cpu*1e3)
				} else {
					line += "\tnot priced"
				}
			}
		}
		if m := r.Metric(MetricEnergy); m != nil && complete {
			line += "\t" + siJoules(m.Summary.Median) + " " + shortLabel(m.Label)
		} else if complete {
			line += "\t" + siJoules(total)
		} else {
			line += "\t-"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	if !priced {
		fmt.Fprintln(w, "  (no --device: the CPU time measured here, by component; give --device to price it)")
	} else {
		fmt.Fprintln(w, "  (labels: imp imported from the literature, mod modelled (E = V·I·t or a radio model), est estimated, sim simulated; a part not priced says why in the notes, and the total is then not given)")
	}
}

// hasWork: the connection recorded work of the component.
func hasWork(r *result.Result, c Component) bool {
	for _, w := range r.Work {
		if w.Component == string(c) {
			return true
		}
	}
	return false
}

// shortLabel is a figure's label in the energy table's cells.
func shortLabel(l result.Label) string {
	switch l {
	case result.Imported:
		return "imp"
	case result.Modelled:
		return "mod"
	case result.Estimated:
		return "est"
	case result.Simulated:
		return "sim"
	case result.Measured:
		return "meas"
	}
	return string(l)
}

func siJoules(j float64) string {
	switch {
	case j >= 1:
		return fmt.Sprintf("%.3g J", j)
	case j >= 1e-3:
		return fmt.Sprintf("%.3g mJ", j*1e3)
	}
	return fmt.Sprintf("%.3g µJ", j*1e6)
}

// messages prints one cell's messages in wire order with the client's
// times and the bytes each way.
func messages(w io.Writer, r result.Result) {
	type msg struct {
		at   float64
		dir  string
		name string
	}
	var ms []msg
	for _, m := range r.Metrics {
		var dir, name string
		switch {
		case strings.HasPrefix(m.Name, PrefixTimeSent):
			dir, name = "C→S", strings.TrimPrefix(m.Name, PrefixTimeSent)
		case strings.HasPrefix(m.Name, PrefixTimeRecvd):
			dir, name = "S→C", strings.TrimPrefix(m.Name, PrefixTimeRecvd)
		default:
			continue
		}
		ms = append(ms, msg{at: m.Summary.Median, dir: dir, name: name})
	}
	if len(ms) == 0 {
		return
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].at < ms[j].at })
	fmt.Fprintf(w, "\n%s: messages as the client sees them (bytes per name, all occurrences; t from SYN)\n", r.Subject.Name)
	tw := newTab(w)
	fmt.Fprintln(tw, "T (ms)\tDIR\tMESSAGE\tBYTES")
	shown := map[string]bool{}
	for _, m := range ms {
		base, _, _ := strings.Cut(m.name, "#")
		prefix := PrefixBytesUp
		if m.dir == "S→C" {
			prefix = PrefixBytesDown
		}
		b := ""
		if !shown[prefix+base] {
			b = num(r, prefix+base)
			shown[prefix+base] = true
		}
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\n", m.at*1e3 /* seconds, the vocabulary's base unit */, m.dir, m.name, b)
	}
	tw.Flush()
}
