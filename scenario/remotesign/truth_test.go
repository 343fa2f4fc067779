package remotesign

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
)

// TestLatencySplitAddsUp (fast tier: the real signer on loopback) checks
// that every request's latency is exactly hash + sign + signer-other +
// transfer in the result's samples, and that the table's row is the
// median request's own parts, which add up to its latency (the medians of
// each part, printed before, did not: RSA-2048-PSS 1k showed 7.99 ms of
// latency and 4.9 ms of parts).
func TestLatencySplitAddsUp(t *testing.T) {
	s := newScenario(t, "--schemes", "ECDSA-P256-SHA256", "--docs", "1k", "--repeats", "4", "--calibrations", t.TempDir())
	run, err := s.Run(context.Background(), scenario.Env{})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, r := range run.Results {
		if r.Subject.Kind != SubjectKind {
			continue
		}
		n++
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Subject.Name, r.Error)
		}
		samples := func(name string) []float64 { return r.Metric(name).Samples }
		lat, hash, sign, other, tr := samples(MetricLatency), samples(MetricHash), samples(MetricSign), samples(MetricSignerOther), samples(MetricTransfer)
		if len(lat) != 4 {
			t.Fatalf("%s: %d latency samples, want 4", r.Subject.Name, len(lat))
		}
		for i := range lat {
			// To the nanosecond (the samples are seconds now; their sum may
			// differ from the latency in the last binary digit).
			if sum := hash[i] + sign[i] + other[i] + tr[i]; math.Abs(sum-lat[i]) > 1e-12 {
				t.Errorf("%s request %d: parts sum to %v s, latency %v s", r.Subject.Name, i+1, sum, lat[i])
			}
		}
		sp, ok := MedianRequest(r)
		if !ok || sp.Sum() != sp.Latency || sp.Latency <= 0 {
			t.Errorf("%s: median request %+v (ok %v) does not add up", r.Subject.Name, sp, ok)
		}
	}
	if n != 2 {
		t.Fatalf("%d scenario results, want 2", n)
	}
}

// TestMedianRequestIsOneRequest (fast tier): with parts whose medians come
// from different requests, the split shown is one request's, the one of
// median latency, and its parts sum to it.
func TestMedianRequestIsOneRequest(t *testing.T) {
	// Request latencies 10, 30, 20, 40 µs: the lower median is request 3
	// (20 µs = 2 + 5 + 1 + 12). The medians of the parts (hash 3, sign 6.5,
	// other 1, transfer 13.5) sum to 24 µs, not the median latency 25.
	ns := func(us ...float64) []float64 {
		for i := range us {
			us[i] *= 1e3
		}
		return us
	}
	r := result.Result{Subject: result.Subject{Kind: SubjectKind, Name: "remote-sign/x/plain/doc=1k", Scheme: "x",
		Params: map[string]string{"scenario": "remote-sign", "mode": "plain"}}}
	for _, m := range []struct {
		name string
		v    []float64
	}{
		{MetricLatency, ns(10, 30, 20, 40)},
		{MetricHash, ns(1, 4, 2, 4)},
		{MetricSign, ns(3, 8, 5, 9)},
		{MetricSignerOther, ns(1, 1, 1, 1)},
		{MetricTransfer, ns(5, 17, 12, 26)},
	} {
		r.Metrics = append(r.Metrics, result.NewSampled(m.name, "ns", result.Lower, result.Measured, m.v))
	}
	sp, ok := MedianRequest(r)
	want := Split{Latency: 20 * time.Microsecond, Hash: 2 * time.Microsecond, Sign: 5 * time.Microsecond,
		SignerOther: time.Microsecond, Transfer: 12 * time.Microsecond}
	if !ok || sp != want {
		t.Fatalf("MedianRequest = %+v, %v; want %+v", sp, ok, want)
	}
	var b bytes.Buffer
	WriteTable(&b, &result.Run{Schema: result.Schema, Results: []result.Result{r}, Status: result.Complete})
	if !regexp.MustCompile(`0\.02 ms +0\.002 ms +0\.005 ms +0\.001 ms +0\.012 ms`).MatchString(b.String()) {
		t.Errorf("the table does not show the median request's parts:\n%s", b.String())
	}
}

// TestInterruptKeepsPartialCell (fast tier: the real signer on loopback)
// interrupts a run with an explicit event — the client cancels the run's
// context right after a request's step — and checks that the cell keeps
// the requests it measured, names the interrupt rather than the "i/o
// timeout" the socket deadline produces, and that the run is interrupted.
func TestInterruptKeepsPartialCell(t *testing.T) {
	for _, tc := range []struct {
		name          string
		step          RequestStep
		at            int
		least, most   int // requests kept
		mode          string
		wantByteCount bool
	}{
		// Between requests: exactly two measured, every byte attributed.
		{"after response 2, plain", ResponseRead, 2, 2, 2, "plain", true},
		{"after response 2, TLS", ResponseRead, 2, 2, 2, "tls", true},
		// With request 3 in flight: its response may or may not have been
		// read when the interrupt's deadline hits the socket.
		{"request 3 in flight, TLS", RequestWritten, 3, 2, 3, "tls", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := newScenario(t, "--schemes", "Ed25519", "--docs", "1k,4k", "--repeats", "5", "--mode", tc.mode, "--calibrations", t.TempDir())
			s.afterRequest = func(step RequestStep, n int) {
				if step == tc.step && n == tc.at {
					cancel()
				}
			}
			run, err := s.Run(ctx, scenario.Env{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != result.Interrupted {
				t.Errorf("status %s, want interrupted", run.Status)
			}
			var kept []result.Result
			for _, r := range run.Results {
				if r.Subject.Kind == SubjectKind {
					kept = append(kept, r)
				}
			}
			if len(kept) != 1 {
				t.Fatalf("%d scenario results, want the one cell cut short", len(kept))
			}
			r := kept[0]
			if r.Error != "" {
				t.Fatalf("the partly measured cell is an error: %s", r.Error)
			}
			n := r.Metric(MetricLatency).Summary.N
			if n < tc.least || n > tc.most {
				t.Errorf("%d requests kept, want %d to %d", n, tc.least, tc.most)
			}
			warn := strings.Join(r.Warnings, "; ")
			if !strings.Contains(warn, "interrupted (context canceled) after") || strings.Contains(warn, "i/o timeout") {
				t.Errorf("warnings %q: want the interrupt named, not the socket's timeout", warn)
			}
			if tc.wantByteCount && r.Metric(MetricPayloadReceived) == nil {
				t.Errorf("between requests every byte is attributed: want payload bytes, warnings %q", warn)
			}
		})
	}
	// The connection itself: the error is ErrInterrupted.
	sess, err := StartSession(signSchemes(t, "Ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key, _ := sess.Signer.Key("Ed25519")
	addr, stats := sess.endpoint(true)
	c := Measure(ctx, ConnConfig{Key: key, Doc: Document(100, 0), Repeats: 4, Passive: true, Addr: addr, TLS: sess.clientTLS,
		afterRequest: func(step RequestStep, n int) {
			if step == RequestWritten && n == 2 {
				cancel()
			}
		}}, stats)
	if !errors.Is(c.Err, ErrInterrupted) || strings.Contains(c.Err.Error(), "timeout") {
		t.Errorf("Err = %v, want ErrInterrupted naming the cancel", c.Err)
	}
}

// TestSignerProcessMemory (full tier: re-executes the test binary as the
// signer) runs the signer as its own process and checks that each cell
// carries the signer's resident set listening and while signing, its TLS
// figures (reported by the child), and that the in-process signer reports
// the Go heap only, saying whose.
func TestSignerProcessMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("full tier: starts a signer process")
	}
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			s := newScenario(t, "--schemes", "Ed25519,RSA-2048-PSS-SHA256", "--docs", "1k", "--repeats", "2",
				"--signer", mode, "--calibrations", t.TempDir())
			var log bytes.Buffer
			run, err := s.Run(context.Background(), scenario.Env{Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != result.Complete {
				t.Fatalf("status %s: %v\n%s", run.Status, run.Errors, log.String())
			}
			for _, r := range run.Results {
				if r.Subject.Kind != SubjectKind {
					continue
				}
				if got := r.Subject.Params["signer"]; got != mode {
					t.Errorf("%s: signer %q, want %q", r.Subject.Name, got, mode)
				}
				listen, sign := r.Metric(MetricSignerRSSListening), r.Metric(MetricSignerRSSSigning)
				heap := r.Metric(MetricSignerHeapSigning)
				if heap == nil || heap.Summary.Median <= 0 {
					t.Errorf("%s: no signer heap", r.Subject.Name)
				}
				if mode == "inprocess" {
					if listen != nil || !strings.Contains(heap.Method, "whole process") {
						t.Errorf("%s: in-process the signer's RSS is not its own: want the heap only, said to be the whole process's", r.Subject.Name)
					}
					continue
				}
				if listen == nil || sign == nil {
					t.Fatalf("%s: no resident set (warnings %v)", r.Subject.Name, r.Warnings)
				}
				// A Go process holds at least a few MiB; the peak over the
				// connection is at least what it started with.
				if listen.Summary.Median < 1<<20 || sign.Summary.Median < listen.Summary.Median {
					t.Errorf("%s: RSS listening %v B, signing %v B", r.Subject.Name, listen.Summary.Median, sign.Summary.Median)
				}
				if r.Subject.Params["tls"] == "1" && r.Metric(MetricHandshakeSigner) == nil {
					t.Errorf("%s: the signer process's TLS handshake time did not arrive", r.Subject.Name)
				}
			}
			var b bytes.Buffer
			WriteTable(&b, run)
			if !strings.Contains(b.String(), "Signer memory per connection") {
				t.Errorf("no memory table:\n%s", b.String())
			}
		})
	}
}

// TestOpenSSLClientTalksToSignerProcess (full tier: a signer process and
// OpenSSL) points an independent TLS client at the signer running as its
// own process: s_client verifies the certificate the process generated,
// sends a KeyRequest and a SignRequest, and the signature verifies. The
// test reads both responses from s_client's output, then ends it (the
// signer would otherwise wait out its idle timeout).
func TestOpenSSLClientTalksToSignerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("full tier: a signer process and OpenSSL")
	}
	openssl := needOpenSSL(t)
	schemes := signSchemes(t, "ECDSA-P256-SHA256")
	sess, err := StartProcessSession(schemes)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ca := filepath.Join(t.TempDir(), "signer.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: sess.certDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	doc := Document(3000, 1)
	kr, _ := KeyRequest{Scheme: "ECDSA-P256-SHA256"}.Marshal()
	sr, _ := SignRequest{ID: 7, Scheme: "ECDSA-P256-SHA256", Document: doc}.Marshal()
	cmd := exec.Command(openssl, "s_client", "-connect", sess.tlsAddr, "-CAfile", ca,
		"-servername", "signer.invalid", "-verify_return_error", "-tls1_3", "-quiet")
	cmd.Stdin = bytes.NewReader(append(kr, sr...))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	m, err := ReadMessage(out, 1<<20)
	if err != nil {
		t.Fatalf("KeyResponse: %v (s_client: %s)", err, stderr.String())
	}
	pub, err := x509.ParsePKIXPublicKey(m.(KeyResponse).PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = ReadMessage(out, 1<<20); err != nil {
		t.Fatalf("SignResponse: %v (s_client: %s)", err, stderr.String())
	}
	resp := m.(SignResponse)
	if resp.ID != 7 || !schemes[0].Verify(pub, doc, resp.Signature) {
		t.Fatalf("response %d: the signature does not verify", resp.ID)
	}
}
