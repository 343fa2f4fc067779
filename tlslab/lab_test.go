package tlslab

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

var update = flag.Bool("update", false, "rewrite testdata (fuzz seed streams)")

// lab is shared by the tests: its PKI generates each key kind once.
var lab *Lab

func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	lab, err = New(Options{Repeat: 1, Timeout: time.Minute})
	if err != nil {
		panic(err)
	}
	code := m.Run()
	lab.Close()
	os.Exit(code)
}

func needOpenSSL(t *testing.T) {
	t.Helper()
	if _, err := opensslVersion(); err != nil {
		// scripts/deps/tls.txt installs it; a test that cannot run its peer fails loudly.
		t.Fatalf("OpenSSL is needed: %v", err)
	}
}

// checkAccounting asserts that every byte of both streams is attributed to
// exactly one message and that the totals add up.
func checkAccounting(t *testing.T, conn *Conn) {
	t.Helper()
	a := conn.Analysis
	up, down := conn.Capture.Streams()
	sum := map[result.Direction]int{}
	for _, m := range a.Messages {
		sum[m.Dir] += m.Bytes
	}
	if sum[result.Up] != len(up)-a.TruncatedUp || sum[result.Down] != len(down)-a.TruncatedDown {
		t.Errorf("messages hold %d B up and %d B down; the streams have %d and %d", sum[result.Up], sum[result.Down], len(up), len(down))
	}
	if a.Up.All() != len(up) || a.Down.All() != len(down) {
		t.Errorf("totals %d/%d, streams %d/%d", a.Up.All(), a.Down.All(), len(up), len(down))
	}
	if a.TruncatedUp != 0 || a.TruncatedDown != 0 {
		t.Errorf("truncated streams: %d up, %d down", a.TruncatedUp, a.TruncatedDown)
	}
	for _, m := range a.Messages {
		if m.Name == "Encrypted" || m.Name == "EncryptedHandshake" || m.Name == "IncompleteHandshake" || strings.HasPrefix(m.Name, "Handshake(") {
			t.Errorf("message %q not attributed (keys %d B)", m.Name, len(conn.KeyLog))
		}
	}
}

// TestPresetCells makes a real handshake (and transfer) for every cell of
// every preset, checking on the wire that it is what the cell asked for
// (Lab.check: version, suite, group, resumption, client authentication,
// payload, and the tap's byte counts against the kernel's) and that every
// byte is attributed.
func TestPresetCells(t *testing.T) {
	for _, p := range Presets {
		t.Run(p.Name, func(t *testing.T) {
			cells := p.Dimensions.Cells()
			if p.Dimensions.Server == "openssl" || p.Dimensions.Client == "openssl" {
				needOpenSSL(t)
			}
			for _, c := range cells {
				t.Run(strings.ReplaceAll(c.Name(), "/", "_"), func(t *testing.T) {
					t.Parallel()
					run := lab.Run(context.Background(), c)
					if run.Err != nil {
						t.Fatal(run.Err)
					}
					if len(run.Conns) != 1 {
						t.Fatalf("%d connections", len(run.Conns))
					}
					if !c.Plain {
						checkAccounting(t, run.Conns[0])
					}
					r := lab.Result(run)
					if r.Error != "" || r.Metric(MetricBytesUp) == nil || r.Trace == nil || len(r.Trace.Packets) == 0 {
						t.Errorf("result: error %q, %d metrics, trace %v", r.Error, len(r.Metrics), r.Trace != nil)
					}
				})
			}
		})
	}
}

// TestInterop: Go's client against OpenSSL's server and OpenSSL's client
// against Go's server, in both protocol versions and several resumptions.
func TestInterop(t *testing.T) {
	needOpenSSL(t)
	cells := []Cell{
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkChaCha20, Cert: CertEd25519, Chain: 1, Resumption: ResumePSK, Transfer: 5000, Direction: Down, Server: "openssl", Client: "go"},
		{Version: TLS13, KeyExchange: KexP256, Bulk: BulkAES256GCM, Cert: CertECDSAP384, Chain: 3, ClientAuth: true, Resumption: ResumePSK, Transfer: 5000, Direction: Up, Server: "go", Client: "openssl"},
		{Version: TLS12, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertRSA2048, Chain: 2, ClientAuth: true, Resumption: ResumeTicket, Direction: Down, Server: "openssl", Client: "go"},
		{Version: TLS12, KeyExchange: KexRSA, Bulk: BulkAES256CBC, Cert: CertRSA2048, Chain: 1, Resumption: ResumeTicket, Transfer: 3000, Direction: Down, Server: "go", Client: "openssl"},
		{Version: TLS10, KeyExchange: KexP256, Bulk: BulkAES128CBC, Cert: CertECDSAP256, Chain: 1, Resumption: ResumeNone, Direction: Down, Server: "go", Client: "openssl"},
		{Version: TLS13, KeyExchange: KexDHE, Bulk: BulkAES128GCM, Cert: CertRSA2048, Chain: 1, Resumption: ResumeNone, Direction: Down, Server: "openssl", Client: "openssl"},
	}
	for _, c := range cells {
		t.Run(strings.ReplaceAll(c.Name(), "/", "_"), func(t *testing.T) {
			t.Parallel()
			run := lab.Run(context.Background(), c)
			if run.Err != nil {
				t.Fatal(run.Err)
			}
			checkAccounting(t, run.Conns[0])
			if !run.Conns[0].Analysis.Decrypted && c.Version == TLS13 {
				t.Errorf("TLS 1.3 records were not decrypted with the logged keys")
			}
		})
	}
}

// TestAccountingAgainstPcap runs cells over a lossy emulated link, writes
// each connection as pcapng and reads it back with gopacket: the capture's
// payload streams must be the TLS bytes the tap saw (which the lab already
// checked against the kernel's socket counters), and its packet and byte
// counts the modelled ones of the result's trace and metrics.
func TestAccountingAgainstPcap(t *testing.T) {
	needOpenSSL(t)
	p, err := link.ParseSpec("latency=2ms,rate=20Mbit/s,loss=0.03,mtu=576")
	if err != nil {
		t.Fatal(err)
	}
	llab, err := New(Options{Repeat: 1, Link: &p, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer llab.Close()
	cells := []Cell{
		{Version: TLS13, KeyExchange: KexX25519MLKEM768, Bulk: BulkAES128GCM, Cert: CertRSA2048, Chain: 2, Resumption: ResumeNone, Transfer: 20000, Direction: Down, Server: "go", Client: "go"},
		{Version: TLS12, KeyExchange: KexP256, Bulk: BulkChaCha20, Cert: CertECDSAP256, Chain: 1, Resumption: ResumeNone, Transfer: 20000, Direction: Up, Server: "openssl", Client: "openssl"},
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumePSKOnly, Transfer: 20000, Direction: Up, Server: "openssl", Client: "go"},
		{Plain: true, Transfer: 20000, Direction: Down},
	}
	for _, c := range cells {
		run := llab.Run(context.Background(), c)
		if run.Err != nil {
			t.Fatal(run.Err)
		}
		conn := run.Conns[0]
		var buf bytes.Buffer
		if err := conn.WritePcapng(&buf, "test"); err != nil {
			t.Fatal(err)
		}
		pc, err := link.ReadPcapng(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		up, down := conn.Capture.Streams()
		if !bytes.Equal(pc.Up, up) || !bytes.Equal(pc.Down, down) {
			t.Errorf("%s: pcapng payload %d/%d B, the tap's streams %d/%d B", c.Name(), len(pc.Up), len(pc.Down), len(up), len(down))
		}
		r := llab.Result(run)
		for _, chk := range []struct {
			metric string
			got    float64
		}{
			{MetricBytesUp, float64(len(pc.Up))}, {MetricBytesDown, float64(len(pc.Down))},
			{MetricWireBytesUp, float64(pc.UpWireBytes)}, {MetricWireBytesDown, float64(pc.DownWireBytes)},
			{MetricPacketsUp, float64(pc.UpPackets)}, {MetricPacketsDown, float64(pc.DownPackets)},
		} {
			if m := r.Metric(chk.metric); m == nil || m.Summary.Median != chk.got {
				t.Errorf("%s: %s = %v, the pcapng says %v", c.Name(), chk.metric, m, chk.got)
			}
		}
		tu, td, tpu, tpd := r.Trace.Totals()
		if int64(tu) != pc.UpWireBytes || int64(td) != pc.DownWireBytes || tpu != pc.UpPackets || tpd != pc.DownPackets {
			t.Errorf("%s: trace %d/%d B %d/%d packets, pcapng %d/%d B %d/%d packets", c.Name(), tu, td, tpu, tpd,
				pc.UpWireBytes, pc.DownWireBytes, pc.UpPackets, pc.DownPackets)
		}
		lost := 0
		for _, s := range conn.Capture.Segments() {
			if s.Lost {
				lost++
			}
		}
		t.Logf("%s: %d segments lost and retransmitted; handshake %v", c.Name(), lost, r.Metric(MetricConnectionTime).Summary.Median)
		if !c.Plain {
			checkAccounting(t, conn)
		}
	}
}

// TestTLS13WithoutKeys: without the key log the TLS 1.3 handshake is
// attributed by flight, and still completely.
func TestTLS13WithoutKeys(t *testing.T) {
	c := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 1, Resumption: ResumeNone, Transfer: 100, Direction: Down, Server: "go", Client: "go"}
	run := lab.Run(context.Background(), c)
	if run.Err != nil {
		t.Fatal(run.Err)
	}
	a, err := Analyze(run.Conns[0].Capture, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, m := range a.Messages {
		names[m.Name]++
	}
	if names["EncryptedHandshake"] < 2 || names["Certificate"] != 0 || a.RoundTrips != 1 || a.HandshakeDone == 0 || a.Decrypted {
		t.Errorf("without keys: %v, %d round trips, done at %v, decrypted %v", names, a.RoundTrips, a.HandshakeDone, a.Decrypted)
	}
	up, down := run.Conns[0].Capture.Streams()
	if a.Up.All() != len(up) || a.Down.All() != len(down) {
		t.Errorf("totals %d/%d, streams %d/%d", a.Up.All(), a.Down.All(), len(up), len(down))
	}
}

func TestImpossibleCells(t *testing.T) {
	base := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumeNone, Direction: Down, Server: "go", Client: "go"}
	for _, tc := range []struct {
		name string
		mod  func(*Cell)
		want []string
	}{
		{"rsa in 1.3", func(c *Cell) { c.KeyExchange = KexRSA }, []string{"RSA key transport does not exist in TLS 1.3", "--kex ecdhe-p256,x25519,x25519mlkem768"}},
		{"dhe with go", func(c *Cell) { c.KeyExchange = KexDHE }, []string{"no finite-field DHE", "--server openssl --client openssl"}},
		{"mlkem in 1.2", func(c *Cell) { c.Version, c.KeyExchange = TLS12, KexX25519MLKEM768 }, []string{"TLS 1.3 key share", "--version 1.3"}},
		{"cbc in 1.3", func(c *Cell) { c.Bulk = BulkAES128CBC }, []string{"no TLS 1.3 cipher suite", "--bulk aes128-gcm"}},
		{"session-id in 1.3", func(c *Cell) { c.Resumption = ResumeSessionID }, []string{"TLS 1.2's", "--resumption none,psk"}},
		{"session-id with go", func(c *Cell) { c.Version, c.Resumption = TLS12, ResumeSessionID }, []string{"not session IDs", "--server openssl --client openssl"}},
		{"chacha 1.3 go/go", func(c *Cell) { c.Bulk = BulkChaCha20 }, []string{"cannot", "--server openssl"}},
		{"ed25519 in 1.0", func(c *Cell) { c.Version, c.Cert, c.Bulk = TLS10, CertEd25519, BulkAES128CBC }, []string{"Ed25519 certificates need TLS 1.2"}},
		{"chain 4", func(c *Cell) { c.Chain = 4 }, []string{"chains of 1 to 3"}},
		{"unknown peer", func(c *Cell) { c.Server = "boringssl" }, []string{"unknown peer", "go, openssl"}},
		{"psk-ke with a go server", func(c *Cell) { c.Resumption = ResumePSKOnly },
			[]string{"a crypto/tls server accepts only psk_dhe_ke", "--server openssl --client go"}},
		{"psk-ke with s_client", func(c *Cell) { c.Resumption, c.Server, c.Client = ResumePSKOnly, "openssl", "openssl" },
			[]string{"s_client offers both modes", "--client go offers psk_ke alone", "--server openssl --client go"}},
		{"psk-ke in 1.2", func(c *Cell) { c.Version, c.Resumption, c.Server = TLS12, ResumePSKOnly, "openssl" },
			[]string{`resumption "psk-ke" is TLS 1.3's`, "--version 1.3"}},
	} {
		if v, err := opensslVersion(); tc.name == "psk-ke with s_client" && (err != nil || v.atLeast(3, 3)) {
			continue // an OpenSSL 3.3+ server prefers psk_ke when asked
		}
		c := base
		tc.mod(&c)
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if w == "cannot" {
				w = "TLS 1.3 cipher suites be configured"
			}
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
	if err := base.Validate(); err != nil {
		t.Errorf("the base cell: %v", err)
	}
}

// TestOpenSSLFailureShowsStderr: a server that fails to start is reported
// with its stderr (a stand-in openssl on PATH that fails like a broken
// install would).
func TestOpenSSLFailureShowsStderr(t *testing.T) {
	needOpenSSL(t)
	dir := t.TempDir()
	script := "#!/bin/sh\necho 'stand-in openssl: s_server refuses to start' >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, "openssl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := Cell{Version: TLS12, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 1, Resumption: ResumeNone, Direction: Down, Server: "openssl", Client: "go"}
	run := lab.Run(context.Background(), c)
	if run.Err == nil || !strings.Contains(run.Err.Error(), "s_server refuses to start") {
		t.Errorf("error %v, want the peer's stderr", run.Err)
	}
}

// TestHostileServer: a server that answers garbage, or nothing, neither
// hangs the client nor passes the tap. The servers hold their connections
// until the client closes, so what ends each run is the client: its
// parser for garbage (a long deadline the garbage comes well before),
// its context's deadline for silence (a client that ignored it would
// hang this test). No duration is asserted.
func TestHostileServer(t *testing.T) {
	c := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 1, Resumption: ResumeNone, Direction: Down, Server: "go", Client: "go"}
	cl, err := goPeer{}.NewClient(lab.env, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		behaviour string
		deadline  time.Duration
		timedOut  bool // the error must be the deadline's
	}{
		{"garbage", time.Minute, false},
		{"silence", 500 * time.Millisecond, true},
	} {
		ln := listenHostile(t, tc.behaviour)
		capture := &Capture{}
		w := &Watch{capture: capture, accepted: make(chan struct{})}
		ctx, cancel := context.WithTimeout(context.Background(), tc.deadline)
		pc := cl.Run(ctx, ln, ConnPlan{Cell: c}, w)
		cancel()
		timedOut := errors.Is(pc.Err, os.ErrDeadlineExceeded) || errors.Is(pc.Err, context.DeadlineExceeded)
		if pc.Err == nil || timedOut != tc.timedOut {
			t.Errorf("%s: error %v, want one (from the deadline: %v)", tc.behaviour, pc.Err, tc.timedOut)
		}
	}
	// The tap refuses a stream that is not TLS.
	cap := &Capture{}
	cap.Observe(link.Segment{Dir: result.Down, Payload: []byte("HTTP/1.1 400 Bad Request\r\n\r\n")})
	if _, err := Analyze(cap, nil); err == nil || !strings.Contains(err.Error(), "not a TLS record stream") {
		t.Errorf("Analyze(HTTP) error %v", err)
	}
}

func listenHostile(t *testing.T, behaviour string) string {
	t.Helper()
	ln, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if behaviour == "garbage" {
					c.Write(bytes.Repeat([]byte{0x16, 0x03, 0x03, 0xff, 0xff}, 1000))
				}
				io.Copy(io.Discard, c) // until the client closes
			}()
		}
	}()
	return ln.Addr().String()
}

// TestWriteSeedStreams records real TLS streams as the fuzz targets'
// seed corpus (with -update).
func TestWriteSeedStreams(t *testing.T) {
	if !*update {
		t.Skip("rewrites testdata/streams with -update")
	}
	needOpenSSL(t)
	cells := map[string]Cell{
		"tls13-go":        {Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, ClientAuth: true, Resumption: ResumeNone, Transfer: 200, Direction: Down, Server: "go", Client: "go"},
		"tls12-go-ticket": {Version: TLS12, KeyExchange: KexP256, Bulk: BulkAES128CBC, Cert: CertRSA1024, Chain: 1, Resumption: ResumeTicket, Transfer: 200, Direction: Up, Server: "go", Client: "go"},
		"tls10-openssl":   {Version: TLS10, KeyExchange: KexDHE, Bulk: BulkAES256CBC, Cert: CertRSA1024, Chain: 2, ClientAuth: true, Resumption: ResumeNone, Direction: Down, Server: "openssl", Client: "openssl"},
	}
	if err := os.MkdirAll("testdata/streams", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, c := range cells {
		run := lab.Run(context.Background(), c)
		if run.Err != nil {
			t.Fatal(run.Err)
		}
		up, down := run.Conns[0].Capture.Streams()
		os.WriteFile(filepath.Join("testdata/streams", name+".up"), up, 0o644)
		os.WriteFile(filepath.Join("testdata/streams", name+".down"), down, 0o644)
	}
}
