package probe

// Fuzz targets for every parser the probe points at a server's bytes.
// Seed corpora are in testdata/fuzz/<Target>; `go test -run
// TestFuzzSeeds -update-fuzz-seeds` rewrites them from marshalled
// messages and crypto/tls's recorded OpenSSL handshakes. Run one with
// e.g. `go test -fuzz FuzzRecordReader -fuzztime 1m ./probe`.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite testdata/fuzz seed corpora")

func FuzzClientHello(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var ch ClientHello
		if ch.Unmarshal(data) != nil {
			return
		}
		b, err := ch.Marshal()
		if err != nil {
			t.Fatalf("re-marshal: %v", err)
		}
		var again ClientHello
		if err := again.Unmarshal(b); err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if !reflect.DeepEqual(ch, again) {
			t.Fatalf("not stable:\n%+v\n%+v", ch, again)
		}
	})
}

func FuzzServerHello(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var sh ServerHello
		if sh.Unmarshal(data) != nil {
			return
		}
		sh.Negotiated()
		sh.DowngradeSentinel()
		b, err := sh.Marshal()
		if err != nil {
			t.Fatalf("re-marshal: %v", err)
		}
		var again ServerHello
		if err := again.Unmarshal(b); err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if !reflect.DeepEqual(sh, again) {
			t.Fatalf("not stable:\n%+v\n%+v", sh, again)
		}
	})
}

func FuzzCertificate(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, tls13 bool) {
		c := Certificate{TLS13: tls13}
		if c.Unmarshal(data) != nil {
			return
		}
		var ders [][]byte
		for _, e := range c.Entries {
			ders = append(ders, e.DER)
		}
		newChain("fuzz", TLS12, ders, len(data), nil, "example.com", time.Unix(0, 0))
		b, err := c.Marshal()
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("re-marshal differs (%v)", err)
		}
	})
}

func FuzzServerKeyExchange(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, suite uint16, version uint16) {
		s, _ := SuiteByID(suite)
		ske, err := parseServerKeyExchange(data, s, Version(version))
		if err != nil {
			return
		}
		primeName(ske.P)
		primeBits(ske.P)
		if _, err := ske.Marshal(); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzNewSessionTicket(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, tls13 bool) {
		m := NewSessionTicket{TLS13: tls13}
		if m.Unmarshal(data) != nil {
			return
		}
		if b, err := m.Marshal(); err != nil || !bytes.Equal(b, data) {
			t.Fatalf("re-marshal differs (%v)", err)
		}
	})
}

// FuzzRecordReader feeds a server's whole answer to the reader the probe
// uses on every connection, and to the tap labeller.
func FuzzRecordReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, stream []byte) {
		lim := DefaultLimits()
		lim.MaxMessage = 1 << 12
		rr := newRecordReader(bytes.NewReader(stream), lim)
		for i := 0; i < 1000; i++ {
			msg, err := rr.readHandshake()
			if err != nil {
				break
			}
			if len(msg) < 4 || len(msg) > 4+lim.MaxMessage {
				t.Fatalf("message of %d bytes", len(msg))
			}
		}
		events := []ioEvent{{at: 1, dir: result.Up, data: []byte{22, 3, 1, 0, 0}}, {at: 2, dir: result.Down, data: stream}}
		c := measureConn(events, 1, 3, plainLabels(func(result.Direction, int) string { return "encrypted" }))
		if c.bytesDown != len(stream) {
			t.Fatalf("bytes down %d, want %d", c.bytesDown, len(stream))
		}
	})
}

// FuzzTLS13Records feeds a stream to the TLS 1.3 decryptor; with a made-up
// key log it must fail cleanly on every record.
func FuzzTLS13Records(f *testing.F) {
	f.Fuzz(func(t *testing.T, stream []byte, suite uint16) {
		kl := &keyLog{}
		fmt.Fprintf(kl, "SERVER_HANDSHAKE_TRAFFIC_SECRET 00 %x\n", bytes.Repeat([]byte{1}, 48))
		readServer13(stream, suite, kl)
	})
}

// seedCorpus is what TestFuzzSeeds writes: target -> named inputs.
func seedCorpus(t *testing.T) map[string]map[string][]any {
	t.Helper()
	seeds := map[string]map[string][]any{}
	add := func(target, name string, args ...any) {
		if seeds[target] == nil {
			seeds[target] = map[string][]any{}
		}
		seeds[target][name] = args
	}
	var random [32]byte
	for i, ch := range []ClientHello{
		{Version: SSL30, Random: random, CipherSuites: []uint16{0x0035}, Compression: []uint8{0}, NoExtensions: true},
		{Version: TLS12, Random: random, CipherSuites: []uint16{0x1301, 0xc02f}, Compression: []uint8{0}, ServerName: "example.com",
			SupportedVersions: []Version{TLS13, TLS12}, SupportedGroups: []uint16{0x11ec, 29}, EmptyKeyShare: true,
			SignatureSchemes: []uint16{0x0804}, StatusRequest: true, SessionTicket: true, RenegotiationInfo: true},
	} {
		b, _ := ch.Marshal()
		add("FuzzClientHello", fmt.Sprintf("probe-%d", i), b)
	}
	for i, sh := range []ServerHello{
		{Version: TLS12, CipherSuite: 0xc02f, SessionID: []byte{1, 2}, RenegotiationInfo: []byte{}, SessionTicket: true},
		{Version: TLS12, Random: helloRetryRequestRandom, CipherSuite: 0x1301, SupportedVersion: TLS13, SelectedGroup: 0x11ec},
		{Version: TLS12, CipherSuite: 0x1302, SupportedVersion: TLS13, KeyShare: KeyShare{Group: 29, Data: bytes.Repeat([]byte{9}, 32)}},
	} {
		b, _ := sh.Marshal()
		add("FuzzServerHello", fmt.Sprintf("probe-%d", i), b)
	}
	c13, _ := (&Certificate{TLS13: true, Entries: []CertificateEntry{{DER: []byte{0x30, 0}, Extensions: []Extension{{Type: 5, Data: []byte{1, 0, 0, 1, 7}}}}}}).Marshal()
	add("FuzzCertificate", "tls13-ocsp", c13, true)
	dheRSA, _ := SuiteByID(0x009e)
	ske, _ := (&ServerKeyExchange{Kex: KexDHE, P: []byte{0xff}, G: []byte{2}, Y: []byte{3}, Signed: true, TLS12: true, SignatureScheme: 0x0804, Signature: []byte{1}}).Marshal()
	add("FuzzServerKeyExchange", "dhe", ske, dheRSA.ID, uint16(TLS12))
	for i, m := range []NewSessionTicket{{Lifetime: 7200, Ticket: []byte{1}}, {TLS13: true, Lifetime: 7200, Nonce: []byte{0}, Ticket: []byte{1}}} {
		b, _ := m.Marshal()
		add("FuzzNewSessionTicket", fmt.Sprintf("probe-%d", i), b, m.TLS13)
	}
	// Real OpenSSL flights, recorded by crypto/tls's tests.
	for _, name := range []string{"Client-TLSv12-ECDHE-RSA-AES", "Client-TLSv12-AES128-GCM-SHA256", "Client-TLSv10-RSA-RC4",
		"Client-TLSv13-AES128-SHA256", "Client-TLSv13-HelloRetryRequest"} {
		client, server := goRecording(t, name)
		add("FuzzRecordReader", name, server)
		add("FuzzTLS13Records", name, server, uint16(0x1301))
		recs, _ := splitRecords(client)
		add("FuzzClientHello", name, recs[0].payload)
		rr := newRecordReader(bytes.NewReader(server), DefaultLimits())
		for i := 0; i < 8; i++ {
			msg, err := rr.readHandshake()
			if err != nil {
				break
			}
			switch msg[0] {
			case typeServerHello:
				add("FuzzServerHello", name, msg)
			case typeCertificate:
				add("FuzzCertificate", name, msg, false)
			case typeServerKeyExchange:
				add("FuzzServerKeyExchange", name, msg, uint16(0xc013), uint16(TLS12))
			}
		}
	}
	add("FuzzRecordReader", "hello-requests", bytes.Repeat([]byte{22, 3, 3, 0, 4, 0, 0, 0, 0}, 20))
	add("FuzzRecordReader", "http", []byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
	return seeds
}

// TestFuzzSeeds checks the committed seed corpora are there (and rewrites
// them with -update-fuzz-seeds).
func TestFuzzSeeds(t *testing.T) {
	for target, inputs := range seedCorpus(t) {
		dir := filepath.Join("testdata", "fuzz", target)
		for name, args := range inputs {
			file := filepath.Join(dir, name)
			if *updateSeeds {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, marshalCorpus(args...), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("seed %s missing (go test -run TestFuzzSeeds -update-fuzz-seeds ./probe): %v", file, err)
			}
		}
	}
}

// marshalCorpus writes a corpus file in go test's "go test fuzz v1"
// format.
func marshalCorpus(args ...any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%s)\n", strconv.Quote(string(v)))
		case bool:
			fmt.Fprintf(&b, "bool(%v)\n", v)
		case uint16:
			fmt.Fprintf(&b, "uint16(%d)\n", v)
		}
	}
	return b.Bytes()
}
