package sensor

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
)

func newScenario(t *testing.T, args ...string) *Scenario {
	t.Helper()
	s := &Scenario{}
	if err := scenario.Configure(s, args...); err != nil {
		t.Fatal(err)
	}
	return s
}

func metric(t *testing.T, r *result.Result, name string) *result.Metric {
	t.Helper()
	m := r.Metric(name)
	if m == nil {
		t.Fatalf("%s has no metric %s", r.Subject.Name, name)
	}
	return m
}

func byName(run *result.Run) map[string]*result.Result {
	out := map[string]*result.Result{}
	for i := range run.Results {
		out[run.Results[i].Subject.Name] = &run.Results[i]
	}
	return out
}

// Every protection end to end on loopback: the readings' sizes are the
// ones counted by hand, the link's bytes are the messages' (CheckBytes
// passed, or the result would carry an error), and the application
// verified every signed reading.
func TestScenarioLoopback(t *testing.T) {
	s := newScenario(t, "--readings", "3", "--cid", "both")
	run, err := s.Run(t.Context(), scenario.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Complete || len(run.Errors) > 0 {
		t.Fatalf("status %s, errors %v", run.Status, run.Errors)
	}
	// Reading sizes by hand (see TestCoAPSize, TestObjectsSignAndReject):
	// CoAP headers 18 B (17 with Content-Format 112 or 18; JWS's 65000
	// takes a 2-byte value) + the payload; DTLS adds a 13-byte header, an
	// 8-byte nonce and an 8-byte tag, and with a CID 4 + 1 bytes.
	want := map[string][2]float64{
		"sensor/cose-sign1/ES256":     {18 + 97, 6},
		"sensor/jws/ES256":            {19 + 139, 6},
		"sensor/dtls-psk":             {18 + 23 + 29, 6 + 29},
		"sensor/dtls-psk/cid":         {18 + 23 + 29 + 5, 6 + 29},
		"sensor/dtls-ecdhe/ES256":     {18 + 23 + 29, 6 + 29},
		"sensor/dtls-ecdhe/ES256/cid": {18 + 23 + 29 + 5, 6 + 29},
		// OSCORE (RFC 8613 §4–6): header 4 + token 2 + the OSCORE option
		// 1 + 3 (flags, a 1-byte Partial IV, the 1-byte kid) + marker 1 +
		// the ciphertext: Code 1, the Inner options (Uri-Path m, 1, temp:
		// 2 + 2 + 5; Content-Format 112: 2), marker 1, the reading 23, tag
		// 8. The 2.04: 4 + 2 + the empty OSCORE option 1 + marker 1 +
		// Code 1 + tag 8.
		"sensor/edhoc-oscore/ES256/static-dh": {4 + 2 + 4 + 1 + (1 + 11 + 1 + 23 + 8), 4 + 2 + 1 + 1 + 1 + 8},
		"sensor/edhoc-oscore/ES256/sig":       {4 + 2 + 4 + 1 + (1 + 11 + 1 + 23 + 8), 4 + 2 + 1 + 1 + 1 + 8},
	}
	got := byName(run)
	if len(got) != len(want) {
		t.Fatalf("results %v", run.Results)
	}
	for name, w := range want {
		r := got[name]
		if r == nil {
			t.Fatalf("no result %s", name)
		}
		if r.Error != "" {
			t.Fatalf("%s: %s", name, r.Error)
		}
		if up, down := metric(t, r, "reading-bytes-up").Summary.Median, metric(t, r, "reading-bytes-down").Summary.Median; up != w[0] || down != w[1] {
			t.Errorf("%s: reading %v B up %v B down, want %v and %v", name, up, down, w[0], w[1])
		}
		if !strings.HasPrefix(r.Subject.Params["bytes_check"], "ok: ") {
			t.Errorf("%s: bytes check %q", name, r.Subject.Params["bytes_check"])
		}
		if r.Trace == nil || radio.CheckTrace(r.Trace) != nil {
			t.Errorf("%s: trace %v", name, radio.CheckTrace(r.Trace))
		}
		if strings.HasPrefix(name, "sensor/dtls") || strings.HasPrefix(name, "sensor/edhoc") {
			if !strings.Contains(r.Subject.Params["application"], "none verifiable end to end") {
				t.Errorf("%s: application %q", name, r.Subject.Params["application"])
			}
			if n := metric(t, r, "session-frames-up").Summary.Median; n < 3 && !strings.HasPrefix(name, "sensor/edhoc") {
				t.Errorf("%s: a handshake in %v frames", name, n)
			}
		} else if r.Subject.Params["application"] != "3 of 3 readings verified end to end against the registered key" {
			t.Errorf("%s: application %q", name, r.Subject.Params["application"])
		}
	}
	// The model, fed the measured application sizes, frames an object
	// exactly as the run did.
	for _, name := range []string{"sensor/cose-sign1/ES256", "sensor/jws/ES256"} {
		r := got[name]
		for _, dir := range []string{"up", "down"} {
			if m, o := metric(t, r, "model/amortised-air-bytes-"+dir).Summary.Median, metric(t, r, "amortised-air-bytes-"+dir).Summary.Median; m != o {
				t.Errorf("%s: model %v B %s, run %v", name, m, dir, o)
			}
		}
	}
	if r := got["sensor/cose-sign1/ES256"]; metric(t, r, "amortised-air-bytes-up").Summary.Median != 178 {
		t.Errorf("COSE reading: %v air bytes up, want 178 (TestAirModelByHand)", metric(t, r, "amortised-air-bytes-up").Summary.Median)
	}
	// DTLS-ECDHE's handshake: the four public-key operations.
	r := got["sensor/dtls-ecdhe/ES256"]
	for _, op := range []string{"ecdh-keygen", "ecdh-derive", "server-key-exchange-verify", "certificate-verify-sign"} {
		if n := metric(t, r, "ops/sensor/"+op).Summary.Median; n != 1 {
			t.Errorf("%s: %v per session", op, n)
		}
		if len(metric(t, r, "op-time/sensor/"+op).Samples) == 0 && op != "certificate-verify-sign" {
			t.Errorf("%s: not timed", op)
		}
	}
	if r.Subject.Params["model"] == "" || r.Model == nil || r.Model.Name != ModelName {
		t.Errorf("no model beside dtls-ecdhe: %q", r.Subject.Params["model"])
	}
	// EDHOC: the sizes RFC 9528 gives for method 3 with a kid for the
	// Responder: message_1 37 B (METHOD, SUITES_I, G_X 34, C_I), message_2
	// 45 B (bstr header 2 + G_Y 32 + C_R 1 + kid 1 + MAC_2 9), message_3
	// (the sensor's CCS by value) a bstr of ID_CRED_I + MAC_3 9 + tag 8;
	// three ECDHs and one key pair on the sensor, no signature.
	e := got["sensor/edhoc-oscore/ES256/static-dh"]
	if p := e.Subject.Params["edhoc_message_bytes"]; !strings.HasPrefix(p, "message_1 37 B, message_2 45 B, message_3 ") {
		t.Errorf("EDHOC message sizes %q", p)
	}
	if metric(t, e, "ops/sensor/edhoc-ecdh-derive").Summary.Median != 3 || metric(t, e, "ops/sensor/edhoc-ecdh-keygen").Summary.Median != 1 || e.Metric("ops/sensor/edhoc-sign") != nil {
		t.Errorf("EDHOC method 3 operations wrong")
	}
	if n := metric(t, got["sensor/edhoc-oscore/ES256/sig"], "ops/sensor/edhoc-sign").Summary.Median; n != 1 {
		t.Errorf("EDHOC method 0: %v signatures", n)
	}
	if !strings.HasPrefix(got["sensor/dtls-psk"].Subject.Params["model"], "none") {
		t.Errorf("a model for PSK: %q", got["sensor/dtls-psk"].Subject.Params["model"])
	}
}

// TestScenarioWork: what the costing stage prices on the sensor's device
// (costing's tests price it on a TelosB): the sensor's own operations per
// reading and per session, one trace per reading, the session's handshake
// and teardown, the registration, and the amortisation and interval.
// Tier: fast (loopback through the link emulator).
func TestScenarioWork(t *testing.T) {
	s := newScenario(t, "--readings", "3", "--protection", "cose,psk", "--alg", "ES256", "--cid", "off", "--interval", "10m")
	l, err := link.Lookup("802.15.4")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Run(t.Context(), scenario.Env{Link: &l})
	if err != nil || run.Status != result.Complete {
		t.Fatalf("%v %s %v", err, run.Status, run.Errors)
	}
	got := byName(run)
	cose := got["sensor/cose-sign1/ES256"]
	if len(cose.Work) != 1 || cose.Work[0].Operation != "sign" || cose.Work[0].Per != "" || cose.Work[0].Party != "sensor" {
		t.Errorf("COSE work %+v: want the sensor's one signature per reading", cose.Work)
	}
	if len(cose.TraceParts) < 1 || len(cose.TraceParts[0].Traces) != 3 {
		t.Errorf("COSE trace parts %+v: want one trace per reading", cose.TraceParts)
	}
	if cose.Subject.Params["amortise_over"] != "3" || cose.Subject.Params["interval"] != "10m0s" {
		t.Errorf("params %v", cose.Subject.Params)
	}
	psk := got["sensor/dtls-psk"]
	var perSession int
	for _, w := range psk.Work {
		if w.Per == "session" {
			perSession++
		}
	}
	if perSession == 0 {
		t.Errorf("PSK work %+v: no session operations", psk.Work)
	}
	if len(psk.TraceParts) < 2 || psk.TraceParts[1].Per != "session" {
		t.Errorf("PSK trace parts %+v: want the session's", psk.TraceParts)
	}
}

// The byte check fails when the messages and the link disagree.
func TestCheckBytesCatchesMismatch(t *testing.T) {
	for _, p := range []string{"cose-sign1", "dtls-psk"} {
		prot, _ := LookupProtection(p)
		v := Variant{Protection: prot, Alg: Algs[0], CID: true}
		if prot.Transport != nil {
			v.Alg = nil
		}
		sess, err := MeasureSession(t.Context(), v, Encodings[0], link.Params{}, 2, time.Minute, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := CheckBytes(sess); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		sess.RequestSizes[1]++
		if _, err := CheckBytes(sess); err == nil {
			t.Errorf("%s: a request one byte longer than the link's went unnoticed", p)
		}
		sess.RequestSizes[1]--
		i := sess.Reading[0].From
		sess.Datagrams[i].Bytes++
		sess.Datagrams[i].Data = append(sess.Datagrams[i].Data, 0)
		if _, err := CheckBytes(sess); err == nil {
			t.Errorf("%s: a datagram one byte longer than its messages went unnoticed", p)
		}
	}
}

// Every attack fixture, for every kind of protection: the defences hold,
// and under transport security a compromised proxy goes undetected.
func TestAttacks(t *testing.T) {
	for _, tc := range []struct {
		prot string
		alg  *Alg
		cid  bool
	}{
		{"cose-sign1", Algs[0], false},
		{"jws", Algs[1], false},
		{"dtls-psk", nil, true},
		{"dtls-ecdhe", Algs[0], false},
		{"edhoc-oscore", Algs[0], false},
		{"edhoc-oscore", Algs[1], false},
	} {
		prot, _ := LookupProtection(tc.prot)
		v := Variant{Protection: prot, Alg: tc.alg, CID: tc.cid}
		if prot.OSCORE {
			v.EDHOC = EDHOCMethods[0]
			if tc.alg == Algs[1] {
				v.EDHOC = EDHOCMethods[1]
			}
		}
		t.Run(v.Name(), func(t *testing.T) {
			outs, err := RunAttacks(t.Context(), v, Encodings[0], link.Params{})
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, o := range outs {
				names[o.Attack] = true
				if o.Rejected != o.Expected {
					t.Errorf("%s: rejected %v, expected %v: %s", o.Attack, o.Rejected, o.Expected, o.How)
				}
				if r := o.Result(v); (r.Error != "") != (o.Expected && !o.Rejected) {
					t.Errorf("%s: result error %q", o.Attack, r.Error)
				}
			}
			want := []string{"tampered-on-link", "replayed", "unregistered", "tampered-at-proxy"}
			if prot.Object != nil || prot.OSCORE {
				want = append(want, "forged")
			}
			for _, w := range want {
				if !names[w] {
					t.Errorf("fixture %s did not run", w)
				}
			}
			if prot.Transport != nil {
				for _, o := range outs {
					if o.Attack == "tampered-at-proxy" && (o.Expected || !strings.Contains(o.How, "not detected")) {
						t.Errorf("compromised proxy under DTLS: %+v", o)
					}
				}
			}
		})
	}
	// A defence that fails makes an error result.
	r := Outcome{Attack: "forged", Expected: true, Rejected: false, How: "accepted"}.Result(Variant{Protection: Protections[0], Alg: Algs[0]})
	if !strings.Contains(r.Error, "the defence failed") {
		t.Fatalf("a failed defence: %q", r.Error)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--protection", "tls"}, "unknown protection \"tls\": want one of cose-sign1, jws, dtls-psk, dtls-ecdhe"},
		{[]string{"--alg", "RS256"}, "unknown signature algorithm \"RS256\": want one of ES256, EdDSA"},
		{[]string{"--cid", "maybe"}, "--cid \"maybe\": want off, on or both"},
		{[]string{"--readings", "-1"}, "--readings -1: want 1 to 10000"},
		{[]string{"--interval", "500ms"}, "--interval 500ms: want whole seconds"},
		{[]string{"--senml", "xml"}, "unknown SenML encoding \"xml\""},
	} {
		if err := scenario.Configure(&Scenario{}, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
	s := newScenario(t, "--protection", "cose,jose,ecdhe,psk", "--alg", "ES256,EdDSA,es256", "--cid", "on")
	var names []string
	for _, v := range s.Plan() {
		names = append(names, v.Name())
	}
	want := "sensor/cose-sign1/ES256 sensor/cose-sign1/EdDSA sensor/jws/ES256 sensor/jws/EdDSA sensor/dtls-ecdhe/ES256/cid sensor/dtls-ecdhe/EdDSA/cid sensor/dtls-psk/cid"
	if strings.Join(names, " ") != want {
		t.Fatalf("plan %v", names)
	}
}

// cancelOn cancels a context when the log shows a line with a marker.
type cancelOn struct {
	mu     sync.Mutex
	marker string
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.marker) {
		c.cancel()
	}
	return len(p), nil
}

// Interrupted between variants, the run keeps what it measured.
func TestInterrupt(t *testing.T) {
	s := newScenario(t, "--readings", "2", "--protection", "cose,jws,psk")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	run, err := s.Run(ctx, scenario.Env{Log: &cancelOn{marker: "sensor/jws/ES256: 2 readings", cancel: cancel}})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Interrupted {
		t.Fatalf("status %s", run.Status)
	}
	if len(run.Results) == 0 || run.Results[0].Subject.Name != "sensor/cose-sign1/ES256" || run.Results[0].Error != "" {
		t.Fatalf("results %+v", run.Results)
	}
	for _, r := range run.Results {
		if r.Subject.Name == "sensor/dtls-psk" {
			t.Fatal("the run went on after the interrupt")
		}
	}
}

// On the LoRaWAN link the scenario runs (class A latency), prices the
// traces on the LoRaWAN radio and frames the bytes as SCHC: an OSCORE
// reading of 55 B is one frame of 13 + 55 B; a COSE_Sign1 one 13 + 115 B.
// Tier: full (the emulated RX1 delay makes each exchange about a second).
func TestScenarioLoRaWAN(t *testing.T) {
	if testing.Short() {
		t.Skip("full tier: LoRaWAN's 1 s receive delay per exchange")
	}
	s := newScenario(t, "--readings", "1", "--protection", "cose,edhoc-oscore", "--edhoc-method", "static-dh")
	l, err := link.Lookup("lorawan")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Run(t.Context(), scenario.Env{Link: &l})
	if err != nil || run.Status != result.Complete {
		t.Fatalf("%v %s %v", err, run.Status, run.Errors)
	}
	got := byName(run)
	for name, want := range map[string]float64{"sensor/edhoc-oscore/ES256/static-dh": 13 + 55, "sensor/cose-sign1/ES256": 13 + 115} {
		r := got[name]
		if a := metric(t, r, "reading-air-bytes-up").Summary.Median; a != want {
			t.Errorf("%s: %v air bytes up, want %v", name, a, want)
		}
		if !strings.Contains(metric(t, r, "reading-air-bytes-up").Method, "SCHC") {
			t.Errorf("%s: air bytes not counted as SCHC over LoRaWAN", name)
		}
	}
}

// With the sensor's credential named by kid, the EDHOC messages are the
// sizes of RFC 9529 §3's trace (method 3, suite 2, kids): 37, 45 and
// 19 bytes, measured here on the wire's payloads.
// Tier: fast.
func TestEDHOCKidSizesMatchRFC9529(t *testing.T) {
	s := newScenario(t, "--readings", "1", "--protection", "edhoc-oscore", "--edhoc-method", "static-dh", "--edhoc-cred", "kid")
	run, err := s.Run(t.Context(), scenario.Env{})
	if err != nil || run.Status != result.Complete {
		t.Fatalf("%v %s %v", err, run.Status, run.Errors)
	}
	r := byName(run)["sensor/edhoc-oscore/ES256/static-dh/kid"]
	if p := r.Subject.Params["edhoc_message_bytes"]; !strings.HasPrefix(p, "message_1 37 B, message_2 45 B, message_3 19 B") {
		t.Errorf("EDHOC message sizes %q, want RFC 9529 §3's 37, 45, 19", p)
	}
	// message_3 and the EDHOC option's header byte ride with the
	// registration (RFC 9668).
	if n := metric(t, r, "session-message-3-bytes-up").Summary.Median; n != 20 {
		t.Errorf("message_3 share of the first request %v B, want 19 + 1", n)
	}
}
