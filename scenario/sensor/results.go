package sensor

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/edhoc"
	"github.com/cryptocost/cryptocost/result"
)

// Costing is how a session is priced: where it ran, the link, the frame
// model for air bytes, and (optional) the sensor's device and radio.
type Costing struct {
	Env result.Environment
	// Link names the emulated link ("" for loopback without emulation).
	Link     string
	Air      *AirModel
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

	// What the costing stage prices on the sensor's device: the sensor's
	// own operations per reading and per session, and its traffic, each
	// reading's exchange, the session's handshake and teardown, and the
	// registration priced apart (it sleeps between them).
	s.work(c, &r, ops, readingPkts, regPkts)

	// The analytic model at the same point.
	s.modelMetrics(ctx, c, &r, add)
	return r
}

// work records the sensor's operations and traffic for the costing stage:
// Work per reading and per session, TraceParts per reading (one trace per
// reading), per session (the handshake and the teardown; EDHOC's message_3
// as its share of the registration datagram) and per registration, and
// the params the amortisation and the battery life need.
func (s *Session) work(c Costing, r *result.Result, ops []Op, readingPkts [][]result.Packet, reg []result.Packet) {
	for _, o := range ops {
		if o.Party != "sensor" {
			continue
		}
		w := result.Work{Party: "sensor", Component: "cpu", Scheme: o.Scheme, Provider: "go", Operation: opVerb(o.Name),
			InputBytes: o.Size, Count: o.Count, CountLabel: o.CountLabel, CountMethod: o.CountHow, HostLabel: result.Measured, HostMethod: o.TimeHow}
		if o.Per == "session" {
			w.Per = "session"
		}
		w.HostNs = append(w.HostNs, o.Samples...)
		r.Work = append(r.Work, w)
	}
	trace := func(pk []result.Packet) *result.Trace {
		return &result.Trace{Link: c.Link, Transport: result.TransportUDP, Packets: pk}
	}
	per := result.TracePart{Method: "each reading's exchange priced alone (the sensor sleeps between readings), its listening tail included"}
	for _, pk := range readingPkts {
		per.Traces = append(per.Traces, trace(pk))
	}
	r.TraceParts = append(r.TraceParts, per)
	if s.Variant.Protection.HasSession() {
		sess := result.TracePart{Per: "session", Method: "the handshake and the teardown priced apart",
			Traces: []*result.Trace{trace(s.packets(s.Connect, nil)), trace(s.packets(s.Teardown, nil))}}
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
			sess.Traces = append(sess.Traces, trace(reg))
			sess.Minus = []*result.Trace{nil, nil, trace(without)}
			sess.Method += "; EDHOC's message_3 as the registration priced with it minus without it"
		}
		r.TraceParts = append(r.TraceParts, sess)
	}
	if len(reg) > 0 {
		r.TraceParts = append(r.TraceParts, result.TracePart{Per: "registration", Traces: []*result.Trace{trace(reg)},
			Method: "once per registration lifetime, not in the per-reading total"})
	}
	r.Subject.Params["amortise_over"] = strconv.Itoa(len(s.Reading))
	if c.Interval > 0 {
		r.Subject.Params["interval"] = c.Interval.String()
	}
}

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
	pt := ModelPoint{Variant: v.Protection.ModelVariant, Readings: len(s.Reading),
		ReadingBytes: s.ReadingBytes, CoAPBytes: s.CoAPHeaderBytes(), CoAPAckBytes: s.Exchanges[1].ResponseBytes}
	f, err := EvalModel(ctx, pt)
	if err != nil {
		r.Warnings = append(r.Warnings, "model: "+err.Error())
		return
	}
	r.Subject.Params["model"] = f.Method + "; costs: " + f.CostSource
	add("model/amortised-air-bytes-up", "B", result.Modelled, f.Method, f.AirBytesUp)
	add("model/amortised-air-bytes-down", "B", result.Modelled, f.Method, f.AirBytesDown)
	add("model/amortised-frames-up", "frames", result.Modelled, f.Method, f.FramesUp)
	add("model/amortised-frames-down", "frames", result.Modelled, f.Method, f.FramesDown)
	// The model's energy is the costing stage's: the same point priced on
	// the device the run is priced on.
	r.Model = &result.ModelPoint{Name: ModelName, Variant: pt.Variant, Set: pt.set(), Metric: "model/energy/reading"}
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
