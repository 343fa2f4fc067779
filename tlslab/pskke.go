package tlslab

// The psk_ke client: a TLS 1.3 resumption with the PSK alone, no (EC)DHE
// (RFC 8446 §4.2.9, psk_key_exchange_modes = {psk_ke}). Neither side of
// crypto/tls does it (it offers and accepts psk_dhe_ke only), and OpenSSL
// before 3.3 chooses psk_dhe_ke whenever the client offers both modes, as
// s_client does. So the lab resumes with a client of its own: crypto/tls
// makes the full handshake and keeps the ticket and the PSK
// (ClientSessionState), and this file sends a ClientHello that offers the
// ticket with psk_ke only and no key_share, runs the PSK key schedule with
// a zero (EC)DHE input (keyschedule.go), checks the server's Finished, sends
// its own, and then carries application data over the TLS 1.3 record
// layer. It logs its secrets in the NSS key log format, so the tap decrypts
// and attributes every byte as it does for the other peers.
//
// What it is not: a general TLS client. It resumes one ticket and sends no
// early data; it refuses a HelloRetryRequest, a key share, a certificate
// or a CertificateRequest in the server's reply (none belongs in a psk_ke
// resumption); after the handshake it counts NewSessionTicket messages and
// refuses KeyUpdate (which a server sends only when asked).

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/internal/tlswire"
	"golang.org/x/crypto/cryptobyte"
)

// PSK key exchange modes (RFC 8446 §4.2.9).
const (
	pskModeKE    uint8 = 0 // psk_ke: PSK-only key establishment
	pskModeDHEKE uint8 = 1 // psk_dhe_ke: PSK with (EC)DHE
)

// More extension code points (IANA TLS ExtensionType registry).
const extSignatureAlgorithms uint16 = 13

// Record size caps (RFC 8446 §5.1, §5.2; internal/tlswire).
const (
	maxCiphertext13 = tlswire.MaxCiphertext13
	maxPlaintext    = tlswire.MaxPlaintext
)

// maxHandshakeMessage bounds a handshake message the psk_ke client buffers
// across records: a NewSessionTicket holds a ticket of at most 2^16−1 bytes
// and extensions of at most 2^16−1 (RFC 8446 §4.6.1); nothing it expects
// is bigger. A hostile server cannot make it buffer more.
const maxHandshakeMessage = 1<<17 + 16

// maxUselessRecords bounds the records that carry nothing (a
// ChangeCipherSpec, an empty record) the client accepts in a row, as
// crypto/tls does (conn.go, maxUselessRecords = 16).
const maxUselessRecords = 16

// pskSignatureSchemes are offered in signature_algorithms. A psk_ke
// resumption signs nothing (RFC 8446 §4.2.3 requires the extension only
// for certificate authentication), but a ClientHello carrying the
// extension is what servers expect; these are the TLS 1.3 schemes of the
// lab's certificate kinds (IANA TLS SignatureScheme registry).
var pskSignatureSchemes = []uint16{
	0x0403, // ecdsa_secp256r1_sha256
	0x0503, // ecdsa_secp384r1_sha384
	0x0807, // ed25519
	0x0804, // rsa_pss_rsae_sha256
	0x0805, // rsa_pss_rsae_sha384
	0x0806, // rsa_pss_rsae_sha512
}

// PSKSession is what a TLS 1.3 client keeps to resume a session: the
// ticket (the PSK's identity), the PSK itself (RFC 8446 §4.6.1:
// HKDF-Expand-Label(resumption_master_secret, "resumption", ticket_nonce,
// Hash.length)), the cipher suite whose hash it belongs to,
// ticket_age_add, and when the ticket arrived and expires.
type PSKSession struct {
	Ticket      []byte
	PSK         []byte
	CipherSuite uint16
	AgeAdd      uint32
	Received    time.Time
	UseBy       time.Time
}

// ObfuscatedAge is the ticket's obfuscated_ticket_age at now: the age in
// milliseconds plus ticket_age_add, modulo 2^32 (RFC 8446 §4.2.11.1).
func (s *PSKSession) ObfuscatedAge(now time.Time) uint32 {
	return uint32(now.Sub(s.Received)/time.Millisecond) + s.AgeAdd
}

// PSKSessionFromGo reads a TLS 1.3 session that crypto/tls's client kept
// (what its ClientSessionCache is given): the ticket, and from
// SessionState.Bytes the suite, the PSK (crypto/tls stores the PSK itself,
// already expanded with the ticket nonce: handshake_client_tls13.go,
// handleNewSessionTicket), use_by and age_add. received is when the ticket
// arrived (SessionState keeps whole seconds only).
//
// The encoding is crypto/tls's (ticket.go's SessionState comment), which
// it may change between Go versions: every field is read and the input
// must end exactly after them, so a change is an error, never a wrong PSK.
func PSKSessionFromGo(cs *tls.ClientSessionState, received time.Time) (*PSKSession, error) {
	ticket, state, err := cs.ResumptionState()
	if err != nil {
		return nil, err
	}
	if state == nil || len(ticket) == 0 {
		return nil, errors.New("no session ticket to resume")
	}
	enc, err := state.Bytes()
	if err != nil {
		return nil, err
	}
	bad := func(what string) error {
		return fmt.Errorf("crypto/tls session state (%d B): %s not as expected (ticket.go's encoding changed?)", len(enc), what)
	}
	s := cryptobyte.String(enc)
	var (
		version, suite           uint16
		kind, ems, early         uint8
		createdAt, useBy         uint64
		secret, extra, certs, vc cryptobyte.String
		ageAdd                   uint32
	)
	if !s.ReadUint16(&version) || !s.ReadUint8(&kind) || !s.ReadUint16(&suite) || !s.ReadUint64(&createdAt) ||
		!s.ReadUint8LengthPrefixed(&secret) || !s.ReadUint24LengthPrefixed(&extra) || !s.ReadUint8(&ems) ||
		!s.ReadUint8(&early) || !s.ReadUint24LengthPrefixed(&certs) || !s.ReadUint24LengthPrefixed(&vc) {
		return nil, bad("header")
	}
	if version != VersionTLS13 || kind != 2 {
		return nil, fmt.Errorf("not a TLS 1.3 client session (version %#04x, type %d)", version, kind)
	}
	if early == 1 {
		var alpn cryptobyte.String
		if !s.ReadUint8LengthPrefixed(&alpn) {
			return nil, bad("ALPN")
		}
	}
	if !s.ReadUint64(&useBy) || !s.ReadUint32(&ageAdd) || !s.Empty() {
		return nil, bad("use_by and age_add")
	}
	ks, err := tlswire.ScheduleFor(suite)
	if err != nil {
		return nil, err
	}
	if len(secret) != ks.Size() {
		return nil, bad(fmt.Sprintf("a PSK of %d B for %s", len(secret), SuiteName(suite)))
	}
	return &PSKSession{Ticket: bytes.Clone(ticket), PSK: bytes.Clone(secret), CipherSuite: suite, AgeAdd: ageAdd,
		Received: received, UseBy: time.Unix(int64(useBy), 0)}, nil
}

// ticketCache is the crypto/tls ClientSessionCache of a psk-ke cell's Go
// client: it keeps the newest session and the time it arrived (for the
// ticket age in milliseconds), and never offers one back, so every priming
// connection is a full handshake.
type ticketCache struct {
	mu       sync.Mutex
	session  *tls.ClientSessionState
	received time.Time
}

func (c *ticketCache) Get(string) (*tls.ClientSessionState, bool) { return nil, false }

func (c *ticketCache) Put(_ string, cs *tls.ClientSessionState) {
	if cs == nil {
		return // crypto/tls forgetting a session: the newest one stays
	}
	c.mu.Lock()
	c.session, c.received = cs, time.Now()
	c.mu.Unlock()
}

// Session returns the newest session as a PSKSession.
func (c *ticketCache) Session() (*PSKSession, error) {
	c.mu.Lock()
	cs, at := c.session, c.received
	c.mu.Unlock()
	if cs == nil {
		return nil, errors.New("the priming connection left no TLS 1.3 ticket")
	}
	return PSKSessionFromGo(cs, at)
}

// PSKConfig configures a psk_ke resumption.
type PSKConfig struct {
	// ServerName is sent in server_name (RFC 6066 §3), "" for none.
	ServerName string
	// KeyLog receives the connection's secrets in the NSS key log format;
	// nil for none.
	KeyLog io.Writer
	// Rand is the source of the client random and session ID (nil:
	// crypto/rand).
	Rand io.Reader
	// Time is the clock for the ticket's age (nil: time.Now).
	Time func() time.Time
}

// pskClientHello is the ClientHello of a psk_ke resumption (RFC 8446
// §4.1.2): one cipher suite (the ticket's), and the extensions server_name,
// supported_versions {TLS 1.3}, signature_algorithms,
// psk_key_exchange_modes {psk_ke} and, last as §4.2.11 requires,
// pre_shared_key — with no key_share and no supported_groups (§9.2 asks
// for both only when there is no pre_shared_key).
type pskClientHello struct {
	Random      [32]byte
	SessionID   []byte
	CipherSuite uint16
	ServerName  string
	Identity    PSKIdentity
	Binder      []byte
}

// marshal returns the whole handshake message (header included) and the
// length of its binders list (uint16 length and entries), which the binder
// leaves out of its transcript (RFC 8446 §4.2.11.2).
func (m *pskClientHello) marshal() (msg []byte, bindersLen int, err error) {
	ch := &tlswire.ClientHello{Version: tlswire.TLS12, Random: m.Random, SessionID: m.SessionID, // legacy_version (§4.1.2)
		CipherSuites: []uint16{m.CipherSuite}, Compression: []uint8{0}, ServerName: m.ServerName,
		SupportedVersions: []tlswire.Version{tlswire.TLS13}, SignatureSchemes: pskSignatureSchemes,
		PSKModes: []uint8{pskModeKE}, PSKIdentities: []PSKIdentity{m.Identity}, PSKBinders: [][]byte{m.Binder}}
	for _, t := range []uint16{extServerName, extSupportedVersions, extSignatureAlgorithms, extPSKKeyExchangeModes, extPreSharedKey} {
		if t != extServerName || m.ServerName != "" {
			ch.Extensions = append(ch.Extensions, t)
		}
	}
	msg, err = ch.Marshal()
	return msg, ch.BindersLen(), err
}

// PSKConn is a TLS 1.3 connection resumed with psk_ke, after its
// handshake: application data over the record layer (RFC 8446 §5).
type PSKConn struct {
	raw         net.Conn
	r           *bufio.Reader
	rr          *tlswire.RecordReader // records from r, handshake messages
	read, write *tlswire.RecordProtection
	in          []byte // decrypted application data not yet returned
	eof         bool   // the server's close_notify arrived
	closeSent   bool
	// bytesSent and recordsSent drive the record sizing (maxPayload).
	bytesSent    int
	recordsSent  int
	ClientRandom []byte
	// Tickets counts the NewSessionTicket messages the server sent after
	// the handshake (not used: the lab resumes each ticket once).
	Tickets int
}

// ResumePSKKE resumes sess over raw with psk_ke: it sends the
// ClientHello, reads the server's flight, verifies its Finished and sends
// the client's. The connection's deadline and ctx bound it; records over
// TLS 1.3's size limit and handshake messages over maxHandshakeMessage are
// refused, so a hostile server can neither hang nor exhaust it.
func ResumePSKKE(ctx context.Context, raw net.Conn, sess *PSKSession, cfg PSKConfig) (*PSKConn, error) {
	stop := context.AfterFunc(ctx, func() { raw.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c, err := resumePSKKE(raw, sess, cfg)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	return c, err
}

func resumePSKKE(raw net.Conn, sess *PSKSession, cfg PSKConfig) (*PSKConn, error) {
	rnd, now := cfg.Rand, cfg.Time
	if rnd == nil {
		rnd = rand.Reader
	}
	if now == nil {
		now = time.Now
	}
	ks, err := tlswire.ScheduleFor(sess.CipherSuite)
	if err != nil {
		return nil, err
	}
	switch {
	case len(sess.PSK) != ks.Size():
		return nil, fmt.Errorf("a PSK of %d B for %s, whose hash makes %d", len(sess.PSK), SuiteName(sess.CipherSuite), ks.Size())
	case len(sess.Ticket) == 0 || len(sess.Ticket) > 0xffff:
		return nil, fmt.Errorf("a ticket of %d B (want 1 to 65535)", len(sess.Ticket))
	case !sess.UseBy.IsZero() && now().After(sess.UseBy):
		return nil, fmt.Errorf("the ticket expired at %s", sess.UseBy.Format(time.RFC3339))
	}
	secrets := ks.EarlySecrets(sess.PSK)

	// The ClientHello, its binder over the message up to the binders
	// (RFC 8446 §4.2.11.2). A 32-byte legacy_session_id asks for the
	// middlebox compatibility mode (§D.4), as crypto/tls and OpenSSL do.
	ch := &pskClientHello{SessionID: make([]byte, 32), CipherSuite: sess.CipherSuite, ServerName: cfg.ServerName,
		Identity: PSKIdentity{Identity: sess.Ticket, Age: sess.ObfuscatedAge(now())}, Binder: make([]byte, ks.Size())}
	if _, err := io.ReadFull(rnd, ch.Random[:]); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(rnd, ch.SessionID); err != nil {
		return nil, err
	}
	chMsg, bindersLen, err := ch.marshal()
	if err != nil {
		return nil, fmt.Errorf("ClientHello: %w", err)
	}
	if len(chMsg) > maxPlaintext {
		return nil, fmt.Errorf("a ClientHello of %d B does not fit one record", len(chMsg))
	}
	copy(chMsg[len(chMsg)-ks.Size():], pskBinder(ks, secrets.BinderKey, chMsg, bindersLen))
	// The first ClientHello's record may say TLS 1.0 (RFC 8446 §5.1), as
	// crypto/tls and OpenSSL write it.
	chRec := plainRecord(ContentHandshake, VersionTLS10, chMsg)
	if _, err := raw.Write(chRec); err != nil {
		return nil, fmt.Errorf("sending the ClientHello: %w", err)
	}

	c := &PSKConn{raw: raw, r: bufio.NewReaderSize(raw, RecordHeaderLen+maxCiphertext13), ClientRandom: ch.Random[:],
		bytesSent: len(chRec)}
	c.rr = tlswire.NewRecordReader(c.r, maxCiphertext13, maxHandshakeMessage, maxUselessRecords)
	fl := &serverFlight{c: c}
	shMsg, err := fl.serverHello()
	if err != nil {
		return nil, err
	}
	sh, err := ParseServerHello(handshakeBody(shMsg))
	if err != nil {
		return nil, err
	}
	if err := checkPSKServerHello(sh, ch); err != nil {
		return nil, err
	}
	ks.HandshakeSecrets(secrets, nil, ks.TranscriptHash(chMsg, shMsg))
	if fl.read, err = tlswire.NewRecordProtection(sess.CipherSuite, secrets.ServerHS); err != nil {
		return nil, err
	}
	if err := logSecrets(cfg.KeyLog, ch.Random[:], LabelClientHandshake, secrets.ClientHS, LabelServerHandshake, secrets.ServerHS); err != nil {
		return nil, err
	}

	// {EncryptedExtensions} {Finished}: nothing else belongs in the reply
	// to a PSK resumption (no Certificate, CertificateVerify or
	// CertificateRequest: RFC 8446 §2.2, §4.3.2).
	ee, err := fl.encrypted(TypeEncryptedExtensions)
	if err != nil {
		return nil, err
	}
	if err := checkEncryptedExtensions(handshakeBody(ee)); err != nil {
		return nil, err
	}
	fin, err := fl.encrypted(TypeFinished)
	if err != nil {
		return nil, err
	}
	want := ks.VerifyData(secrets.ServerHS, ks.TranscriptHash(chMsg, shMsg, ee))
	if !hmac.Equal(handshakeBody(fin), want) {
		return nil, errors.New("the server's Finished does not verify: it did not derive the same keys from the PSK")
	}
	if c.rr.Pending() != 0 {
		// Handshake messages must not span a key change (RFC 8446 §5.1).
		return nil, errors.New("handshake data after the server's Finished in the same record")
	}
	serverFinishedHash := ks.TranscriptHash(chMsg, shMsg, ee, fin)
	ks.ApplicationSecrets(secrets, serverFinishedHash)
	if err := logSecrets(cfg.KeyLog, ch.Random[:], LabelClientTraffic0, secrets.ClientTraffic, LabelServerTraffic0, secrets.ServerTraffic); err != nil {
		return nil, err
	}

	// ChangeCipherSpec (middlebox compatibility, §D.4) and the client's
	// Finished under its handshake key, in one write as crypto/tls does.
	clientHS, err := tlswire.NewRecordProtection(sess.CipherSuite, secrets.ClientHS)
	if err != nil {
		return nil, err
	}
	cfin := append([]byte{TypeFinished, 0, 0, byte(ks.Size())}, ks.VerifyData(secrets.ClientHS, serverFinishedHash)...)
	flight := append(plainRecord(ContentChangeCipherSpec, VersionTLS12, []byte{1}), clientHS.Seal(cfin, ContentHandshake)...)
	if _, err := raw.Write(flight); err != nil {
		return nil, fmt.Errorf("sending the client's Finished: %w", err)
	}
	c.bytesSent += len(flight)
	if c.read, err = tlswire.NewRecordProtection(sess.CipherSuite, secrets.ServerTraffic); err != nil {
		return nil, err
	}
	if c.write, err = tlswire.NewRecordProtection(sess.CipherSuite, secrets.ClientTraffic); err != nil {
		return nil, err
	}
	return c, nil
}

// pskBinder is the binder of a ClientHello message whose binders list
// (bindersLen bytes) ends it: the Finished-style MAC under the binder key
// over the transcript of the message truncated before the list
// (RFC 8446 §4.2.11.2).
func pskBinder(ks tlswire.KeySchedule, binderKey, chMsg []byte, bindersLen int) []byte {
	return ks.VerifyData(binderKey, ks.TranscriptHash(chMsg[:len(chMsg)-bindersLen]))
}

// checkPSKServerHello checks that the server resumed with psk_ke what the
// ClientHello offered (RFC 8446 §4.1.3, §4.1.4, §4.2.11).
func checkPSKServerHello(sh *ServerHello, ch *pskClientHello) error {
	switch {
	case sh.HelloRetryRequest:
		return fmt.Errorf("the server sent a HelloRetryRequest (group %s): it wants a key share, so it did not accept psk_ke", GroupName(sh.KeyShare))
	case sh.SelectedVersion != VersionTLS13:
		return fmt.Errorf("the server chose version %#04x, not TLS 1.3", sh.SelectedVersion)
	case sh.Version != VersionTLS12:
		return fmt.Errorf("ServerHello legacy_version %#04x, want 0x0303 (RFC 8446 §4.1.3)", sh.Version)
	case !bytes.Equal(sh.SessionID, ch.SessionID):
		return errors.New("the ServerHello does not echo the session ID (RFC 8446 §4.1.3)")
	case sh.CipherSuite != ch.CipherSuite:
		return fmt.Errorf("the server chose %s, the ticket's suite is %s", SuiteName(sh.CipherSuite), SuiteName(ch.CipherSuite))
	case sh.Compression != 0:
		return fmt.Errorf("ServerHello compression method %d", sh.Compression)
	case !sh.PSK:
		return errors.New("the server did not accept the PSK (no pre_shared_key in its ServerHello): a full handshake, which psk_ke cannot make")
	case sh.SelectedIdentity != 0:
		return fmt.Errorf("the server selected PSK identity %d; the client offered only identity 0", sh.SelectedIdentity)
	case sh.KeyShare != 0:
		return fmt.Errorf("the server answered with a key share (%s): that is psk_dhe_ke, and the client offered none", GroupName(sh.KeyShare))
	}
	for _, e := range sh.Extensions {
		if e != extSupportedVersions && e != extPreSharedKey {
			return fmt.Errorf("ServerHello extension %d: a psk_ke ServerHello holds only supported_versions and pre_shared_key", e)
		}
	}
	return nil
}

// checkEncryptedExtensions checks an EncryptedExtensions body: a
// well-formed extension list without the extensions that never belong
// there (RFC 8446 §4.2's table: key_share, pre_shared_key,
// supported_versions are ServerHello's).
func checkEncryptedExtensions(body []byte) error {
	var ee tlswire.EncryptedExtensions
	return ee.Unmarshal(HandshakeMessage{Type: TypeEncryptedExtensions, Body: body}.Marshal())
}

// serverFlight reads the server's handshake messages up to its Finished.
type serverFlight struct {
	c    *PSKConn
	read *tlswire.RecordProtection // nil until the ServerHello
}

// serverHello reads records until the ServerHello is complete; a
// ChangeCipherSpec cannot come before it, an alert is the server's answer.
func (f *serverFlight) serverHello() ([]byte, error) {
	for {
		if typ, msg, ok := f.next(); ok {
			switch {
			case typ != TypeServerHello:
				return nil, fmt.Errorf("the server sent %s, not a ServerHello", HandshakeName(typ))
			case f.c.rr.Pending() != 0:
				return nil, errors.New("handshake data after the ServerHello in its record (it must end at the key change, RFC 8446 §5.1)")
			}
			return msg, nil
		}
		rec, err := f.c.readRecord()
		if err != nil {
			return nil, fmt.Errorf("reading the ServerHello: %w", err)
		}
		switch rec.Type {
		case ContentHandshake:
			if err := f.add(rec.Fragment); err != nil {
				return nil, err
			}
		case ContentAlert:
			return nil, alertError(rec.Fragment)
		default:
			return nil, fmt.Errorf("a %s record before the ServerHello", ContentName(rec.Type))
		}
	}
}

// encrypted reads the next encrypted handshake message, which must be of
// type want.
func (f *serverFlight) encrypted(want uint8) ([]byte, error) {
	for {
		if typ, msg, ok := f.next(); ok {
			if typ != want {
				return nil, fmt.Errorf("the server sent %s where %s belongs in a PSK resumption", HandshakeName(typ), HandshakeName(want))
			}
			return msg, nil
		}
		rec, err := f.c.readRecord()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", HandshakeName(want), err)
		}
		switch rec.Type {
		case ContentChangeCipherSpec:
			// Middlebox compatibility: drop it (RFC 8446 §5).
			if !bytes.Equal(rec.Fragment, []byte{1}) {
				return nil, errors.New("a malformed ChangeCipherSpec")
			}
			if err := f.c.rr.Skip("ChangeCipherSpec"); err != nil {
				return nil, err
			}
			continue
		case ContentAlert:
			return nil, alertError(rec.Fragment)
		case ContentApplicationData:
		default:
			return nil, fmt.Errorf("an unprotected %s record after the ServerHello", ContentName(rec.Type))
		}
		content, inner, err := f.read.Open(rec)
		if err != nil {
			return nil, fmt.Errorf("a record of the server's handshake flight: %w", err)
		}
		switch inner {
		case ContentHandshake:
			if len(content) == 0 {
				return nil, errors.New("an empty handshake record")
			}
			if err := f.add(content); err != nil {
				return nil, err
			}
		case ContentAlert:
			return nil, alertError(content)
		default:
			return nil, fmt.Errorf("a %s record in the server's handshake flight", ContentName(inner))
		}
	}
}

// add appends handshake bytes, refusing a message over the bound.
func (f *serverFlight) add(b []byte) error { return f.c.addHandshake(b) }

// next pops a complete handshake message (header included), if there is
// one, with its type.
func (f *serverFlight) next() (typ uint8, msg []byte, ok bool) { return f.c.rr.NextMessage() }

// addHandshake buffers handshake bytes, refusing a message whose header
// announces more than maxHandshakeMessage.
func (c *PSKConn) addHandshake(b []byte) error {
	var tooLarge *tlswire.MessageTooLarge
	if err := c.rr.AddHandshake(b); errors.As(err, &tooLarge) {
		return fmt.Errorf("a %s of %d B (at most %d)", HandshakeName(tooLarge.Type), tooLarge.Size, tooLarge.Limit)
	}
	return nil
}

// readRecord reads one record: a header that cannot be TLS (a heartbeat
// included: TLS 1.3 has none), or a body over TLS 1.3's limit, is an error
// before the body is read.
func (c *PSKConn) readRecord() (Record, error) {
	rec, err := c.rr.ReadRecord()
	if err == nil && rec.Type == ContentHeartbeat {
		return Record{}, fmt.Errorf("%w: content type %d", ErrNotTLS, rec.Type)
	}
	return rec, err
}

// Read returns application data. It handles what the server sends after
// the handshake: NewSessionTicket (counted, not kept), close_notify
// (io.EOF); a KeyUpdate or another alert is an error.
func (c *PSKConn) Read(b []byte) (int, error) {
	useless := 0
	for len(c.in) == 0 {
		if c.eof {
			return 0, io.EOF
		}
		rec, err := c.readRecord()
		if err != nil {
			return 0, err
		}
		switch rec.Type {
		case ContentApplicationData:
		case ContentAlert:
			return 0, alertError(rec.Fragment)
		default:
			return 0, fmt.Errorf("an unprotected %s record after the handshake", ContentName(rec.Type))
		}
		content, inner, err := c.read.Open(rec)
		if err != nil {
			return 0, fmt.Errorf("an application record: %w", err)
		}
		switch inner {
		case ContentApplicationData:
			c.in = content
		case ContentAlert:
			if a := (tlswire.Alert{}); a.Unmarshal(content) == nil && a.Description == 0 { // close_notify
				c.eof = true
				continue
			}
			return 0, alertError(content)
		case ContentHandshake:
			if err := c.postHandshake(content); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("a %s record after the handshake", ContentName(inner))
		}
		if len(c.in) == 0 {
			if useless++; useless > maxUselessRecords {
				return 0, errors.New("too many records without application data")
			}
		}
	}
	n := copy(b, c.in)
	c.in = c.in[n:]
	return n, nil
}

// postHandshake handles post-handshake messages (RFC 8446 §4.6).
func (c *PSKConn) postHandshake(b []byte) error {
	if err := c.addHandshake(b); err != nil {
		return err
	}
	for {
		typ, _, ok := c.rr.NextMessage()
		if !ok {
			return nil
		}
		switch typ {
		case TypeNewSessionTicket:
			c.Tickets++
		default:
			return fmt.Errorf("the server sent %s after the handshake, which the psk_ke client does not handle", HandshakeName(typ))
		}
	}
}

// Write sends application data, one record per write to the socket, sized
// as crypto/tls sizes them (maxPayload).
func (c *PSKConn) Write(b []byte) (int, error) {
	if c.closeSent {
		return 0, errors.New("write after close_notify")
	}
	n := 0
	for n < len(b) {
		m := min(len(b)-n, c.maxPayload())
		rec := c.write.Seal(b[n:n+m], ContentApplicationData)
		if _, err := c.raw.Write(rec); err != nil {
			return n, err
		}
		c.bytesSent += len(rec)
		n += m
	}
	return n, nil
}

// Record sizing as crypto/tls does it by default (conn.go,
// maxPayloadSizeForWrite; Config.DynamicRecordSizingDisabled false), so
// the lab's Go client writes the same records whichever way it resumed:
// until 128 KiB have been sent on the connection, the n-th application
// record carries at most n × (1208 − 5 − 16 − 1) bytes — an estimated TCP
// MSS less a TLS 1.3 AEAD record's overhead — so the first records fit
// one segment each; then 2^14.
const (
	goTCPMSSEstimate           = 1208      // crypto/tls conn.go tcpMSSEstimate
	goRecordSizeBoostThreshold = 128 << 10 // crypto/tls conn.go recordSizeBoostThreshold
)

func (c *PSKConn) maxPayload() int {
	if c.bytesSent >= goRecordSizeBoostThreshold {
		return maxPlaintext
	}
	payload := goTCPMSSEstimate - RecordHeaderLen - c.write.Overhead() - 1 // 1: the inner content type
	pkt := c.recordsSent
	c.recordsSent++
	if pkt > 1000 {
		return maxPlaintext
	}
	return min(payload*(pkt+1), maxPlaintext)
}

// CloseWrite sends close_notify (RFC 8446 §6.1), once.
func (c *PSKConn) CloseWrite() error {
	if c.closeSent {
		return nil
	}
	c.closeSent = true
	_, err := c.raw.Write(c.write.Seal([]byte{1, 0}, ContentAlert)) // warning, close_notify
	return err
}

// Close sends close_notify if it was not sent and closes the connection.
func (c *PSKConn) Close() error {
	err := c.CloseWrite()
	return errors.Join(err, c.raw.Close())
}

// plainRecord frames an unprotected record.
func plainRecord(typ uint8, vers uint16, body []byte) []byte {
	return Record{Type: typ, Version: vers, Fragment: body}.Marshal()
}

// handshakeBody is a whole handshake message's body (tlswire's framing).
func handshakeBody(msg []byte) []byte {
	var m tlswire.HandshakeMessage
	if m.Unmarshal(msg) != nil {
		return nil
	}
	return m.Body
}

// alertError is the error of an alert the server sent.
func alertError(b []byte) error {
	return fmt.Errorf("the server sent %s", AlertName(b))
}

// logSecrets writes the client's and the server's secret of one stage in
// the NSS key log format ("LABEL <client random> <secret>", hex), one
// write for both lines.
func logSecrets(w io.Writer, clientRandom []byte, clientLabel string, client []byte, serverLabel string, server []byte) error {
	if w == nil {
		return nil
	}
	cr := hex.EncodeToString(clientRandom)
	_, err := fmt.Fprintf(w, "%s %s %x\n%s %s %x\n", clientLabel, cr, client, serverLabel, cr, server)
	return err
}
