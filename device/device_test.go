package device

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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

// The profile fields the costing stage reads: ranges, the simulated
// target, the estimation opt-in, the literature's per-battery claim and
// the registry schemes a figure covers.
func TestCostingFields(t *testing.T) {
	telosb, _ := Lookup("telosb")
	if lo, hi := telosb.Supply.Voltage.RangeIn("V"); lo != 2.6 || hi != 2.7 || telosb.Supply.Voltage.MustIn("V") != 2.65 {
		t.Errorf("TelosB supply %v: want 2.6–2.7 V, midpoint 2.65", telosb.Supply.Voltage)
	}
	if lo, hi := telosb.Battery.Capacity.RangeIn("mAh"); lo != 2000 || hi != 2500 {
		t.Errorf("TelosB battery %v: want 2000–2500 mAh", telosb.Battery.Capacity)
	}
	for _, name := range []string{"arduino-uno", "uno-lora"} {
		d, _ := Lookup(name)
		if d.Simulation == nil || d.Simulation.Target != "atmega328p" || d.Simulation.Proxy {
			t.Errorf("%s simulation %+v: want its own ATmega328P", name, d.Simulation)
		}
	}
	if d := ForTarget("atmega328p"); d == nil || d.Name != "arduino-uno" {
		t.Errorf("ForTarget(atmega328p) = %v, want arduino-uno", d)
	}
	if d := ForTarget("z80"); d != nil {
		t.Errorf("ForTarget(z80) = %v", d.Name)
	}
	phone, _ := Lookup("s001-phone")
	if phone.Estimate == nil || phone.Estimate.Rule != "host-lower-bound" || phone.Estimate.Why == "" {
		t.Errorf("s001-phone estimate %+v", phone.Estimate)
	}
	rsa, ok := phone.FindOperation("RSA", "sign")
	if !ok || rsa.PerBattery.MustIn("") != 10000 {
		t.Errorf("S001 RSA per battery: %+v", rsa)
	}
	n95, _ := Lookup("nokia-n95")
	for _, c := range []struct {
		scheme, op string
		perByte    float64 // µJ/B
	}{
		{"AES-128", "encrypt-cbc", 1.7}, {"AES-128", "decrypt-cbc", 1.7}, {"AES-256", "decrypt-cbc", 2.0},
		{"SHA-1", "hash", 0.7}, {"HMAC-SHA-1", "mac", 0.7}, {"memory", "copy", 1.3},
	} {
		var found bool
		for _, o := range n95.Operations {
			if o.Covers(c.scheme, c.op) {
				found = true
				if got := o.EnergyPerByte.MustIn("µJ/B"); !near(got, c.perByte, 1e-12) {
					t.Errorf("N95 %s %s: %v µJ/B, want %v", c.scheme, c.op, got, c.perByte)
				}
			}
		}
		if !found {
			t.Errorf("N95 has no figure covering %s %s", c.scheme, c.op)
		}
	}
	if o := n95.Operations[0]; o.Covers("AES-256", "seal") || o.Covers("AES-256-GCM", "encrypt-cbc") {
		t.Error("a figure covers a scheme or operation it does not name")
	}
	for _, tc := range []struct{ from, to, want string }{
		{"battery:", "simulation: {target: \"\"}\nbattery:", "simulation.target: missing"},
		{"battery:", "estimate: {rule: guess, why: x}\nbattery:", `estimate.rule: "guess": want one of host-lower-bound`},
	} {
		_, err := Parse("bad.yaml", []byte(strings.Replace(goodProfile, tc.from, tc.to, 1)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}
