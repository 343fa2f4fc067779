package tlswire

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// streams are the captured fixtures (testdata/streams/README.md).
func streams(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "streams", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if filepath.Ext(f) != ".up" && filepath.Ext(f) != ".down" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	if len(out) < 6 {
		t.Fatalf("%d fixture streams, want 6", len(out))
	}
	return out
}

// plaintextMessages is every whole handshake message of a stream's
// plaintext handshake records (before ChangeCipherSpec), headers included.
func plaintextMessages(t testing.TB, stream []byte) [][]byte {
	t.Helper()
	recs, tail, err := ParseRecords(stream)
	if err != nil || tail != 0 {
		t.Fatalf("ParseRecords: %v, tail %d", err, tail)
	}
	var hb HandshakeBuffer
	var out [][]byte
	for _, r := range recs {
		if r.Type == ContentChangeCipherSpec || r.Type == ContentApplicationData {
			break
		}
		if r.Type != ContentHandshake {
			continue
		}
		msgs, err := hb.Add(r.Fragment)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			out = append(out, m.Marshal())
		}
	}
	return out
}

// message is what every codec here is.
type message interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// TestCapturedRoundTrip (fast tier): marshal(unmarshal(b)) = b for every
// plaintext message real OpenSSL and Go peers sent, and the records
// re-marshal to the streams.
func TestCapturedRoundTrip(t *testing.T) {
	seen := map[string]int{}
	all := streams(t)
	// Each connection's down stream first: its ServerHello says the
	// version and suite the client's messages are encoded for.
	var names []string
	for name := range all {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		bi, bj := strings.TrimSuffix(strings.TrimSuffix(names[i], ".up"), ".down"), strings.TrimSuffix(strings.TrimSuffix(names[j], ".up"), ".down")
		if bi != bj {
			return bi < bj
		}
		return strings.HasSuffix(names[i], ".down")
	})
	type negotiated struct {
		version Version
		suite   Suite
	}
	conns := map[string]negotiated{}
	for _, name := range names {
		stream := all[name]
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".up"), ".down")
		recs, _, _ := ParseRecords(stream)
		var again []byte
		for _, r := range recs {
			again = append(again, r.Marshal()...)
		}
		if !bytes.Equal(again, stream) {
			t.Errorf("%s: records do not marshal back to the stream", name)
		}
		version, suite := TLS12, conns[base].suite
		if v := conns[base].version; v != 0 {
			version = v
		}
		for _, b := range plaintextMessages(t, stream) {
			var m message
			switch b[0] {
			case TypeClientHello:
				m = &ClientHello{}
			case TypeServerHello:
				sh := &ServerHello{}
				if err := sh.Unmarshal(b); err == nil {
					version = sh.Negotiated()
					suite, _ = SuiteByID(sh.CipherSuite)
					conns[base] = negotiated{version, suite}
				}
				m = sh
			case TypeCertificate:
				m = &Certificate{TLS13: version == TLS13}
			case TypeNewSessionTicket:
				m = &NewSessionTicket{TLS13: version == TLS13}
			case TypeCertificateStatus:
				m = &CertificateStatus{}
			case TypeCertificateRequest:
				m = &CertificateRequest{TLS13: version == TLS13, TLS12: version == TLS12}
			case TypeClientKeyExchange:
				m = &ClientKeyExchange{Kex: suite.KeyExchange, SSL30: version == SSL30}
			case TypeServerKeyExchange:
				ske, err := ParseServerKeyExchange(b, suite, version)
				if err != nil {
					t.Errorf("%s: ServerKeyExchange: %v", name, err)
					continue
				}
				got, err := ske.Marshal()
				if err != nil || !bytes.Equal(got, b) {
					t.Errorf("%s: ServerKeyExchange does not marshal back (%v)", name, err)
				}
				seen["ServerKeyExchange"]++
				continue
			default:
				continue
			}
			tlsm := m
			if err := tlsm.Unmarshal(b); err != nil {
				t.Errorf("%s: %s: %v", name, HandshakeName(b[0]), err)
				continue
			}
			got, err := tlsm.Marshal()
			if err != nil || !bytes.Equal(got, b) {
				t.Errorf("%s: %s does not marshal back to its %d bytes (%d, %v)", name, HandshakeName(b[0]), len(b), len(got), err)
			}
			seen[HandshakeName(b[0])]++
		}
	}
	for _, want := range []string{"ClientHello", "ServerHello", "Certificate", "ServerKeyExchange", "NewSessionTicket",
		"CertificateRequest", "ClientKeyExchange"} {
		if seen[want] == 0 {
			t.Errorf("no %s in the fixtures: the test checks less than it says (%v)", want, seen)
		}
	}
}

// gen makes random messages for the property tests: every optional part
// present or not, lists of random length, byte strings of random content.
type gen struct{ r *rand.Rand }

func (g gen) bytes(max int) []byte {
	n := g.r.IntN(max + 1)
	if n == 0 {
		return nil // unmarshal makes empty nil
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.Uint32())
	}
	return b
}

func (g gen) nonEmpty(max int) []byte {
	b := g.bytes(max)
	if len(b) == 0 {
		b = []byte{byte(g.r.Uint32())}
	}
	return b
}

func (g gen) coin() bool { return g.r.IntN(2) == 0 }

func (g gen) u16s(max int) []uint16 {
	out := make([]uint16, g.r.IntN(max)+1)
	for i := range out {
		out[i] = uint16(g.r.Uint32())
	}
	return out
}

func (g gen) clientHello() *ClientHello {
	m := &ClientHello{Version: TLS12, CipherSuites: g.u16s(20), Compression: []uint8{0}, SessionID: g.bytes(32)}
	for i := range m.Random {
		m.Random[i] = byte(g.r.Uint32())
	}
	if g.r.IntN(8) == 0 {
		m.NoExtensions = true
		return m
	}
	if g.coin() {
		m.ServerName = "host" + string(rune('a'+g.r.IntN(26))) + ".example"
	}
	m.StatusRequest, m.SCT, m.ExtendedMasterSecret, m.RenegotiationInfo = g.coin(), g.coin(), g.coin(), g.coin()
	if g.coin() {
		m.SupportedGroups = g.u16s(8)
	}
	if g.coin() {
		m.PointFormats = []uint8{0}
	}
	if g.coin() {
		m.SignatureSchemes = g.u16s(10)
	}
	if g.coin() {
		m.ALPN = []string{"h2", "http/1.1"}[:1+g.r.IntN(2)]
	}
	if g.coin() {
		m.SessionTicket, m.Ticket = true, g.bytes(64)
	}
	if g.coin() {
		m.SupportedVersions = []Version{TLS13, TLS12}[:1+g.r.IntN(2)]
	}
	if g.coin() {
		m.Cookie = g.nonEmpty(16)
	}
	if g.coin() {
		m.PSKModes = []uint8{1, 0}[:1+g.r.IntN(2)]
	}
	switch g.r.IntN(3) {
	case 0:
		m.EmptyKeyShare = true
	case 1:
		for range 1 + g.r.IntN(2) {
			m.KeyShares = append(m.KeyShares, KeyShare{Group: uint16(g.r.Uint32()), Data: g.nonEmpty(40)})
		}
	}
	if g.coin() {
		m.Extra = []Extension{{Type: 0xfafa, Data: g.bytes(4)}}
	}
	if g.coin() {
		m.PSKIdentities = []PSKIdentity{{Identity: g.nonEmpty(48), Age: g.r.Uint32()}}
		m.PSKBinders = [][]byte{g.nonEmpty(48)}
	}
	return m
}

func (g gen) serverHello() *ServerHello {
	m := &ServerHello{Version: TLS12, CipherSuite: uint16(g.r.Uint32()), SessionID: g.bytes(32)}
	for i := range m.Random {
		m.Random[i] = byte(g.r.Uint32())
	}
	if g.coin() {
		m.SupportedVersion = TLS13
		m.KeyShare = KeyShare{Group: uint16(g.r.Uint32()) | 1, Data: g.nonEmpty(65)}
		if g.coin() {
			m.PreSharedKey, m.SelectedIdentity = true, uint16(g.r.IntN(3))
		}
	} else {
		m.ExtendedMasterSecret, m.SessionTicket, m.EncryptThenMAC = g.coin(), g.coin(), g.coin()
		if g.coin() {
			m.RenegotiationInfo = []byte{}
		}
		if g.coin() {
			m.PointFormats = []uint8{0}
		}
	}
	m.Extensions = append([]uint16{}, m.presentExtensions()...) // Unmarshal lists them, an empty list too
	return m
}

func (g gen) certificate() *Certificate {
	m := &Certificate{TLS13: g.coin()}
	for range g.r.IntN(3) {
		e := CertificateEntry{DER: g.nonEmpty(300)}
		if m.TLS13 && g.coin() {
			e.Extensions = []Extension{{Type: 18, Data: g.bytes(8)}}
		}
		m.Entries = append(m.Entries, e)
	}
	if m.TLS13 {
		m.Context = g.bytes(4)
	}
	return m
}

func (g gen) ticket() *NewSessionTicket {
	m := &NewSessionTicket{TLS13: g.coin(), Lifetime: g.r.Uint32(), Ticket: g.nonEmpty(200)}
	if m.TLS13 {
		m.AgeAdd, m.Nonce = g.r.Uint32(), g.bytes(8)
		if g.coin() {
			m.Extensions = []Extension{{Type: 42, Data: []byte{0, 0, 0x40, 0}}}
		}
	}
	return m
}

// TestGeneratedRoundTrip (fast tier): unmarshal(marshal(m)) = m for
// generated messages of every family, and every truncation is refused.
func TestGeneratedRoundTrip(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(19, 15))}
	for i := range 300 {
		ee := &EncryptedExtensions{}
		if g.coin() {
			ee.Extensions = []Extension{{Type: 0, Data: nil}, {Type: 16, Data: g.bytes(8)}}
		}
		tickets := g.ticket()
		cr := &CertificateRequest{TLS13: g.coin()}
		if cr.TLS13 {
			cr.Context = g.bytes(8)
			if g.coin() {
				cr.Extensions = []Extension{{Type: 13, Data: []byte{0, 2, 4, 3}}}
			}
		} else {
			cr.TLS12, cr.CertificateTypes = g.coin(), []uint8{1, 64}
			if cr.TLS12 {
				cr.SignatureSchemes = g.u16s(6)
			}
			if g.coin() {
				cr.Authorities = [][]byte{g.nonEmpty(40)}
			}
		}
		cke := &ClientKeyExchange{Kex: []KeyExchange{KexRSA, KexDHE, KexECDHE}[g.r.IntN(3)], Data: g.nonEmpty(200)}
		for _, tc := range []struct {
			in  message
			out func() message
		}{
			{g.clientHello(), func() message { return &ClientHello{} }},
			{g.serverHello(), func() message { return &ServerHello{} }},
			{g.certificate(), nil},
			{tickets, func() message { return &NewSessionTicket{TLS13: tickets.TLS13} }},
			{&CertificateStatus{OCSP: g.nonEmpty(100)}, func() message { return &CertificateStatus{} }},
			{ee, func() message { return &EncryptedExtensions{} }},
			{&Finished{VerifyData: g.nonEmpty(48)}, func() message { return &Finished{} }},
			{cr, func() message { return &CertificateRequest{TLS13: cr.TLS13, TLS12: cr.TLS12} }},
			{cke, func() message { return &ClientKeyExchange{Kex: cke.Kex} }},
		} {
			b, err := tc.in.Marshal()
			if err != nil {
				t.Fatalf("#%d %T: Marshal: %v", i, tc.in, err)
			}
			var out message
			if tc.out != nil {
				out = tc.out()
			} else {
				out = &Certificate{TLS13: tc.in.(*Certificate).TLS13}
			}
			if err := out.Unmarshal(b); err != nil {
				t.Fatalf("#%d %T: Unmarshal: %v\n%x", i, tc.in, err, b)
			}
			if !reflect.DeepEqual(out, tc.in) {
				t.Fatalf("#%d %T: round trip\n got %+v\nwant %+v", i, tc.in, out, tc.in)
			}
			if i%30 == 0 {
				for n := range len(b) {
					if tc.out != nil && tc.out().Unmarshal(b[:n]) == nil {
						t.Fatalf("#%d %T: truncated to %d of %d bytes: accepted", i, tc.in, n, len(b))
					}
				}
			}
		}
		a := Alert{Level: 2, Description: uint8(g.r.Uint32())}
		var back Alert
		if err := back.Unmarshal(a.Marshal()); err != nil || back != a {
			t.Fatalf("alert %v: %v %v", a, back, err)
		}
	}
}

// TestServerKeyExchangeRoundTrip (fast tier): ParseServerKeyExchange
// (Marshal(m)) = m for generated DHE, ECDHE and RSA-export parameters,
// signed (TLS 1.0 and 1.2 encodings) and not, and every truncation is
// refused.
func TestServerKeyExchangeRoundTrip(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(19, 7))}
	dhe, _ := SuiteByID(0x0033)    // TLS_DHE_RSA_WITH_AES_128_CBC_SHA
	ecdhe, _ := SuiteByID(0xc02f)  // TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
	export, _ := SuiteByID(0x0003) // TLS_RSA_EXPORT_WITH_RC4_40_MD5
	dhePSK, _ := SuiteByID(0x0090) // TLS_DHE_PSK_WITH_AES_128_CBC_SHA
	if !export.Export || export.KeyExchange != KexRSA || dhe.Export {
		t.Fatalf("suite table: %+v, %+v", export, dhe)
	}
	for i := range 200 {
		for _, s := range []Suite{dhe, ecdhe, export, dhePSK} {
			v := []Version{TLS10, TLS12}[g.r.IntN(2)]
			m := &ServerKeyExchange{Kex: s.KeyExchange, TLS12: v >= TLS12, Signed: !s.PSKHint && g.coin()}
			switch s.KeyExchange {
			case KexDHE:
				m.P, m.G, m.Y = g.nonEmpty(256), g.nonEmpty(2), g.nonEmpty(256)
			case KexECDHE:
				m.Curve, m.Point = uint16(g.r.Uint32()), g.nonEmpty(97)
			case KexRSA:
				m.Modulus, m.Exponent = g.nonEmpty(64), g.nonEmpty(3)
			}
			if s.PSKHint {
				m.HasHint, m.PSKHint = true, g.bytes(16)
			}
			if m.Signed {
				m.Signature = g.bytes(256)
				if m.TLS12 {
					m.SignatureScheme = uint16(g.r.Uint32())
				}
			}
			b, err := m.Marshal()
			if err != nil {
				t.Fatalf("#%d %s: Marshal: %v", i, s.Name, err)
			}
			back, err := ParseServerKeyExchange(b, s, v)
			if err != nil {
				t.Fatalf("#%d %s %s: %v\n%x", i, s.Name, v, err, b)
			}
			if !reflect.DeepEqual(back, m) {
				t.Fatalf("#%d %s %s: round trip\n got %+v\nwant %+v", i, s.Name, v, back, m)
			}
			if i%20 == 0 {
				for n := range len(b) {
					if _, err := ParseServerKeyExchange(b[:n], s, v); err == nil {
						t.Fatalf("#%d %s: truncated to %d of %d bytes: accepted", i, s.Name, n, len(b))
					}
				}
			}
		}
	}
}

// TestRSAExportServerKeyExchange (fast tier): the ServerRSAParams of
// RFC 2246 §7.4.3 read field by field from bytes written out by hand — a
// 512-bit modulus, exponent 65537, and a TLS 1.0 signature (no algorithm
// field before TLS 1.2).
func TestRSAExportServerKeyExchange(t *testing.T) {
	modulus := append([]byte{0xc3}, bytes.Repeat([]byte{0x5a}, 63)...)
	sig := bytes.Repeat([]byte{0x11}, 128)
	var body []byte
	body = append(body, 0x00, 0x40) // rsa_modulus<1..2^16-1>: 64 bytes
	body = append(body, modulus...)
	body = append(body, 0x00, 0x03, 0x01, 0x00, 0x01) // rsa_exponent: 65537
	body = append(body, 0x00, 0x80)                   // signature<0..2^16-1>: 128 bytes
	body = append(body, sig...)
	msg := append([]byte{TypeServerKeyExchange, 0, byte(len(body) >> 8), byte(len(body))}, body...)
	s, _ := SuiteByID(0x0008) // TLS_RSA_EXPORT_WITH_DES40_CBC_SHA
	m, err := ParseServerKeyExchange(msg, s, TLS10)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.Modulus, modulus) || !bytes.Equal(m.Exponent, []byte{1, 0, 1}) || !m.Signed ||
		m.SignatureScheme != 0 || !bytes.Equal(m.Signature, sig) {
		t.Fatalf("parsed %+v", m)
	}
	if out, err := m.Marshal(); err != nil || !bytes.Equal(out, msg) {
		t.Fatalf("marshals to %x (%v), want %x", out, err, msg)
	}
	// An empty modulus is no key.
	empty := []byte{TypeServerKeyExchange, 0, 0, 7, 0, 0, 0, 1, 3, 0, 0}
	if _, err := ParseServerKeyExchange(empty, s, TLS10); err == nil {
		t.Fatal("an empty modulus was accepted")
	}
}
