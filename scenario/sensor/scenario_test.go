package sensor

import (
	"bytes"
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/energy"
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
		if strings.HasPrefix(name, "sensor/dtls") {
			if !strings.Contains(r.Subject.Params["application"], "none verifiable end to end") {
				t.Errorf("%s: application %q", name, r.Subject.Params["application"])
			}
			if n := metric(t, r, "session-frames-up").Summary.Median; n < 3 {
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
	if r.Subject.Params["model"] == "" || r.Metric("model/energy/reading") == nil {
		t.Errorf("no model beside dtls-ecdhe: %q", r.Subject.Params["model"])
	}
	if !strings.HasPrefix(got["sensor/dtls-psk"].Subject.Params["model"], "none") {
		t.Errorf("a model for PSK: %q", got["sensor/dtls-psk"].Subject.Params["model"])
	}
}

// Priced on a TelosB over an emulated 802.15.4 link: CPU energy from the
// literature (estimated: no TelosB measures P-256), radio from the
// state machine, battery life; symmetric crypto is not priced, and says
// so instead of reading as free.
func TestScenarioEnergy(t *testing.T) {
	s := newScenario(t, "--readings", "3", "--protection", "cose,psk", "--alg", "ES256,EdDSA", "--cid", "off", "--interval", "10m")
	l, err := link.Lookup("802.15.4")
	if err != nil {
		t.Fatal(err)
	}
	d, err := energy.Lookup("telosb")
	if err != nil {
		t.Fatal(err)
	}
	rp, err := radio.Lookup("802.15.4")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Run(t.Context(), scenario.Env{Link: &l, Device: d, Radio: rp})
	if err != nil || run.Status != result.Complete {
		t.Fatalf("%v %s %v", err, run.Status, run.Errors)
	}
	got := byName(run)
	cose := got["sensor/cose-sign1/ES256"]
	cpu := metric(t, cose, "energy-cpu/reading")
	if cpu.Label != result.Estimated {
		t.Errorf("CPU energy labelled %s", cpu.Label)
	}
	// By hand: TinyECC secp192k1 sign 6.695 s scaled to 256 bits by the
	// exponent fitted to its secp160r1 time (4.361 s), at 2.65 V × 1.8 mA.
	k := math.Log(6.695/4.361) / math.Log(192.0/160)
	wantCPU := 6.695 * math.Pow(256.0/192, k) * 2.65 * 1.8e-3 // J
	if math.Abs(cpu.Summary.Median-wantCPU) > 1e-6*wantCPU {
		t.Errorf("CPU energy %v mJ, want %v by hand", cpu.Summary.Median, wantCPU)
	}
	total := metric(t, cose, "energy/reading")
	radioJ := metric(t, cose, "energy-radio/reading").Summary.Median
	if math.Abs(total.Summary.Median-(wantCPU+radioJ)) > 1e-6*total.Summary.Median {
		t.Errorf("energy per reading %v, CPU %v + radio %v", total.Summary.Median, wantCPU, radioJ)
	}
	if b := metric(t, cose, "battery-life"); b.Label != result.Estimated || b.Summary.Median <= 0 {
		t.Errorf("battery life %v %s", b.Summary.Median, b.Label)
	}
	psk := got["sensor/dtls-psk"]
	if psk.Metric("energy-cpu/reading") != nil {
		t.Error("PSK has a CPU energy, though AES-CCM has no cost on a TelosB")
	}
	if !strings.Contains(strings.Join(psk.Warnings, "\n"), "aead-seal, aead-open, session-aead-seal, session-aead-open not priced on telosb") {
		t.Errorf("warnings %q", psk.Warnings)
	}
	if m := metric(t, psk, "energy/reading"); !strings.Contains(m.Method, "CPU per reading not modelled") || !strings.Contains(m.Method, "lower bound") {
		t.Errorf("PSK energy method %q", m.Method)
	}
	if r := metric(t, psk, "energy-radio/session"); r.Summary.Median <= metric(t, psk, "energy-radio/reading").Summary.Median {
		t.Errorf("a handshake cheaper than a reading: %v", r.Summary.Median)
	}
	// No TelosB figure for Ed25519: no total that would leave out the
	// signature, and the reason.
	ed := got["sensor/cose-sign1/EdDSA"]
	if ed.Metric("energy/reading") != nil || ed.Metric("battery-life") != nil || ed.Metric("energy-cpu/reading") != nil {
		t.Error("EdDSA on a TelosB has an energy total though its signature has no cost there")
	}
	if w := strings.Join(ed.Warnings, "\n"); !strings.Contains(w, "energy per reading and battery life not modelled: sign (Ed25519) has no cost on telosb") {
		t.Errorf("warnings %q", w)
	}
	if ed.Metric("energy-radio/reading") == nil {
		t.Error("no radio energy for EdDSA")
	}
}

// The battery arithmetic by hand: 2250 mAh, one reading of 70 mJ over
// 13 s every 10 minutes at 2.65 V, asleep at 5.1 µA (MCU) + 1 µA (radio).
func TestBatteryLifeByHand(t *testing.T) {
	d, _ := energy.Lookup("telosb")
	rp, _ := radio.Lookup("802.15.4")
	b, err := BatteryLife(d, rp, 0.070, 13, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	avg := (0.070/2.65 + 6.1e-6*(600-13)) / 600
	want := 2250 * 3.6 / avg / 86400
	if math.Abs(b.Life.Days()-want) > 1e-9*want {
		t.Fatalf("%v days, want %v", b.Life.Days(), want)
	}
	if _, err := BatteryLife(d, rp, 0.070, 700, 10*time.Minute); err == nil {
		t.Fatal("a reading longer than the interval gave a battery life")
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
	} {
		prot, _ := LookupProtection(tc.prot)
		v := Variant{Protection: prot, Alg: tc.alg, CID: tc.cid}
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
			if prot.Object != nil {
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
