package radio

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Metrics returns the breakdown as result metrics, every one labelled
// modelled with method (Profile.Method) — never a measurement:
//
//	energy, energy-promotion, energy-transfer, energy-tail, energy-idle (J)
//	time-promotion, time-transfer, time-tail, time-idle, duration (s)
//	tail-share (% of the energy), promotions, delay-added (s)
//	packets, bytes-up, bytes-down, frames-up, frames-down (when counted)
//	time-in-STATE (s) and energy-in-STATE (J) for every state visited
//
// The TLS lab appends them, with PrefixedMetrics("radio-", ...) so they do
// not collide with its own, to a handshake's result to split its energy
// into crypto, I/O and radio.
func (b *Breakdown) Metrics(method string) []result.Metric { return b.PrefixedMetrics("", method) }

// PrefixedMetrics is Metrics with prefix before every name
// ("radio-energy-tail").
func (b *Breakdown) PrefixedMetrics(prefix, method string) []result.Metric {
	var ms []result.Metric
	add := func(name, unit string, v float64) {
		m := result.NewScalar(prefix+name, unit, result.Lower, result.Modelled, v)
		m.Method = method
		ms = append(ms, m)
	}
	total := b.Total()
	add("energy", "J", total)
	for _, p := range Phases {
		add("energy-"+string(p), "J", b.Energy(p))
	}
	for _, p := range Phases {
		add("time-"+string(p), "s", b.Time(p).Seconds())
	}
	add("duration", "s", (b.End - b.Start).Seconds())
	if total > 0 {
		add("tail-share", "%", 100*b.Energy(Tail)/total)
	}
	add("promotions", "promotions", float64(b.Promotions))
	add("delay-added", "s", b.DelayAdded.Seconds())
	add("packets", "packets", float64(b.Packets))
	add("bytes-up", "B", float64(b.BytesUp))
	add("bytes-down", "B", float64(b.BytesDown))
	if b.FramesUp+b.FramesDown > 0 {
		add("frames-up", "frames", float64(b.FramesUp))
		add("frames-down", "frames", float64(b.FramesDown))
	}
	for _, s := range b.States() {
		add("time-in-"+s.State+"-"+string(s.Phase), "s", s.Time.Seconds())
		add("energy-in-"+s.State+"-"+string(s.Phase), "J", s.EnergyJ)
	}
	return ms
}

// Result returns the breakdown as a result of kind "radio": subject
// name "PROFILE/NAME", the trace's source as provenance.
func (b *Breakdown) Result(p *Profile, name, source string, params map[string]string) result.Result {
	ps := map[string]string{"profile": p.Name, "technology": p.Technology, "trace": source}
	for k, v := range params {
		ps[k] = v
	}
	r := result.Result{
		Subject: result.Subject{Kind: "radio", Name: p.Name + "/" + name, Operation: "simulate", Params: ps},
		Metrics: b.Metrics(p.Method()),
		Provenance: result.Provenance{Label: result.Modelled, Source: source,
			Method: result.Method{Name: "radio-" + p.Technology}},
		Warnings: append([]string(nil), b.Notes...),
	}
	if p.Unverified() {
		r.Warnings = append(r.Warnings, "profile "+p.Name+" has unverified parameters: see `cryptocost radio show "+p.Name+"`")
	}
	return r
}

// WriteTimeline writes the segments as CSV: start_s, end_s, state, phase,
// power_W, energy_J.
func WriteTimeline(w io.Writer, b *Breakdown) error {
	cw := csv.NewWriter(w)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 9, 64) }
	if err := cw.Write(strings.Split("start_s,end_s,state,phase,power_W,energy_J", ",")); err != nil {
		return err
	}
	for _, s := range b.Segments {
		if err := cw.Write([]string{f(s.Start.Seconds()), f(s.End.Seconds()), s.State, string(s.Phase), f(s.PowerW()), f(s.EnergyJ)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
