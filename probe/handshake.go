package probe

// Complete handshakes with real TLS clients: Go's crypto/tls (what a Go
// program on a phone would do) and, for what crypto/tls cannot negotiate
// (DHE suites), zmap/zcrypto's fork of it. These measure the cost of a
// full and a resumed handshake, see TLS 1.3's encrypted certificate chain,
// and test session resumption.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// clientSpec is one real-client configuration.
type clientSpec struct {
	// name is what evidence calls it.
	name string
	// zcrypto selects zmap/zcrypto instead of crypto/tls.
	zcrypto bool
	// pinned version and suites (0/nil: crypto/tls's defaults).
	version Version
	suites  []uint16
	// noTickets leaves session_ticket out, so the server must use a
	// session ID to offer resumption (RFC 5077 §3.4).
	noTickets bool
	// waitTicket: after a TLS 1.3 handshake, wait this long for the
	// server's NewSessionTicket (RFC 8446 §4.6.1 sends it after the
	// handshake) — 0: do not wait.
	waitTicket time.Duration
}

// oneSession is a session cache holding the one session of a full
// handshake for its resumption; put is closed when the first session
// arrives. It satisfies both crypto/tls's and zcrypto's
// ClientSessionCache.
type oneSession[T comparable] struct {
	mu   sync.Mutex
	s    T
	ok   bool
	once sync.Once
	put  chan struct{}
}

func newOneSession[T comparable]() *oneSession[T] { return &oneSession[T]{put: make(chan struct{})} }

func (c *oneSession[T]) Get(string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.s, c.ok
}

func (c *oneSession[T]) Put(_ string, s T) {
	var zero T
	c.mu.Lock()
	defer c.mu.Unlock()
	if s == zero {
		return // crypto/tls deletes a used TLS 1.3 ticket; keep it for the record
	}
	c.s, c.ok = s, true
	c.once.Do(func() { close(c.put) })
}

// session carries what one try's full handshake leaves for its resumption.
type session struct {
	goCache *oneSession[*tls.ClientSessionState]
	// z is zcrypto's session cache (zcrypto.go), when zcrypto is used.
	z any
}

func newSession() *session {
	return &session{goCache: newOneSession[*tls.ClientSessionState]()}
}

// handshakeResult is one measured handshake.
type handshakeResult struct {
	client   string
	version  Version
	suite    uint16
	group    string // key exchange: a group name, "RSA", "DHE 2048-bit"
	resumed  bool
	certs    [][]byte
	ocsp     []byte
	cost     connCost
	hello    *ServerHello // the server's, from the tap
	ticket12 *NewSessionTicket
	server13 *serverMessages
	decrypt  error  // why TLS 1.3 records could not be read, if not
	wireNote string // the wire contradicted the client (checkResumedOnWire)
	certMsg  int    // Certificate message bytes (TLS ≤ 1.2 plaintext)
	ske      []byte
	evidence Evidence
	err      error
}

// handshake runs one full or resumed handshake and measures it.
func (p *prober) handshake(ctx context.Context, cl clientSpec, sess *session) *handshakeResult {
	hr := &handshakeResult{client: cl.name}
	hr.evidence.Hello = cl.describe()
	c, err := p.dialer.open(ctx)
	if err != nil {
		hr.err = err
		hr.evidence.Response = describeErr(err, p.limits)
		return hr
	}
	defer p.dialer.done(c)
	kl := &keyLog{}
	var doneAt time.Duration
	var tc tlsCloser
	if cl.zcrypto {
		doneAt, tc, err = p.zcryptoHandshake(ctx, c, cl, sess, hr)
	} else {
		doneAt, tc, err = p.goHandshake(ctx, c, cl, sess, kl, hr)
	}
	if err != nil {
		hr.err = err
		hr.evidence.Response = "handshake failed: " + describeErr(err, p.limits)
		return hr
	}
	// The close is part of the connection (its alerts are post-handshake
	// bytes), not of the handshake's cost.
	closeTLS(c, tc, p.limits)
	events := c.snapshot()
	p.readTap(events, kl, hr)
	hr.checkResumedOnWire()
	hr.cost = measureConn(events, c.connectNs, doneAt, hr.labels())
	hr.evidence.Response = hr.summary()
	return hr
}

func (cl clientSpec) describe() string {
	lib := "crypto/tls (Go's default ClientHello)"
	if cl.zcrypto {
		lib = "zmap/zcrypto"
	}
	var parts []string
	if cl.version != 0 {
		parts = append(parts, "pinned to "+cl.version.String())
	}
	if cl.suites != nil {
		parts = append(parts, fmt.Sprintf("%d suites", len(cl.suites)))
		lib = strings.TrimSuffix(lib, " (Go's default ClientHello)")
	}
	if cl.noTickets {
		parts = append(parts, "no session_ticket extension")
	}
	s := cl.name + ": " + lib
	if len(parts) > 0 {
		s += ", " + strings.Join(parts, ", ")
	}
	return s
}

func (p *prober) goHandshake(ctx context.Context, c *conn, cl clientSpec, sess *session, kl *keyLog, hr *handshakeResult) (time.Duration, tlsCloser, error) {
	cfg := &tls.Config{
		ServerName: p.serverName(),
		// The probe profiles whatever the server presents; whether the
		// chain verifies is reported, not required (certs.go).
		InsecureSkipVerify:     true,
		KeyLogWriter:           kl,
		ClientSessionCache:     sess.goCache,
		SessionTicketsDisabled: cl.noTickets,
		Renegotiation:          tls.RenegotiateNever,
	}
	if cl.version != 0 {
		cfg.MinVersion, cfg.MaxVersion = uint16(cl.version), uint16(cl.version)
	}
	if cl.suites != nil {
		cfg.CipherSuites = cl.suites
	}
	tc := tls.Client(c, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return 0, nil, err
	}
	doneAt := time.Since(c.start)
	st := tc.ConnectionState()
	hr.version, hr.suite, hr.resumed = Version(st.Version), st.CipherSuite, st.DidResume
	hr.group = keyExchangeName(st.CurveID, st.CipherSuite)
	if hr.resumed && hr.version < TLS13 {
		hr.group = "none (resumed)" // RFC 5246 §7.3: no key exchange
	}
	for _, cert := range st.PeerCertificates {
		hr.certs = append(hr.certs, cert.Raw)
	}
	hr.ocsp = st.OCSPResponse
	if hr.version == TLS13 && cl.waitTicket > 0 {
		p.awaitTickets(c, tc, sess.goCache.put, cl.waitTicket)
	}
	return doneAt, tc, nil
}

// awaitTickets reads from a finished TLS 1.3 connection until the server's
// first NewSessionTicket arrives (and briefly after, for a second one), or
// wait elapses: crypto/tls processes tickets only inside Read.
func (p *prober) awaitTickets(c *conn, tc interface{ Read([]byte) (int, error) }, put <-chan struct{}, wait time.Duration) {
	deadline := time.Now().Add(wait)
	c.SetReadDeadline(deadline)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-put:
			// Servers usually send their tickets together (OpenSSL sends
			// two); a short grace collects the rest for the byte count.
			c.SetReadDeadline(time.Now().Add(min(ticketGrace, time.Until(deadline))))
		case <-stop:
		}
	}()
	buf := make([]byte, 1024)
	for {
		if _, err := tc.Read(buf); err != nil {
			return
		}
	}
}

// ticketGrace is how long the probe keeps reading after a first TLS 1.3
// ticket, for the tickets sent with it.
const ticketGrace = 100 * time.Millisecond

// keyExchangeName names the key exchange of a crypto/tls connection.
func keyExchangeName(curve tls.CurveID, suite uint16) string {
	if curve != 0 {
		return GroupName(uint16(curve))
	}
	if s, ok := SuiteByID(suite); ok && s.KeyExchange == KexRSA {
		return "RSA key transport"
	}
	return ""
}

// readTap parses the server's plaintext messages from the tapped stream,
// and, in TLS 1.3, decrypts the rest with the key log.
func (p *prober) readTap(events []ioEvent, kl *keyLog, hr *handshakeResult) {
	var down []byte
	for _, e := range events {
		if e.dir == result.Down {
			down = append(down, e.data...)
		}
	}
	rr := newRecordReader(bytes.NewReader(down), p.limits)
	for {
		typ, msg, err := rr.readMessage()
		if err != nil {
			break
		}
		switch typ {
		case typeServerHello:
			var sh ServerHello
			if sh.Unmarshal(msg) == nil && !sh.IsHelloRetryRequest() {
				hr.hello = &sh
			}
		case typeNewSessionTicket:
			t := NewSessionTicket{}
			if t.Unmarshal(msg) == nil {
				hr.ticket12 = &t
			}
		case typeCertificate:
			hr.certMsg = len(msg)
		case typeServerKeyExchange:
			hr.ske = msg
			if s, ok := SuiteByID(hr.suite); ok && s.KeyExchange == KexDHE {
				if ske, err := parseServerKeyExchange(msg, s, hr.version); err == nil {
					hr.group = fmt.Sprintf("DHE %d-bit", primeBits(ske.P))
				}
			}
		}
		if hr.version == TLS13 && hr.hello != nil {
			break // the rest is encrypted
		}
	}
	if hr.version == TLS13 {
		hr.server13, hr.decrypt = readServer13(down, hr.suite, kl)
	}
}

// checkResumedOnWire holds the client's word that it resumed to what the
// server sent: a TLS 1.3 ServerHello carrying pre_shared_key (RFC 8446
// §4.2.11), or a TLS ≤ 1.2 abbreviated handshake — a ServerHello followed
// by ChangeCipherSpec, no Certificate (RFC 5246 §7.3). A handshake the
// wire shows as full is counted as full, whatever the client reported.
func (hr *handshakeResult) checkResumedOnWire() {
	if !hr.resumed {
		return
	}
	var wire bool
	switch {
	case hr.hello == nil:
	case hr.version == TLS13:
		wire = slices.Contains(hr.hello.Extensions, extPreSharedKey)
	default:
		wire = hr.certMsg == 0
	}
	if !wire {
		hr.resumed = false
		hr.wireNote = "the client reported a resumption the ServerHello does not show (no pre_shared_key / a Certificate followed): counted as full"
	}
}

// labels names the records of a measured connection for its trace.
func (hr *handshakeResult) labels() recordLabels {
	return func(dir result.Direction, recs []record) []string {
		if dir == result.Down && hr.server13 != nil && len(hr.server13.recordLabels) == len(recs) {
			return hr.server13.recordLabels
		}
		return plainLabels(func(dir result.Direction, i int) string {
			switch {
			case hr.version == TLS13 && dir == result.Up && i == 0:
				return "Finished (encrypted)"
			case hr.version == TLS13:
				return "encrypted"
			case i == 0:
				return "Finished (encrypted)"
			}
			return "application data"
		})(dir, recs)
	}
}

func (hr *handshakeResult) summary() string {
	s := fmt.Sprintf("%s, %s", hr.version, SuiteName(hr.suite))
	if hr.group != "" {
		s += ", " + hr.group
	}
	if hr.resumed {
		s += ", resumed"
		if hr.version == TLS13 {
			s += " (ServerHello pre_shared_key)"
		} else {
			s += " (abbreviated: ServerHello, ChangeCipherSpec)"
		}
	} else {
		s += fmt.Sprintf(", full handshake, %d certificates", len(hr.certs))
	}
	if hr.hello != nil && hr.version < TLS13 {
		if len(hr.hello.SessionID) > 0 {
			s += fmt.Sprintf(", session ID %x…", hr.hello.SessionID[:min(4, len(hr.hello.SessionID))])
		} else {
			s += ", no session ID"
		}
		if hr.hello.SessionTicket {
			s += ", session_ticket extension"
		}
	}
	if hr.ticket12 != nil {
		s += fmt.Sprintf(", NewSessionTicket (lifetime hint %d s)", hr.ticket12.Lifetime)
	}
	if hr.server13 != nil {
		for _, t := range hr.server13.tickets {
			s += fmt.Sprintf(", NewSessionTicket (lifetime %d s)", t.Lifetime)
		}
	}
	if hr.wireNote != "" {
		s += " — " + hr.wireNote
	}
	s += fmt.Sprintf("; %d B up, %d B down, round trips: %d", hr.cost.bytesUp, hr.cost.bytesDown, hr.cost.roundTrips)
	return s
}

// goSuites are the TLS ≤ 1.2 suites crypto/tls implements, secure and
// insecure (crypto/tls allows RSA key transport and 3DES when they are
// configured explicitly).
func goSuites() []uint16 {
	var ids []uint16
	for _, s := range append(tls.CipherSuites(), tls.InsecureCipherSuites()...) {
		if !slices.Contains(s.SupportedVersions, tls.VersionTLS13) {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

var errNoClient = errors.New("no real client here can negotiate with this server")
