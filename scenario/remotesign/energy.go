package remotesign

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// DefaultDevice is the signer's device profile when none is named: S001's
// phone (3000 mAh, idle 139.7 mA, its signing currents per algorithm).
const DefaultDevice = "s001-phone"

// Pricing prices the signer's work on a device profile and its traffic on
// a radio profile. Costing stays separate from measuring: the same
// connections can be priced for any device.
type Pricing struct {
	Device *energy.Device
	// OnDevice says this run executes on the device itself (cryptocost
	// on the phone): the signer's own times are the device's, measured.
	OnDevice bool
	// Speed, if positive, is the user's assumption that the device takes
	// Speed times this machine's time to hash and sign (--signer-speed).
	Speed float64
	// Calibration holds times measured on the device by cryptocost run
	// there (cryptocost calibrate); nil: none.
	Calibration *energy.Calibration
	// Env is this machine (for the estimators that scale its times).
	Env result.Environment
	// Radio prices the signer's packet traces (nil: not priced).
	Radio *radio.Profile
}

// RadioFor returns the radio profile a link is priced with on dev, or why
// there is none: the device's radios decide which links it can be priced
// on (S001's phone has Bluetooth Classic, WiFi and LTE; BLE and 802.15.4
// are refused).
func RadioFor(dev *energy.Device, linkName string) (*radio.Profile, error) {
	p, err := radio.Lookup(linkName)
	if err != nil {
		return nil, fmt.Errorf("no radio model for link %q", linkName)
	}
	if dev == nil || len(dev.Radios) == 0 {
		return p, nil
	}
	var have []string
	for _, name := range dev.Radios {
		r, err := radio.Lookup(name)
		if err != nil {
			have = append(have, name+" (no radio model)")
			continue
		}
		if r.Technology == p.Technology {
			return p, nil
		}
		have = append(have, name+" ("+r.Technology+")")
	}
	return nil, fmt.Errorf("%s has no %s radio: its radios are %s", dev.Name, p.Technology, strings.Join(have, ", "))
}

// primitiveSubject is how the bench runner and calibrations name one
// signature of a document of n bytes (the sign operation hashes inside),
// so a calibration made on the device is found by name.
func primitiveSubject(s result.Subject) result.Subject {
	p := map[string]string{}
	for k, v := range s.Params {
		p[k] = v
	}
	p["input"] = "message"
	return result.Subject{Kind: "primitive", Name: fmt.Sprintf("%s@%s/sign/%s", s.Scheme, s.Provider, scheme.FormatSize(s.InputBytes)),
		Scheme: s.Scheme, Provider: s.Provider, Family: "sign", Operation: "sign", InputBytes: s.InputBytes, Params: p}
}

// deviceTime resolves the time of one signature (hashing included) on the
// device, from the signer's times here (ns): measured on the device when
// this run is on it; a calibration or a literature figure for exactly
// this operation (imported); the user's --signer-speed (estimated); an
// estimator of package energy that can derive a scale (estimated). The
// error says why each way failed and what would work.
func (p *Pricing) deviceTime(s result.Subject, here []float64) (energy.DeviceTime, error) {
	d := p.Device
	if p.OnDevice {
		return energy.DeviceTime{Samples: here, MedianNs: median(here), Label: result.Measured,
			Method: "hash + sign time measured by the signer on " + d.Name + " in this run (--on-device)"}, nil
	}
	subj := primitiveSubject(s)
	ref := &result.Result{Subject: subj, Metrics: []result.Metric{result.NewSampled("time", "ns/op", result.Lower, result.Measured, here)}}
	q := energy.TimeQuery{Device: d, Subject: subj, Reference: ref, Calibration: p.Calibration,
		Run: &result.Run{Environment: p.Env, Results: []result.Result{*ref}}, NoEstimates: true}
	if t, err := energy.TimeOnDevice(q); err == nil {
		return t, nil
	}
	if p.Speed > 0 {
		out := energy.DeviceTime{Label: result.Estimated, Scale: p.Speed,
			Method: fmt.Sprintf("this machine's hash + sign time × %g (--signer-speed: the assumption that %s takes %g times as long)", p.Speed, d.Name, p.Speed)}
		for _, v := range here {
			out.Samples = append(out.Samples, v*p.Speed)
		}
		out.MedianNs = median(out.Samples)
		return out, nil
	}
	q.NoEstimates = false
	t, err := energy.TimeOnDevice(q)
	if err != nil {
		// The reasons without the subject's name, so one footnote serves
		// every document size.
		why := strings.TrimPrefix(err.Error(), "no time for "+subj.Name+" on "+d.Name+": ")
		return t, fmt.Errorf("no time for a signature on %s (%s); give --signer-speed F (assume %s takes F times this machine's time), calibrate %s (cryptocost calibrate), or run cryptocost on it with --on-device",
			d.Name, why, d.Name, d.Name)
	}
	return t, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return result.NewSampled("", "x", result.Lower, result.Measured, v).Summary.Median
}

// signatureEnergy adds the energy of one signature on the device: gross
// and net of the idle current (E = V·I·t with the current the device
// profile gives while signing), the signatures a battery allows net of
// idle, and the seconds of signing a battery allows (which need no time
// per signature). What cannot be priced is a warning, never a zero.
func (p *Pricing) signatureEnergy(r *result.Result, here []float64) {
	d := p.Device
	pw, err := energy.OpPower(d, r.Subject)
	if err != nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no energy on %s: %v", d.Name, err))
		return
	}
	curLabel := result.Imported
	if !strings.Contains(pw.How, "while ") {
		curLabel = result.Modelled // the CPU-active state, not an operation's own figure
	}
	cur := result.NewScalar("current-signing", "mA", result.Lower, curLabel, pw.Amps*1e3)
	cur.Method = "current while signing on " + d.Name + ": " + pw.How
	r.Metrics = append(r.Metrics, cur)
	usable, usableHow, uerr := energy.UsableCharge(d.Battery)
	net := pw.BaseState != "" && pw.Amps > pw.BaseAmps
	if uerr == nil && net {
		m := result.NewScalar("signing-time-per-battery", "s", result.Higher, result.Modelled, usable/(pw.Amps-pw.BaseAmps))
		m.Method = fmt.Sprintf("Q / (I_sign − I_%s) = %s / (%.4g mA − %.4g mA): seconds of signing a battery pays for above the %s current (currents: %s; %s)",
			pw.BaseState, usableHow, pw.Amps*1e3, pw.BaseAmps*1e3, pw.BaseState, pw.How, pw.BaseHow)
		r.Metrics = append(r.Metrics, m)
	}
	dt, err := p.deviceTime(r.Subject, here)
	if err != nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no energy per signature: %v", err))
		return
	}
	label := result.Modelled
	if dt.Label == result.Estimated {
		label = result.Estimated
	}
	scaled := func(name, unit string, better result.Better, f func(ns float64) float64, method string) result.Metric {
		var m result.Metric
		if len(dt.Samples) > 0 {
			vs := make([]float64, len(dt.Samples))
			for i, v := range dt.Samples {
				vs[i] = f(v)
			}
			m = result.NewSampled(name, unit, better, label, vs)
		} else {
			m = result.NewScalar(name, unit, better, label, f(dt.MedianNs))
		}
		m.Method = method
		return m
	}
	dtm := scaled("signer-device-time", "ns", result.Lower, func(ns float64) float64 { return ns },
		"time of one signature (hash + sign) on "+d.Name+": "+dt.Method)
	dtm.Label = dt.Label
	r.Metrics = append(r.Metrics, dtm,
		scaled("energy-signature", "J", result.Lower, func(ns float64) float64 { return pw.Watts * ns * 1e-9 },
			fmt.Sprintf("E = V·I·t: %s × device time (%s)", pw.How, dt.Method)))
	if !net {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no net energy on %s: no idle or sleep current below the signing current", d.Name))
		return
	}
	r.Metrics = append(r.Metrics, scaled("energy-signature-net", "J", result.Lower,
		func(ns float64) float64 { return (pw.Watts - pw.BaseWatts) * ns * 1e-9 },
		fmt.Sprintf("E = V·(I_sign − I_%s)·t: (%s) − (%s), × device time", pw.BaseState, pw.How, pw.BaseHow)))
	if uerr != nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no signatures per battery on %s: %v", d.Name, uerr))
		return
	}
	t := time.Duration(math.Ceil(dt.MedianNs))
	life, err := energy.Lifetime(usable, energy.DutyCycle{Period: t, OpSeconds: t.Seconds(), OpAmps: pw.Amps,
		SleepAmps: pw.BaseAmps, BaseAmps: pw.BaseAmps})
	if err != nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no signatures per battery on %s: %v", d.Name, err))
		return
	}
	m := result.NewScalar("signatures-per-battery", "signatures", result.Higher, label, life.OpsPerBatteryNet)
	m.Method = fmt.Sprintf("Q / ((I_sign − I_%s) · t) = %s / ((%.4g mA − %.4g mA) × signer-device-time), net of %s as S001 counts (energy.Lifetime)",
		pw.BaseState, usableHow, pw.Amps*1e3, pw.BaseAmps*1e3, pw.BaseState)
	r.Metrics = append(r.Metrics, m)
}

// radioEnergy prices the connection's packet trace at the signer.
func (p *Pricing) radioEnergy(r *result.Result, requests int) {
	if p.Radio == nil || r.Trace == nil {
		return
	}
	b, err := p.Radio.Simulate(r.Trace, radio.Options{})
	if err != nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no radio energy on %s: %v", p.Radio.Name, err))
		return
	}
	how := fmt.Sprintf("%s: promotion %.3g J + transfer %.3g J + tail %.3g J + idle %.3g J", p.Radio.Method(),
		b.Energy(radio.Promotion), b.Energy(radio.Transfer), b.Energy(radio.Tail), b.Energy(radio.Idle))
	m := result.NewScalar("energy-radio", "J", result.Lower, result.Modelled, b.Total())
	m.Method = "the signer's radio for the whole connection (TCP and TLS setup, the requests back to back, close): " + how
	r.Metrics = append(r.Metrics, m)
	if requests > 0 {
		per := result.NewScalar("energy-radio-per-request", "J", result.Lower, result.Modelled, b.Total()/float64(requests))
		per.Method = fmt.Sprintf("energy-radio / %d requests: each request's share of the connection, setup and tail included", requests)
		r.Metrics = append(r.Metrics, per)
	}
}

// S001 claims quoted beside the measurements, from its digest
// (../shared/spec/seeds.md, S001).
const (
	s001RSAClaim   = 10000 // "more than 10,000 RSA signatures to drain the battery"
	s001ECDSAClaim = 30.42 // "+30.42 % over idle" (ECDSA at 128-bit security: 182.2 vs 139.7 mA)
	s001Source     = "[S001] ../shared/spec/seeds.md"
)

// References returns S001's own figures for the device's signing
// operations, labelled imported, with what follows from them by
// arithmetic alone (labelled modelled): the current above idle, the
// seconds of signing a battery pays for, and — for RSA, where S001 claims
// more than 10,000 signatures per battery — the longest time per
// signature that claim allows. Nil for a device without operation
// currents.
func References(d *energy.Device) []result.Result {
	idle, idleHow, err := d.StateCurrent("idle")
	if err != nil {
		return nil
	}
	usable, usableHow, uerr := energy.UsableCharge(d.Battery)
	var out []result.Result
	for _, o := range d.Operations {
		if !strings.EqualFold(o.Operation, "sign") || !o.Current.Known() {
			continue
		}
		name := o.Family
		if o.Bits > 0 {
			name = fmt.Sprintf("%s-%d", o.Family, o.Bits)
		}
		amps := o.Current.MustIn("A")
		r := result.Result{
			Subject: result.Subject{Kind: "imported", Name: "S001/sign/" + name, Family: "sign", Operation: "sign",
				Params: map[string]string{"study": "S001", "device": d.Name, "family": o.Family, "what": o.Name}},
			Provenance: result.Provenance{Label: result.Imported, Source: d.Source() + "; " + s001Source,
				Method: result.Method{Name: "imported", Stop: "fixed"}},
		}
		cur := result.NewScalar("current-signing", "mA", result.Lower, result.Imported, amps*1e3)
		cur.Method = o.Current.String()
		over := result.NewScalar("current-over-idle", "%", result.Lower, result.Modelled, (amps-idle)/idle*100)
		over.Method = fmt.Sprintf("(I_sign − I_idle) / I_idle = (%s − %s) / %s", o.Current, idleHow, idleHow)
		if o.Family == "ECDSA" && o.Bits == 256 {
			over.Method += fmt.Sprintf("; S001 reports +%.2f %%", s001ECDSAClaim)
		}
		r.Metrics = append(r.Metrics, cur, over)
		if uerr == nil && amps > idle {
			secs := usable / (amps - idle)
			m := result.NewScalar("signing-time-per-battery", "s", result.Higher, result.Modelled, secs)
			m.Method = fmt.Sprintf("Q / (I_sign − I_idle) = %s / (%s − %s)", usableHow, o.Current, idleHow)
			r.Metrics = append(r.Metrics, m)
			if o.Family == "RSA" {
				claim := result.NewScalar("signatures-per-battery", "signatures", result.Higher, result.Imported, s001RSAClaim)
				claim.Method = "S001's claim, a lower bound: \"more than 10,000 RSA signatures to drain the battery\" " + s001Source
				bound := result.NewScalar("max-time-per-signature", "s", result.Lower, result.Modelled, secs/s001RSAClaim)
				bound.Method = fmt.Sprintf("the claim holds only if one RSA signature takes at most signing-seconds-per-battery / %d", s001RSAClaim)
				r.Metrics = append(r.Metrics, claim, bound)
			}
		}
		out = append(out, r)
	}
	return out
}
