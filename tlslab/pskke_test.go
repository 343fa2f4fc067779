package tlslab

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/tlswire"
	"golang.org/x/crypto/cryptobyte"
)

// RFC 8448 §4, "Resumed 0-RTT Handshake" (TLS_AES_128_GCM_SHA256), which
// resumes the ticket of §3's handshake with psk_dhe_ke: its messages and
// the secrets the trace prints.
const (
	rfc8448ResMaster = "7df235f2031d2a051287d02b0241b0bfdaf86cc856231f2d5aba46c434ec196c" // §3 "res master"
	rfc8448PSK       = "4ecd0eb6ec3b4d87f5d6028f922ca4c5851a277fd41311c9e62d2c9492e1c4f3"
	rfc8448Early     = "9b2188e9b2fc6d64d71dc329900e20bb41915000f678aa839cbb797cb7d8332c"
	rfc8448BinderKey = "69fe131a3bbad5d63c64eebcc30e395b9d8107726a13d074e389dbc8a4e47256"
	rfc8448FinKey    = "5588673e72cb59c87d220caffe94f2dea9a3b1609f7d50e90a48227db9ed7eaa" // binder's finished_key
	rfc8448Binder    = "3add4fb2d8fdf822a0ca3cf7678ef5e88dae990141c5924d57bb6fa31b9e5f9d"
	// The ClientHello, binders included (512 octets).
	rfc8448ClientHello = `010001fc03031bc3ceb6bbe39cff938355b5a50adb6db21b7a6af649d7b4bc419d
		7876487d95000006130113031302010001cd0000000b0009000006736572766572
		ff01000100000a00140012001d0017001800190100010101020103010400330026
		0024001d0020e4ffb68ac05f8d96c99da26698346c6be16482badddafe051a66b4
		f18d668f0b002a0000002b0003020304000d0020001e0403050306030203080408
		05080604010501060102010402050206020202002d00020101001c000240010015
		005700000000000000000000000000000000000000000000000000000000000000
		000000000000000000000000000000000000000000000000000000000000000000
		0000000000000000000000000000000000000000000000002900dd00b800b22c03
		5d829359ee5ff7af4ec900000000262a6494dc486d2c8a34cb33fa90bf1b0070ad
		3c498883c9367c09a2be785abc55cd226097a3a982117283f82a03a143efd3ff5d
		d36d64e861be7fd61d2827db279cce145077d454a3664d4e6da4d29ee03725a6a4
		dafcd0fc67d2aea70529513e3da2677fa5906c5b3f7d8f92f228bda40dda721470
		f9fbf297b5aea617646fac5c03272e970727c621a79141ef5f7de6505e5bfbc388
		e93343694093934ae4d357fad6aacb0021203add4fb2d8fdf822a0ca3cf7678ef5
		e88dae990141c5924d57bb6fa31b9e5f9d`
	rfc8448ServerHello = `0200005c03033ccfd2dec890222763472ae8136777c9d7358777bb66e91ea5122495f559ea2d
		00130100003400290002000000330024001d0020121761ee42c333e1b9e77b60dd57c2053cd94512ab47f115e86eff
		50942cea31002b00020304`
	rfc8448EE          = "080000280026000a00140012001d00170018001901000101010201030104001c0002400100000000002a0000"
	rfc8448ServerFin   = "1400002048d3e0e1b3d907c6acff145e16090388c77b05c050b634ab1a88bbd0dd1a34b2"
	rfc8448EndOfEarly  = "05000000"
	rfc8448ClientFin   = "7230a9c952c25cd6138fc5e6628308c41c5335dd81b9f96bcea50fd32bda416d"
	rfc8448ECDHE       = "f44194756ff9ec9d25180635d66ea6824c6ab3bf179977be37f723570e7ccb2e"
	rfc8448Handshake   = "005cb112fd8eb4ccc623bb88a07c64b3ede1605363fc7d0df8c7ce4ff0fb4ae6"
	rfc8448ClientHS    = "2faac08f851d35fea3604fcb4de82dc62c9b164a70974d0462e27f1ab278700f"
	rfc8448ServerHS    = "fe927ae271312e8bf0275b581c54eef020450dc4ecffaa05a1a35d27518e7803"
	rfc8448Master      = "e2d32d4ed66dd37897a0e80c84107503ce58bf8aad4cb55a5002d77ecb890ece"
	rfc8448ClientAP    = "2abbf2b8e381d23dbebe1dd2a7d16a8bf484cb4950d23fb7fb7fa8547062d9a1"
	rfc8448ServerAP    = "cc21f1bf8feb7dd5fa505bd9c4b468a9984d554a993dc49e6d285598fb672691"
	rfc8448ServerHSKey = "27c6bdc0a3dcea39a47326d79bc9e4ee"
	rfc8448ServerHSIV  = "9569ecdd4d0536705e9ef725"
)

// TestKeyScheduleRFC8448 runs the PSK key schedule on RFC 8448 §4's
// handshake and compares every secret the trace prints: the PSK from §3's
// resumption master secret and ticket nonce (RFC 8446 §4.6.1), the early
// secret, the binder key and binder, the handshake and master secrets, the
// traffic secrets and both Finished MACs. (The trace is psk_dhe_ke, so its
// handshake secret takes its X25519 shared secret; psk_ke's zero input has
// no published trace: OpenSSL verifying the lab's Finished, and the lab
// verifying OpenSSL's, in TestPSKKEAgainstOpenSSL, is its check.)
func TestKeyScheduleRFC8448(t *testing.T) {
	ks, err := tlswire.ScheduleFor(TLS_AES_128_GCM_SHA256)
	if err != nil {
		t.Fatal(err)
	}
	eq := func(name string, got []byte, want string) {
		t.Helper()
		if !bytes.Equal(got, unhex(t, want)) {
			t.Errorf("%s = %x, want %s", name, got, strings.Join(strings.Fields(want), ""))
		}
	}
	eq("PSK", ks.Expand(unhex(t, rfc8448ResMaster), "resumption", []byte{0, 0}), rfc8448PSK)

	s := ks.EarlySecrets(unhex(t, rfc8448PSK))
	eq("early secret", s.Early, rfc8448Early)
	eq("binder key", s.BinderKey, rfc8448BinderKey)
	eq("binder finished_key", ks.Expand(s.BinderKey, "finished", nil), rfc8448FinKey)

	ch, sh, ee, sfin := unhex(t, rfc8448ClientHello), unhex(t, rfc8448ServerHello), unhex(t, rfc8448EE), unhex(t, rfc8448ServerFin)
	const bindersLen = 2 + 1 + 32
	eq("binder", pskBinder(ks, s.BinderKey, ch, bindersLen), rfc8448Binder)
	if !bytes.Equal(ch[len(ch)-32:], unhex(t, rfc8448Binder)) {
		t.Error("the trace's ClientHello does not end with its binder: the truncation point is wrong")
	}

	ks.HandshakeSecrets(s, unhex(t, rfc8448ECDHE), ks.TranscriptHash(ch, sh))
	eq("handshake secret", s.Handshake, rfc8448Handshake)
	eq("client handshake traffic secret", s.ClientHS, rfc8448ClientHS)
	eq("server handshake traffic secret", s.ServerHS, rfc8448ServerHS)
	key, iv, err := tlswire.TrafficKeys(TLS_AES_128_GCM_SHA256, s.ServerHS)
	if err != nil {
		t.Fatal(err)
	}
	eq("server handshake key", key, rfc8448ServerHSKey)
	eq("server handshake iv", iv, rfc8448ServerHSIV)
	eq("server Finished", ks.VerifyData(s.ServerHS, ks.TranscriptHash(ch, sh, ee)), hex32(sfin[4:]))

	ks.ApplicationSecrets(s, ks.TranscriptHash(ch, sh, ee, sfin))
	eq("master secret", s.Master, rfc8448Master)
	eq("client application traffic secret 0", s.ClientTraffic, rfc8448ClientAP)
	eq("server application traffic secret 0", s.ServerTraffic, rfc8448ServerAP)
	// The trace's client sent 0-RTT data, so its EndOfEarlyData is in the
	// transcript of the client's Finished.
	eq("client Finished", ks.VerifyData(s.ClientHS, ks.TranscriptHash(ch, sh, ee, sfin, unhex(t, rfc8448EndOfEarly))), rfc8448ClientFin)

	// A wrong (EC)DHE input changes everything after the early secret.
	bad := ks.EarlySecrets(unhex(t, rfc8448PSK))
	ks.HandshakeSecrets(bad, nil, ks.TranscriptHash(ch, sh))
	if bytes.Equal(bad.Handshake, s.Handshake) {
		t.Error("the handshake secret does not depend on the (EC)DHE input")
	}
}

func hex32(b []byte) string { return fmt.Sprintf("%x", b) }

// TestParseRFC8448Hellos: the tap's parsers read the trace's resumption
// hellos: the offer (one identity, its obfuscated age, one binder), the
// modes, the key shares and their size, the selected identity.
func TestParseRFC8448Hellos(t *testing.T) {
	ch, err := ParseClientHello(unhex(t, rfc8448ClientHello)[4:])
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.PSKIdentities) != 1 || len(ch.PSKIdentities[0].Identity) != 0xb2 || ch.PSKIdentities[0].Age != 0xfad6aacb ||
		len(ch.PSKBinders) != 1 || !bytes.Equal(ch.PSKBinders[0], unhex(t, rfc8448Binder)) {
		t.Errorf("pre_shared_key: %d identities, binders %x", len(ch.PSKIdentities), ch.PSKBinders)
	}
	if !bytes.Equal(ch.PSKModes, []byte{pskModeDHEKE}) || ch.KeyShareBytes != 4+38 || ch.Extensions[len(ch.Extensions)-1] != extPreSharedKey {
		t.Errorf("modes %v, key share %d B, extensions %v", ch.PSKModes, ch.KeyShareBytes, ch.Extensions)
	}
	sh, err := ParseServerHello(unhex(t, rfc8448ServerHello)[4:])
	if err != nil {
		t.Fatal(err)
	}
	if !sh.PSK || sh.SelectedIdentity != 0 || sh.KeyShare != 0x001d || sh.KeyShareBytes != 4+36 {
		t.Errorf("ServerHello: psk %v identity %d key share %#x (%d B)", sh.PSK, sh.SelectedIdentity, sh.KeyShare, sh.KeyShareBytes)
	}
}

// TestPSKClientHello: the psk_ke ClientHello reads back as what it
// offers: the ticket's suite only, psk_ke only, no key_share or
// supported_groups, pre_shared_key last with the identity and binder, and
// the binders list exactly where marshal says (the binder's truncation).
func TestPSKClientHello(t *testing.T) {
	m := &pskClientHello{SessionID: bytes.Repeat([]byte{5}, 32), CipherSuite: TLS_AES_256_GCM_SHA384, ServerName: "localhost",
		Identity: PSKIdentity{Identity: []byte("a ticket"), Age: 0x01020304}, Binder: bytes.Repeat([]byte{9}, 48)}
	m.Random[0] = 0xaa
	msg, bindersLen, err := m.marshal()
	if err != nil {
		t.Fatal(err)
	}
	if msg[0] != TypeClientHello || int(msg[1])<<16|int(msg[2])<<8|int(msg[3]) != len(msg)-4 {
		t.Fatalf("header %x for %d B", msg[:4], len(msg))
	}
	if !bytes.Equal(msg[len(msg)-bindersLen:], append([]byte{0, 49, 48}, m.Binder...)) {
		t.Errorf("the last %d B are %x, want the binders list", bindersLen, msg[len(msg)-bindersLen:])
	}
	ch, err := ParseClientHello(msg[4:])
	if err != nil {
		t.Fatal(err)
	}
	want := []uint16{extServerName, extSupportedVersions, extSignatureAlgorithms, extPSKKeyExchangeModes, extPreSharedKey}
	switch {
	case ch.Version != VersionTLS12 || ch.Random[0] != 0xaa || !bytes.Equal(ch.SessionID, m.SessionID):
		t.Errorf("version %#x random %x session %x", ch.Version, ch.Random, ch.SessionID)
	case len(ch.CipherSuites) != 1 || ch.CipherSuites[0] != TLS_AES_256_GCM_SHA384:
		t.Errorf("suites %v", ch.CipherSuites)
	case fmt.Sprint(ch.Extensions) != fmt.Sprint(want):
		t.Errorf("extensions %v, want %v", ch.Extensions, want)
	case fmt.Sprint(ch.SupportedVersions) != fmt.Sprint([]uint16{VersionTLS13}):
		t.Errorf("versions %v", ch.SupportedVersions)
	case !bytes.Equal(ch.PSKModes, []byte{pskModeKE}) || len(ch.KeyShares) != 0 || ch.KeyShareBytes != 0:
		t.Errorf("modes %v, key shares %v", ch.PSKModes, ch.KeyShares)
	case len(ch.PSKIdentities) != 1 || string(ch.PSKIdentities[0].Identity) != "a ticket" || ch.PSKIdentities[0].Age != 0x01020304:
		t.Errorf("identities %+v", ch.PSKIdentities)
	case len(ch.PSKBinders) != 1 || !bytes.Equal(ch.PSKBinders[0], m.Binder):
		t.Errorf("binders %x", ch.PSKBinders)
	}
}

// TestPSKSessionFromGo reads the session of a real crypto/tls TLS 1.3
// handshake: the ticket is the one the server issued, and the PSK the
// client keeps equals the server's (read from the server's own session
// state) — so the psk_ke client starts from the right secret.
func TestPSKSessionFromGo(t *testing.T) {
	chain, err := lab.PKI().Server(CertECDSAP256, 1)
	if err != nil {
		t.Fatal(err)
	}
	var serverPSK, ticket []byte
	srv := &tls.Config{Certificates: []tls.Certificate{chain.Certificate}, MinVersion: tls.VersionTLS13}
	srv.WrapSession = func(cs tls.ConnectionState, ss *tls.SessionState) ([]byte, error) {
		b, err := ss.Bytes()
		if err != nil {
			return nil, err
		}
		// The server's encoding starts like the client's (ticket.go):
		// version, type, suite, created_at, secret.
		s := cryptobyte.String(b)
		var secret cryptobyte.String
		if !s.Skip(2+1+2+8) || !s.ReadUint8LengthPrefixed(&secret) {
			return nil, errors.New("server session state")
		}
		serverPSK = bytes.Clone(secret)
		ticket = []byte(fmt.Sprintf("ticket-%d", len(b)))
		return ticket, nil
	}
	cache := &ticketCache{}
	cli := &tls.Config{RootCAs: chain.Roots, ServerName: "localhost", ClientSessionCache: cache, MinVersion: tls.VersionTLS13}
	c1, c2 := net.Pipe()
	go func() {
		s := tls.Server(c2, srv)
		s.Handshake()
		s.Write([]byte("x")) // the ticket goes out with the first write
		s.Close()
	}()
	c := tls.Client(c1, cli)
	if _, err := io.ReadAll(c); err != nil {
		t.Fatal(err)
	}
	sess, err := cache.Session()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sess.Ticket, ticket) || !bytes.Equal(sess.PSK, serverPSK) || len(sess.PSK) != 32 ||
		sess.CipherSuite != c.ConnectionState().CipherSuite {
		t.Errorf("session: ticket %q (server issued %q), PSK %x (server's %x), suite %#x", sess.Ticket, ticket, sess.PSK, serverPSK, sess.CipherSuite)
	}
	if d := time.Until(sess.UseBy); d < 6*24*time.Hour || d > 8*24*time.Hour {
		t.Errorf("use by %v: crypto/tls's tickets live 7 days", sess.UseBy)
	}
	// A TLS 1.2 session is refused, not misread.
	cache12 := &ticketCache{}
	srv12, cli12 := srv.Clone(), cli.Clone()
	srv12.MinVersion, srv12.MaxVersion = tls.VersionTLS12, tls.VersionTLS12
	cli12.MinVersion, cli12.MaxVersion, cli12.ClientSessionCache = tls.VersionTLS12, tls.VersionTLS12, cache12
	c1, c2 = net.Pipe()
	go func() { s := tls.Server(c2, srv12); s.Handshake(); s.Close() }()
	c = tls.Client(c1, cli12)
	io.ReadAll(c)
	if _, err := cache12.Session(); err == nil || !strings.Contains(err.Error(), "not a TLS 1.3 client session") {
		t.Errorf("TLS 1.2 session: %v", err)
	}
	if _, err := (&ticketCache{}).Session(); err == nil {
		t.Error("an empty cache gave a session")
	}
}

// TestPSKKEAgainstOpenSSL resumes real OpenSSL sessions with psk_ke: the
// three TLS 1.3 suites (SHA-256 and SHA-384 schedules), client
// authentication in the priming handshake, transfers both ways. The lab
// checks each connection on the wire (resumed, no key share, the suite,
// the payload, the kernel's byte counts) and the tap decrypts every record
// with the keys the psk_ke client logged.
func TestPSKKEAgainstOpenSSL(t *testing.T) {
	needOpenSSL(t)
	cells := []Cell{
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumePSKOnly, Transfer: 40000, Direction: Down, Server: "openssl", Client: "go"},
		{Version: TLS13, KeyExchange: KexP256, Bulk: BulkAES256GCM, Cert: CertRSA2048, Chain: 1, ClientAuth: true, Resumption: ResumePSKOnly, Transfer: 40000, Direction: Up, Server: "openssl", Client: "go"},
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkChaCha20, Cert: CertEd25519, Chain: 3, Resumption: ResumePSKOnly, Direction: Down, Server: "openssl", Client: "go"},
	}
	for _, c := range cells {
		t.Run(strings.ReplaceAll(c.Name(), "/", "_"), func(t *testing.T) {
			t.Parallel()
			run := lab.Run(context.Background(), c)
			if run.Err != nil {
				t.Fatal(run.Err)
			}
			conn := run.Conns[0]
			checkAccounting(t, conn)
			a := conn.Analysis
			ch, sh := a.ClientHelloInfo, a.ServerHelloInfo
			switch {
			case !a.Decrypted || !a.Resumed || a.Group != "":
				t.Errorf("decrypted %v, resumed %v, group %q", a.Decrypted, a.Resumed, a.Group)
			case !bytes.Equal(ch.PSKModes, []byte{pskModeKE}) || len(ch.KeyShares) != 0 || sh.KeyShareBytes != 0:
				t.Errorf("modes %v, client key shares %v, server key share %d B", ch.PSKModes, ch.KeyShares, sh.KeyShareBytes)
			}
			for _, m := range a.Messages {
				if m.Name == "Certificate" || m.Name == "CertificateVerify" || m.Name == "CertificateRequest" {
					t.Errorf("a %s in a PSK resumption", m.Name)
				}
			}
			r := lab.Result(run)
			if m := r.Metric(MetricKeyShareUp); m == nil || m.Summary.Median != 0 {
				t.Errorf("%s: %v", MetricKeyShareUp, m)
			}
			if p := run.Primes[0].Analysis; p.Resumed || p.Group == "" {
				t.Errorf("the priming connection: resumed %v, group %q (want a full (EC)DHE handshake)", p.Resumed, p.Group)
			}
		})
	}
}

// TestPSKKEHostileServers: a server that answers the psk_ke ClientHello
// with anything but a psk_ke resumption, or not at all, is an error that
// says what was wrong, within the connection's bound; a server that does
// it right gets through (and checks the client's binder and Finished).
func TestPSKKEHostileServers(t *testing.T) {
	psk := bytes.Repeat([]byte{0x42}, 32)
	for _, tc := range []struct {
		name string
		opt  fakeOpts
		want string // "" for success
	}{
		{"a psk_ke resumption", fakeOpts{}, ""},
		{"with a ChangeCipherSpec", fakeOpts{ccs: true}, ""},
		{"HelloRetryRequest", fakeOpts{hrr: true}, "HelloRetryRequest"},
		{"key share", fakeOpts{keyShare: true}, "key share (X25519)"},
		{"no PSK", fakeOpts{noPSK: true}, "did not accept the PSK"},
		{"identity 1", fakeOpts{identity: 1}, "selected PSK identity 1"},
		{"other suite", fakeOpts{suite: TLS_CHACHA20_POLY1305_SHA256}, "the ticket's suite is TLS_AES_128_GCM_SHA256"},
		{"Certificate", fakeOpts{certificate: true}, "Certificate where Finished belongs"},
		{"bad Finished", fakeOpts{badFinished: true}, "Finished does not verify"},
		{"another PSK", fakeOpts{psk: bytes.Repeat([]byte{0x43}, 32)}, "does not authenticate"},
		{"alert", fakeOpts{raw: plainRecord(ContentAlert, VersionTLS12, []byte{2, 40})}, "Alert(handshake_failure)"},
		{"oversized record", fakeOpts{raw: []byte{22, 3, 3, 0xff, 0xff}}, "record_overflow"},
		{"garbage", fakeOpts{raw: []byte("HTTP/1.1 400 Bad Request\r\n\r\n")}, "not a TLS record stream"},
		{"huge message", fakeOpts{raw: plainRecord(ContentHandshake, VersionTLS12, []byte{2, 0xff, 0xff, 0xff})}, "at most"},
		{"silence", fakeOpts{silent: true}, "deadline exceeded"},
		{"hang up", fakeOpts{raw: []byte{}}, "EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sess := &PSKSession{Ticket: []byte("ticket"), PSK: psk, CipherSuite: TLS_AES_128_GCM_SHA256, AgeAdd: 7, Received: time.Now()}
			addr, serverErr := serveFakePSK(t, psk, tc.opt)
			raw, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			// The deadline ends only the silent server's case (the server
			// holds the connection until the client gives up, so a client
			// that ignored it would hang); the others get far more time
			// than a loaded host needs, so their own outcome comes first.
			deadline := time.Minute
			if tc.opt.silent {
				deadline = 300 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			var keys bytes.Buffer
			c, err := ResumePSKKE(ctx, raw, sess, PSKConfig{ServerName: "localhost", KeyLog: &keys})
			if tc.want != "" {
				raw.Close()
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(c)
			if err != nil || string(got) != "psk_ke works" || c.Tickets != 1 {
				t.Errorf("read %q, %v; %d tickets", got, err, c.Tickets)
			}
			if _, err := c.Write([]byte("thanks")); err != nil {
				t.Error(err)
			}
			c.Close()
			if err := <-serverErr; err != nil {
				t.Errorf("server: %v", err)
			}
			kl, err := ParseKeyLog(keys.Bytes())
			if err != nil || kl.Len() != 4 || kl.Secret(LabelServerTraffic0, c.ClientRandom) == nil {
				t.Errorf("key log: %d secrets, %v", kl.Len(), err)
			}
		})
	}
}

// TestPSKSessionChecks: a session that cannot be resumed is refused before
// anything is sent.
func TestPSKSessionChecks(t *testing.T) {
	for _, tc := range []struct {
		sess PSKSession
		want string
	}{
		{PSKSession{Ticket: []byte("t"), PSK: make([]byte, 32), CipherSuite: TLS_AES_256_GCM_SHA384}, "a PSK of 32 B for TLS_AES_256_GCM_SHA384"},
		{PSKSession{PSK: make([]byte, 32), CipherSuite: TLS_AES_128_GCM_SHA256}, "a ticket of 0 B"},
		{PSKSession{Ticket: []byte("t"), PSK: make([]byte, 32), CipherSuite: TLS_AES_128_GCM_SHA256, UseBy: time.Now().Add(-time.Hour)}, "expired"},
		{PSKSession{Ticket: []byte("t"), PSK: make([]byte, 32), CipherSuite: 0xC02F}, "unknown"},
	} {
		c1, c2 := net.Pipe()
		_, err := ResumePSKKE(context.Background(), c1, &tc.sess, PSKConfig{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
		c1.Close()
		c2.Close()
	}
}

// fakeOpts say how the fake server departs from a correct psk_ke reply.
type fakeOpts struct {
	hrr, keyShare, noPSK, certificate, badFinished, ccs, silent bool
	identity, suite                                             uint16
	psk                                                         []byte // the server's PSK, if not the client's
	raw                                                         []byte // reply with these bytes and hang up
}

// correct says the options ask for a correct psk_ke reply.
func (o fakeOpts) correct() bool {
	return !o.hrr && !o.keyShare && !o.noPSK && !o.certificate && !o.badFinished && o.psk == nil && o.identity == 0 && o.suite == 0
}

// serveFakePSK serves one connection as a psk_ke server written for the
// test from RFC 8446 (§4.1.3, §4.2.11, §4.4.4, §7.1), with the departures
// opts asks for. In a correct run it checks the client's binder and
// Finished, sends application data, a NewSessionTicket and close_notify,
// and reads the client's data until its close_notify.
func serveFakePSK(t *testing.T, psk []byte, opts fakeOpts) (string, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	errc := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			errc <- err
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(2 * time.Minute)) // a hang guard only
		errc <- fakePSKServer(c, psk, opts)
	}()
	return ln.Addr().String(), errc
}

func fakePSKServer(c net.Conn, psk []byte, opts fakeOpts) error {
	r := bufio.NewReader(c)
	readRec := func() (Record, error) {
		var hdr [5]byte
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return Record{}, err
		}
		body := make([]byte, int(hdr[3])<<8|int(hdr[4]))
		_, err := io.ReadFull(r, body)
		return Record{Type: hdr[0], Version: uint16(hdr[1])<<8 | uint16(hdr[2]), Fragment: body}, err
	}
	rec, err := readRec()
	if err != nil {
		return err
	}
	chMsg := rec.Fragment
	ch, err := ParseClientHello(chMsg[4:])
	if err != nil {
		return err
	}
	switch {
	case opts.silent:
		io.Copy(io.Discard, r) // until the client gives up and closes
		return nil
	case opts.raw != nil:
		_, err := c.Write(opts.raw)
		return err
	}
	ks, _ := tlswire.ScheduleFor(TLS_AES_128_GCM_SHA256)
	if opts.psk != nil {
		psk = opts.psk
	}
	s := ks.EarlySecrets(psk)
	binder := ch.PSKBinders[0]
	if want := pskBinder(ks, s.BinderKey, chMsg, 2+1+len(binder)); !hmac.Equal(binder, want) && opts.psk == nil {
		return errors.New("the client's binder does not verify")
	}
	random := bytes.Repeat([]byte{3}, 32)
	if opts.hrr {
		random = helloRetryRandom[:]
	}
	suite := TLS_AES_128_GCM_SHA256
	if opts.suite != 0 {
		suite = opts.suite
	}
	var b cryptobyte.Builder
	b.AddUint8(TypeServerHello)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint16(VersionTLS12)
		b.AddBytes(random)
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(ch.SessionID) })
		b.AddUint16(suite)
		b.AddUint8(0)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			b.AddUint16(extSupportedVersions)
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint16(VersionTLS13) })
			if opts.keyShare || opts.hrr {
				b.AddUint16(extKeyShare)
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
					b.AddUint16(0x001d)
					if !opts.hrr {
						b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(make([]byte, 32)) })
					}
				})
			}
			if !opts.noPSK && !opts.hrr {
				b.AddUint16(extPreSharedKey)
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint16(opts.identity) })
			}
		})
	})
	shMsg := b.BytesOrPanic()
	out := plainRecord(ContentHandshake, VersionTLS12, shMsg)
	if opts.ccs {
		out = append(out, plainRecord(ContentChangeCipherSpec, VersionTLS12, []byte{1})...)
	}
	ks.HandshakeSecrets(s, nil, ks.TranscriptHash(chMsg, shMsg))
	shp, _ := tlswire.NewRecordProtection(TLS_AES_128_GCM_SHA256, s.ServerHS)
	ee := []byte{TypeEncryptedExtensions, 0, 0, 2, 0, 0}
	sfin := append([]byte{TypeFinished, 0, 0, 32}, ks.VerifyData(s.ServerHS, ks.TranscriptHash(chMsg, shMsg, ee))...)
	if opts.badFinished {
		sfin[10] ^= 1
	}
	if opts.certificate {
		out = append(out, shp.Seal(append(ee, TypeCertificate, 0, 0, 4, 0, 0, 0, 0), ContentHandshake)...)
	} else {
		out = append(out, shp.Seal(append(ee, sfin...), ContentHandshake)...)
	}
	if _, err := c.Write(out); err != nil {
		return err
	}
	if !opts.correct() {
		io.Copy(io.Discard, r) // the client gives up
		return nil
	}
	serverFinished := ks.TranscriptHash(chMsg, shMsg, ee, sfin)
	ks.ApplicationSecrets(s, serverFinished)
	// The client's ChangeCipherSpec and Finished.
	if rec, err = readRec(); err != nil || rec.Type != ContentChangeCipherSpec {
		return fmt.Errorf("want the client's ChangeCipherSpec: %v %v", rec.Type, err)
	}
	if rec, err = readRec(); err != nil {
		return err
	}
	chp, _ := tlswire.NewRecordProtection(TLS_AES_128_GCM_SHA256, s.ClientHS)
	cfin, typ, err := chp.Open(rec)
	if err != nil || typ != ContentHandshake || !hmac.Equal(cfin[4:], ks.VerifyData(s.ClientHS, serverFinished)) {
		return fmt.Errorf("the client's Finished does not verify (%v)", err)
	}
	sap, _ := tlswire.NewRecordProtection(TLS_AES_128_GCM_SHA256, s.ServerTraffic)
	cp, _ := tlswire.NewRecordProtection(TLS_AES_128_GCM_SHA256, s.ClientTraffic)
	nst := []byte{TypeNewSessionTicket, 0, 0, 13, 0, 0, 0, 60, 0, 0, 0, 1, 0, 0, 1, 't', 0, 0}
	out = sap.Seal(nst[:10], ContentHandshake) // split across two records
	out = append(out, sap.Seal(nst[10:], ContentHandshake)...)
	out = append(out, sap.Seal([]byte("psk_ke works"), ContentApplicationData)...)
	out = append(out, sap.Seal([]byte{1, 0}, ContentAlert)...)
	if _, err := c.Write(out); err != nil {
		return err
	}
	var got []byte
	for {
		rec, err := readRec()
		if err != nil {
			return fmt.Errorf("reading the client's data: %w", err)
		}
		content, typ, err := cp.Open(rec)
		if err != nil {
			return err
		}
		if typ == ContentAlert {
			if !bytes.Equal(content, []byte{1, 0}) {
				return fmt.Errorf("client alert %x", content)
			}
			break
		}
		got = append(got, content...)
	}
	if string(got) != "thanks" {
		return fmt.Errorf("the client sent %q", got)
	}
	return nil
}

// FuzzPSKServerReply: whatever a server answers to the psk_ke ClientHello,
// the client returns (an error, short of a valid reply it cannot forge)
// without panicking, within the connection's bound.
func FuzzPSKServerReply(f *testing.F) {
	f.Add([]byte{})
	f.Add(plainRecord(ContentAlert, VersionTLS12, []byte{2, 40}))
	f.Add(plainRecord(ContentHandshake, VersionTLS12, []byte{2, 0, 0, 2, 3, 3}))
	f.Add(append(plainRecord(ContentHandshake, VersionTLS12, hsMsg(TypeServerHello, serverHelloBody(make([]byte, 32), TLS_AES_128_GCM_SHA256))),
		plainRecord(ContentApplicationData, VersionTLS12, make([]byte, 40))...))
	f.Add(bytes.Repeat(plainRecord(ContentChangeCipherSpec, VersionTLS12, []byte{1}), 20))
	psk := bytes.Repeat([]byte{0x42}, 32)
	f.Fuzz(func(t *testing.T, reply []byte) {
		sess := &PSKSession{Ticket: []byte("ticket"), PSK: psk, CipherSuite: TLS_AES_128_GCM_SHA256, Received: time.Now()}
		c1, c2 := net.Pipe()
		go func() {
			c2.SetDeadline(time.Now().Add(2 * time.Second))
			r := bufio.NewReader(c2)
			var hdr [5]byte
			io.ReadFull(r, hdr[:])
			io.CopyN(io.Discard, r, int64(hdr[3])<<8|int64(hdr[4]))
			c2.Write(reply)
			c2.Close()
		}()
		c1.SetDeadline(time.Now().Add(2 * time.Second))
		c, err := ResumePSKKE(context.Background(), c1, sess, PSKConfig{})
		if err == nil {
			c.Close()
			t.Fatalf("a psk_ke handshake completed with a server that does not know the PSK (reply %x)", reply)
		}
		c1.Close()
	})
}

// sanity: the fake server's PSK check is live (a client binder over the
// wrong PSK is refused), so its success above means the client's binder
// verified.
func TestFakeServerChecksBinder(t *testing.T) {
	addr, serverErr := serveFakePSK(t, bytes.Repeat([]byte{0x42}, 32), fakeOpts{})
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	sess := &PSKSession{Ticket: []byte("t"), PSK: bytes.Repeat([]byte{0x41}, 32), CipherSuite: TLS_AES_128_GCM_SHA256, Received: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := ResumePSKKE(ctx, raw, sess, PSKConfig{}); err == nil {
		t.Error("the handshake completed with a binder over the wrong PSK")
	}
	if err := <-serverErr; err == nil || !strings.Contains(err.Error(), "binder does not verify") {
		t.Errorf("server: %v", err)
	}
}

// TestSealRecord: sealing is the inverse of opening, byte for byte: the
// server's EncryptedExtensions of "The Illustrated TLS 1.3 Connection"
// (tls13.xargs.org, TLS_AES_256_GCM_SHA384, sequence 0), sealed from its
// plaintext, is the record on that page; the next record uses sequence 1.
func TestSealRecord(t *testing.T) {
	want := unhex(t, "17 03 03 00 17 6b e0 2f 9d a7 c2 dc 9d de f5 6f 24 68 b9 0a df a2 51 01 ab 03 44 ae")
	secret := unhex(t, "23323da031634b241dd37d61032b62a4f450584d1f7f47983ba2f7cc0cdcc39a68f481f2b019f9403a3051908a5d1622")
	p, err := tlswire.NewRecordProtection(TLS_AES_256_GCM_SHA384, secret)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Seal([]byte{8, 0, 0, 2, 0, 0}, ContentHandshake); !bytes.Equal(got, want) {
		t.Errorf("sealed %x, want %x", got, want)
	}
	if got := p.Seal([]byte{8, 0, 0, 2, 0, 0}, ContentHandshake); bytes.Equal(got, want) {
		t.Error("the sequence number did not advance")
	}
}
