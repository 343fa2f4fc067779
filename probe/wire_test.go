package probe

import (
	"bufio"
	"bytes"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestClientHelloRoundTrip(t *testing.T) {
	var random [32]byte
	for i := range random {
		random[i] = byte(i)
	}
	tests := []struct {
		name string
		ch   ClientHello
	}{
		{"ssl3 no extensions", ClientHello{Version: SSL30, Random: random, CipherSuites: []uint16{0x0035, 0x002f}, Compression: []uint8{0}, NoExtensions: true}},
		{"tls12 everything", ClientHello{Version: TLS12, Random: random, SessionID: bytes.Repeat([]byte{7}, 32),
			CipherSuites: []uint16{0xc02f, 0x009e}, Compression: []uint8{0}, ServerName: "example.com", StatusRequest: true,
			SupportedGroups: []uint16{29, 23, 256}, PointFormats: []uint8{0}, SignatureSchemes: []uint16{0x0804, 0x0403},
			ALPN: []string{"h2", "http/1.1"}, SCT: true, ExtendedMasterSecret: true, SessionTicket: true, Ticket: []byte{1, 2, 3},
			RenegotiationInfo: true, Extra: []Extension{{Type: 0x1234, Data: []byte{9, 9}}}}},
		{"tls13 shares", ClientHello{Version: TLS12, Random: random, SessionID: []byte{1}, CipherSuites: []uint16{0x1301},
			Compression: []uint8{0}, SupportedVersions: []Version{TLS13, TLS12}, SupportedGroups: []uint16{0x11ec, 29},
			KeyShares: []KeyShare{{Group: 0x11ec, Data: bytes.Repeat([]byte{1}, 1216)}, {Group: 29, Data: bytes.Repeat([]byte{2}, 32)}},
			PSKModes:  []uint8{1}, Cookie: []byte{5, 5}}},
		{"tls13 empty key share", ClientHello{Version: TLS12, Random: random, CipherSuites: []uint16{0x1301, 0x1302},
			Compression: []uint8{0}, SupportedVersions: []Version{TLS13}, SupportedGroups: []uint16{23}, EmptyKeyShare: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.ch.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			var got ClientHello
			if err := got.Unmarshal(b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.ch) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.ch)
			}
			// Every truncation must be refused, never accepted or panic.
			for n := 0; n < len(b); n++ {
				if got.Unmarshal(b[:n]) == nil {
					t.Fatalf("truncated to %d of %d bytes: accepted", n, len(b))
				}
			}
		})
	}
}

// TestClientHelloBytes checks Marshal against bytes written out by hand
// from RFC 8446 §4.1.2, §4.2.1 and §4.2.8.
func TestClientHelloBytes(t *testing.T) {
	var random [32]byte
	ch := ClientHello{Version: TLS12, Random: random, CipherSuites: []uint16{0x1301}, Compression: []uint8{0},
		SupportedVersions: []Version{TLS13}, EmptyKeyShare: true}
	want := "01" + "000038" + // ClientHello, 56 bytes
		"0303" + strings.Repeat("00", 32) + // legacy_version, random
		"00" + // empty legacy_session_id
		"0002" + "1301" + // cipher_suites
		"0100" + // compression: null
		"000d" + // 13 bytes of extensions
		"002b" + "0003" + "02" + "0304" + // supported_versions: TLS 1.3
		"0033" + "0002" + "0000" // key_share: no shares
	b, err := ch.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(b); got != want {
		t.Errorf("Marshal:\n got %s\nwant %s", got, want)
	}
	rec := marshalRecords(recordHandshake, TLS10, b)
	if got := hex.EncodeToString(rec[:5]); got != "160301003c" {
		t.Errorf("record header %s, want 160301003c (handshake, 0x0301, 60 bytes)", got)
	}
}

func TestServerHelloRoundTrip(t *testing.T) {
	var random [32]byte
	random[0] = 1
	tests := []struct {
		name string
		sh   ServerHello
	}{
		{"ssl3", ServerHello{Version: SSL30, Random: random, SessionID: []byte{1, 2}, CipherSuite: 0x0035, NoExtensions: true}},
		{"tls12", ServerHello{Version: TLS12, Random: random, SessionID: bytes.Repeat([]byte{3}, 32), CipherSuite: 0xc02f,
			RenegotiationInfo: []byte{}, PointFormats: []uint8{0}, SessionTicket: true, StatusRequest: true,
			ExtendedMasterSecret: true, ALPN: "h2",
			Extensions: []uint16{extRenegotiationInfo, extECPointFormats, extSessionTicket, extStatusRequest, extExtendedMasterSecret, extALPN}}},
		{"tls13", ServerHello{Version: TLS12, Random: random, CipherSuite: 0x1301, SupportedVersion: TLS13,
			KeyShare: KeyShare{Group: 0x11ec, Data: bytes.Repeat([]byte{4}, 1120)}, Extensions: []uint16{extSupportedVersions, extKeyShare}}},
		{"hrr", ServerHello{Version: TLS12, Random: helloRetryRequestRandom, CipherSuite: 0x1302, SupportedVersion: TLS13,
			SelectedGroup: 0x11ec, Cookie: []byte{1, 2, 3}, Extensions: []uint16{extKeyShare, extSupportedVersions, extCookie}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.sh.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			var got ServerHello
			if err := got.Unmarshal(b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.sh) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.sh)
			}
			for n := 0; n < len(b); n++ {
				if got.Unmarshal(b[:n]) == nil && n != 38+len(tt.sh.SessionID)+3 {
					// The one valid prefix is a ServerHello without extensions,
					// and only if the length header says so; here it does not.
					t.Fatalf("truncated to %d of %d bytes: accepted", n, len(b))
				}
			}
		})
	}
	if sh := (ServerHello{Random: helloRetryRequestRandom}); !sh.IsHelloRetryRequest() {
		t.Error("HelloRetryRequest random not recognised")
	}
	// RFC 8446 §4.1.3 prints the HelloRetryRequest random.
	if got := hex.EncodeToString(helloRetryRequestRandom[:]); got != "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c" {
		t.Errorf("HelloRetryRequest random %s", got)
	}
}

func TestOtherMessagesRoundTrip(t *testing.T) {
	der := bytes.Repeat([]byte{0x30}, 10)
	msgs := []struct {
		name   string
		m      interface{ Marshal() ([]byte, error) }
		parse  func([]byte) (any, error)
		wantIs any
	}{
		{"certificate 1.2", &Certificate{Entries: []CertificateEntry{{DER: der}, {DER: der[:5]}}},
			func(b []byte) (any, error) { c := &Certificate{}; return c, c.Unmarshal(b) }, nil},
		{"certificate 1.3 with OCSP", &Certificate{TLS13: true, Entries: []CertificateEntry{
			{DER: der, OCSP: []byte{1, 2, 3}, Extensions: []Extension{{Type: extStatusRequest, Data: []byte{1, 0, 0, 3, 1, 2, 3}}}},
			{DER: der}}},
			func(b []byte) (any, error) { c := &Certificate{TLS13: true}; return c, c.Unmarshal(b) }, nil},
		{"certificate status", &CertificateStatus{OCSP: []byte{1, 2, 3, 4}},
			func(b []byte) (any, error) { c := &CertificateStatus{}; return c, c.Unmarshal(b) }, nil},
		{"ticket 1.2", &NewSessionTicket{Lifetime: 7200, Ticket: []byte{1, 2, 3}},
			func(b []byte) (any, error) { c := &NewSessionTicket{}; return c, c.Unmarshal(b) }, nil},
		{"ticket 1.3", &NewSessionTicket{TLS13: true, Lifetime: 604800, AgeAdd: 42, Nonce: []byte{0}, Ticket: []byte{9, 9},
			Extensions: []Extension{{Type: 42, Data: []byte{0, 0, 0x40, 0}}}},
			func(b []byte) (any, error) { c := &NewSessionTicket{TLS13: true}; return c, c.Unmarshal(b) }, nil},
	}
	for _, tt := range msgs {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.m.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.m) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.m)
			}
			for n := 0; n < len(b); n++ {
				if _, err := tt.parse(b[:n]); err == nil {
					t.Fatalf("truncated to %d of %d bytes: accepted", n, len(b))
				}
			}
		})
	}
}

func TestServerKeyExchange(t *testing.T) {
	dheRSA, _ := SuiteByID(0x009e)   // TLS_DHE_RSA_WITH_AES_128_GCM_SHA256
	ecdheRSA, _ := SuiteByID(0xc02f) // TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
	dhAnon, _ := SuiteByID(0x0034)   // TLS_DH_anon_WITH_AES_128_CBC_SHA
	dhePSK, _ := SuiteByID(0x0090)   // TLS_DHE_PSK_WITH_AES_128_CBC_SHA
	tests := []struct {
		name  string
		suite Suite
		v     Version
		m     ServerKeyExchange
	}{
		{"dhe tls12", dheRSA, TLS12, ServerKeyExchange{Kex: KexDHE, P: []byte{0xff, 0xfb}, G: []byte{2}, Y: []byte{1, 2},
			Signed: true, TLS12: true, SignatureScheme: 0x0804, Signature: []byte{7, 7, 7}}},
		{"dhe tls10", dheRSA, TLS10, ServerKeyExchange{Kex: KexDHE, P: []byte{0xff}, G: []byte{2}, Y: []byte{1},
			Signed: true, Signature: []byte{7}}},
		{"ecdhe", ecdheRSA, TLS12, ServerKeyExchange{Kex: KexECDHE, Curve: 29, Point: bytes.Repeat([]byte{1}, 32),
			Signed: true, TLS12: true, SignatureScheme: 0x0401, Signature: []byte{8}}},
		{"anonymous", dhAnon, TLS12, ServerKeyExchange{Kex: KexDHE, P: []byte{0xff}, G: []byte{2}, Y: []byte{1}, TLS12: true}},
		{"dhe psk hint", dhePSK, TLS12, ServerKeyExchange{Kex: KexDHE, HasHint: true, PSKHint: []byte("hint"), P: []byte{0xff},
			G: []byte{2}, Y: []byte{1}, TLS12: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.m.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseServerKeyExchange(b, tt.suite, tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.m) {
				t.Errorf("round trip:\n got %+v\nwant %+v", *got, tt.m)
			}
		})
	}
	// An explicit curve (type 1) is refused with a reason.
	bad := []byte{typeServerKeyExchange, 0, 0, 1, 1}
	if _, err := parseServerKeyExchange(bad, ecdheRSA, TLS12); err == nil || !strings.Contains(err.Error(), "named_curve") {
		t.Errorf("explicit curve: %v", err)
	}
}

func TestSuiteNames(t *testing.T) {
	tests := []struct {
		id        uint16
		name      string
		kex       KeyExchange
		min       Version
		ephemeral bool
	}{
		{0x002f, "TLS_RSA_WITH_AES_128_CBC_SHA", KexRSA, SSL30, false},
		{0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", KexDHE, SSL30, true},
		{0x003c, "TLS_RSA_WITH_AES_128_CBC_SHA256", KexRSA, TLS12, false},
		{0x009e, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", KexDHE, TLS12, true},
		{0xc013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", KexECDHE, SSL30, true},
		{0xc02c, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", KexECDHE, TLS12, true},
		{0xcca8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", KexECDHE, TLS12, true},
		{0x0034, "TLS_DH_anon_WITH_AES_128_CBC_SHA", KexDHE, SSL30, true},
		{0xc004, "TLS_ECDH_ECDSA_WITH_AES_128_CBC_SHA", KexECDH, SSL30, false},
		{0x00ae, "TLS_PSK_WITH_AES_128_CBC_SHA256", KexPSK, SSL30, false},
		{0x1301, "TLS_AES_128_GCM_SHA256", KexTLS13, TLS13, true},
		{0x1305, "TLS_AES_128_CCM_8_SHA256", KexTLS13, TLS13, true},
	}
	for _, tt := range tests {
		s, ok := SuiteByID(tt.id)
		if !ok || s.Name != tt.name || s.KeyExchange != tt.kex || s.MinVersion != tt.min || s.Ephemeral() != tt.ephemeral {
			t.Errorf("0x%04x: %+v (ephemeral %v), want %s %s min %s ephemeral %v", tt.id, s, s.Ephemeral(), tt.name, tt.kex, tt.min, tt.ephemeral)
		}
	}
	if s, err := LookupSuite("ecdhe_rsa_with_aes_128_gcm_sha256"); err != nil || s.ID != 0xc02f {
		t.Errorf("LookupSuite by name: %v %v", s, err)
	}
	if s, err := LookupSuite("0xC02F"); err != nil || s.ID != 0xc02f {
		t.Errorf("LookupSuite by code: %v %v", s, err)
	}
	if _, err := LookupSuite("AES_129"); err == nil || !strings.Contains(err.Error(), "IANA name") {
		t.Errorf("LookupSuite of nonsense: %v", err)
	}
	for i := 1; i < len(suites); i++ {
		if suites[i-1].ID >= suites[i].ID {
			t.Fatalf("suiteTable not sorted at 0x%04x", suites[i].ID)
		}
	}
}

// goRecording reads a handshake recorded by crypto/tls's own tests
// (OpenSSL servers, $GOROOT/src/crypto/tls/testdata): the client's and the
// server's first flows as bytes.
func goRecording(t *testing.T, name string) (client, server []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(runtime.GOROOT(), "src", "crypto", "tls", "testdata", name))
	if err != nil {
		t.Skipf("Go's crypto/tls test recordings are not here: %v", err)
	}
	defer f.Close()
	var flows [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, ">>> Flow") {
			flows = append(flows, nil)
			continue
		}
		// "00000000  16 03 01 ... |...|": hex between the offset and the bars.
		if i := strings.Index(line, "|"); i > 0 && len(flows) > 0 {
			hexPart := strings.Join(strings.Fields(line[8:i]), "")
			b, err := hex.DecodeString(hexPart)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			flows[len(flows)-1] = append(flows[len(flows)-1], b...)
		}
	}
	if len(flows) < 2 {
		t.Fatalf("%s: %d flows", name, len(flows))
	}
	return flows[0], flows[1]
}

// TestGoRecordings parses real OpenSSL server flights, recorded by the Go
// team; the expected version and suite come from each file's name.
func TestGoRecordings(t *testing.T) {
	tests := []struct {
		file    string
		version Version
		suite   uint16
		curve   uint16 // TLS ≤ 1.2 ECDHE ServerKeyExchange, or the TLS 1.3 key share
		hrr     bool
	}{
		{"Client-TLSv10-RSA-RC4", TLS10, 0x0005, 0, false},
		{"Client-TLSv11-RSA-RC4", TLS11, 0x0005, 0, false},
		{"Client-TLSv12-AES128-GCM-SHA256", TLS12, 0x009c, 0, false},
		{"Client-TLSv12-AES256-GCM-SHA384", TLS12, 0x009d, 0, false},
		{"Client-TLSv12-AES128-SHA256", TLS12, 0x003c, 0, false},
		{"Client-TLSv12-ECDHE-RSA-AES128-SHA256", TLS12, 0xc027, 29, false},
		{"Client-TLSv12-ECDHE-ECDSA-AES256-GCM-SHA384", TLS12, 0xc02c, 29, false},
		{"Client-TLSv12-ECDHE-RSA-CHACHA20-POLY1305", TLS12, 0xcca8, 29, false},
		{"Client-TLSv12-P256-ECDHE", TLS12, 0xc02f, 23, false},
		{"Client-TLSv13-AES256-SHA384", TLS13, 0x1302, 29, false},
		{"Client-TLSv13-CHACHA20-SHA256", TLS13, 0x1303, 29, false},
		{"Client-TLSv13-P256-ECDHE", TLS13, 0, 23, false}, // 0: any TLS 1.3 suite (the name does not say)
		{"Client-TLSv13-HelloRetryRequest", TLS13, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			clientFlow, serverFlow := goRecording(t, tt.file)
			recs, _ := splitRecords(clientFlow)
			var ch ClientHello
			if err := ch.Unmarshal(recs[0].payload); err != nil {
				t.Fatalf("Go's ClientHello: %v", err)
			}
			if len(ch.CipherSuites) == 0 || ch.Compression[0] != 0 {
				t.Errorf("Go's ClientHello: %+v", ch)
			}
			rr := newRecordReader(bytes.NewReader(serverFlow), DefaultLimits())
			msg, err := rr.readHandshake()
			if err != nil {
				t.Fatal(err)
			}
			var sh ServerHello
			if err := sh.Unmarshal(msg); err != nil {
				t.Fatal(err)
			}
			suiteOK := sh.CipherSuite == tt.suite
			if s, _ := SuiteByID(sh.CipherSuite); tt.suite == 0 {
				suiteOK = s.TLS13
			}
			if sh.Negotiated() != tt.version || !suiteOK || sh.IsHelloRetryRequest() != tt.hrr {
				t.Fatalf("ServerHello %s %s hrr=%v, want %s %s hrr=%v", sh.Negotiated(), SuiteName(sh.CipherSuite),
					sh.IsHelloRetryRequest(), tt.version, SuiteName(tt.suite), tt.hrr)
			}
			if tt.hrr {
				if sh.SelectedGroup == 0 {
					t.Error("HelloRetryRequest without a selected group")
				}
				return
			}
			if tt.version == TLS13 {
				if sh.KeyShare.Group != tt.curve {
					t.Errorf("key share %s, want %s", GroupName(sh.KeyShare.Group), GroupName(tt.curve))
				}
				return
			}
			var cert *Certificate
			var ske *ServerKeyExchange
			for {
				msg, err := rr.readHandshake()
				if err != nil {
					t.Fatal(err)
				}
				switch msg[0] {
				case typeCertificate:
					cert = &Certificate{}
					if err := cert.Unmarshal(msg); err != nil {
						t.Fatal(err)
					}
				case typeServerKeyExchange:
					s, _ := SuiteByID(sh.CipherSuite)
					if ske, err = parseServerKeyExchange(msg, s, tt.version); err != nil {
						t.Fatal(err)
					}
				}
				if msg[0] == typeServerHelloDone {
					break
				}
			}
			if cert == nil || len(cert.Entries) == 0 {
				t.Fatal("no certificate")
			}
			if _, err := x509.ParseCertificate(cert.Entries[0].DER); err != nil {
				t.Errorf("certificate: %v", err)
			}
			if (ske != nil) != (tt.curve != 0) || (ske != nil && ske.Curve != tt.curve) {
				t.Errorf("ServerKeyExchange %+v, want curve %d", ske, tt.curve)
			}
		})
	}
}

func TestRecordReaderLimits(t *testing.T) {
	lim := DefaultLimits()
	hsRecord := func(payload []byte) []byte { return marshalRecords(recordHandshake, TLS12, payload) }
	shBytes, _ := (&ServerHello{Version: TLS12, CipherSuite: 0x002f, NoExtensions: true}).Marshal()
	tests := []struct {
		name    string
		stream  []byte
		wantErr string
		wantMsg uint8
	}{
		{"server hello", hsRecord(shBytes), "", typeServerHello},
		{"fragmented across records", append(hsRecord(shBytes[:10]), hsRecord(shBytes[10:])...), "", typeServerHello},
		{"warning alert then hello", append(marshalRecords(recordAlert, TLS12, []byte{1, 112}), hsRecord(shBytes)...), "", typeServerHello},
		{"hello requests then hello", append(bytes.Repeat(hsRecord([]byte{0, 0, 0, 0}), 3), hsRecord(shBytes)...), "", typeServerHello},
		{"fatal alert", marshalRecords(recordAlert, TLS12, []byte{2, 40}), "handshake_failure", 0},
		{"endless hello requests", bytes.Repeat(hsRecord([]byte{0, 0, 0, 0}), 100), "more than 16 records that carry nothing", 0},
		{"endless empty records", bytes.Repeat([]byte{22, 3, 3, 0, 0}, 100), "more than 16 records", 0},
		{"gigantic record", []byte{22, 3, 3, 0xff, 0xff}, "record of 65535 bytes exceeds the 18432-byte limit", 0},
		{"gigantic message", hsRecord([]byte{11, 0xff, 0xff, 0xff}), "Certificate of 16777215 bytes exceeds the 262144-byte limit", 0},
		{"http", []byte("HTTP/1.1 400 Bad Request\r\n"), `not TLS: the server's first bytes are 48 54 54 50 2f ("HTTP/")`, 0},
		{"interleaved", append(hsRecord(shBytes[:10]), marshalRecords(recordAlert, TLS12, []byte{2, 40})...), "inside a fragmented handshake message", 0},
		{"truncated", hsRecord(shBytes)[:20], io.ErrUnexpectedEOF.Error(), 0},
		{"application data", marshalRecords(recordApplicationData, TLS12, []byte{1}), "unexpected record type 23", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rr := newRecordReader(bytes.NewReader(tt.stream), lim)
			msg, err := rr.readHandshake()
			if tt.wantErr == "" {
				if err != nil || msg[0] != tt.wantMsg {
					t.Fatalf("got %v, %v", msg, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
		})
	}
	rr := newRecordReader(bytes.NewReader(marshalRecords(recordChangeCipherSpec, TLS12, []byte{1})), lim)
	if _, err := rr.readHandshake(); !errors.Is(err, errChangeCipherSpec) {
		t.Errorf("ChangeCipherSpec: %v", err)
	}
}

// TestClientFinalFlight checks the record size model by hand (RFC 5246
// §6.2.3): 6 bytes of ChangeCipherSpec record, then a 5-byte header around
// the protected 16-byte Finished.
func TestClientFinalFlight(t *testing.T) {
	tests := []struct {
		suite uint16
		v     Version
		want  int
	}{
		{0xc02f, TLS12, 6 + 5 + 8 + 16 + 16}, // GCM: explicit nonce + tag
		{0xcca8, TLS12, 6 + 5 + 16 + 16},     // ChaCha20-Poly1305: tag only
		{0xc0a0, TLS12, 6 + 5 + 8 + 16 + 8},  // CCM_8
		{0x002f, TLS12, 6 + 5 + 16 + 48},     // IV 16, 16+20+1 padded to 48
		{0x002f, TLS10, 6 + 5 + 48},          // no explicit IV before TLS 1.1
		{0x003c, TLS12, 6 + 5 + 16 + 64},     // 16+32+1 padded to 64
		{0x000a, TLS11, 6 + 5 + 8 + 40},      // 3DES: IV 8, 16+20+1 padded to 40
		{0x0005, TLS12, 6 + 5 + 16 + 20},     // RC4: MAC only
	}
	for _, tt := range tests {
		s, _ := SuiteByID(tt.suite)
		got, err := clientFinalFlight(s, tt.v)
		if err != nil || got != tt.want {
			t.Errorf("%s %s: %d, %v; want %d", s.Name, tt.v, got, err, tt.want)
		}
	}
}
