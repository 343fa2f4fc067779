package energy

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// Every built-in profile loads (init would have panicked otherwise), has
// the devices the issue names, and every known number has a source.
func TestBuiltinProfiles(t *testing.T) {
	want := []string{"arduino-uno", "esp32", "host", "mica2dot", "micaz", "nokia-n95", "nrf52840", "pi-zero-2w", "s001-phone", "telosb", "uno-lora"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("built-in devices %v, want %v", got, want)
	}
	for _, d := range All() {
		var values []Value
		values = append(values, d.CPU.Clock, d.CPU.Cores, d.CPU.WordBits, d.Memory.RAM, d.Memory.Flash, d.Memory.Storage, d.Supply.Voltage)
		for _, s := range d.States() {
			values = append(values, d.Power[s])
		}
		if d.Battery != nil {
			values = append(values, d.Battery.Capacity, d.Battery.NominalVoltage, d.Battery.Usable)
		}
		for _, o := range d.Operations {
			values = append(values, o.Time, o.Energy, o.Current, o.EnergyPerByte)
		}
		for _, v := range values {
			if v.Known() && strings.TrimSpace(v.Source) == "" {
				t.Errorf("%s: %v has no source", d.Name, v)
			}
		}
	}
}

// The seed digests' numbers are in the profiles as the studies give them.
func TestSeedFigures(t *testing.T) {
	telosb, _ := Lookup("TelosB")
	if a, _, _ := telosb.StateCurrent("active"); !near(a, 1.8e-3, 1e-12) {
		t.Errorf("TelosB active %v A, want 1.8 mA [S003]", a)
	}
	if s, _, _ := telosb.StateCurrent("sleep"); !near(s, 5.1e-6, 1e-12) {
		t.Errorf("TelosB sleep %v A, want 5.1 µA [S003]", s)
	}
	o, ok := telosb.FindOperation("RSA-1024", "verify")
	if !ok || o.Time.MustIn("ms") != 675 || o.Energy.MustIn("mJ") != 4.87 {
		t.Errorf("TelosB RSA-1024 verify: %+v", o)
	}
	phone, _ := Lookup("s001")
	for state, mA := range map[string]float64{"idle": 139.7, "typical": 362.2, "listening": 150.9} {
		if a, _, err := phone.StateCurrent(state); err != nil || !near(a*1e3, mA, 1e-12) {
			t.Errorf("S001 %s = %v mA, %v; want %v", state, a*1e3, err, mA)
		}
	}
	if phone.Battery.Capacity.MustIn("mAh") != 3000 {
		t.Errorf("S001 battery %v", phone.Battery.Capacity)
	}
	p, err := OpPower(phone, result.Subject{Scheme: "ECDSA-P256-SHA256", Operation: "sign", Params: map[string]string{"curve": "P-256"}})
	if err != nil || !near(p.Amps, 0.1822, 1e-12) {
		t.Errorf("S001 ECDSA P-256 signing current %v A, %v; want 182.2 mA", p.Amps, err)
	}
	host, _ := Lookup("host")
	if host.Power["active"].Known() || host.Supply.Voltage.Known() {
		t.Error("host power figures must be unknown, not invented")
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"telosb", "TelosB", "Tmote Sky", "tmote-sky", "PI ZERO 2 W", "rpi-zero-2w"} {
		if _, err := Lookup(name); err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
		}
	}
	_, err := Lookup("telosc")
	if err == nil || !strings.Contains(err.Error(), "telosb") || !strings.Contains(err.Error(), "--device-file") {
		t.Errorf("unknown device error: %v", err)
	}
}

const goodProfile = `name: my-board
title: "My board"
cpu: {model: "M0+", arch: arm, clock: "48 MHz [datasheet]", cores: "1 [datasheet]"}
supply: {voltage: "3.3 V [datasheet]"}
power:
  active: "5 mA [datasheet]"
  sleep: "2 µA [datasheet]"
battery: {chemistry: "CR2032", capacity: "220 mAh [datasheet]", nominal_voltage: "3 V [datasheet]", usable: "0.8 [assumption]"}
`

// Bad profiles are refused with the file, line and field, and say what
// would work.
func TestProfileErrors(t *testing.T) {
	if _, err := Parse("ok.yaml", []byte(goodProfile)); err != nil {
		t.Fatalf("good profile: %v", err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"missing field", `  active: "5 mA [datasheet]"` + "\n", "", "bad.yaml:6: power.active: missing"},
		{"unknown unit", `"5 mA [datasheet]"`, `"5 mQ [datasheet]"`, `bad.yaml:6: power.active: unknown unit "mQ"`},
		{"wrong dimension", `"5 mA [datasheet]"`, `"5 mV [datasheet]"`, `power.active: unit "mV" is voltage, want current or power`},
		{"negative", `"2 µA [datasheet]"`, `"-2 µA [datasheet]"`, "bad.yaml:7: power.sleep: -2 µA [datasheet] must be positive"},
		{"implausible", `"3.3 V [datasheet]"`, `"3300 V [datasheet]"`, "supply.voltage: 3300 V [datasheet] is implausible: want 0.5 to 60 V"},
		{"no source", `"48 MHz [datasheet]"`, `"48 MHz"`, "bad.yaml:3: cpu.clock: 48 MHz has no source"},
		{"usable above 1", `"0.8 [assumption]"`, `"1.5 [assumption]"`, "battery.usable: 1.5 [assumption] is implausible"},
		{"unknown field", "title:", "titel:", "field titel not found"},
		{"unknown without reason", `"2 µA [datasheet]"`, `"unknown"`, `"unknown" needs a reason`},
		{"bad name", "name: my-board", "name: My Board", `name: "My Board": want lower-case`},
	} {
		src := strings.Replace(goodProfile, tc.from, tc.to, 1)
		_, err := Parse("bad.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// An explicit unknown is accepted and shown as such.
	d, err := Parse("u.yaml", []byte(strings.Replace(goodProfile, `"2 µA [datasheet]"`, `"unknown [not measured yet]"`, 1)))
	if err != nil || d.Power["sleep"].Known() || !strings.Contains(d.Power["sleep"].String(), "not measured yet") {
		t.Errorf("unknown value: %v, %v", d, err)
	}
}

func TestLoadFileAndResolve(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "b.yaml")
	os.WriteFile(p, []byte(goodProfile), 0o644)
	d, err := Resolve("", p)
	if err != nil || d.Name != "my-board" || d.File != p {
		t.Fatalf("Resolve file: %v %v", d, err)
	}
	if _, err := Resolve("telosb", p); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Errorf("name and file disagreeing: %v", err)
	}
	if _, err := Resolve("", filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Resolve("", ""); err == nil || !strings.Contains(err.Error(), "--device NAME") {
		t.Errorf("neither: %v", err)
	}
}

// fixtureRun is a run "measured on this machine" with known times.
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
func TestAnnotateOnDevice(t *testing.T) {
	d, _ := Parse("b.yaml", []byte(goodProfile))
	d.CPU.Arch, d.CPU.GOARCH = "arm64", []string{"arm64"}
	run := fixtureRun()
	if err := Annotate(run, d, Options{OnDevice: true}); err != nil {
		t.Fatal(err)
	}
	if run.Environment.Device != "my-board" {
		t.Errorf("environment device %q", run.Environment.Device)
	}
	sha := run.Results[0]
	// 3.3 V × 5 mA × 1000 ns = 16.5 nJ = 0.0165 µJ; net of 2 µA sleep:
	// 3.3 × (5e-3 − 2e-6) × 1e-6 s = 0.0164934 µJ; per byte / 1024.
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{"energy", 0.0165e-6}, {"energy-net", 3.3 * (5e-3 - 2e-6) * 1e-6},
		{"energy-per-byte", 0.0165e-6 / 1024}, {"energy-net-per-byte", 3.3 * (5e-3 - 2e-6) * 1e-6 / 1024}, {"current", 5e-3}, {"power", 16.5e-3},
	} {
		m := sha.Metric(c.metric)
		if m == nil || !near(m.Summary.Median, c.want, 1e-9) {
			t.Errorf("%s = %v, want %v", c.metric, m, c.want)
			continue
		}
		if m.Label != result.Modelled {
			t.Errorf("%s labelled %s, want modelled", c.metric, m.Label)
		}
	}
	if m := sha.Metric("energy"); len(m.Samples) != 3 || !strings.HasPrefix(m.Method, "E = V·I·t: 3.3 V [datasheet] × active 5 mA [datasheet]") {
		t.Errorf("energy samples/method: %+v", m)
	}
	if sha.Metric("device-time") != nil {
		t.Error("a run on the device needs no device-time")
	}
	if run.Results[1].Metric("energy-per-byte") != nil {
		t.Error("per-byte energy on a message-sized operation")
	}
	if err := Annotate(fixtureRun(), d, Options{OnDevice: true}); err != nil {
		t.Error(err)
	}
	d.CPU.GOARCH = []string{"arm"}
	if err := Annotate(fixtureRun(), d, Options{OnDevice: true}); err == nil || !strings.Contains(err.Error(), "cannot be my-board") {
		t.Errorf("on-device with another arch: %v", err)
	}
}

func TestAnnotateRefusesUnknownPower(t *testing.T) {
	host, _ := Lookup("host")
	err := Annotate(fixtureRun(), host, Options{})
	if err == nil || !strings.Contains(err.Error(), "unknown") || !strings.Contains(err.Error(), "meter") {
		t.Errorf("host without figures: %v", err)
	}
}

// A run measured elsewhere: a clock-ratio estimate between machines of the
// same architecture is labelled estimated with its scale; --no-estimates
// refuses it; across architectures no clock ratio is offered.
func TestAnnotateEstimates(t *testing.T) {
	d, _ := Parse("b.yaml", []byte(goodProfile))
	d.CPU.Arch, d.CPU.GOARCH = "arm64", []string{"arm64"}
	d.CPU.Clock = V(1000, "MHz", "datasheet")
	run := fixtureRun()
	if err := Annotate(run, d, Options{}); err != nil {
		t.Fatal(err)
	}
	r := run.Results[0]
	dt := r.Metric("device-time")
	if dt == nil || dt.Label != result.Estimated || !near(dt.Summary.Median, 2000e-9, 1e-9) || !strings.Contains(dt.Method, "scale 2 = 2000 MHz") {
		t.Fatalf("device-time %+v", dt)
	}
	if e := r.Metric("energy"); e.Label != result.Estimated || !near(e.Summary.Median, 0.033e-6, 1e-9) {
		t.Errorf("estimated energy %+v", e)
	}
	run = fixtureRun()
	Annotate(run, d, Options{NoEstimates: true})
	if r := run.Results[0]; r.Metric("energy") != nil || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "--no-estimates") {
		t.Errorf("--no-estimates: metrics %v warnings %v", r.Metrics, r.Warnings)
	}
	d.CPU.Arch = "avr"
	run = fixtureRun()
	Annotate(run, d, Options{})
	if r := run.Results[0]; r.Metric("energy") != nil || !strings.Contains(strings.Join(r.Warnings, ""), "across architectures") {
		t.Errorf("cross-arch clock ratio: %v", r.Warnings)
	}
}

// The key-size estimate for ECDSA P-256 signing on a TelosB, by hand:
// TinyECC on TelosB signs secp160r1 in 4.361 s and secp192k1 in 6.695 s,
// so k = ln(6.695/4.361)/ln(192/160) = 2.3512 and t(256) = 6.695 ×
// (256/192)^k = 13.166 s.
func TestKeySizeEstimate(t *testing.T) {
	d, _ := Lookup("telosb")
	s := result.Subject{Name: "ECDSA-P256-SHA256@go/sign/32", Scheme: "ECDSA-P256-SHA256", Operation: "sign", Params: map[string]string{"curve": "P-256"}}
	dt, err := TimeOnDevice(TimeQuery{Device: d, Subject: s})
	if err != nil {
		t.Fatal(err)
	}
	k := math.Log(6.695/4.361) / math.Log(192.0/160)
	want := 6.695 * math.Pow(256.0/192, k)
	if dt.Label != result.Estimated || !near(dt.MedianNs*1e-9, want, 1e-9) || !near(want, 13.166, 1e-3) {
		t.Errorf("P-256 sign on TelosB %v s (%s), want %v", dt.MedianNs*1e-9, dt.Label, want)
	}
	if !strings.Contains(dt.Method, "fitted to ECDSA secp192k1 sign") {
		t.Errorf("method %q", dt.Method)
	}
	// One size only: the textbook exponent (3 for ECC).
	uno := &Device{Name: "x", Operations: []Operation{{Name: "only", Family: "ECDSA", Bits: 160, Operation: "sign", Time: V(2, "s", "t")}}}
	dt, err = TimeOnDevice(TimeQuery{Device: uno, Subject: s})
	if err != nil || !near(dt.MedianNs*1e-9, 2*math.Pow(256.0/160, 3), 1e-12) || !strings.Contains(dt.Method, "textbook") {
		t.Errorf("default exponent: %v %v", dt, err)
	}
	if f, b := SchemeSize(result.Subject{Scheme: "RSA-2048-PKCS1v15-SHA256", Params: map[string]string{"modulus_bits": "2048"}}); f != "RSA" || b != 2048 {
		t.Errorf("RSA size %s %d", f, b)
	}
	if f, _ := SchemeSize(result.Subject{Scheme: "SHA-256"}); f != "" {
		t.Errorf("SHA-256 has no key size, got %s", f)
	}
}

// Calibration: refused for devices Go does not run on and runs from
// another architecture; an emulated run is kept with a warning; the
// calibrated ratio scales the other subjects.
func TestCalibration(t *testing.T) {
	telosb, _ := Lookup("telosb")
	run := fixtureRun()
	if _, err := NewCalibration(telosb, run, "r.json"); err == nil || !strings.Contains(err.Error(), "no port") {
		t.Errorf("telosb calibration: %v", err)
	}
	pi, _ := Lookup("pi-zero-2w")
	run.Environment.Arch = "amd64"
	if _, err := NewCalibration(pi, run, "r.json"); err == nil || !strings.Contains(err.Error(), "not pi-zero-2w") {
		t.Errorf("amd64 run for the Pi: %v", err)
	}
	onPi := fixtureRun()
	onPi.Environment.Arch, onPi.Environment.CPUModel = "arm", "AMD EPYC 7B13"
	onPi.Results = onPi.Results[:2] // SHA-256 and ECDSA measured on the "Pi"
	for i := range onPi.Results {
		onPi.Results[i].Metrics[0] = result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{10000, 10000, 10000})
	}
	onPi.Results[1].Metrics[0] = result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{1e6, 1e6, 1e6})
	c, err := NewCalibration(pi, onPi, "pi.json")
	if err != nil || len(c.Entries) != 2 || len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "emulation") {
		t.Fatalf("calibration %+v %v", c, err)
	}
	dir := t.TempDir()
	if _, err := SaveCalibration(dir, c); err != nil {
		t.Fatal(err)
	}
	// A second calibration merges, replacing the same subject.
	c2 := *c
	c2.Entries = []CalibrationEntry{{Subject: "SHA-256@go/hash/1k", MedianNs: 20000}, {Subject: "X@go/op", MedianNs: 5}}
	SaveCalibration(dir, &c2)
	loaded, err := LoadCalibration(dir, "pi-zero-2w")
	if err != nil || len(loaded.Entries) != 3 || loaded.Lookup("SHA-256@go/hash/1k").MedianNs != 20000 {
		t.Fatalf("loaded %+v %v", loaded, err)
	}
	if none, err := LoadCalibration(dir, "telosb"); none != nil || err != nil {
		t.Errorf("no calibration: %v %v", none, err)
	}
	// Host run: SHA 1000 ns (Pi 20000: ratio 20), ECDSA 50000 ns (Pi 1e6:
	// ratio 20): AES-GCM 500 ns scales to 10000 ns by the median ratio 20.
	host := fixtureRun()
	if err := Annotate(host, pi, Options{Calibration: loaded}); err != nil {
		t.Fatal(err)
	}
	if dt := host.Results[0].Metric("device-time"); dt.Label != result.Imported || !near(dt.Summary.Median, 20000e-9, 1e-9) {
		t.Errorf("calibrated subject: %+v", dt)
	}
	dt := host.Results[2].Metric("device-time")
	if dt == nil || dt.Label != result.Estimated || !near(dt.Summary.Median, 10000e-9, 1e-9) || !strings.Contains(dt.Method, "scale 20 = median") {
		t.Errorf("calibrated ratio: %+v", dt)
	}
}

// The duty-cycle arithmetic by hand.
func TestLifetime(t *testing.T) {
	// 2250 mAh = 8100 C. One 13.166 s operation at 1.8 mA every 600 s,
	// sleeping at 5.1 µA: I_avg = (1.8e-3×13.166 + 5.1e-6×586.834)/600.
	q := 2250 * 3.6
	c := DutyCycle{Period: 10 * time.Minute, OpSeconds: 13.166, OpAmps: 1.8e-3, SleepAmps: 5.1e-6, BaseAmps: 5.1e-6}
	b, err := Lifetime(q, c)
	if err != nil {
		t.Fatal(err)
	}
	avg := (1.8e-3*13.166 + 5.1e-6*(600-13.166)) / 600
	if !near(b.AverageAmps, avg, 1e-12) || !near(b.Seconds, q/avg, 1e-12) {
		t.Errorf("average %v, lifetime %v", b.AverageAmps, b.Seconds)
	}
	if !near(b.OpShare, 1.8e-3*13.166/(1.8e-3*13.166+5.1e-6*(600-13.166)), 1e-12) || !near(b.OpShare, 0.888, 1e-3) {
		t.Errorf("op share %v", b.OpShare)
	}
	if !near(b.OpsPerBattery, q/(1.8e-3*13.166), 1e-12) || !near(b.OpsPerBatteryNet, q/((1.8e-3-5.1e-6)*13.166), 1e-12) {
		t.Errorf("ops per battery %v %v", b.OpsPerBattery, b.OpsPerBatteryNet)
	}
	if !near(b.SleepOnlySeconds, q/5.1e-6, 1e-12) {
		t.Errorf("sleep only %v", b.SleepOnlySeconds)
	}
	// S001's claim, checked: 3000 mAh at 209.5 mA (RSA signing) lasts
	// 3000/209.5 = 14.32 h of signing; "more than 10,000 signatures" then
	// needs a signature to take at most 14.32 h / 10,000 = 5.16 s.
	b, _ = Lifetime(3000*3.6, DutyCycle{Period: 6 * time.Second, OpSeconds: 5.155, OpAmps: 0.2095, SleepAmps: 0.1397})
	if b.OpsPerBattery < 10000 || b.OpsPerBattery > 10010 {
		t.Errorf("S001 RSA signatures per battery at 5.155 s each: %v", b.OpsPerBattery)
	}
	for _, bad := range []DutyCycle{
		{Period: 0, OpSeconds: 1, OpAmps: 1},
		{Period: time.Second, OpSeconds: 2, OpAmps: 1},
		{Period: time.Second, OpSeconds: 0.5, OpAmps: 0},
	} {
		if _, err := Lifetime(q, bad); err == nil {
			t.Errorf("Lifetime(%+v) accepted", bad)
		}
	}
}

func TestUsableCharge(t *testing.T) {
	c, _, err := UsableCharge(&Battery{Capacity: V(10, "Wh", "x"), NominalVoltage: V(3.6, "V", "x"), Usable: V(0.5, "", "x")})
	if err != nil || !near(c, 10*3600/3.6*0.5, 1e-12) {
		t.Errorf("10 Wh at 3.6 V × 0.5 = %v C, %v", c, err)
	}
	mica, _ := Lookup("mica2dot")
	if _, _, err := UsableCharge(mica.Battery); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("unknown capacity: %v", err)
	}
}

// The battery answer of the issue: one ECDSA P-256 signature every 10
// minutes on a TelosB with 2×AA.
func TestAnswerBattery(t *testing.T) {
	d, _ := Lookup("telosb")
	a, err := AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-P256-SHA256", Op: "sign", Period: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if a.Label != result.Estimated || !strings.Contains(a.Sentence(), "lasts about 2107 days") || !strings.Contains(a.Sentence(), "88.8 % of the budget") {
		t.Errorf("sentence %q (%s)", a.Sentence(), a.Label)
	}
	if _, err := AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-P256-SHA256", Op: "sign", Period: 10 * time.Minute, NoEstimates: true}); err == nil {
		t.Error("--no-estimates answered with an estimate")
	}
	a, err = AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-160", Op: "verify", Period: time.Minute})
	if err != nil || a.Label != result.Modelled || a.ImportedEnergy == nil || !near(a.Time.MedianNs, 3642e6, 1e-12) {
		t.Errorf("literature op: %+v %v", a, err)
	}
	if _, err := AnswerBattery(BatteryQuery{Device: d, Algo: "SHA-265", Op: "hash", Period: time.Minute}); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("unknown algorithm: %v", err)
	}
}
