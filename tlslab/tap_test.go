package tlslab

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"golang.org/x/crypto/cryptobyte"
)

func record(typ uint8, vers uint16, body []byte) []byte {
	return append([]byte{typ, byte(vers >> 8), byte(vers), byte(len(body) >> 8), byte(len(body))}, body...)
}

func hsMsg(typ uint8, body []byte) []byte {
	n := len(body)
	return append([]byte{typ, byte(n >> 16), byte(n >> 8), byte(n)}, body...)
}

func clientHelloBody(sessionID []byte, exts func(*cryptobyte.Builder)) []byte {
	var b cryptobyte.Builder
	b.AddUint16(VersionTLS12)
	b.AddBytes(make([]byte, 32))
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(sessionID) })
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint16(0xC02F); b.AddUint16(0x1301) })
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint8(0) })
	if exts != nil {
		b.AddUint16LengthPrefixed(exts)
	}
	return b.BytesOrPanic()
}

func serverHelloBody(sessionID []byte, suite uint16) []byte {
	var b cryptobyte.Builder
	b.AddUint16(VersionTLS12)
	b.AddBytes(bytes.Repeat([]byte{7}, 32))
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(sessionID) })
	b.AddUint16(suite)
	b.AddUint8(0)
	return b.BytesOrPanic()
}

// syntheticTLS12 is a TLS 1.2 full handshake written by hand: the server's
// first flight coalesced and fragmented across two records, so the
// attribution rules show: a record's header goes to the message holding
// its first byte.
func syntheticTLS12() (up, down []byte) {
	ch := hsMsg(TypeClientHello, clientHelloBody(nil, func(b *cryptobyte.Builder) {
		b.AddUint16(extSupportedGroups)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint16(2); b.AddUint16(0x001D) })
	}))
	sh := hsMsg(TypeServerHello, serverHelloBody(nil, 0xC02F))
	cert := hsMsg(TypeCertificate, bytes.Repeat([]byte{0xCE}, 600))
	ske := hsMsg(TypeServerKeyExchange, append([]byte{3, 0x00, 0x1D, 32}, make([]byte, 32+4+64)...))
	shd := hsMsg(TypeServerHelloDone, nil)
	flight := append(append(append(append([]byte{}, sh...), cert...), ske...), shd...)
	split := len(sh) + 100 // record 1: ServerHello and the first 96 bytes of Certificate
	down = append(down, record(ContentHandshake, VersionTLS12, flight[:split])...)
	down = append(down, record(ContentHandshake, VersionTLS12, flight[split:])...)
	cke := hsMsg(TypeClientKeyExchange, append([]byte{32}, make([]byte, 32)...))
	up = append(up, record(ContentHandshake, VersionTLS10, ch)...)
	up = append(up, record(ContentHandshake, VersionTLS12, cke)...)
	up = append(up, record(ContentChangeCipherSpec, VersionTLS12, []byte{1})...)
	up = append(up, record(ContentHandshake, VersionTLS12, make([]byte, 40))...) // encrypted Finished
	down = append(down, record(ContentChangeCipherSpec, VersionTLS12, []byte{1})...)
	down = append(down, record(ContentHandshake, VersionTLS12, make([]byte, 40))...)
	up = append(up, record(ContentApplicationData, VersionTLS12, make([]byte, 100))...)
	down = append(down, record(ContentApplicationData, VersionTLS12, make([]byte, 1000))...)
	down = append(down, record(ContentApplicationData, VersionTLS12, make([]byte, 500))...)
	down = append(down, record(ContentAlert, VersionTLS12, make([]byte, 26))...)
	return up, down
}

// captureOf turns two streams into a capture, one segment per record (and
// one for a cut-off tail), at the given times in ms (the last repeats).
func captureOf(up, down []byte, upAt, downAt []int) *Capture {
	c := &Capture{}
	for _, dir := range []result.Direction{result.Up, result.Down} {
		stream, times := up, upAt
		if dir == result.Down {
			stream, times = down, downAt
		}
		recs, _, _ := ParseRecords(stream)
		end := 0
		for i, r := range recs {
			at := time.Duration(times[min(i, len(times)-1)]) * time.Millisecond
			c.Observe(link.Segment{Dir: dir, Start: at, End: at, Arrive: at, Seq: int64(r.Offset),
				Payload: stream[r.Offset : r.Offset+r.Len()], WireBytes: r.Len() + link.TCPSegmentOverhead})
			end = r.Offset + r.Len()
		}
		if end < len(stream) {
			c.Observe(link.Segment{Dir: dir, Seq: int64(end), Payload: stream[end:], WireBytes: len(stream) - end + link.TCPSegmentOverhead})
		}
	}
	return c
}

// Record times of syntheticTLS12: CH | SH…SHD | CKE CCS Fin | CCS Fin | data.
var synthUpAt, synthDownAt = []int{0, 2, 2, 2, 4}, []int{1, 1, 3, 3, 5, 5, 6}

func TestAnalyzeSynthetic(t *testing.T) {
	up, down := syntheticTLS12()
	a, err := Analyze(captureOf(up, down, synthUpAt, synthDownAt), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range a.Messages {
		got[string(m.Dir)+" "+m.Name] += m.Bytes
	}
	shLen := 4 + len(serverHelloBody(nil, 0xC02F))
	want := map[string]int{
		"up ClientHello":         5 + 4 + len(clientHelloBody(nil, func(b *cryptobyte.Builder) {})) + 10,
		"up ClientKeyExchange":   5 + 4 + 33,
		"up ChangeCipherSpec":    6,
		"up Finished":            45,
		"up ApplicationData":     105,
		"down ServerHello":       5 + shLen,
		"down Certificate":       604 + 5, // its own bytes, and the header of the record it continues in
		"down ServerKeyExchange": 4 + 104,
		"down ServerHelloDone":   4,
		"down ChangeCipherSpec":  6,
		"down Finished":          45,
		"down ApplicationData":   1005 + 505,
		"down Alert(encrypted)":  31,
	}
	// The empty extension list adds 2 bytes of length in the helper
	// call above; the real one has 10 bytes of extension.
	want["up ClientHello"] = 5 + 4 + len(clientHelloBody(nil, func(b *cryptobyte.Builder) {
		b.AddUint16(extSupportedGroups)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint16(2); b.AddUint16(0x001D) })
	}))
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d B, want %d", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("messages %v, want %v", got, want)
	}
	if a.Up.All() != len(up) || a.Down.All() != len(down) {
		t.Errorf("totals %d/%d, streams %d/%d", a.Up.All(), a.Down.All(), len(up), len(down))
	}
	if a.Version != VersionTLS12 || a.CipherSuite != 0xC02F || a.Group != "X25519" || a.Resumed {
		t.Errorf("hellos: version %#x suite %#x group %q resumed %v", a.Version, a.CipherSuite, a.Group, a.Resumed)
	}
	// Flights: CH | SH..SHD | CKE,CCS,Fin | CCS,Fin | ... two server
	// flights before the client may send data.
	if a.RoundTrips != 2 || a.HandshakeDone == 0 {
		t.Errorf("%d round trips, done at %v", a.RoundTrips, a.HandshakeDone)
	}
	// A stream cut inside a record: the tail is reported, not guessed.
	a, err = Analyze(captureOf(up, down[:len(down)-10], synthUpAt, synthDownAt), nil)
	if err != nil || a.TruncatedDown == 0 {
		t.Errorf("truncated: %v, tail %d", err, a.TruncatedDown)
	}
}

func TestParseHellos(t *testing.T) {
	sid := bytes.Repeat([]byte{9}, 32)
	ch, err := ParseClientHello(clientHelloBody(sid, func(b *cryptobyte.Builder) {
		b.AddUint16(extSupportedVersions)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint16(VersionTLS13); b.AddUint16(VersionTLS12) })
		})
		b.AddUint16(extKeyShare)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
				b.AddUint16(0x11EC)
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(make([]byte, 1216)) })
			})
		})
		b.AddUint16(extPSKKeyExchangeModes)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddUint8(1) })
		})
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ch.SessionID, sid) || len(ch.SupportedVersions) != 2 || ch.KeyShares[0] != 0x11EC || ch.PSKModes[0] != 1 || len(ch.CipherSuites) != 2 {
		t.Errorf("ClientHello %+v", ch)
	}
	for _, bad := range [][]byte{nil, {3, 3}, clientHelloBody(nil, nil)[:40]} {
		if _, err := ParseClientHello(bad); err == nil {
			t.Errorf("ParseClientHello(%x) accepted", bad)
		}
	}
	hrr := serverHelloBody(nil, 0x1301)
	copy(hrr[2:34], helloRetryRandom[:])
	sh, err := ParseServerHello(hrr)
	if err != nil || !sh.HelloRetryRequest {
		t.Errorf("HelloRetryRequest not recognised: %+v %v", sh, err)
	}
}

func TestParseRecordsErrors(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		tail int
		err  bool
	}{
		{record(22, 0x0303, []byte{1, 2}), 0, false},
		{record(22, 0x0303, []byte{1, 2})[:6], 6, false},
		{[]byte{22, 3}, 2, false},
		{[]byte("GET / HTTP/1.1\r\n"), 0, true},
		{[]byte{22, 0x04, 0x00, 0, 1, 0}, 0, true},
		{[]byte{23, 3, 3, 0xff, 0xff}, 0, true}, // longer than any record
	} {
		_, tail, err := ParseRecords(tc.in)
		if (err != nil) != tc.err || !tc.err && tail != tc.tail {
			t.Errorf("ParseRecords(%x): tail %d, err %v; want tail %d, error %v", tc.in, tail, err, tc.tail, tc.err)
		}
	}
}

// seedStreams are real TLS streams recorded by the lab (testdata/streams,
// rewritten with -update): the fuzz targets' seeds.
func seedStreams(f *testing.F) [][2][]byte {
	f.Helper()
	names, _ := filepath.Glob("testdata/streams/*.up")
	var out [][2][]byte
	for _, n := range names {
		up, err1 := os.ReadFile(n)
		down, err2 := os.ReadFile(n[:len(n)-3] + ".down")
		if err1 != nil || err2 != nil {
			f.Fatalf("seed stream %s: %v %v", n, err1, err2)
		}
		out = append(out, [2][]byte{up, down})
	}
	if len(out) == 0 {
		f.Fatal("no seed streams in testdata/streams (run go test -run TestWriteSeedStreams -update)")
	}
	return out
}

// FuzzAnalyze: any byte streams either fail to parse as TLS with an error
// or are attributed completely: every byte to exactly one message.
func FuzzAnalyze(f *testing.F) {
	for _, s := range seedStreams(f) {
		f.Add(s[0], s[1])
	}
	up, down := syntheticTLS12()
	f.Add(up, down)
	f.Fuzz(func(t *testing.T, up, down []byte) {
		c := &Capture{}
		c.Observe(link.Segment{Dir: result.Up, Payload: up, WireBytes: len(up) + link.TCPSegmentOverhead})
		c.Observe(link.Segment{Dir: result.Down, Payload: down, Arrive: time.Millisecond, WireBytes: len(down) + link.TCPSegmentOverhead})
		a, err := Analyze(c, nil)
		if err != nil {
			return
		}
		if a.Up.All()+a.TruncatedUp != len(up) || a.Down.All()+a.TruncatedDown != len(down) {
			t.Fatalf("attributed %d+%d up, %d+%d down of %d and %d bytes", a.Up.All(), a.TruncatedUp, a.Down.All(), a.TruncatedDown, len(up), len(down))
		}
	})
}

// FuzzParseHandshake: the hello parsers never panic and reject what they
// cannot read.
func FuzzParseHandshake(f *testing.F) {
	for _, s := range seedStreams(f) {
		recs, _, _ := ParseRecords(s[0])
		if len(recs) > 0 {
			f.Add(recs[0].Fragment)
		}
		recs, _, _ = ParseRecords(s[1])
		if len(recs) > 0 {
			f.Add(recs[0].Fragment)
		}
	}
	f.Add(unhex(f, rfc8448ClientHello))
	f.Add(unhex(f, rfc8448ServerHello))
	f.Fuzz(func(t *testing.T, b []byte) {
		msgs, rest := ParseHandshakeMessages(b)
		n := len(rest)
		for _, m := range msgs {
			n += m.Len()
			ParseClientHello(m.Body)
			if sh, err := ParseServerHello(m.Body); err == nil {
				checkPSKServerHello(sh, &pskClientHello{})
			}
			checkEncryptedExtensions(m.Body)
		}
		if n != len(b) {
			t.Fatalf("messages cover %d of %d bytes", n, len(b))
		}
	})
}

func FuzzKeyLog(f *testing.F) {
	f.Add([]byte("CLIENT_RANDOM 00 11\n# comment\n"))
	f.Add([]byte("SERVER_HANDSHAKE_TRAFFIC_SECRET 0102 aabbcc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := ParseKeyLog(b)
		if err == nil && k == nil {
			t.Fatal("nil key log without an error")
		}
	})
}
