package probe

// Measured costs and session resumption, with real clients. Each try is a
// fresh full handshake followed by an attempt to resume it, as sslyze does
// (five tries by default): a resumption rate, and Tries samples of the
// cost of a full and of a resumed handshake.

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Mechanism names.
const (
	MechTLS13PSK  = "TLS 1.3 PSK"
	MechTicket    = "session ticket"
	MechSessionID = "session ID"
)

// costs measures handshakes and resumption with real clients.
func (p *prober) costs(ctx context.Context) {
	var fs []func()
	fs = append(fs, func() { p.goDefault(ctx) })
	if p.isAccepted(TLS13) {
		cl := clientSpec{name: "go-default", waitTicket: p.opts.TicketWait}
		fs = append(fs, func() { p.resumption(ctx, MechTLS13PSK, "tls13", cl) })
	}
	if v := p.highest12(); v != 0 {
		if cl, err := p.client12(v); err != nil {
			p.note("%s full and resumed handshakes: %v", v, err)
		} else {
			fs = append(fs, func() { p.resumption(ctx, MechTicket, "tls12", cl) })
			id := cl
			id.noTickets = true
			id.name += "-no-tickets"
			fs = append(fs, func() { p.resumption(ctx, MechSessionID, "tls12", id) })
		}
	}
	parallel(fs...)
	p.sortResults()
}

// client12 picks the real client for TLS ≤ 1.2 handshakes: crypto/tls
// when it implements one of the accepted suites, else zcrypto (DHE).
func (p *prober) client12(v Version) (clientSpec, error) {
	accepted := p.acceptedSuites(v)
	var goOK []uint16
	for _, id := range accepted {
		if slices.Contains(goSuites(), id) {
			goOK = append(goOK, id)
		}
	}
	if len(goOK) > 0 && v >= TLS10 {
		return clientSpec{name: "go-" + strings.ReplaceAll(strings.ToLower(v.String()), " ", ""), version: v, suites: goOK}, nil
	}
	if len(accepted) == 0 {
		return clientSpec{}, fmt.Errorf("%w: no accepted suite", errNoClient)
	}
	if !zcryptoAvailable {
		return clientSpec{}, fmt.Errorf("%w: crypto/tls implements none of the accepted suites, and zmap/zcrypto builds on Linux only", errNoClient)
	}
	return clientSpec{name: "zcrypto-" + strings.ReplaceAll(strings.ToLower(v.String()), " ", ""), zcrypto: true, version: v, suites: accepted}, nil
}

// goDefault asks what Go's default client negotiates, and keeps the TLS
// 1.3 certificate chain it saw.
func (p *prober) goDefault(ctx context.Context) {
	hr := p.handshake(ctx, clientSpec{name: "go-default"}, newSession())
	pick := ClientPick{Client: "go-default", Description: "Go's crypto/tls client with its default configuration (" +
		runtime.Version() + "): TLS 1.2-1.3, its default suites and groups (X25519MLKEM768 first)", Evidence: hr.evidence}
	if hr.err != nil {
		pick.Error = hr.evidence.Response
		p.addPick(pick)
		return
	}
	pick.Version, pick.Suite, pick.KeyExchange = hr.version, SuiteName(hr.suite), hr.group
	p.addPick(pick)
	if hr.version == TLS13 {
		p.addChain13(hr)
	}
}

// addChain13 records the chain of a TLS 1.3 handshake, decrypted.
func (p *prober) addChain13(hr *handshakeResult) {
	msgBytes := 0
	sig := ""
	if s := hr.server13; s != nil {
		msgBytes = s.certMsgBytes
		if s.verifyScheme != 0 {
			sig = SignatureSchemeName(s.verifyScheme)
		}
	}
	ch := newChain("TLS 1.3 handshake (crypto/tls, records decrypted with its key log)", TLS13, hr.certs, msgBytes,
		hr.ocsp, p.serverName(), p.opts.Now())
	ch.HandshakeSignature = sig
	ch.Evidence = hr.evidence
	if hr.decrypt != nil {
		ch.Evidence.Response += "; records not decrypted: " + hr.decrypt.Error()
	}
	p.mu.Lock()
	p.report.Chains = append([]Chain{ch}, p.report.Chains...)
	p.mu.Unlock()
}

// try is one full handshake and one attempt to resume it.
type try struct {
	full    *handshakeResult
	resumed *handshakeResult // ticket or PSK
	raw     *answer          // session ID: the probe's own hello
	issued  bool
	ok      bool
}

// resumption runs the tries of one mechanism and records the finding and
// the cost results.
func (p *prober) resumption(ctx context.Context, mech, family string, cl clientSpec) {
	tries := make([]try, p.opts.Tries)
	var fs []func()
	for i := range tries {
		fs = append(fs, func() { tries[i] = p.try(ctx, mech, cl, i+1) })
	}
	parallel(fs...)
	f := Resumption{Mechanism: mech, Client: cl.name, Tries: len(tries)}
	var full, resumed []*handshakeResult
	var raws []*answer
	for _, t := range tries {
		if t.full == nil {
			continue
		}
		ev := []Evidence{t.full.evidence}
		if t.full.err == nil {
			full = append(full, t.full)
			f.Version = t.full.version
		}
		if t.issued {
			f.Issued++
		}
		if t.resumed != nil {
			ev = append(ev, t.resumed.evidence)
			if t.ok {
				resumed = append(resumed, t.resumed)
			}
		}
		if t.raw != nil {
			ev = append(ev, t.raw.evidence)
			if t.ok {
				raws = append(raws, t.raw)
			}
		}
		if t.ok {
			f.Resumed++
		}
		f.Evidence = append(f.Evidence, ev...)
		if lt, n := t.full.lifetime(); n > 0 {
			f.LifetimeSeconds = &lt
			f.TicketsPerHandshake = max(f.TicketsPerHandshake, n)
		}
	}
	f.Rate = float64(f.Resumed) / float64(f.Tries)
	if len(full) == 0 {
		f.Error = "no full handshake succeeded"
		if len(tries) > 0 && tries[0].full != nil {
			f.Error += ": " + tries[0].full.evidence.Response
		}
	}
	p.mu.Lock()
	p.report.Resumption = append(p.report.Resumption, f)
	order := []string{MechTLS13PSK, MechTicket, MechSessionID}
	slices.SortFunc(p.report.Resumption, func(a, b Resumption) int {
		return slices.Index(order, a.Mechanism) - slices.Index(order, b.Mechanism)
	})
	p.mu.Unlock()
	if len(full) > 0 && mech != MechSessionID {
		p.addResult(p.costResult("full", family, cl, full))
	}
	switch {
	case len(resumed) > 0:
		p.addResult(p.costResult("resumed", family+"-"+mechSlug(mech), cl, resumed))
	case len(raws) > 0:
		p.addResult(p.rawResumedResult(family+"-"+mechSlug(mech), cl, raws))
	}
}

func mechSlug(m string) string {
	switch m {
	case MechTLS13PSK:
		return "psk"
	case MechTicket:
		return "ticket"
	}
	return "session-id"
}

func (p *prober) try(ctx context.Context, mech string, cl clientSpec, n int) try {
	sess := newSession()
	full := p.handshake(ctx, cl, sess)
	full.evidence.Hello = fmt.Sprintf("try %d full: %s", n, full.evidence.Hello)
	t := try{full: full}
	if full.err != nil {
		return t
	}
	switch mech {
	case MechSessionID:
		if full.hello == nil || len(full.hello.SessionID) == 0 {
			full.evidence.Response += " — no session ID to resume"
			return t
		}
		t.issued = true
		id := full.hello.SessionID
		spec := helloSpec{name: fmt.Sprintf("try %d resume", n), version: full.version, suites: []uint16{full.suite},
			sessionID: id, noTicket: true, noEMS: !full.hello.ExtendedMasterSecret,
			note: "the full handshake's session ID and suite"}
		t.raw = p.exchange(ctx, spec, untilResumed)
		t.ok = t.raw.hello != nil && bytes.Equal(t.raw.hello.SessionID, id) && t.raw.resumed
		if t.raw.hello != nil && !t.ok {
			t.raw.evidence.Response += " — a new session, not resumed"
		}
	default:
		if mech == MechTicket {
			t.issued = full.ticket12 != nil
		} else {
			t.issued = full.server13 != nil && len(full.server13.tickets) > 0 || sess.goCache.ok
		}
		if !t.issued {
			full.evidence.Response += " — no ticket issued"
			return t
		}
		t.resumed = p.handshake(ctx, cl, sess)
		t.resumed.evidence.Hello = fmt.Sprintf("try %d resume: %s, offering the ticket", n, t.resumed.evidence.Hello)
		t.ok = t.resumed.err == nil && t.resumed.resumed
	}
	return t
}

// lifetime is the last ticket lifetime a full handshake saw, and how many
// tickets it got.
func (hr *handshakeResult) lifetime() (uint32, int) {
	if hr.ticket12 != nil {
		return hr.ticket12.Lifetime, 1
	}
	if hr.server13 != nil && len(hr.server13.tickets) > 0 {
		t := hr.server13.tickets
		return t[len(t)-1].Lifetime, len(t)
	}
	return 0, 0
}

func (p *prober) addResult(r result.Result) {
	p.mu.Lock()
	p.report.Run.Results = append(p.report.Run.Results, r)
	p.mu.Unlock()
}

// sortResults orders the results: full before resumed, TLS 1.3 first.
func (p *prober) sortResults() {
	p.mu.Lock()
	defer p.mu.Unlock()
	slices.SortStableFunc(p.report.Run.Results, func(a, b result.Result) int { return strings.Compare(a.Subject.Name, b.Subject.Name) })
}

func (p *prober) subject(kind, mech string, cl clientSpec, hr *handshakeResult, n int) result.Subject {
	return result.Subject{Kind: "probe", Name: fmt.Sprintf("%s/%s/%s", p.target, kind, mech),
		Operation: kind + "-handshake",
		Params: map[string]string{
			"target": p.target, "sni": p.serverName(), "handshake": kind, "mechanism": mech, "client": cl.describe(),
			"version": hr.version.String(), "suite": SuiteName(hr.suite), "key_exchange": hr.group,
			"samples": fmt.Sprint(n), "tries": fmt.Sprint(p.opts.Tries),
		}}
}

// costResult turns measured handshakes into a result: one sample per
// handshake of each metric, and the first handshake's packet trace.
func (p *prober) costResult(kind, mech string, cl clientSpec, hs []*handshakeResult) result.Result {
	col := func(f func(connCost) float64) []float64 {
		out := make([]float64, len(hs))
		for i, h := range hs {
			out[i] = f(h.cost)
		}
		return out
	}
	r := result.Result{Subject: p.subject(kind, mech, cl, hs[0], len(hs)), Trace: hs[0].cost.trace,
		Provenance: result.Provenance{Label: result.Measured, Source: p.target,
			Method: result.Method{Name: "probe", Timer: "time.Now (monotonic)", Samples: len(hs), Stop: "fixed"}}}
	r.Metrics = costMetrics(col, false)
	if len(hs) < 6 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("fewer than 6 samples: %d", len(hs)))
	}
	return r
}

// costMetrics builds the metrics of a handshake cost result.
func costMetrics(col func(func(connCost) float64) []float64, upEstimated bool) []result.Metric {
	upLabel, upMethod := result.Measured, "TLS bytes the client wrote until the handshake completed"
	if upEstimated {
		upLabel = result.Estimated
		upMethod = "the ClientHello as written, plus the client's ChangeCipherSpec and Finished records computed for the suite (RFC 5246 §7.3, §6.2.3): the probe does not send them"
	}
	ms := []result.Metric{
		withMethod(result.NewSampled("bytes-up", "B/op", result.Lower, upLabel, col(func(c connCost) float64 { return float64(c.bytesUp) })), upMethod),
		withMethod(result.NewSampled("bytes-down", "B/op", result.Lower, result.Measured, col(func(c connCost) float64 { return float64(c.bytesDown) })),
			"TLS bytes the client read until the handshake completed"),
		withMethod(result.NewSampled("round-trips", "round-trips/op", result.Lower, result.Measured, col(func(c connCost) float64 { return float64(c.roundTrips) })),
			"client flights answered by a server flight before the handshake completed; TCP's SYN/SYN-ACK adds one more"),
		withMethod(result.NewSampled("handshake-time", "ns/op", result.Lower, result.Measured, col(func(c connCost) float64 { return float64(c.handshakeNs) })),
			"wall time from the TCP connection being established to the handshake completing, on this machine's network path"),
		withMethod(result.NewSampled("connect-time", "ns/op", result.Lower, result.Measured, col(func(c connCost) float64 { return float64(c.connectNs) })),
			"wall time of the TCP three-way handshake"),
	}
	if post := col(func(c connCost) float64 { return float64(c.postUp) }); slices.Max(post) > 0 {
		ms = append(ms, withMethod(result.NewSampled("post-handshake-bytes-up", "B/op", result.Lower, result.Measured, post),
			"TLS bytes the client sent after the handshake completed: its close_notify alert"))
	}
	if post := col(func(c connCost) float64 { return float64(c.postDown) }); slices.Max(post) > 0 {
		ms = append(ms, withMethod(result.NewSampled("post-handshake-bytes-down", "B/op", result.Lower, result.Measured, post),
			"TLS bytes the server sent after the handshake completed: TLS 1.3 NewSessionTickets, its close_notify alert"))
	}
	ms = append(ms,
		withMethod(result.NewSampled("wire-bytes-up", "B/op", result.Lower, result.Estimated, col(func(c connCost) float64 { return float64(c.wireUp) })), HeaderModel),
		withMethod(result.NewSampled("wire-bytes-down", "B/op", result.Lower, result.Estimated, col(func(c connCost) float64 { return float64(c.wireDown) })), HeaderModel),
		withMethod(result.NewSampled("packets-up", "packets/op", result.Lower, result.Estimated, col(func(c connCost) float64 { return float64(c.packetsUp) })), HeaderModel),
		withMethod(result.NewSampled("packets-down", "packets/op", result.Lower, result.Estimated, col(func(c connCost) float64 { return float64(c.packetsDown) })), HeaderModel),
	)
	return ms
}

func withMethod(m result.Metric, method string) result.Metric {
	m.Method = method
	return m
}

// rawResumedResult is the cost of session-ID resumptions the probe made
// with its own hello: the server's flight is measured; the client's last
// flight (ChangeCipherSpec and Finished), which the probe cannot send, is
// computed for the suite and added to the bytes up, which are therefore
// estimated.
func (p *prober) rawResumedResult(mech string, cl clientSpec, raws []*answer) result.Result {
	var hs []*handshakeResult
	for _, a := range raws {
		hr := &handshakeResult{version: a.hello.Negotiated(), suite: a.hello.CipherSuite, group: "none (resumed)"}
		hr.cost = measureConn(a.events, a.connectNs, a.doneAt, plainLabels(func(result.Direction, int) string { return "Finished (encrypted)" }))
		s, _ := SuiteByID(hr.suite)
		if final, err := clientFinalFlight(s, hr.version); err == nil {
			hr.cost.bytesUp += final
			hr.cost.wireUp += final + headerBytes
			hr.cost.packetsUp++
		}
		hs = append(hs, hr)
	}
	col := func(f func(connCost) float64) []float64 {
		out := make([]float64, len(hs))
		for i, h := range hs {
			out[i] = f(h.cost)
		}
		return out
	}
	r := result.Result{Subject: p.subject("resumed", mech, clientSpec{name: "probe-hello", version: hs[0].version}, hs[0], len(hs)),
		Trace: hs[0].cost.trace,
		Provenance: result.Provenance{Label: result.Measured, Source: p.target,
			Method: result.Method{Name: "probe", Timer: "time.Now (monotonic)", Samples: len(hs), Stop: "fixed"}}}
	r.Subject.Params["client"] = "the probe's own ClientHello with the session ID of a crypto/tls full handshake; time until the server's Finished"
	r.Metrics = costMetrics(col, true)
	r.Warnings = append(r.Warnings, "the client's ChangeCipherSpec and Finished are computed, not sent (bytes-up is estimated)")
	if len(hs) < 6 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("fewer than 6 samples: %d", len(hs)))
	}
	return r
}

// clientFinalFlight is the size of a TLS ≤ 1.2 client's ChangeCipherSpec
// record (5 + 1 bytes) and Finished record: 5 bytes of header around the
// protected 16-byte Finished message (4 bytes of header, 12 of
// verify_data; RFC 5246 §7.4.9), whose protection depends on the suite:
// AEAD adds an explicit nonce and a tag (RFC 5288 §3: 8 + 16 for GCM;
// RFC 6655 CCM: 8 + 16, CCM_8: 8 + 8; RFC 7905 ChaCha20-Poly1305: 16);
// block ciphers a MAC, padding to the block and, from TLS 1.1, an
// explicit IV (RFC 5246 §6.2.3.2; RFC 4346); stream ciphers and NULL a
// MAC alone.
func clientFinalFlight(s Suite, v Version) (int, error) {
	const ccs, hdr, finished = 6, 5, 16
	name := s.Name
	switch {
	case strings.Contains(name, "CHACHA20_POLY1305"):
		return ccs + hdr + finished + 16, nil
	case strings.Contains(name, "_CCM_8"):
		return ccs + hdr + 8 + finished + 8, nil
	case strings.Contains(name, "_GCM_"), strings.Contains(name, "_CCM"):
		return ccs + hdr + 8 + finished + 16, nil
	}
	mac := 0
	switch {
	case strings.HasSuffix(name, "_SHA384"):
		mac = 48
	case strings.HasSuffix(name, "_SHA256"):
		mac = 32
	case strings.HasSuffix(name, "_SHA"):
		mac = 20
	case strings.HasSuffix(name, "_MD5"):
		mac = 16
	default:
		return 0, fmt.Errorf("no record size model for %s", name)
	}
	block := 0
	switch {
	case strings.Contains(name, "_AES_"), strings.Contains(name, "_CAMELLIA_"), strings.Contains(name, "_ARIA_"), strings.Contains(name, "_SEED_"):
		block = 16
	case strings.Contains(name, "DES"), strings.Contains(name, "_IDEA_"), strings.Contains(name, "_RC2_"):
		block = 8
	case strings.Contains(name, "_RC4_"), strings.Contains(name, "_NULL_"):
		return ccs + hdr + finished + mac, nil
	default:
		return 0, fmt.Errorf("no record size model for %s", name)
	}
	body := finished + mac + 1 // at least the padding_length byte
	body = (body + block - 1) / block * block
	if v >= TLS11 {
		body += block // explicit IV
	}
	return ccs + hdr + body, nil
}
