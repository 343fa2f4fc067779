package costing

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast (no external tools). Every expected figure is recomputed in
// the test from the profile's numbers, so a change of a profile changes
// the expectation the same way, and the formula is what is checked.

func near(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func mustDevice(t *testing.T, name string) *device.Device {
	t.Helper()
	d, err := device.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const boardProfile = `name: my-board
title: "My board"
cpu: {model: "M0+", arch: arm64, goarch: [arm64], clock: "1000 MHz [datasheet]", cores: "1 [datasheet]"}
supply: {voltage: "3.3 V [datasheet]"}
power:
  active: "5 mA [datasheet]"
  sleep: "2 µA [datasheet]"
battery: {chemistry: "CR2032", capacity: "220 mAh [datasheet]", nominal_voltage: "3 V [datasheet]", usable: "0.8 [assumption]"}
`

func board(t *testing.T) *device.Device {
	t.Helper()
	d, err := device.Parse("b.yaml", []byte(boardProfile))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fixtureRun is a bench run "measured on this machine" with known times.
func fixtureRun() *result.Run {
	mk := func(scheme, op string, input int, kind string, params map[string]string, ns ...float64) result.Result {
		p := map[string]string{}
		for k, v := range params {
			p[k] = v
		}
		if kind != "" {
			p["input"] = kind
		}
		name := scheme + "@go/" + op
		if input > 0 {
			name += "/" + map[bool]string{true: "1k", false: "32"}[input == 1024]
		}
		return result.Result{Subject: result.Subject{Kind: "primitive", Name: name, Scheme: scheme, Provider: "go", Operation: op, InputBytes: input, Params: p},
			Metrics: []result.Metric{result.NewSampled("time", "ns/op", result.Lower, result.Measured, ns)}}
	}
	return &result.Run{Schema: result.Schema, ID: "fixture", Environment: result.Environment{OS: "linux", Arch: "arm64", CPUMHz: 2000, CPUMHzFrom: "test"},
		Results: []result.Result{
			mk("SHA-256", "hash", 1024, "bulk", nil, 1000, 1000, 1000),
			mk("ECDSA-P256-SHA256", "sign", 32, "message", map[string]string{"curve": "P-256"}, 50000, 50000, 50000),
			mk("AES-128-GCM", "seal", 1024, "bulk", nil, 500, 500, 500),
		}}
}

// E = V·I·t checked by hand on a run measured on the device itself.
func TestPriceOnDevice(t *testing.T) {
	d := board(t)
	run := fixtureRun()
	if err := Price(run, Options{Device: d, OnDevice: true}); err != nil {
		t.Fatal(err)
	}
	if run.Environment.Device != "my-board" {
		t.Errorf("environment device %q", run.Environment.Device)
	}
	sha := run.Results[0]
	// 3.3 V × 5 mA × 1000 ns = 16.5 nJ; net of the 2 µA sleep:
	// 3.3 × (5e-3 − 2e-6) × 1e-6 s; per byte / 1024.
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{"energy", 16.5e-9}, {"energy-net", 3.3 * (5e-3 - 2e-6) * 1e-6},
		{"energy-per-byte", 16.5e-9 / 1024}, {"energy-net-per-byte", 3.3 * (5e-3 - 2e-6) * 1e-6 / 1024}, {"current", 5e-3}, {"power", 16.5e-3},
	} {
		m := sha.Metric(c.metric)
		if m == nil || !near(m.Summary.Median, c.want, 1e-9) {
			t.Errorf("%s = %+v, want %v", c.metric, m, c.want)
			continue
		}
		if m.Label != result.Modelled || m.Source == "" {
			t.Errorf("%s labelled %s from %q, want modelled with a source", c.metric, m.Label, m.Source)
		}
	}
	if m := sha.Metric("energy"); !strings.HasPrefix(m.Method, "E = V·I·t") || !strings.Contains(m.Method, "5 mA [datasheet]") {
		t.Errorf("energy method %q", m.Method)
	}
	if sha.Metric("device-time") != nil {
		t.Error("a run on the device needs no device-time")
	}
	if run.Results[1].Metric("energy-per-byte") != nil {
		t.Error("per-byte energy on a message-sized operation")
	}
	d.CPU.GOARCH = []string{"arm"}
	if err := Price(fixtureRun(), Options{Device: d, OnDevice: true}); err == nil || !strings.Contains(err.Error(), "cannot be my-board") {
		t.Errorf("on-device with another arch: %v", err)
	}
}

// A device whose power nobody knows prices nothing, and each result says
// why and what would price it.
func TestPriceRefusesUnknownPower(t *testing.T) {
	run := fixtureRun()
	err := Price(run, Options{Device: mustDevice(t, "host")})
	warn := strings.Join(run.Results[0].Warnings, " ")
	if err == nil && !strings.Contains(warn, "unknown") {
		t.Errorf("host without figures: error %v, warnings %q", err, warn)
	}
	if run.Results[0].Metric("energy") != nil {
		t.Error("energy priced with unknown power")
	}
}

// A run measured elsewhere: the clock ratio between machines of the same
// architecture is an estimate with its scale and its ×½–×2 interval;
// --no-estimates refuses it; across architectures no clock ratio applies.
func TestClockRatioEstimate(t *testing.T) {
	d := board(t)
	run := fixtureRun()
	if err := Price(run, Options{Device: d}); err != nil {
		t.Fatal(err)
	}
	r := run.Results[0]
	dt := r.Metric("device-time")
	// 1000 ns × 2000 MHz / 1000 MHz = 2 µs, ×½ to ×2.
	if dt == nil || dt.Label != result.Estimated || !near(dt.Summary.Median, 2e-6, 1e-9) || !strings.Contains(dt.Method, "clock ratio") {
		t.Fatalf("device-time %+v", dt)
	}
	if dt.Bounds == nil || !near(dt.Bounds.Lo, 1e-6, 1e-9) || !near(dt.Bounds.Hi, 4e-6, 1e-9) {
		t.Errorf("device-time bounds %+v, want 1–4 µs", dt.Bounds)
	}
	if e := r.Metric("energy"); e == nil || e.Label != result.Estimated || !near(e.Summary.Median, 3.3*5e-3*2e-6, 1e-9) {
		t.Errorf("estimated energy %+v", e)
	}
	run = fixtureRun()
	if err := Price(run, Options{Device: d, NoEstimates: true}); err != nil {
		t.Fatal(err)
	}
	if r := run.Results[0]; r.Metric("energy") != nil || !strings.Contains(strings.Join(r.Warnings, ""), "--no-estimates") {
		t.Errorf("--no-estimates: metrics %v warnings %v", r.Metrics, r.Warnings)
	}
	d.CPU.Arch = "avr"
	run = fixtureRun()
	Price(run, Options{Device: d})
	if r := run.Results[0]; r.Metric("energy") != nil || !strings.Contains(strings.Join(r.Warnings, ""), "across architectures") {
		t.Errorf("cross-arch clock ratio: %v", r.Warnings)
	}
}

// The key-size law for ECDSA P-256 signing on a TelosB, by hand: TinyECC
// 0.2 signs secp160r1 in 4.361 s and secp192k1 in 6.695 s, so k =
// ln(6.695/4.361)/ln(192/160) = 2.3512 and t(256) = 6.695 × (256/192)^k =
// 13.166 s; the textbook k = 3 gives 6.695 × (256/192)³ = 15.87 s, the
// interval's other end.
func TestKeySizeLaw(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "telosb")}
	c, err := p.Resolve(Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign", InputBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	k := math.Log(6.695/4.361) / math.Log(192.0/160)
	want := 6.695 * math.Pow(256.0/192, k)
	if c.Rung != Estimated || !near(c.Seconds.V, want, 1e-9) || !near(want, 13.166, 1e-3) {
		t.Errorf("P-256 sign on TelosB %+v (%s), want %v s", c.Seconds, c.Rung, want)
	}
	if !near(c.Seconds.Hi, 6.695*math.Pow(256.0/192, 3), 1e-9) || c.Seconds.Lo != c.Seconds.V {
		t.Errorf("interval %+v: want the fitted to the textbook answer", c.Seconds)
	}
	if !strings.Contains(c.Method, "key-size power law") || !strings.Contains(c.Method, "secp192k1") {
		t.Errorf("method %q", c.Method)
	}
	// One size only: the textbook exponent, k − ½ to k.
	one := &device.Device{Name: "x", Operations: []device.Operation{{Name: "only", Family: "ECDSA", Bits: 160, Operation: "sign", Time: device.V(2, "s", "t")}}}
	c, err = (&Pricer{Device: one}).Resolve(Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign"})
	if err != nil || !near(c.Seconds.V, 2*math.Pow(256.0/160, 3), 1e-12) || !near(c.Seconds.Lo, 2*math.Pow(256.0/160, 2.5), 1e-12) || !strings.Contains(c.Method, "textbook") {
		t.Errorf("textbook exponent: %+v %v", c, err)
	}
	for _, tc := range []struct {
		scheme, family string
		bits           int
	}{{"RSA-2048-PKCS1v15-SHA256", "RSA", 2048}, {"ECDSA-P384-SHA384", "ECDSA", 384}, {"ECDH-P256", "ECDH", 256}, {"Ed25519", "EdDSA", 255}, {"SHA-256", "", 0}} {
		if f, b := KeySize(tc.scheme); f != tc.family || b != tc.bits {
			t.Errorf("KeySize(%s) = %s %d, want %s %d", tc.scheme, f, b, tc.family, tc.bits)
		}
	}
}

// The precedence: the literature's figure for exactly this operation
// (imported: S003 measured RSA-2048 verify on the mote) beats any
// estimate, and its measured energy is used as it is.
func TestImportedBeatsEstimated(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "telosb")}
	e, err := p.OpEnergy(Op{Scheme: "RSA-2048-PKCS1v15-SHA256", Operation: "verify", InputBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	if e.Cost.Rung != Imported || !near(e.Cost.Seconds.V, 5.919, 1e-12) || !near(e.Gross.V, 17.72e-3, 1e-12) || energyLabel(e) != result.Imported {
		t.Errorf("RSA-2048 verify on TelosB: %+v, energy %v", e.Cost, e.Gross)
	}
	if !strings.Contains(e.Cost.Source, "RSA-2048 verify (SecSyWiSe RSA)") {
		t.Errorf("source %q", e.Cost.Source)
	}
}

// An operation no rung can price is an error that says, per rung, why,
// and what would price it.
func TestNotPriced(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "telosb")}
	_, err := p.Resolve(Op{Scheme: "ML-KEM-768", Operation: "decaps"})
	var np *NotPricedError
	if err == nil || !errorsAs(err, &np) {
		t.Fatalf("error %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"not priced: ML-KEM-768 decaps on telosb", "measured on the device: the run was made on another machine",
		"imported from the literature", "what would price it", "--device-file"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

func errorsAs(err error, np **NotPricedError) bool {
	e, ok := err.(*NotPricedError)
	*np = e
	return ok
}

// Calibration: refused for devices Go does not run on and runs from
// another architecture; an emulated run is kept with a warning; a
// calibrated subject is the calibrated rung, the others scale by the
// calibrated ratio.
func TestCalibration(t *testing.T) {
	telosb := mustDevice(t, "telosb")
	run := fixtureRun()
	if _, err := NewCalibration(telosb, run, "r.json"); err == nil || !strings.Contains(err.Error(), "no port") {
		t.Errorf("telosb calibration: %v", err)
	}
	pi := mustDevice(t, "pi-zero-2w")
	run.Environment.Arch = "amd64"
	if _, err := NewCalibration(pi, run, "r.json"); err == nil || !strings.Contains(err.Error(), "not pi-zero-2w") {
		t.Errorf("amd64 run for the Pi: %v", err)
	}
	onPi := fixtureRun()
	onPi.Environment.Arch, onPi.Environment.CPUModel = "arm", "AMD EPYC 7B13"
	onPi.Results = onPi.Results[:2] // SHA-256 and ECDSA measured on the "Pi"
	onPi.Results[0].Metrics[0] = result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{20000, 20000, 20000})
	onPi.Results[1].Metrics[0] = result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{1e6, 1e6, 1e6})
	c, err := NewCalibration(pi, onPi, "pi.json")
	if err != nil || len(c.Entries) != 2 || len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "emulation") {
		t.Fatalf("calibration %+v %v", c, err)
	}
	dir := t.TempDir()
	if _, err := SaveCalibration(dir, c); err != nil {
		t.Fatal(err)
	}
	c2 := *c
	c2.Entries = []CalibrationEntry{{Subject: "X@go/op", MedianNs: 5}}
	if _, err := SaveCalibration(dir, &c2); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadCalibration(dir, "pi-zero-2w")
	if err != nil || len(loaded.Entries) != 3 || loaded.Lookup("SHA-256@go/hash/1k").MedianNs != 20000 {
		t.Fatalf("loaded %+v %v", loaded, err)
	}
	if none, err := LoadCalibration(dir, "telosb"); none != nil || err != nil {
		t.Errorf("no calibration: %v %v", none, err)
	}
	// Host run: SHA 1000 ns (Pi 20000: ratio 20), ECDSA 50000 ns (Pi 1e6:
	// ratio 20): AES-GCM's 500 ns scales to 10000 ns by the median ratio.
	host := fixtureRun()
	if err := Price(host, Options{Device: pi, Calibration: loaded}); err != nil {
		t.Fatal(err)
	}
	if dt := host.Results[0].Metric("device-time"); dt == nil || dt.Label != result.Imported || !near(dt.Summary.Median, 20e-6, 1e-9) || !strings.Contains(dt.Source, "calibrated") {
		t.Errorf("calibrated subject: %+v", dt)
	}
	dt := host.Results[2].Metric("device-time")
	if dt == nil || dt.Label != result.Estimated || !near(dt.Summary.Median, 10e-6, 1e-9) || !strings.Contains(dt.Method, "calibrated ratio") {
		t.Errorf("calibrated ratio: %+v", dt)
	}
}

// The duty-cycle arithmetic by hand, with the TelosB's ranges: 2000–2500
// mAh, 2.6–2.7 V. One 13.166 s signature at 1.8 mA every 600 s, sleeping
// at 5.1 µA: I_avg = (E/V + I_sleep·(T − t)) / T.
func TestBatteryLife(t *testing.T) {
	d := mustDevice(t, "telosb")
	const tOp, T = 13.166, 600.0
	e := Span(2.65*1.8e-3*tOp, 2.6*1.8e-3*tOp, 2.7*1.8e-3*tOp)
	l, err := Battery{Device: d, Period: 10 * time.Minute, EventJoules: e, EventSeconds: Exact(tOp)}.Life()
	if err != nil {
		t.Fatal(err)
	}
	q := 2250 * 3.6
	avg := (e.V/2.65 + 5.1e-6*(T-tOp)) / T
	if !near(l.AverageAmps.V, avg, 1e-12) || !near(l.Seconds.V, q/avg, 1e-12) {
		t.Errorf("average %v A, lifetime %v s; want %v, %v", l.AverageAmps.V, l.Seconds.V, avg, q/avg)
	}
	// The short end: the least charge (2000 mAh) at the largest charge per
	// event (the most energy over the lowest voltage).
	lo := 2000 * 3.6 / ((e.Hi/2.6 + 5.1e-6*(T-tOp)) / T)
	hi := 2500 * 3.6 / ((e.Lo/2.7 + 5.1e-6*(T-tOp)) / T)
	if !near(l.Seconds.Lo, lo, 1e-12) || !near(l.Seconds.Hi, hi, 1e-12) {
		t.Errorf("lifetime %v–%v s, want %v–%v", l.Seconds.Lo, l.Seconds.Hi, lo, hi)
	}
	if share := e.V / 2.65 / (avg * T); !near(l.EventShare.V, share, 1e-12) || !near(share, 0.888, 1e-3) {
		t.Errorf("event share %v, want %v", l.EventShare.V, share)
	}
	if !near(l.SleepOnlySeconds.V, q/5.1e-6, 1e-12) {
		t.Errorf("sleep only %v", l.SleepOnlySeconds.V)
	}
	for _, bad := range []Battery{
		{Device: d, Period: 0, EventJoules: Exact(1), EventSeconds: Exact(1)},
		{Device: d, Period: time.Second, EventJoules: Exact(1), EventSeconds: Exact(2)},
		{Device: d, Period: time.Second, EventJoules: Exact(0), EventSeconds: Exact(0.5)},
	} {
		if _, err := bad.Life(); err == nil {
			t.Errorf("Life(%+v) accepted", bad)
		}
	}
}

func TestUsableCharge(t *testing.T) {
	c, _, err := UsableCharge(&device.Battery{Capacity: device.V(10, "Wh", "x"), NominalVoltage: device.V(3.6, "V", "x"), Usable: device.V(0.5, "", "x")})
	if err != nil || !near(c.V, 10*3600/3.6*0.5, 1e-12) {
		t.Errorf("10 Wh at 3.6 V × 0.5 = %v C, %v", c, err)
	}
	if _, _, err := UsableCharge(mustDevice(t, "mica2dot").Battery); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("unknown capacity: %v", err)
	}
}

// The battery answer of issue 14: one ECDSA P-256 signature every 10
// minutes on a TelosB with 2×AA, by the key-size law (13.166 s) at 2.65 V
// × 1.8 mA; and a literature operation by its key.
func TestAnswerBattery(t *testing.T) {
	d := mustDevice(t, "telosb")
	a, err := AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-P256-SHA256", Op: "sign", Period: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	k := math.Log(6.695/4.361) / math.Log(192.0/160)
	tOp := 6.695 * math.Pow(256.0/192, k)
	avg := (1.8e-3*tOp + 5.1e-6*(600-tOp)) / 600
	days := 2250 * 3.6 / avg / 86400
	if a.Label != result.Estimated || !near(a.Life.Days(), days, 1e-9) || !strings.Contains(a.Sentence(), "lasts about") {
		t.Errorf("sentence %q (%s), want %.0f days", a.Sentence(), a.Label, days)
	}
	if a.Life.Seconds.Exact() || !strings.Contains(a.Sentence(), " to ") {
		t.Errorf("no interval in %q", a.Sentence())
	}
	if _, err := AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-P256-SHA256", Op: "sign", Period: 10 * time.Minute, NoEstimates: true}); err == nil {
		t.Error("--no-estimates answered with an estimate")
	}
	a, err = AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-160", Op: "verify", Period: time.Minute})
	if err != nil || a.Label != result.Imported || !near(a.Energy.Cost.Seconds.V, 3.642, 1e-12) || !near(a.Energy.Gross.V, 10.72e-3, 1e-12) {
		t.Errorf("literature op: %+v %v", a, err)
	}
	if _, err := AnswerBattery(BatteryQuery{Device: d, Algo: "SHA-265", Op: "hash", Period: time.Minute}); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("unknown algorithm: %v", err)
	}
}

// S000's split, by difference: on the N95, a TLS 1.0 RSA-AES128 handshake
// whose asymmetric work the profile cannot price gets the study's whole
// handshake energy less the plain TCP connection and the parts priced
// from its per-byte figures: 99 − 25 − 0.7 µJ/B × 1024 B − 1.3 µJ/B ×
// 1000 B = 71.9832 mJ, estimated. Without the matching parameters, or
// with two parts unpriced, the asymmetric part stays not priced.
func TestResidualPricesByDifference(t *testing.T) {
	n95, err := device.Lookup("nokia-n95")
	if err != nil {
		t.Fatal(err)
	}
	handshake := func(params map[string]string, work ...result.Work) *result.Run {
		return &result.Run{Results: []result.Result{{
			Subject: result.Subject{Name: "tls1.0/rsa", Kind: "tls", Params: params},
			Work:    work,
		}}}
	}
	rsa := map[string]string{"version": "1.0", "kex": "rsa", "bulk": "aes128-cbc-sha", "client_auth": "false", "resumption": "none"}
	asym := result.Work{Component: "asymmetric", Party: "client", Scheme: "RSA-1024-PKCS1v15", Operation: "encrypt", InputBytes: 48, Count: 1}
	hash := result.Work{Component: "hashing", Party: "client", Scheme: "SHA-1", Operation: "hash", InputBytes: 1024, Count: 1}
	io := result.Work{Component: "io", Party: "client", Scheme: "memory", Operation: "copy", InputBytes: 1000, Count: 1}
	unpriced := result.Work{Component: "symmetric+mac", Party: "client", Scheme: "ChaCha20-Poly1305", Operation: "seal", InputBytes: 16, Count: 1}

	run := handshake(rsa, asym, hash, io)
	if err := Price(run, Options{Device: n95}); err != nil {
		t.Fatal(err)
	}
	r := &run.Results[0]
	m := r.Metric("energy/asymmetric")
	if m == nil || math.Abs(m.Summary.Median-0.0719832) > 1e-9 || m.Label != result.Estimated || !strings.Contains(m.Method, "99 mJ [S000] − plain TCP connection, local (S000) 25 mJ [S000]") {
		t.Fatalf("asymmetric by difference: %+v (warnings %q)", m, r.Warnings)
	}
	if e := r.Metric("energy"); e == nil || math.Abs(e.Summary.Median-0.074) > 1e-9 {
		t.Errorf("total %+v, want the handshake less the TCP connection, 74 mJ", e)
	}

	for name, run := range map[string]*result.Run{
		"client auth": handshake(map[string]string{"version": "1.0", "kex": "rsa", "bulk": "aes128-cbc-sha", "client_auth": "maybe", "resumption": "none"}, asym, hash, io),
		"two parts":   handshake(rsa, asym, hash, io, unpriced),
	} {
		if err := Price(run, Options{Device: n95}); err != nil {
			t.Fatal(err)
		}
		if m := run.Results[0].Metric("energy/asymmetric"); m != nil {
			t.Errorf("%s: asymmetric priced %+v, want not priced", name, m)
		}
	}
}
