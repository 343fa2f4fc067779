package remotesign

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
)

// newScenario parses args as the command line would.
func newScenario(t *testing.T, args ...string) *Scenario {
	t.Helper()
	s := &Scenario{}
	if err := scenario.Configure(s, args...); err != nil {
		t.Fatal(err)
	}
	return s
}

func metricMedian(t *testing.T, r result.Result, name string) float64 {
	t.Helper()
	m := r.Metric(name)
	if m == nil {
		t.Fatalf("%s has no metric %s (warnings %v)", r.Subject.Name, name, r.Warnings)
	}
	return m.Summary.Median
}

// The whole scenario end to end over an emulated WiFi link, priced on
// S001's phone: every connection measured and its bytes checked, the
// latency split adds up, the packet trace is the signer's, energy per
// signature is V·I·t with the phone's signing current, and the radio
// prices the trace.
func TestScenarioEndToEnd(t *testing.T) {
	s := newScenario(t, "--schemes", "ECDSA-P256-SHA256,RSA-2048-PSS-SHA256,Ed25519", "--docs", "1k,20k",
		"--repeats", "3", "--signer-speed", "4", "--calibrations", t.TempDir())
	wifi, err := link.Lookup("wifi")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	run, err := s.Run(context.Background(), scenario.Env{Link: &wifi, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Complete {
		t.Fatalf("status %s: %v\n%s", run.Status, run.Errors, log.String())
	}
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	var scen, refs int
	for _, r := range run.Results {
		switch r.Subject.Kind {
		case SubjectKind:
			scen++
		case "imported":
			refs++
			continue
		}
		p := r.Subject.Params
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Subject.Name, r.Error)
		}
		if got := metricMedian(t, r, MetricLatency); got < metricMedian(t, r, MetricServer) {
			t.Errorf("%s: latency %v below the signer's time", r.Subject.Name, got)
		}
		if n := r.Metric(MetricLatency).Summary.N; n != 3 {
			t.Errorf("%s: %d samples, want 3", r.Subject.Name, n)
		}
		req := metricMedian(t, r, MetricRequestBytes)
		if want := float64(RequestBytes(r.Subject.Scheme, r.Subject.InputBytes)); req != want {
			t.Errorf("%s: request %v B, want %v", r.Subject.Name, req, want)
		}
		rx, tx := metricMedian(t, r, MetricPayloadReceived), metricMedian(t, r, MetricPayloadSent)
		if p["tls"] == "0" && (rx != req || tx != metricMedian(t, r, MetricResponseBytes)) {
			t.Errorf("%s: stream %v/%v B, frames %v/%v", r.Subject.Name, rx, tx, req, metricMedian(t, r, MetricResponseBytes))
		}
		if p["tls"] == "1" {
			// TLS 1.3 AES-GCM: 5 B header + 1 B inner type + 16 B tag per
			// record of at most 2^14 B (RFC 8446 §5.2).
			records := math.Ceil(req / 16384)
			if got := metricMedian(t, r, MetricRecordOverheadRx); got != 22*records {
				t.Errorf("%s: TLS overhead on the request %v B, want %v (22 B × %v records)", r.Subject.Name, got, 22*records, records)
			}
			if metricMedian(t, r, MetricHandshake) <= 0 || metricMedian(t, r, MetricHandshakeBytesTx) < 500 {
				t.Errorf("%s: no TLS handshake measured", r.Subject.Name)
			}
		}
		if r.Trace == nil || len(r.Trace.Packets) < 8 || r.Trace.Packets[0].Dir != result.Down {
			t.Fatalf("%s: the trace should start with the client's SYN arriving at the signer", r.Subject.Name)
		}
		// The work the costing stage prices on the signer's device
		// (costing's tests price it on S001's phone): one signature of the
		// document per request, timed here, and each request's share of
		// the connection's trace.
		if len(r.Work) != 1 || r.Work[0].Operation != "sign" || r.Work[0].InputBytes != r.Subject.InputBytes || len(r.Work[0].HostNs) != 3 {
			t.Errorf("%s: work %+v", r.Subject.Name, r.Work)
		}
		if len(r.TraceParts) != 1 || r.TraceParts[0].Spans != 3 {
			t.Errorf("%s: trace parts %+v", r.Subject.Name, r.TraceParts)
		}
	}
	if scen != 3*2*2 || refs != 0 {
		t.Errorf("%d scenario and %d reference results, want 12 and none (the costing stage adds the device's references)", scen, refs)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Latency per signature", "Signer memory"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}
}

// The accounting catches bytes that do not add up.
func TestAccountingCatchesMismatch(t *testing.T) {
	sess, err := StartSession(signSchemes(t, "Ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	key, _ := sess.Signer.Key("Ed25519")
	for _, secure := range []bool{false, true} {
		cc := ConnConfig{Key: key, Doc: Document(100, 0), Repeats: 2, Passive: true, Addr: sess.plainLn.Addr().String()}
		srv := sess.plain
		if secure {
			cc.TLS, cc.Addr, srv = sess.clientTLS, sess.tlsLn.Addr().String(), sess.secure
		}
		c := Measure(context.Background(), cc, srv)
		if c.Err != nil {
			t.Fatal(c.Err)
		}
		if _, err := c.Account(); err != nil {
			t.Fatalf("tls=%v: %v", secure, err)
		}
		c.Requests[1].RequestBytes++ // the client miscounts one frame
		if _, err := c.Account(); err == nil {
			t.Errorf("tls=%v: a miscounted frame passes the accounting", secure)
		}
	}
}

// A hostile or broken client cannot hang or exhaust the signer: a huge
// length prefix is refused unread, garbage is answered and the connection
// closed, an idle connection times out, connections beyond the limit are
// closed at once.
func TestSignerHostileClients(t *testing.T) {
	signer, err := NewSigner(signSchemes(t, "Ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Signer: signer, MaxFrame: 1 << 16, IdleTimeout: 300 * time.Millisecond, MaxConns: 2}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(30 * time.Second)) // a safety net, never reached when the signer works
		return c
	}
	expect := func(c net.Conn, st Status) {
		t.Helper()
		m, err := ReadMessage(c, 1<<20)
		if err != nil {
			t.Fatalf("want a %s response: %v", st, err)
		}
		if r, ok := m.(SignResponse); !ok || r.Status != st {
			t.Fatalf("got %#v, want status %s", m, st)
		}
		if _, err := ReadFrame(c, 1<<20); err == nil {
			t.Fatal("the connection stays open")
		}
	}
	c := dial()
	c.Write([]byte{0x7f, 0xff, 0xff, 0xff}) // 2 GiB announced
	expect(c, StatusTooLarge)
	c.Close()

	c = dial()
	c.Write([]byte{0, 0, 0, 2, 99, 0})
	expect(c, StatusBadRequest)
	c.Close()

	c = dial()
	big, _ := SignRequest{ID: 1, Scheme: "Ed25519", Document: make([]byte, 1<<16)}.Marshal()
	c.Write(big)
	expect(c, StatusTooLarge)
	c.Close()

	// Idle: closed by the signer after IdleTimeout, not held forever: the
	// read ends with the signer's close (EOF), not with this side's own
	// deadline.
	c = dial()
	if _, err := ReadFrame(c, 1<<20); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("an idle connection: %v, want it closed by the signer", err)
	}
	c.Close()

	// Over the connection limit: two idle connections hold the slots, a
	// third is closed at once. The signer accepts in the order the
	// connections were made, so no wait is needed; its idle timeout is
	// long here, so the two cannot time out before the third arrives on a
	// slow host.
	srv2 := &Server{Signer: signer, IdleTimeout: time.Hour, MaxConns: 2}
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv2.Serve(ln2)
	defer srv2.Close()
	dial2 := func() net.Conn {
		c, err := net.Dial("tcp", ln2.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(time.Minute))
		return c
	}
	a, b := dial2(), dial2()
	c = dial2()
	if _, err := ReadFrame(c, 1<<20); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a third connection: %v, want it closed at once", err)
	}
	a.Close()
	b.Close()
	c.Close()
}

// Bad flags are refused before any work, saying what would work.
func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--schemes", "ECDSA-P999"}, "--schemes"},
		{[]string{"--schemes", "AES-128-GCM"}, "not a signature"},
		{[]string{"--schemes", "ML-DSA-44"}, "RSA, DSA, ECDSA and Ed25519"},
		{[]string{"--docs", "12q"}, "--docs"},
		{[]string{"--docs", "100m"}, "at most"},
		{[]string{"--repeats", "0"}, "--repeats 0"},
		{[]string{"--mode", "ssl"}, "want plain, tls"},
		{[]string{"--signer-speed", "-1"}, "--signer-speed"},
	} {
		if err := scenario.Configure(&Scenario{}, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
}
