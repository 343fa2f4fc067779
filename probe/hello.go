package probe

import (
	"context"
	"crypto/ecdh"
	"crypto/mlkem"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"
)

// helloSpec says what one of the probe's ClientHellos offers; build turns
// it into the message. Every finding names the spec that established it.
type helloSpec struct {
	// name identifies the hello in evidence ("suites TLS 1.2 #3").
	name    string
	version Version // the one version offered
	suites  []uint16
	// groups for supported_groups (nil: every group usable at version).
	groups []uint16
	// shares: groups to send real key shares for (TLS 1.3); emptyShare
	// sends an empty key_share instead, asking for a HelloRetryRequest.
	shares     []uint16
	emptyShare bool
	sessionID  []byte
	// noTicket leaves session_ticket out (session-ID resumption tests).
	noTicket bool
	// noEMS leaves extended_master_secret out: a resumption must match
	// the original session, or the server must refuse it (RFC 7627 §5.3).
	noEMS bool
	// bare: no extensions but SNI (an old client's hello).
	bare bool
	// note completes the evidence description ("all TLS 1.2 suites not
	// yet chosen").
	note string
}

// build returns the ClientHello and the record version to send it in.
func (p *prober) build(spec helloSpec) (*ClientHello, Version, error) {
	ch := &ClientHello{Version: min(spec.version, TLS12), CipherSuites: spec.suites, Compression: []uint8{0}}
	if _, err := rand.Read(ch.Random[:]); err != nil {
		return nil, 0, err
	}
	recordVersion := TLS10 // RFC 8446 §5.1: legacy_record_version 0x0301
	ch.SessionID = spec.sessionID
	if spec.version == SSL30 {
		// RFC 6101 has no extensions; SSL 3.0 servers may choke on them.
		ch.NoExtensions = true
		return ch, SSL30, nil
	}
	if sni := p.serverName(); sni != "" {
		ch.ServerName = sni
	}
	if spec.bare {
		ch.SessionTicket = true
		return ch, recordVersion, nil
	}
	groups := spec.groups
	if groups == nil {
		for _, g := range groupTable {
			if spec.version == TLS13 || !g.TLS13Only {
				groups = append(groups, g.ID)
			}
		}
	}
	ch.SupportedGroups = groups
	ch.PointFormats = []uint8{0} // uncompressed (RFC 8422 §5.1.2)
	ch.StatusRequest = true
	ch.RenegotiationInfo = spec.version < TLS13
	ch.ExtendedMasterSecret = spec.version < TLS13 && !spec.noEMS
	ch.SessionTicket = !spec.noTicket && spec.version < TLS13
	if spec.version >= TLS12 {
		// RFC 5246 §7.4.1.4.1: not sent when offering only older versions.
		ch.SignatureSchemes = allSignatureSchemes
	}
	if spec.version == TLS13 {
		ch.SupportedVersions = []Version{TLS13}
		ch.PSKModes = []uint8{1} // psk_dhe_ke
		if ch.SessionID == nil {
			// RFC 8446 §D.4 middlebox compatibility: a non-empty legacy ID.
			ch.SessionID = make([]byte, 32)
			rand.Read(ch.SessionID)
		}
		ch.EmptyKeyShare = spec.emptyShare
		for _, g := range spec.shares {
			data, err := newKeyShare(g)
			if err != nil {
				return nil, 0, err
			}
			ch.KeyShares = append(ch.KeyShares, KeyShare{Group: g, Data: data})
		}
	}
	return ch, recordVersion, nil
}

// newKeyShare generates a real key share for the groups Go's standard
// library implements; the private part is thrown away, since the probe
// never completes these handshakes.
func newKeyShare(group uint16) ([]byte, error) {
	ec := func(c ecdh.Curve) ([]byte, error) {
		k, err := c.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		return k.PublicKey().Bytes(), nil
	}
	mlkem768 := func() []byte {
		k, _ := mlkem.GenerateKey768()
		return k.EncapsulationKey().Bytes()
	}
	switch group {
	case 23:
		return ec(ecdh.P256())
	case 24:
		return ec(ecdh.P384())
	case 25:
		return ec(ecdh.P521())
	case 29:
		return ec(ecdh.X25519())
	case 0x0201:
		return mlkem768(), nil
	case 0x0202:
		k, _ := mlkem.GenerateKey1024()
		return k.EncapsulationKey().Bytes(), nil
	case 0x11EC: // ML-KEM-768 first, then X25519 (draft-ietf-tls-ecdhe-mlkem §4)
		x, err := ec(ecdh.X25519())
		return append(mlkem768(), x...), err
	case 0x11EB: // P-256 point first
		p, err := ec(ecdh.P256())
		return append(p, mlkem768()...), err
	case 0x11ED:
		p, err := ec(ecdh.P384())
		k, _ := mlkem.GenerateKey1024()
		return append(p, k.EncapsulationKey().Bytes()...), err
	}
	return nil, fmt.Errorf("no key share generator for group %s", GroupName(group))
}

// canShare lists the groups newKeyShare implements.
var canShare = []uint16{29, 23, 24, 25, 0x11EC, 0x11EB, 0x11ED, 0x0201, 0x0202}

// describe summarises a ClientHello for evidence.
func describe(spec helloSpec, ch *ClientHello, recordVersion Version, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s ClientHello (%d B", spec.name, spec.version, size)
	if recordVersion != TLS10 {
		fmt.Fprintf(&b, ", record version %s", recordVersion)
	}
	fmt.Fprintf(&b, "), %d suites", len(ch.CipherSuites))
	if len(ch.CipherSuites) <= 4 {
		names := make([]string, len(ch.CipherSuites))
		for i, s := range ch.CipherSuites {
			names[i] = SuiteName(s)
		}
		fmt.Fprintf(&b, " [%s]", strings.Join(names, ", "))
	}
	if ch.SupportedGroups != nil {
		if len(ch.SupportedGroups) <= 3 {
			names := make([]string, len(ch.SupportedGroups))
			for i, g := range ch.SupportedGroups {
				names[i] = GroupName(g)
			}
			fmt.Fprintf(&b, ", groups [%s]", strings.Join(names, ", "))
		} else {
			fmt.Fprintf(&b, ", %d groups", len(ch.SupportedGroups))
		}
	}
	if spec.version == TLS13 {
		if ch.EmptyKeyShare {
			b.WriteString(", empty key_share")
		} else {
			names := make([]string, len(ch.KeyShares))
			for i, ks := range ch.KeyShares {
				names[i] = fmt.Sprintf("%s %d B", GroupName(ks.Group), len(ks.Data))
			}
			fmt.Fprintf(&b, ", key_share [%s]", strings.Join(names, ", "))
		}
	} else if len(spec.sessionID) > 0 {
		fmt.Fprintf(&b, ", session ID %x…", spec.sessionID[:min(4, len(spec.sessionID))])
	}
	if ch.NoExtensions {
		b.WriteString(", no extensions")
	}
	if spec.note != "" {
		b.WriteString("; " + spec.note)
	}
	return b.String()
}

// Evidence is how a finding was established: which ClientHello the probe
// sent and what came back.
type Evidence struct {
	Hello    string `json:"hello"`
	Response string `json:"response"`
}

// answer is what a server said to one ClientHello.
type answer struct {
	hello    *ServerHello
	cert     *Certificate
	status   *CertificateStatus
	ske      []byte // raw ServerKeyExchange message
	done     bool   // ServerHelloDone seen
	resumed  bool   // abbreviated handshake: ChangeCipherSpec and Finished seen
	messages []string
	err      error // what stopped the exchange, if the server did not answer as hoped
	evidence Evidence
	// certBytes is the Certificate message's size, header included.
	certBytes int
	// events, connectNs and doneAt measure the exchange: the tap, the
	// TCP connect time, and when the last message wanted was read.
	events    []ioEvent
	connectNs int64
	doneAt    time.Duration
}

// readMode says how far to read the server's answer.
type readMode int

const (
	untilServerHello readMode = iota
	untilServerHelloDone
	untilResumed // session ID resumption: ServerHello, ChangeCipherSpec, Finished
)

// exchange sends one ClientHello and reads the server's answer.
func (p *prober) exchange(ctx context.Context, spec helloSpec, mode readMode) *answer {
	ch, recordVersion, err := p.build(spec)
	if err != nil {
		return &answer{err: err, evidence: Evidence{Hello: spec.name, Response: "not sent: " + err.Error()}}
	}
	msg, err := ch.Marshal()
	if err != nil {
		return &answer{err: err, evidence: Evidence{Hello: spec.name, Response: "not sent: " + err.Error()}}
	}
	a := &answer{evidence: Evidence{Hello: describe(spec, ch, recordVersion, len(msg))}}
	c, err := p.dialer.open(ctx)
	if err != nil {
		a.err = err
		a.evidence.Response = describeErr(err, p.limits)
		return a
	}
	defer p.dialer.done(c)
	if _, err := c.Write(marshalRecords(recordHandshake, recordVersion, msg)); err != nil {
		a.err = err
		a.evidence.Response = describeErr(err, p.limits)
		return a
	}
	a.err = p.read(c, a, mode)
	a.doneAt, a.connectNs, a.events = time.Since(c.start), c.connectNs, c.snapshot()
	a.evidence.Response = a.summary(p.limits)
	return a
}

func (p *prober) read(c net.Conn, a *answer, mode readMode) error {
	rr := newRecordReader(c, p.limits)
	last := 0 // position in the flight's message order reached so far
	for {
		typ, msg, err := rr.readMessage()
		if errors.Is(err, errChangeCipherSpec) && mode == untilResumed && a.hello != nil {
			// The abbreviated handshake (RFC 5246 §7.3): ChangeCipherSpec,
			// then the encrypted Finished in the next record.
			a.messages = append(a.messages, "ChangeCipherSpec")
			rec, err := rr.readRecord()
			if err != nil {
				return err
			}
			if rec.typ != recordHandshake {
				return fmt.Errorf("record type %d after ChangeCipherSpec, want the encrypted Finished", rec.typ)
			}
			a.messages = append(a.messages, "Finished (encrypted)")
			a.resumed = true
			return nil
		}
		if err != nil {
			return err
		}
		a.messages = append(a.messages, handshakeName(typ))
		if a.hello == nil {
			if typ != typeServerHello {
				return fmt.Errorf("first message is %s, want ServerHello", handshakeName(typ))
			}
			var sh ServerHello
			if err := sh.Unmarshal(msg); err != nil {
				return err
			}
			a.hello = &sh
			if mode == untilServerHello || sh.Negotiated() >= TLS13 || sh.IsHelloRetryRequest() {
				return nil
			}
			continue
		}
		// RFC 5246 §7.3: each of these at most once, in this order.
		order := []uint8{typeCertificate, typeCertificateStatus, typeServerKeyExchange, typeCertificateRequest, typeServerHelloDone}
		at := slices.Index(order, typ)
		if at < 0 || at < last {
			return fmt.Errorf("unexpected %s in the server's first flight", handshakeName(typ))
		}
		last = at + 1
		switch typ {
		case typeCertificate:
			a.cert, a.certBytes = &Certificate{}, len(msg)
			if err := a.cert.Unmarshal(msg); err != nil {
				return err
			}
		case typeCertificateStatus:
			a.status = &CertificateStatus{}
			if err := a.status.Unmarshal(msg); err != nil {
				return err
			}
		case typeServerKeyExchange:
			a.ske = msg
		case typeServerHelloDone:
			a.done = true
			return nil
		}
	}
}

// summary describes the answer for evidence.
func (a *answer) summary(limits Limits) string {
	var parts []string
	if sh := a.hello; sh != nil {
		kind := "ServerHello"
		if sh.IsHelloRetryRequest() {
			kind = "HelloRetryRequest"
		}
		s := fmt.Sprintf("%s %s, %s", kind, sh.Negotiated(), SuiteName(sh.CipherSuite))
		switch {
		case sh.IsHelloRetryRequest():
			s += ", selected group " + GroupName(sh.SelectedGroup)
		case sh.KeyShare.Group != 0:
			s += fmt.Sprintf(", key_share %s %d B", GroupName(sh.KeyShare.Group), len(sh.KeyShare.Data))
		}
		if len(sh.SessionID) > 0 && sh.Negotiated() < TLS13 {
			s += fmt.Sprintf(", session ID %x…", sh.SessionID[:min(4, len(sh.SessionID))])
		}
		if sh.DowngradeSentinel() {
			s += ", TLS 1.3 downgrade sentinel in random"
		}
		if len(sh.Extensions) > 0 {
			names := make([]string, len(sh.Extensions))
			for i, t := range sh.Extensions {
				names[i] = extensionName(t)
			}
			s += ", extensions [" + strings.Join(names, ", ") + "]"
		}
		parts = append(parts, s)
		if len(a.messages) > 1 {
			parts = append(parts, "then "+strings.Join(a.messages[1:], ", "))
		}
	}
	if a.err != nil {
		parts = append(parts, describeErr(a.err, limits))
	}
	if len(parts) == 0 {
		return "no answer"
	}
	return strings.Join(parts, "; ")
}
