package remotesign

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// WriteTable prints a run in the shape of S001's tables: the latency of a
// signature split into hashing, signing and transfer, the TLS handshake,
// the bytes of each message, then the energy on the signer's device and
// S001's own figures. Numbers that are not measurements carry a footnote
// with their label and method; results without a number say why.
func WriteTable(w io.Writer, run *result.Run) error {
	var rs, refs []result.Result
	for _, r := range run.Results {
		switch {
		case r.Subject.Kind == SubjectKind && r.Subject.Params["scenario"] == "remote-sign":
			rs = append(rs, r)
		case r.Subject.Kind == "imported" && strings.Contains(r.Subject.Name, "/sign/"):
			refs = append(refs, r)
		}
	}
	env := run.Environment
	fmt.Fprintf(w, "remote-sign (S001) · run %s · %s · %s/%s · signer priced on %s\n", run.ID, cmp.Or(env.CPUModel, "—"), env.OS, env.Arch, cmp.Or(env.Device, "—"))
	if len(rs) > 0 {
		fmt.Fprintf(w, "link: %s\n", cmp.Or(rs[0].Subject.Params["link"], "—"))
	}
	notes := &footnotes{index: map[string]int{}}
	fmt.Fprintln(w, "\nLatency per signature: the median request (by latency) and its own parts, which add up to it:")
	fmt.Fprintln(w, "latency = hash + sign + signer other (parsing, encoding) + transfer (latency − the signer's time); hash and sign timed by the signer")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SCHEME\tMODE\tDOC\tN\tLATENCY\tHASH\tSIGN\tSIGNER OTHER\tTRANSFER\tTLS HANDSHAKE\tREQUEST B\tRESPONSE B\tSIGNATURE B\tON STREAM ↓/↑ B\t")
	for _, r := range rs {
		p := r.Subject.Params
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t\tFAILED%s\t\t\t\t\t\t\t\t\t\t\n", r.Subject.Scheme, p["mode"], scheme.FormatSize(r.Subject.InputBytes), notes.mark(r.Error))
			continue
		}
		n := 0
		if m := r.Metric(MetricLatency); m != nil {
			n = m.Summary.N
		}
		lat, hash, sign, other, transfer := ms(r, MetricLatency), ms(r, MetricHash), ms(r, MetricSign), ms(r, MetricSignerOther), ms(r, MetricTransfer)
		if sp, ok := MedianRequest(r); ok {
			lat, hash, sign, other, transfer = msOf(sp.Latency), msOf(sp.Hash), msOf(sp.Sign), msOf(sp.SignerOther), msOf(sp.Transfer)
		} else {
			lat += notes.mark("medians of each part, which need not add up: the result carries no per-request samples")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%s\t\n", r.Subject.Scheme, p["mode"],
			scheme.FormatSize(r.Subject.InputBytes), n,
			lat, hash, sign, other, transfer, ms(r, MetricHandshake),
			num(r, MetricRequestBytes, notes), num(r, MetricResponseBytes, notes), num(r, MetricSignatureBytes, notes),
			num(r, MetricPayloadReceived, notes), num(r, MetricPayloadSent, notes))
	}
	tw.Flush()

	fmt.Fprintln(w, "\nSigner memory per connection, listening (at accept) and signing (peak over the connection)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SCHEME\tMODE\tDOC\tSIGNER\tRSS LISTENING\tRSS SIGNING\tHEAP LISTENING\tHEAP SIGNING\t")
	for _, r := range rs {
		if r.Error != "" || r.Metric(MetricSignerHeapListening) == nil {
			continue
		}
		p := r.Subject.Params
		where := "in-process (heap: whole process)"
		if p["signer"] == "process" {
			where = "own process"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Subject.Scheme, p["mode"], scheme.FormatSize(r.Subject.InputBytes), where,
			mib(r, MetricSignerRSSListening), mib(r, MetricSignerRSSSigning), mib(r, MetricSignerHeapListening), mib(r, MetricSignerHeapSigning))
	}
	tw.Flush()

	fmt.Fprintf(w, "\nEnergy on %s (↓ received, ↑ sent by the signer; radio per request is its share of the connection)\n", cmp.Or(env.Device, "—"))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SCHEME\tMODE\tDOC\tCURRENT\tDEVICE TIME\tJ/SIGNATURE\tNET J/SIGNATURE\tRADIO J/REQUEST\tSIGNATURES/BATTERY\t")
	for _, r := range rs {
		if r.Error != "" {
			continue
		}
		p := r.Subject.Params
		op := r.Subject.Scheme + "/sign"
		row := []string{r.Subject.Scheme, p["mode"], scheme.FormatSize(r.Subject.InputBytes),
			val(r, "op-current/"+op, "%.4g mA", 1e3, notes),
			val(r, "op-device-time/"+op, "%.3g ms", 1e3, notes),
			val(r, "energy/sign", "%.3g mJ", 1e3, notes),
			val(r, "energy-net/sign", "%.3g mJ", 1e3, notes),
			val(r, "energy/radio", "%.3g mJ", 1e3, notes),
			val(r, "ops-per-battery-net", "%.3g", 1, notes)}
		for _, warn := range r.Warnings {
			row[len(row)-1] += notes.mark(warn)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()

	if len(refs) > 0 {
		fmt.Fprintf(w, "\n%s's own signing currents (imported) and what follows from them\n", cmp.Or(env.Device, "—"))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "SIGNING\tCURRENT\tOVER IDLE\tSIGNING HOURS/BATTERY\tSIGNATURES/BATTERY\t")
		for _, r := range refs {
			hours := ""
			if m := r.Metric("signing-time-per-battery"); m != nil {
				hours = fmt.Sprintf("%.1f h", m.Summary.Median/3600) + notes.mark(string(m.Label)+": "+m.Method)
			}
			_, name, _ := strings.Cut(r.Subject.Name, "/sign/")
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", name,
				val(r, "current-signing", "%.4g mA", 1e3, notes), val(r, "current-over-idle", "%+.2f %%", 1, notes),
				hours, val(r, "ops-per-battery", "> %.0f", 1, notes))
		}
		tw.Flush()
	}
	for i, text := range notes.order {
		fmt.Fprintf(w, "[%d] %s\n", i+1, text)
	}
	if run.Status != result.Complete {
		fmt.Fprintf(w, "run %s: %s\n", run.Status, strings.Join(run.Errors, "; "))
	}
	return nil
}

type footnotes struct {
	index map[string]int
	order []string
}

func (f *footnotes) mark(text string) string {
	n, ok := f.index[text]
	if !ok {
		f.order = append(f.order, text)
		n = len(f.order)
		f.index[text] = n
	}
	return fmt.Sprintf("[%d]", n)
}

// MedianRequest is the latency split of a result's median request: the
// request whose latency is the median of the connection's latencies (the
// lower of the two middle ones when N is even), with that same request's
// hash, sign, signer-other and transfer times, read from the metrics'
// samples, which are in request order. Its parts add up to its latency,
// which medians of each part separately do not (the median hash, sign and
// transfer come from different requests). ok is false when the result
// carries no per-request samples (an older run).
func MedianRequest(r result.Result) (Split, bool) {
	get := func(name string) []float64 {
		if m := r.Metric(name); m != nil {
			return m.Samples
		}
		return nil
	}
	lat := get(MetricLatency)
	parts := [][]float64{get(MetricHash), get(MetricSign), get(MetricSignerOther), get(MetricTransfer)}
	if len(lat) == 0 {
		return Split{}, false
	}
	for _, p := range parts {
		if len(p) != len(lat) {
			return Split{}, false
		}
	}
	idx := make([]int, len(lat))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return lat[idx[a]] < lat[idx[b]] })
	i := idx[(len(idx)-1)/2]
	d := func(v float64) time.Duration { return time.Duration(math.Round(v * 1e9)) } // samples are in seconds
	return Split{Latency: d(lat[i]), Hash: d(parts[0][i]), Sign: d(parts[1][i]), SignerOther: d(parts[2][i]), Transfer: d(parts[3][i])}, true
}

// mib prints a byte metric in MiB ("—" if absent: the resident set is
// measured only for a signer in its own process).
func mib(r result.Result, name string) string {
	m := r.Metric(name)
	if m == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f MiB", m.Summary.Median/(1<<20))
}

func msOf(d time.Duration) string { return fmt.Sprintf("%.3g ms", float64(d)/1e6) }

// ms prints a time metric (seconds) as milliseconds.
func ms(r result.Result, name string) string {
	m := r.Metric(name)
	if m == nil {
		return "—"
	}
	return fmt.Sprintf("%.3g ms", m.Summary.Median*1e3)
}

func num(r result.Result, name string, f *footnotes) string {
	return val(r, name, "%.0f", 1, f)
}

// val prints a metric's median × scale; not measured values get a
// footnote with their label and method.
func val(r result.Result, name, format string, scale float64, f *footnotes) string {
	m := r.Metric(name)
	if m == nil {
		return "—"
	}
	s := fmt.Sprintf(format, m.Summary.Median*scale)
	if m.Label != result.Measured {
		s += f.mark(string(m.Label) + ": " + m.Method)
	}
	return s
}

// WriteTable prints the run in the scenario's own tables (the command's
// table format can use it instead of one row per metric).
func (*Scenario) WriteTable(w io.Writer, run *result.Run) error { return WriteTable(w, run) }
