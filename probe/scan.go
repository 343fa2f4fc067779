package probe

// The questions the probe's own ClientHellos ask: versions, suites in
// order, TLS 1.3 groups, TLS 1.2 curves, DHE parameters, and what an
// S000-era phone would have negotiated.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/cryptocost/cryptocost/result"
)

// versions asks, for each version, with a hello offering only it.
func (p *prober) versions(ctx context.Context) {
	findings := make([]VersionFinding, len(Versions))
	answers := make([]*answer, len(Versions))
	var fs []func()
	for i, v := range Versions {
		findings[i] = VersionFinding{Version: v, Tested: p.tested(v)}
		if !findings[i].Tested {
			findings[i].Note = "not tested (--versions)"
			continue
		}
		offer := p.offerable(v)
		if len(offer) == 0 {
			findings[i].Tested = false
			findings[i].Note = "not tested: none of the suites given is usable in " + v.String()
			continue
		}
		fs = append(fs, func() {
			spec := helloSpec{name: "version " + v.String(), version: v, suites: offer,
				note: "every suite usable in " + v.String()}
			if v == TLS13 {
				// X25519: what most TLS 1.3 servers take at once; a server
				// that wants another group answers with a HelloRetryRequest,
				// still TLS 1.3.
				spec.shares = []uint16{29}
			}
			a := p.exchange(ctx, spec, untilServerHello)
			answers[i] = a
			f := &findings[i]
			f.Evidence = a.evidence
			if a.hello == nil {
				return
			}
			got := a.hello.Negotiated()
			f.Accepted = got == v
			switch {
			case !f.Accepted:
				f.Note = fmt.Sprintf("the server answered with %s", got)
			case v == SSL30:
				f.Note = "SSL 3.0 is broken (POODLE; RFC 7568 forbids it): detected, never offered to the mobile clients"
			case v < TLS13 && a.hello.DowngradeSentinel():
				f.Note = "the server signals it also supports TLS 1.3 (RFC 8446 §4.1.3 downgrade sentinel)"
			}
			if v == TLS13 && a.hello.IsHelloRetryRequest() {
				p.mu.Lock()
				p.share13 = a.hello.SelectedGroup
				p.mu.Unlock()
			}
		})
	}
	parallel(fs...)
	p.report.Versions = findings
	reached := false
	var last error
	for i, f := range findings {
		if f.Accepted {
			p.accepted[f.Version] = true
		}
		if a := answers[i]; a != nil {
			if a.hello != nil || isRefusal(a.err) {
				reached = true
			} else if a.err != nil {
				last = a.err
			}
		}
	}
	if !reached && last != nil {
		p.fail(fmt.Errorf("could not probe %s: %s", p.target, describeErr(last, p.limits)))
	}
}

// isRefusal says whether an error is the server saying no (an alert, or
// closing the connection) rather than the network failing.
func isRefusal(err error) bool {
	var a Alert
	return errors.As(err, &a) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET)
}

// share13Groups is the key share a TLS 1.3 hello sends: X25519, or the
// group the server asked for in its HelloRetryRequest, or none.
func (p *prober) share13Spec(spec helloSpec) helloSpec {
	p.mu.Lock()
	g := p.share13
	p.mu.Unlock()
	switch {
	case g == 0:
		spec.shares = []uint16{29}
	case slices.Contains(canShare, g):
		spec.shares = []uint16{g}
	default:
		spec.emptyShare = true
	}
	return spec
}

// suites runs the classic scan for every accepted version: offer all,
// note the server's choice, remove it, repeat until the server refuses.
func (p *prober) suites(ctx context.Context) {
	var lists []SuiteList
	var mu = make(chan struct{}, 1)
	var fs []func()
	for _, v := range Versions {
		if !p.isAccepted(v) {
			continue
		}
		fs = append(fs, func() {
			l := p.suiteList(ctx, v)
			mu <- struct{}{}
			lists = append(lists, l)
			<-mu
		})
	}
	parallel(fs...)
	sort.Slice(lists, func(i, j int) bool { return lists[i].Version < lists[j].Version })
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report.Suites = lists
	for _, l := range lists {
		for _, s := range l.Suites {
			if s.Ephemeral {
				p.report.KeyExchange.Ephemeral = true
			}
		}
	}
}

func (p *prober) suiteList(ctx context.Context, v Version) SuiteList {
	offer := p.offerable(v)
	l := SuiteList{Version: v, Offered: len(offer), Order: "unknown"}
	remaining := slices.Clone(offer)
	for i := 1; len(remaining) > 0 && i <= len(offer); i++ {
		spec := helloSpec{name: fmt.Sprintf("suites %s #%d", v, i), version: v, suites: remaining}
		if i > 1 {
			spec.note = fmt.Sprintf("the %d suites offered first minus the %d chosen so far", len(offer), i-1)
		}
		if v == TLS13 {
			spec = p.share13Spec(spec)
		}
		mode := untilServerHello
		if i == 1 && v < TLS13 {
			mode = untilServerHelloDone // the certificate chain and DHE/ECDHE parameters come with it
		}
		a := p.exchange(ctx, spec, mode)
		if i == 1 && v < TLS13 {
			p.mu.Lock()
			p.flights[v] = a
			p.mu.Unlock()
		}
		if a.hello == nil || a.hello.Negotiated() != v {
			if a.hello == nil && !isRefusal(a.err) {
				l.Error = fmt.Sprintf("scan stopped after %d suites: %s", len(l.Suites), a.evidence.Response)
			}
			l.OrderEvidence = append(l.OrderEvidence, Evidence{Hello: a.evidence.Hello, Response: a.evidence.Response + " — no further suite accepted"})
			break
		}
		id := a.hello.CipherSuite
		if !slices.Contains(remaining, id) {
			l.Error = fmt.Sprintf("the server chose %s, which the probe did not offer", SuiteName(id))
			break
		}
		s, _ := SuiteByID(id)
		l.Suites = append(l.Suites, SuiteFinding{ID: fmt.Sprintf("0x%04x", id), Name: s.Name,
			KeyExchange: s.KeyExchange, Ephemeral: s.Ephemeral(), Evidence: a.evidence})
		remaining = slices.DeleteFunc(remaining, func(x uint16) bool { return x == id })
		p.mu.Lock()
		p.suiteSet[v] = append(p.suiteSet[v], id)
		p.mu.Unlock()
	}
	switch {
	case len(l.Suites) == 1:
		l.Order = "one suite"
	case len(l.Suites) >= 2:
		l.Order, l.OrderEvidence = p.order(ctx, v, l.Suites, l.OrderEvidence)
	}
	return l
}

// order tells whether the server picks by its own preference: it offers
// the accepted suites in reverse. A server that still picks the first one
// found enforces its order; one that picks the last follows the client's.
func (p *prober) order(ctx context.Context, v Version, found []SuiteFinding, ev []Evidence) (string, []Evidence) {
	ids := make([]uint16, len(found))
	for i, s := range found {
		var id uint16
		fmt.Sscanf(s.ID, "0x%04x", &id)
		ids[len(found)-1-i] = id
	}
	spec := helloSpec{name: fmt.Sprintf("order %s", v), version: v, suites: ids,
		note: "the accepted suites in reverse order"}
	if v == TLS13 {
		spec = p.share13Spec(spec)
	}
	a := p.exchange(ctx, spec, untilServerHello)
	ev = append(ev, a.evidence)
	switch {
	case a.hello == nil:
		return "unknown", ev
	case a.hello.CipherSuite == ids[len(ids)-1]:
		return "server", ev
	case a.hello.CipherSuite == ids[0]:
		return "client", ev
	}
	return "unknown", ev
}

// groups13 finds the TLS 1.3 groups by asking for HelloRetryRequests:
// supported_groups lists the candidates and key_share is empty, so the
// server must name the group it wants (RFC 8446 §4.2.8, §4.1.4); remove it
// and repeat. Then it sends real key shares for the groups it can make,
// to confirm each and measure the shares' bytes.
func (p *prober) groups13(ctx context.Context) {
	if !p.isAccepted(TLS13) {
		return
	}
	var remaining []uint16
	for _, g := range groupTable {
		remaining = append(remaining, g.ID)
	}
	total := len(remaining)
	var found []GroupFinding
	for i := 1; len(remaining) > 0 && i <= total; i++ {
		spec := helloSpec{name: fmt.Sprintf("groups TLS 1.3 #%d", i), version: TLS13, suites: p.offerable(TLS13),
			groups: remaining, emptyShare: true}
		if i > 1 {
			spec.note = fmt.Sprintf("every group known minus the %d chosen so far", i-1)
		}
		a := p.exchange(ctx, spec, untilServerHello)
		if a.hello == nil {
			if !isRefusal(a.err) {
				p.noteKex("TLS 1.3 group scan stopped: %s", a.evidence.Response)
			}
			break
		}
		if !a.hello.IsHelloRetryRequest() {
			p.noteKex("TLS 1.3 group scan: the server answered an empty key_share with a ServerHello, not a HelloRetryRequest (%s)", a.evidence.Response)
			break
		}
		g := a.hello.SelectedGroup
		if !slices.Contains(remaining, g) {
			p.noteKex("TLS 1.3 group scan: the server asked for %s, which the probe did not offer", GroupName(g))
			break
		}
		info, _ := GroupByID(g)
		found = append(found, GroupFinding{ID: fmt.Sprintf("0x%04x", g), Name: info.Name, Kind: info.Kind, Evidence: []Evidence{a.evidence}})
		remaining = slices.DeleteFunc(remaining, func(x uint16) bool { return x == g })
	}
	var fs []func()
	for i := range found {
		var g uint16
		fmt.Sscanf(found[i].ID, "0x%04x", &g)
		if !slices.Contains(canShare, g) {
			continue
		}
		fs = append(fs, func() {
			spec := helloSpec{name: "key share " + found[i].Name, version: TLS13, suites: p.offerable(TLS13),
				groups: []uint16{g}, shares: []uint16{g}}
			a := p.exchange(ctx, spec, untilServerHello)
			found[i].Evidence = append(found[i].Evidence, a.evidence)
			if a.hello != nil && !a.hello.IsHelloRetryRequest() && a.hello.KeyShare.Group == g {
				info, _ := GroupByID(g)
				found[i].ShareUp, found[i].ShareDown = info.ClientShare, len(a.hello.KeyShare.Data)
			}
		})
	}
	parallel(fs...)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report.KeyExchange.TLS13Groups = found
	if len(found) > 0 {
		p.report.KeyExchange.Ephemeral = true
	}
}

func (p *prober) noteKex(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report.KeyExchange.Errors = append(p.report.KeyExchange.Errors, fmt.Sprintf(format, args...))
}

// suitesOf filters the accepted suites of v by key exchange.
func (p *prober) suitesOf(v Version, kex KeyExchange) []uint16 {
	var out []uint16
	for _, id := range p.acceptedSuites(v) {
		if s, _ := SuiteByID(id); s.KeyExchange == kex {
			out = append(out, id)
		}
	}
	return out
}

// curves12 finds the named curves of ECDHE suites in the highest TLS ≤ 1.2
// version: offer the ECDHE suites with a list of curves, read the curve
// from the ServerKeyExchange, remove it, repeat.
//
// An ECDSA certificate's own curve cannot simply be removed: in TLS ≤ 1.2
// the client's supported_groups also names the curves it accepts in the
// server's certificate (RFC 8422 §5.1, §5.3), so a server whose only
// certificate is on P-384 refuses a hello without P-384 — the scan would
// stop there and miss every curve left. Once found, a certificate's curve
// stays in the offer, last. When the server then chooses it, either
// nothing left is supported (a server that follows the client's order) or
// the server prefers its certificate's curve: settle tells which.
func (p *prober) curves12(ctx context.Context) {
	v := p.highest12()
	ecdhe := p.suitesOf(v, KexECDHE)
	if v == 0 || len(ecdhe) == 0 {
		return
	}
	var remaining []uint16
	for _, g := range groupTable {
		if g.Kind == GroupEC && !g.TLS13Only {
			remaining = append(remaining, g.ID)
		}
	}
	cs := curveScan{p: p, v: v, ecdhe: ecdhe}
	total := len(remaining)
	for i := 1; len(remaining) > 0 && i <= total; i++ {
		curve, ok := cs.ask(ctx, fmt.Sprintf("curves %s #%d", v, i), append(slices.Clone(remaining), cs.pinned...))
		if !ok {
			break
		}
		if slices.Contains(cs.pinned, curve) && !slices.Contains(remaining, curve) {
			cs.settle(ctx, remaining)
			break
		}
		remaining = slices.DeleteFunc(remaining, func(x uint16) bool { return x == curve })
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report.KeyExchange.TLS12Curves = cs.found
}

// curveScan is the state of curves12.
type curveScan struct {
	p      *prober
	v      Version
	ecdhe  []uint16
	pinned []uint16 // certificate curves found: offered in every hello after
	ids    []uint16 // the curves found, in order
	found  []GroupFinding
}

// ask offers the curves in that order and returns the curve the server
// used; ok is false when it refused or the answer was unusable (noted,
// unless a plain refusal).
func (cs *curveScan) ask(ctx context.Context, name string, offer []uint16) (uint16, bool) {
	note := "the accepted ECDHE suites"
	if len(cs.pinned) > 0 {
		note += "; the certificate's curve " + GroupName(cs.pinned[0]) + " kept in the offer (RFC 8422 §5.1)"
	}
	spec := helloSpec{name: name, version: cs.v, suites: cs.ecdhe, groups: offer, note: note}
	a := cs.p.exchange(ctx, spec, untilServerHelloDone)
	if a.hello == nil || a.ske == nil {
		if a.hello == nil && !isRefusal(a.err) {
			cs.p.noteKex("%s curve scan stopped: %s", cs.v, a.evidence.Response)
		}
		return 0, false
	}
	s, _ := SuiteByID(a.hello.CipherSuite)
	ske, err := parseServerKeyExchange(a.ske, s, cs.v)
	if err != nil {
		cs.p.noteKex("%s curve scan: %v", cs.v, err)
		return 0, false
	}
	if !slices.Contains(offer, ske.Curve) {
		cs.p.noteKex("%s curve scan: the server used %s, which the probe did not offer", cs.v, GroupName(ske.Curve))
		return 0, false
	}
	if !slices.Contains(cs.ids, ske.Curve) {
		info, _ := GroupByID(ske.Curve)
		cs.ids = append(cs.ids, ske.Curve)
		cs.found = append(cs.found, GroupFinding{ID: fmt.Sprintf("0x%04x", ske.Curve), Name: info.Name, Kind: info.Kind,
			ShareDown: len(ske.Point), Evidence: []Evidence{a.evidence}})
	}
	if c := certCurve(a.cert); c != 0 && c == ske.Curve && !slices.Contains(cs.pinned, c) {
		cs.pinned = append(cs.pinned, c)
	}
	return ske.Curve, true
}

// settle: offered the curves left and then the certificate's, the server
// chose the certificate's. Two hellos with a curve found before it, in
// both orders, tell whether the server follows the client's order (then
// none of the curves left is supported: the scan is complete) or its own
// (then those curves, if supported, rank below the certificate's and
// cannot be seen: noted).
func (cs *curveScan) settle(ctx context.Context, left []uint16) {
	c := cs.pinned[0]
	var other uint16
	for _, id := range cs.ids {
		if !slices.Contains(cs.pinned, id) {
			other = id
			break
		}
	}
	unseen := func(why string) {
		names := make([]string, len(left))
		for i, g := range left {
			names[i] = GroupName(g)
		}
		cs.p.noteKex("%s curves: %s; whether it supports any of the %d curves not seen (%s) is not established", cs.v, why, len(left),
			strings.Join(names, ", "))
	}
	if other == 0 {
		unseen("the server used only its certificate's curve " + GroupName(c))
		return
	}
	first, ok1 := cs.ask(ctx, fmt.Sprintf("curve order %s: %s first", cs.v, GroupName(other)), []uint16{other, c})
	second, ok2 := cs.ask(ctx, fmt.Sprintf("curve order %s: %s first", cs.v, GroupName(c)), []uint16{c, other})
	if ok1 && ok2 && first == other && second == c {
		return // the client's order: nothing left is supported
	}
	unseen("the server chooses curves by its own preference and ranks its certificate's curve " + GroupName(c) + " above the rest")
}

// certCurve is the named curve (TLS group ID, RFC 8422 §5.1.1) of an
// ECDSA leaf certificate, or 0.
func certCurve(c *Certificate) uint16 {
	if c == nil || len(c.Entries) == 0 {
		return 0
	}
	leaf, err := x509.ParseCertificate(c.Entries[0].DER)
	if err != nil {
		return 0
	}
	k, ok := leaf.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return 0
	}
	switch k.Curve {
	case elliptic.P256():
		return 23
	case elliptic.P384():
		return 24
	case elliptic.P521():
		return 25
	}
	return 0
}

// dhe reads the server's DHE parameters, first with a hello that offers no
// finite-field group (what the server uses by default), then with each
// RFC 7919 group alone (RFC 7919 §4: a server that supports the group
// uses it; one that does not must not choose DHE).
func (p *prober) dhe(ctx context.Context) {
	v := p.highest12()
	dhe := p.suitesOf(v, KexDHE)
	if v == 0 || len(dhe) == 0 {
		return
	}
	var ecOnly []uint16
	for _, g := range groupTable {
		if g.Kind == GroupEC && !g.TLS13Only {
			ecOnly = append(ecOnly, g.ID)
		}
	}
	legacy := helloSpec{name: "DHE parameters " + v.String(), version: v, suites: dhe, groups: ecOnly,
		note: "the accepted DHE suites, no FFDHE group in supported_groups"}
	if params, ok := p.dheParams(ctx, legacy, v); ok {
		p.mu.Lock()
		p.report.KeyExchange.DHE = append(p.report.KeyExchange.DHE, params)
		p.mu.Unlock()
	}
	ff := []uint16{256, 257, 258, 259, 260}
	results := make([]*DHEParams, len(ff))
	evidence := make([]Evidence, len(ff))
	var fs []func()
	for i, g := range ff {
		fs = append(fs, func() {
			spec := helloSpec{name: "RFC 7919 " + GroupName(g) + " " + v.String(), version: v, suites: dhe, groups: []uint16{g},
				note: "only this FFDHE group in supported_groups"}
			a := p.exchangeDHE(ctx, spec, v)
			evidence[i] = a.evidence
			results[i] = a.params
		})
	}
	parallel(fs...)
	// A server that answers one group's offer with another prime ignores
	// RFC 7919; then a match elsewhere is its fixed group, not a choice.
	var matched []GroupFinding
	ignored := ""
	for i, g := range ff {
		r := results[i]
		switch {
		case r == nil:
		case rfc7919Groups[r.Group] == g:
			info, _ := GroupByID(g)
			matched = append(matched, GroupFinding{ID: fmt.Sprintf("0x%04x", g),
				Name: info.Name, Kind: info.Kind, ShareDown: r.PublicBytes, Evidence: []Evidence{evidence[i]}})
		default:
			ignored = fmt.Sprintf("the server ignores RFC 7919 supported_groups in %s: offered only %s, it still chose DHE with its own %d-bit group (%s)",
				v, GroupName(g), r.PrimeBits, r.Group)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case ignored != "":
		p.report.KeyExchange.FFDHENote = ignored
	case len(matched) == 0:
		p.report.KeyExchange.FFDHENote = "offered any single RFC 7919 group, the server declined DHE"
	default:
		p.report.KeyExchange.FFDHE = matched
	}
}

type dheAnswer struct {
	*answer
	params *DHEParams
}

func (p *prober) exchangeDHE(ctx context.Context, spec helloSpec, v Version) dheAnswer {
	a := p.exchange(ctx, spec, untilServerHelloDone)
	out := dheAnswer{answer: a}
	if a.hello == nil || a.ske == nil {
		return out
	}
	s, _ := SuiteByID(a.hello.CipherSuite)
	if s.KeyExchange != KexDHE {
		return out
	}
	ske, err := parseServerKeyExchange(a.ske, s, v)
	if err != nil {
		p.noteKex("%s: %v", spec.name, err)
		return out
	}
	group := primeName(ske.P)
	if group == "" {
		group = "server-specific (not a well-known group)"
	}
	out.params = &DHEParams{Version: v, Suite: s.Name, PrimeBits: primeBits(ske.P),
		Generator: new(big.Int).SetBytes(ske.G).String(), Group: group, PublicBytes: len(ske.Y), Evidence: a.evidence}
	return out
}

func (p *prober) dheParams(ctx context.Context, spec helloSpec, v Version) (DHEParams, bool) {
	a := p.exchangeDHE(ctx, spec, v)
	if a.params == nil {
		if a.hello == nil && !isRefusal(a.err) {
			p.noteKex("%s: %s", spec.name, a.evidence.Response)
		}
		return DHEParams{}, false
	}
	return *a.params, true
}

// rsaExport reads the RSA key of the export suites the server accepted,
// in the highest version it accepted one: the ServerKeyExchange's
// temporary key (ServerRSAParams, RFC 2246 §7.4.3), or the certificate's
// when there is none.
func (p *prober) rsaExport(ctx context.Context) {
	var v Version
	var export []uint16
	for _, ver := range Versions {
		var ids []uint16
		for _, id := range p.suitesOf(ver, KexRSA) {
			if s, _ := SuiteByID(id); s.Export {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			v, export = ver, ids
		}
	}
	if len(export) == 0 {
		return
	}
	spec := helloSpec{name: "RSA export " + v.String(), version: v, suites: export, note: "the accepted RSA_EXPORT suites"}
	a := p.exchange(ctx, spec, untilServerHelloDone)
	if a.hello == nil || !a.done {
		p.noteKex("%s: %s", spec.name, a.evidence.Response)
		return
	}
	s, _ := SuiteByID(a.hello.CipherSuite)
	if !s.Export {
		p.noteKex("%s: the server chose %s, which the probe did not offer", spec.name, s.Name)
		return
	}
	key := &RSAExportKey{Version: v, Suite: s.Name, Evidence: a.evidence}
	switch {
	case a.ske != nil:
		ske, err := parseServerKeyExchange(a.ske, s, v)
		if err != nil {
			p.noteKex("%s: %v", spec.name, err)
			return
		}
		key.Temporary, key.ModulusBits = true, primeBits(ske.Modulus)
		key.Exponent = new(big.Int).SetBytes(ske.Exponent).String()
	case a.cert != nil && len(a.cert.Entries) > 0:
		cert, err := x509.ParseCertificate(a.cert.Entries[0].DER)
		if err != nil {
			p.noteKex("%s: the certificate: %v", spec.name, err)
			return
		}
		pub, ok := cert.PublicKey.(*rsa.PublicKey)
		if !ok {
			p.noteKex("%s: an RSA export suite with a %T certificate key", spec.name, cert.PublicKey)
			return
		}
		key.ModulusBits, key.Exponent = pub.N.BitLen(), fmt.Sprint(pub.E)
	default:
		p.noteKex("%s: neither a ServerKeyExchange nor a certificate", spec.name)
		return
	}
	p.mu.Lock()
	p.report.KeyExchange.RSAExport = key
	p.mu.Unlock()
}

// s000Suites is what the S000-era client offers: the four suites S000
// measured (TLS 1.0, AES-CBC with HMAC-SHA1, RSA or DHE-RSA key exchange), in
// the order OpenSSL 0.9.8's DEFAULT cipher list sorts them (@STRENGTH:
// 256-bit first, DHE before RSA at equal strength).
var s000Suites = []uint16{0x0039, 0x0035, 0x0033, 0x002F}

// S000Description says what the S000-era client is.
const S000Description = "a 2010 phone (S000's Nokia N95 with OpenSSL 0.9.8): TLS 1.0 only; DHE-RSA-AES256-SHA, AES256-SHA, DHE-RSA-AES128-SHA, AES128-SHA; server_name (unless the target is an IP address) and an empty session_ticket as the only extensions"

// s000Client asks what the server gives an S000-era phone.
func (p *prober) s000Client(ctx context.Context) {
	spec := helloSpec{name: "S000-era client", version: TLS10, suites: s000Suites, bare: true}
	a := p.exchange(ctx, spec, untilServerHelloDone)
	pick := ClientPick{Client: "s000-era", Description: S000Description, Evidence: a.evidence}
	switch {
	case a.hello == nil:
		pick.Error = "refused: " + a.evidence.Response
	case a.hello.Negotiated() != TLS10:
		pick.Error = fmt.Sprintf("the server answered with %s", a.hello.Negotiated())
	default:
		s, _ := SuiteByID(a.hello.CipherSuite)
		pick.Version, pick.Suite, pick.KeyExchange = TLS10, s.Name, string(s.KeyExchange)
		if s.KeyExchange == KexRSA {
			pick.KeyExchange = "RSA key transport"
		}
		if a.ske != nil && s.KeyExchange == KexDHE {
			if ske, err := parseServerKeyExchange(a.ske, s, TLS10); err == nil {
				pick.KeyExchange = fmt.Sprintf("DHE %d-bit", primeBits(ske.P))
			}
		}
		if a.done {
			pick.ServerBytes = downBytes(a.events)
		}
	}
	p.addPick(pick)
}

func (p *prober) addPick(pick ClientPick) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report.Clients = append(p.report.Clients, pick)
	sort.Slice(p.report.Clients, func(i, j int) bool { return p.report.Clients[i].Client < p.report.Clients[j].Client })
}

func downBytes(events []ioEvent) int {
	n := 0
	for _, e := range events {
		if e.dir == result.Down {
			n += len(e.data)
		}
	}
	return n
}

// chainFromFlight describes the certificate chain of the highest TLS ≤ 1.2
// version's first suite hello, read in the clear.
func (p *prober) chainFromFlight() {
	v := p.highest12()
	if v == 0 && p.isAccepted(SSL30) {
		v = SSL30 // the only chain there is
	}
	p.mu.Lock()
	a := p.flights[v]
	p.mu.Unlock()
	var tooLarge *MessageTooLarge
	if a != nil && a.cert == nil && errors.As(a.err, &tooLarge) && tooLarge.Type == typeCertificate {
		// A finding the report cannot do without: say so at the top, and
		// do not call the probe complete.
		p.fail(fmt.Errorf("the server's certificate chain could not be read: its %v (crypto/tls's own limit; the probe never "+
			"buffers more of one message) — a broken or hostile server; its handshake costs cannot be measured either", tooLarge))
	}
	if a == nil || a.cert == nil {
		return
	}
	var ders [][]byte
	for _, e := range a.cert.Entries {
		ders = append(ders, e.DER)
	}
	var ocsp []byte
	if a.status != nil {
		ocsp = a.status.OCSP
	}
	ch := newChain(fmt.Sprintf("%s handshake (the probe's own hello, in the clear)", v), v, ders, a.certBytes, ocsp,
		p.serverName(), p.opts.Now())
	if a.ske != nil {
		s, _ := SuiteByID(a.hello.CipherSuite)
		if ske, err := parseServerKeyExchange(a.ske, s, v); err == nil && ske.SignatureScheme != 0 {
			ch.HandshakeSignature = SignatureSchemeName(ske.SignatureScheme)
		}
	}
	ch.Evidence = a.evidence
	p.mu.Lock()
	p.report.Chains = append(p.report.Chains, ch)
	p.mu.Unlock()
}
