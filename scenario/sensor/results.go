package sensor

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/internal/edhoc"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// Costing is how a session is priced: where it ran, the link, the frame
// model for air bytes, and (optional) the sensor's device and radio.
type Costing struct {
	Env result.Environment
	// Link names the emulated link ("" for loopback without emulation).
	Link string
	Air  *AirModel
	// Device is the sensor's device profile (nil: no energy).
	Device *energy.Device
	// Radio prices the traces (nil: no radio energy).
	Radio    *radio.Profile
	Interval time.Duration
	// Reps is how many times operations the DTLS stack runs out of reach
	// are timed separately.
	Reps int
}

// Op is one kind of crypto operation a party does, per reading or per
// session, with its times on this machine.
type Op struct {
	Party, Name, Scheme string
	// Per is "reading" or "session".
	Per   string
	Count float64
	// CountHow says how the count is known.
	CountHow   string
	CountLabel result.Label
	Samples    []float64
	TimeHow    string
	// Size is the input the separately-timed operation takes.
	Size int
}

// Result builds the session's result: per reading and per session bytes
// (on the link and, modelled, on the 802.15.4 air), the crypto operations,
// energy and battery life on the device, and the sensor-reading model at
// the same point.
func (s *Session) Result(ctx context.Context, c Costing) result.Result {
	v := s.Variant
	r := result.Result{
		Subject: result.Subject{Kind: "scenario", Name: v.Name(), Operation: "reading", Params: map[string]string{
			"scenario": "sensor", "protection": v.Protection.Name, "readings": strconv.Itoa(len(s.Reading)),
			"interval": c.Interval.String(), "link": orNone(c.Link, "loopback, no emulation"),
		}},
		Provenance: result.Provenance{Label: result.Measured, Source: "cryptocost scenario sensor (S004: signed readings through a CoAP mirror proxy)",
			Method: result.Method{Name: "scenario", Samples: len(s.Reading), Stop: "fixed"}},
	}
	ps := r.Subject.Params
	if v.Alg != nil {
		r.Subject.Scheme = v.Alg.Scheme
		ps["alg"] = v.Alg.Name
		ps["identity"] = s.Identity.String()
	}
	if e := s.EDHOC; e != nil {
		suite := edhocSuite(v.Alg)
		ps["cipher_suite"] = fmt.Sprintf("EDHOC method %v, cipher suite %s; the sensor's CCS %s, the proxy's by kid; OSCORE AES-CCM-16-64-128 (RFC 8613)", v.EDHOC.Method, suite.Name, credHow(v))
		ps["edhoc_message_bytes"] = fmt.Sprintf("message_1 %d B, message_2 %d B, message_3 %d B (RFC 9528 §5, without CoAP framing)", e.Message1, e.Message2, e.Message3)
		ps["application"] = fmt.Sprintf("%d readings read through the proxy; none verifiable end to end: the proxy is the OSCORE endpoint", s.AppUnverifiable)
	} else if t := v.Protection.Transport; t != nil {
		ps["cipher_suite"] = t.SuiteName
		ps["cid"] = map[bool]string{true: fmt.Sprintf("on: the sensor sends a %d-byte CID (RFC 9146)", cidBytes), false: "off"}[v.CID]
		ps["application"] = fmt.Sprintf("%d readings read through the proxy; none verifiable end to end: DTLS protects the hop to the proxy only", s.AppUnverifiable)
	} else {
		ps["application"] = fmt.Sprintf("%d of %d readings verified end to end against the registered key", s.AppVerified, len(s.Reading))
		ps["object_bytes"] = strconv.Itoa(s.ObjectBytes)
	}
	ps["reading_bytes"] = strconv.Itoa(s.ReadingBytes)
	ps["coap_header_bytes"] = strconv.Itoa(s.CoAPHeaderBytes())
	if s.Interrupted {
		r.Provenance.Method.Stop = "interrupted"
		r.Warnings = append(r.Warnings, fmt.Sprintf("interrupted after %d of %d readings", len(s.Reading), s.Readings))
	}
	check, err := CheckBytes(s)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	ps["bytes_check"] = check
	n := len(s.Reading)
	if n == 0 {
		r.Error = "no reading was sent"
		return r
	}
	r.Trace = s.Trace(c)

	add := func(name, unit string, label result.Label, method string, samples ...float64) *result.Metric {
		var m result.Metric
		if len(samples) == 1 {
			m = result.NewScalar(name, unit, result.Lower, label, samples[0])
		} else {
			m = result.NewSampled(name, unit, result.Lower, label, samples)
		}
		m.Method = method
		r.Metrics = append(r.Metrics, m)
		return &r.Metrics[len(r.Metrics)-1]
	}
	const linkHow = "UDP payload bytes (CoAP, or DTLS records) the emulated link carried, counted per datagram by the relay"
	airHow := c.Air.HeaderModel()

	// Per reading.
	var upB, downB, upAir, downAir, upFr, downFr, lat []float64
	readingPkts := make([][]result.Packet, n)
	for i, w := range s.Reading {
		pk := s.packets(w, nil)
		readingPkts[i] = pk
		u, d := linkBytes(pk)
		au, ad := c.Air.Count(pk)
		upB, downB = append(upB, float64(u)), append(downB, float64(d))
		upAir, downAir = append(upAir, float64(au.Bytes)), append(downAir, float64(ad.Bytes))
		upFr, downFr = append(upFr, float64(au.Frames)), append(downFr, float64(ad.Frames))
		lat = append(lat, float64(s.Exchanges[i+1].Latency.Nanoseconds()))
	}
	add("reading-bytes-up", "B", result.Measured, linkHow, upB...)
	add("reading-bytes-down", "B", result.Measured, linkHow, downB...)
	add("reading-air-bytes-up", "B", result.Modelled, airHow, upAir...)
	add("reading-air-bytes-down", "B", result.Modelled, airHow, downAir...)
	add("reading-frames-up", "frames", result.Modelled, airHow, upFr...)
	add("reading-frames-down", "frames", result.Modelled, airHow, downFr...)
	add("reading-latency", "ns", result.Measured, "the sensor's PUT to its response, through the emulated link (wall clock)", lat...)

	// Per session: the DTLS handshake and teardown, paid once per session.
	setup := append(s.packets(s.Connect, nil), s.packets(s.Teardown, nil)...)
	su, sd := linkBytes(setup)
	sau, sad := c.Air.Count(setup)
	if v.Protection.HasSession() {
		how := "the DTLS handshake and the close_notify at the end of the session, as the link carried them"
		if s.EDHOC != nil {
			how = "EDHOC message_1 (POST /.well-known/edhoc) and message_2 (its 2.04), as the link carried them; message_3 rides with the registration (RFC 9668) and is counted apart (session-message-3-bytes-up)"
		}
		add("session-bytes-up", "B", result.Measured, how, float64(su))
		add("session-bytes-down", "B", result.Measured, how, float64(sd))
		add("session-air-bytes-up", "B", result.Modelled, airHow, float64(sau.Bytes))
		add("session-air-bytes-down", "B", result.Modelled, airHow, float64(sad.Bytes))
		add("session-frames-up", "frames", result.Modelled, airHow, float64(sau.Frames))
		add("session-frames-down", "frames", result.Modelled, airHow, float64(sad.Frames))
		hsHow := "DTLS handshake wall time as the sensor saw it, through the emulated link, both ends' computation on this machine included"
		if s.EDHOC != nil {
			hsHow = "EDHOC message_1 to message_2 processed and message_3 composed, wall time as the sensor saw it, through the emulated link, both ends' computation on this machine included"
		}
		add("handshake-time", "ns", result.Measured, hsHow, float64(s.HandshakeTime.Nanoseconds()))
	}
	// EDHOC's message_3 rides in the registration's datagram (RFC 9668):
	// its share of that datagram belongs to the session.
	var m3Link, m3Air int
	if s.EDHOC != nil {
		m3Link = s.EDHOC.Message3 + 1 // message_3 and the empty EDHOC option's one header byte (RFC 9668 §3.1)
		for _, p := range s.packets(s.Registration, nil) {
			if p.Dir == result.Up {
				_, a1 := c.Air.Packet(p.Payload)
				_, a0 := c.Air.Packet(p.Payload - m3Link)
				m3Air = a1 - a0
				break
			}
		}
		const how = "EDHOC message_3 and the EDHOC option in the first OSCORE request (the registration): counted in the session, not the registration"
		add("session-message-3-bytes-up", "B", result.Measured, how, float64(m3Link))
		add("session-message-3-air-bytes-up", "B", result.Modelled, airHow+"; the registration datagram's air bytes with message_3 minus without it", float64(m3Air))
		su += m3Link
		sau.Bytes += m3Air
	}
	sum := func(xs []float64) float64 {
		t := 0.0
		for _, x := range xs {
			t += x
		}
		return t
	}
	amort := fmt.Sprintf("(the session's handshake and teardown, if any, + the %d readings) / %d readings", n, n)
	add("amortised-bytes-up", "B", result.Measured, linkHow+"; "+amort, (float64(su)+sum(upB))/float64(n))
	add("amortised-bytes-down", "B", result.Measured, linkHow+"; "+amort, (float64(sd)+sum(downB))/float64(n))
	add("amortised-air-bytes-up", "B", result.Modelled, airHow+"; "+amort, (float64(sau.Bytes)+sum(upAir))/float64(n))
	add("amortised-air-bytes-down", "B", result.Modelled, airHow+"; "+amort, (float64(sad.Bytes)+sum(downAir))/float64(n))
	regPkts := s.packets(s.Registration, nil)
	ru, rd := linkBytes(regPkts)
	rau, rad := c.Air.Count(regPkts)
	regHow := "the registration at the resource directory (POST /rd with the links and key, 2.01 Created), once per registration lifetime (lt=90000 s), not in the per-reading figures"
	if m3Link > 0 {
		regHow += "; EDHOC message_3, which rode with it, left out (it is the session's)"
		ru -= m3Link
		rau.Bytes -= m3Air
	}
	add("registration-bytes-up", "B", result.Measured, regHow, float64(ru))
	add("registration-bytes-down", "B", result.Measured, regHow, float64(rd))
	add("registration-air-bytes-up", "B", result.Modelled, airHow, float64(rau.Bytes))
	add("registration-air-bytes-down", "B", result.Modelled, airHow, float64(rad.Bytes))

	// Crypto operations.
	ops := s.Ops(c)
	for i := range ops {
		o := &ops[i]
		key := o.Party + "/" + o.Name
		add("ops/"+key, "ops/"+o.Per, o.CountLabel, o.CountHow, o.Count)
		if len(o.Samples) > 0 {
			add("op-time/"+key, "ns/op", result.Measured, o.TimeHow, o.Samples...)
		}
	}

	// Energy on the sensor's device.
	if c.Device != nil {
		s.energy(c, &r, ops, readingPkts, setup, regPkts, add)
	}

	// The analytic model at the same point.
	s.modelMetrics(ctx, c, &r, add)
	return r
}

// energy adds the CPU, radio and total energy per reading and the
// battery life.
func (s *Session) energy(c Costing, r *result.Result, ops []Op, readingPkts [][]result.Packet, setup, reg []result.Packet,
	add func(string, string, result.Label, string, ...float64) *result.Metric) {
	d, n := c.Device, float64(len(s.Reading))
	type cpu struct {
		joules, seconds float64
		priced          int
		label           result.Label
		how, missing    []string
		// missingPK are unpriced public-key operations: without them a
		// total would leave out the largest cost.
		missingPK []string
	}
	var perReading, perSession cpu
	perReading.label, perSession.label = result.Modelled, result.Modelled
	unpriced := map[string][]string{} // scheme -> operations
	var why []string                  // scheme: reason, in order
	for _, o := range ops {
		if o.Party != "sensor" {
			continue
		}
		acc := &perReading
		if o.Per == "session" {
			acc = &perSession
		}
		cost, err := PriceOp(d, c.Env, o.Scheme, opVerb(o.Name), o.Samples)
		if err != nil {
			acc.missing = append(acc.missing, o.Name)
			if !symmetric(o) {
				acc.missingPK = append(acc.missingPK, o.Name+" ("+o.Scheme+")")
			}
			if _, seen := unpriced[o.Scheme]; !seen {
				why = append(why, o.Scheme+": "+err.Error())
			}
			unpriced[o.Scheme] = append(unpriced[o.Scheme], o.Name)
			continue
		}
		acc.priced++
		acc.joules += o.Count * cost.Joules
		acc.seconds += o.Count * cost.Seconds
		if cost.Label == result.Estimated {
			acc.label = result.Estimated
		}
		acc.how = append(acc.how, fmt.Sprintf("%g × %s (%s: %.4g mJ, %.4g s each: %s)", o.Count, o.Name, cost.Label, cost.Joules*1e3, cost.Seconds, cost.Method))
	}
	for _, w := range why {
		scheme, _, _ := strings.Cut(w, ": ")
		r.Warnings = append(r.Warnings, fmt.Sprintf("energy: %s not priced on %s (%s): %s", strings.Join(unpriced[scheme], ", "), d.Name, scheme, strings.TrimPrefix(w, scheme+": ")))
	}
	describe := func(a cpu) string {
		h := strings.Join(a.how, "; ")
		if len(a.missing) > 0 {
			h += "; not priced (no cost for this device, see warnings): " + strings.Join(a.missing, ", ")
		}
		return "the sensor's crypto operations on " + d.Name + ": " + h
	}
	// A zero made of unpriced operations would read as "free".
	cpuHow := func(what string, a cpu) string {
		switch {
		case a.priced > 0:
			return fmt.Sprintf("CPU per %s %.4g mJ", what, a.joules*1e3)
		case len(a.missing) > 0:
			return fmt.Sprintf("CPU per %s not modelled (%s)", what, strings.Join(a.missing, ", "))
		}
		return fmt.Sprintf("no CPU work per %s", what)
	}
	// A CPU figure only where some operation was priced and no public-key
	// one was left out.
	if perReading.priced > 0 && len(perReading.missingPK) == 0 {
		add("energy-cpu/reading", "mJ", perReading.label, describe(perReading), perReading.joules*1e3)
	}
	if s.Variant.Protection.HasSession() && perSession.priced > 0 && len(perSession.missingPK) == 0 {
		add("energy-cpu/session", "mJ", perSession.label, describe(perSession), perSession.joules*1e3)
	}
	if c.Radio == nil {
		r.Warnings = append(r.Warnings, "energy: radio not priced: give --link with a radio "+d.Name+" has (802.15.4 for a TelosB); no energy per reading or battery life without it")
		return
	}
	price := func(pk []result.Packet) (float64, float64, error) {
		if len(pk) == 0 {
			return 0, 0, nil
		}
		b, err := c.Radio.Simulate(&result.Trace{Link: c.Link, Transport: result.TransportUDP, Packets: pk}, radio.Options{})
		if err != nil {
			return 0, 0, err
		}
		return b.Total(), (b.End - b.Start).Seconds(), nil
	}
	var radioJ, radioS []float64
	for _, pk := range readingPkts {
		j, sec, err := price(pk)
		if err != nil {
			r.Warnings = append(r.Warnings, "energy: radio: "+err.Error())
			return
		}
		radioJ, radioS = append(radioJ, j*1e3), append(radioS, sec)
	}
	radioHow := c.Radio.Method() + "; each reading's exchange priced alone (the sensor sleeps between readings), its listening tail included"
	add("energy-radio/reading", "mJ", result.Modelled, radioHow, radioJ...)
	var sessJ, sessS float64
	if s.Variant.Protection.HasSession() {
		for _, pk := range [][]result.Packet{s.packets(s.Connect, nil), s.packets(s.Teardown, nil)} {
			j, sec, err := price(pk)
			if err != nil {
				r.Warnings = append(r.Warnings, "energy: radio: "+err.Error())
				return
			}
			sessJ, sessS = sessJ+j, sessS+sec
		}
		sessHow := c.Radio.Method() + "; the handshake and the teardown priced apart"
		if s.EDHOC != nil {
			// message_3 rides in the registration's datagram: its share is
			// the registration priced with it minus without it.
			without := slices.Clone(reg)
			for i := range without {
				if without[i].Dir == result.Up {
					n := s.EDHOC.Message3 + 1
					without[i].Payload -= n
					without[i].Bytes -= n
					break
				}
			}
			j1, s1, err1 := price(reg)
			j0, s0, err0 := price(without)
			if err1 == nil && err0 == nil {
				sessJ, sessS = sessJ+j1-j0, sessS+s1-s0
				sessHow += fmt.Sprintf("; EDHOC message_1 and message_2, and message_3's share of the registration datagram (priced with it minus without it: %.4g mJ)", (j1-j0)*1e3)
			}
		}
		add("energy-radio/session", "mJ", result.Modelled, sessHow, sessJ*1e3)
	}
	if j, _, err := price(reg); err == nil {
		add("energy-radio/registration", "mJ", result.Modelled, c.Radio.Method()+"; once per registration lifetime, not in the per-reading total", j*1e3)
	}
	if pk := append(perReading.missingPK, perSession.missingPK...); len(pk) > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("energy per reading and battery life not modelled: %s has no cost on %s, and a public-key operation is the largest part of the total (see the other warnings; a literature figure for it in the device profile would give one)",
			strings.Join(pk, ", "), d.Name))
		return
	}
	medJ, medS := stats.Summarize(radioJ).Median/1e3, stats.Summarize(radioS).Median
	total := perReading.joules + medJ + (perSession.joules+sessJ)/n
	active := perReading.seconds + medS + (perSession.seconds+sessS)/n
	label := result.Modelled
	if perReading.label == result.Estimated || perSession.label == result.Estimated {
		label = result.Estimated
	}
	totalHow := fmt.Sprintf("%s + radio per reading (median) %.4g mJ", cpuHow("reading", perReading), medJ*1e3)
	if s.Variant.Protection.HasSession() {
		totalHow += fmt.Sprintf(" + (%s + radio per session %.4g mJ) / %d readings per session", cpuHow("session", perSession), sessJ*1e3, len(s.Reading))
	}
	if len(perReading.missing)+len(perSession.missing) > 0 {
		totalHow += "; a lower bound: the symmetric operations have no cost on this device and are left out (see warnings), as the sensor-reading model leaves them out"
	}
	add("energy/reading", "mJ", label, totalHow, total*1e3)
	if d.Battery == nil {
		r.Warnings = append(r.Warnings, "battery life: "+d.Name+" has no battery in its profile")
		return
	}
	b, err := BatteryLife(d, c.Radio, total, active, c.Interval)
	if err != nil {
		r.Warnings = append(r.Warnings, "battery life: "+err.Error())
		return
	}
	m := add("battery-life", "s", label, b.Method, b.Life.Seconds)
	m.Better = result.Higher
}

// symmetric reports an operation of the record layer (AES-CCM), whose
// cost the sensor-reading model also leaves out.
func symmetric(o Op) bool { return strings.Contains(o.Name, "aead") }

// opVerb is the operation an Op's name prices as ("certificate-verify-sign" → "sign").
func opVerb(name string) string {
	for _, v := range []string{"keygen", "derive", "sign", "verify", "seal", "open"} {
		if strings.HasSuffix(name, v) {
			return v
		}
	}
	return name
}

// modelMetrics adds the sensor-reading model's figures for the variant it
// describes.
func (s *Session) modelMetrics(ctx context.Context, c Costing, r *result.Result, add func(string, string, result.Label, string, ...float64) *result.Metric) {
	v := s.Variant
	if v.Protection.ModelVariant == "" || v.Alg == nil || v.Alg.Name != "ES256" {
		r.Subject.Params["model"] = "none: the sensor-reading model has COSE_Sign1, JWS and DTLS ECDHE-ECDSA variants with ES256 only"
		return
	}
	f, err := EvalModel(ctx, ModelPoint{Variant: v.Protection.ModelVariant, Readings: len(s.Reading),
		ReadingBytes: s.ReadingBytes, CoAPBytes: s.CoAPHeaderBytes(), CoAPAckBytes: s.Exchanges[1].ResponseBytes}, c.Device, c.Radio)
	if err != nil {
		r.Warnings = append(r.Warnings, "model: "+err.Error())
		return
	}
	r.Subject.Params["model"] = f.Method + "; costs: " + f.CostSource
	add("model/amortised-air-bytes-up", "B", result.Modelled, f.Method, f.AirBytesUp)
	add("model/amortised-air-bytes-down", "B", result.Modelled, f.Method, f.AirBytesDown)
	add("model/amortised-frames-up", "frames", result.Modelled, f.Method, f.FramesUp)
	add("model/amortised-frames-down", "frames", result.Modelled, f.Method, f.FramesDown)
	add("model/energy/reading", "mJ", f.EnergyLabel, f.Method+"; priced with "+f.CostSource, f.EnergyMilliJoules)
}

// Ops lists the crypto operations of the session by party.
func (s *Session) Ops(c Costing) []Op {
	v := s.Variant
	reps := max(c.Reps, 1)
	var ops []Op
	if obj := v.Protection.Object; obj != nil {
		inPlace := func(who string, xs []float64) string {
			return fmt.Sprintf("timed in place: %s, %d readings (the object's encoding and parsing included)", who, len(xs))
		}
		ops = append(ops,
			Op{Party: "sensor", Name: "sign", Scheme: v.Alg.Scheme, Per: "reading", Count: 1, CountLabel: result.Measured,
				CountHow: "one " + obj.Name() + " signature per reading, counted in place", Samples: s.SignNs, TimeHow: inPlace("the sensor signing each reading", s.SignNs)},
			Op{Party: "proxy", Name: "verify", Scheme: v.Alg.Scheme, Per: "reading", Count: float64(len(s.ProxyVerifyNs)) / float64(len(s.Reading)), CountLabel: result.Measured,
				CountHow: "the proxy's verifications against the registered key, counted in place", Samples: s.ProxyVerifyNs, TimeHow: inPlace("the proxy verifying each reading", s.ProxyVerifyNs)},
			Op{Party: "app", Name: "verify", Scheme: v.Alg.Scheme, Per: "reading", Count: float64(len(s.AppVerifyNs)) / float64(len(s.Reading)), CountLabel: result.Measured,
				CountHow: "the application's end-to-end verifications, counted in place", Samples: s.AppVerifyNs, TimeHow: inPlace("the application verifying each reading", s.AppVerifyNs)},
		)
		return ops
	}
	if e := s.EDHOC; e != nil {
		return s.oscoreOps(e, reps)
	}
	t := v.Protection.Transport
	if t.Kind == "ecdhe" {
		const hs = "one per handshake: ECDHE_ECDSA (RFC 8422 §2.2, RFC 5246 §7.4): the client makes an ephemeral key pair and the shared secret, verifies the ServerKeyExchange signature and signs CertificateVerify"
		ops = append(ops,
			Op{Party: "sensor", Name: "ecdh-keygen", Scheme: "ECDH-P256", Per: "session", Count: 1, CountLabel: result.Modelled, CountHow: hs, Size: 0},
			Op{Party: "sensor", Name: "ecdh-derive", Scheme: "ECDH-P256", Per: "session", Count: 1, CountLabel: result.Modelled, CountHow: hs},
			Op{Party: "sensor", Name: "server-key-exchange-verify", Scheme: "ECDSA-P256-SHA256", Per: "session", Count: 1, CountLabel: result.Modelled, CountHow: hs,
				Size: 2*32 + 4 + 65}, // client and server randoms, curve params, the ephemeral point (RFC 8422 §5.4)
			Op{Party: "sensor", Name: "certificate-verify-sign", Scheme: v.Alg.Scheme, Per: "session", Count: float64(len(s.HandshakeSignNs)), CountLabel: result.Measured,
				CountHow: "the sensor key's signatures in the handshake, counted in place (crypto.Signer wrapper)", Samples: s.HandshakeSignNs,
				TimeHow: "timed in place through a crypto.Signer wrapper around the sensor's key"},
		)
	}
	// AEAD operations, counted from the protected records on the wire.
	seal, open := s.protectedRecords(s.Reading)
	hsSeal, hsOpen := s.protectedRecords([]Window{s.Connect, s.Teardown})
	n := float64(len(s.Reading))
	const rec = "protected records (epoch ≥ 1) the sensor sent (seal) or received (open), counted from the DTLS record headers on the wire"
	size := s.PayloadBytes + s.CoAPHeaderBytes()
	ops = append(ops,
		Op{Party: "sensor", Name: "aead-seal", Scheme: "AES-128-CCM-8", Per: "reading", Count: float64(seal) / n, CountLabel: result.Measured, CountHow: rec, Size: size},
		Op{Party: "sensor", Name: "aead-open", Scheme: "AES-128-CCM-8", Per: "reading", Count: float64(open) / n, CountLabel: result.Measured, CountHow: rec, Size: s.Exchanges[1].ResponseBytes},
		Op{Party: "sensor", Name: "session-aead-seal", Scheme: "AES-128-CCM-8", Per: "session", Count: float64(hsSeal), CountLabel: result.Measured, CountHow: rec + " (Finished, close_notify)", Size: 40},
		Op{Party: "sensor", Name: "session-aead-open", Scheme: "AES-128-CCM-8", Per: "session", Count: float64(hsOpen), CountLabel: result.Measured, CountHow: rec + " (Finished)", Size: 40},
	)
	for i := range ops {
		o := &ops[i]
		if o.Samples != nil {
			continue
		}
		samples, how, err := TimeSeparately(o.Scheme, opVerb(o.Name), o.Size, reps)
		if err != nil {
			o.TimeHow = "not timed: " + err.Error()
			continue
		}
		o.Samples, o.TimeHow = samples, how
	}
	return ops
}

// protectedRecords counts the protected records the sensor sent and
// received in the windows.
func (s *Session) protectedRecords(ws []Window) (up, down int) {
	for _, w := range ws {
		for _, d := range w.Of(s.Datagrams) {
			cid := 0
			if d.Dir == result.Up && s.Variant.CID {
				cid = cidBytes
			}
			rs, _ := ParseRecords(d.Data, cid)
			for _, r := range rs {
				if r.Epoch == 0 {
					continue
				}
				if d.Dir == result.Up {
					up++
				} else {
					down++
				}
			}
		}
	}
	return up, down
}

// packets returns the window's datagrams as trace packets, times from the
// window's first, lost downlink datagrams left out (the sensor never got
// them).
func (s *Session) packets(w Window, label func(Datagram) string) []result.Packet {
	return s.packetsSince(w, label, -1)
}

// packetsSince is packets with times since base (base < 0: since the
// window's first packet).
func (s *Session) packetsSince(w Window, label func(Datagram) string, base time.Duration) []result.Packet {
	var out []result.Packet
	for _, d := range w.Of(s.Datagrams) {
		if d.Lost && d.Dir == result.Down {
			continue
		}
		p := result.Packet{TimeNs: int64(d.At), Dir: d.Dir, Bytes: d.WireBytes, Payload: d.Bytes}
		if label != nil {
			p.Label = label(d)
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].TimeNs < out[j].TimeNs })
	if len(out) > 0 {
		t0 := int64(base)
		if base < 0 {
			t0 = out[0].TimeNs
		}
		for i := range out {
			out[i].TimeNs -= t0
		}
	}
	return out
}

// Trace is the whole session as the sensor's radio saw it, each packet
// labelled with what it carried, times from the session's first packet.
func (s *Session) Trace(c Costing) *result.Trace {
	var base time.Duration
	for i, d := range s.Datagrams {
		if i == 0 || d.At < base {
			base = d.At
		}
	}
	var pk []result.Packet
	win := func(w Window, what string) {
		pk = append(pk, s.packetsSince(w, func(d Datagram) string { return s.label(d, what) }, base)...)
	}
	win(s.Connect, "")
	win(s.Registration, "registration")
	for i, w := range s.Reading {
		win(w, fmt.Sprintf("reading %d", i))
	}
	win(s.Teardown, "")
	sort.SliceStable(pk, func(a, b int) bool { return pk[a].TimeNs < pk[b].TimeNs })
	hm := "bytes: UDP payload + IPv4 20 B + UDP 8 B per fragment (the link emulator's model); payload: the UDP payload. " + c.Air.HeaderModel()
	return &result.Trace{Link: c.Link, HeaderModel: hm, Transport: result.TransportUDP, Packets: pk}
}

// label names what a datagram carried.
func (s *Session) label(d Datagram, what string) string {
	var l string
	if s.EDHOC != nil && d.Data != nil {
		l = oscoreLabel(d)
	} else if s.Variant.Protection.Transport != nil && d.Data != nil {
		cid := 0
		if d.Dir == result.Up && s.Variant.CID {
			cid = cidBytes
		}
		if rs, err := ParseRecords(d.Data, cid); err == nil {
			l = RecordsLabel(rs)
		}
	} else if d.Dir == result.Up {
		l = "CoAP request"
	} else {
		l = "CoAP response"
	}
	if d.Lost {
		l += " (lost)"
	}
	if what != "" {
		return what + ": " + l
	}
	return l
}

func linkBytes(pk []result.Packet) (up, down int) {
	for _, p := range pk {
		if p.Dir == result.Up {
			up += p.Payload
		} else {
			down += p.Payload
		}
	}
	return up, down
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// credHow says how an edhoc-oscore sensor named its credential.
func credHow(v Variant) string {
	if v.EDHOCCred != nil && v.EDHOCCred.Ref == edhoc.ByKID {
		return "named by kid (provisioned at the proxy by the installer)"
	}
	return "sent by value (kccs)"
}
