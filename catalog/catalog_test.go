package catalog

import (
	"strings"
	"testing"
)

func TestQuantityForms(t *testing.T) {
	type profile struct {
		Active Quantity `yaml:"active"`
		Sleep  Quantity `yaml:"sleep"`
	}
	var p profile
	_, err := Parse("p.yaml", []byte("active: {value: 1.8, unit: mA, source: \"[S003]\"}\nsleep: \"5.1 µA [S003]\"\n"), &p)
	if err != nil {
		t.Fatal(err)
	}
	if p.Active.Value != 1.8 || p.Active.Unit != "mA" || p.Active.Source != "[S003]" {
		t.Errorf("mapping form: %+v", p.Active)
	}
	if p.Sleep.Value != 5.1 || p.Sleep.Unit != "µA" || p.Sleep.Source != "S003" {
		t.Errorf("string form: %+v", p.Sleep)
	}
	if a, _ := p.Sleep.In("A"); a < 5.0999e-6 || a > 5.1001e-6 {
		t.Errorf("5.1 µA in A = %v", a)
	}
}

func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		q    Quantity
		unit string
		want float64
	}{
		{Q(2500, "mAh", "x"), "C", 9000},
		{Q(250, "kbit/s", "x"), "bit/s", 250000},
		{Q(1, "Wh", "x"), "J", 3600},
		{Q(1, "h", "x"), "s", 3600},
		{Q(3, "V", "x"), "mV", 3000},
		{Q(8, "bit", "x"), "B", 1},
	} {
		got, err := tc.q.In(tc.unit)
		if err != nil || got-tc.want > 1e-9*tc.want || tc.want-got > 1e-9*tc.want {
			t.Errorf("%v in %s = %v, %v; want %v", tc.q, tc.unit, got, err, tc.want)
		}
	}
	if _, err := Q(1, "mA", "x").In("V"); err == nil || !strings.Contains(err.Error(), "current") {
		t.Errorf("mA to V: %v", err)
	}
	if _, err := Q(1, "furlongs", "x").In("m"); err == nil || !strings.Contains(err.Error(), "unknown unit") {
		t.Errorf("unknown unit: %v", err)
	}
}

func TestErrorsNameFileLineAndField(t *testing.T) {
	type battery struct {
		Capacity Quantity `yaml:"capacity"`
	}
	type profile struct {
		Name    string  `yaml:"name"`
		Battery battery `yaml:"battery"`
	}
	var p profile
	n, err := Parse("telosb.yaml", []byte("name: TelosB\nbattery:\n  capacity: \"-5 mAh [x]\"\n"), &p)
	if err != nil {
		t.Fatal(err)
	}
	got := n.Errorf("battery.capacity", "must be positive").Error()
	if got != "telosb.yaml:3: battery.capacity: must be positive" {
		t.Errorf("error = %q", got)
	}
	_, err = Parse("x.yaml", []byte("name: x\nbatery: {}\n"), &p)
	if err == nil || !strings.Contains(err.Error(), "x.yaml:2: field batery not found") {
		t.Errorf("unknown field: %v", err)
	}
	_, err = Parse("y.yaml", []byte("battery:\n  capacity: lots\n"), &p)
	if err == nil || !strings.Contains(err.Error(), "y.yaml:2: bad quantity") {
		t.Errorf("bad quantity: %v", err)
	}
}

func TestCheckUnit(t *testing.T) {
	if err := CheckUnit("mA", "current"); err != nil {
		t.Error(err)
	}
	if err := CheckUnit("mW", "current"); err == nil || !strings.Contains(err.Error(), "mA") {
		t.Errorf("mW as current: %v", err)
	}
}

// TestQuantityRanges: "2.6–2.7 V" is a range with the midpoint as value;
// "-5 mA" stays a negative number, "1e-6 A" an exponent.
func TestQuantityRanges(t *testing.T) {
	q, err := ParseQuantity("2.6–2.7 V [S003]")
	if err != nil || q.Value != 2.65 || q.Lo != 2.6 || q.Hi != 2.7 || q.String() != "2.6–2.7 V [S003]" {
		t.Errorf("en dash range: %+v %v (%s)", q, err, q)
	}
	q, err = ParseQuantity("2000-2500 mAh [R]")
	if lo, hi := q.RangeIn("C"); err != nil || q.Value != 2250 || lo != 7200 || hi != 9000 {
		t.Errorf("hyphen range: %+v %v, in C %v–%v", q, err, lo, hi)
	}
	if q, err := ParseQuantity("1e-6 A [x]"); err != nil || q.Value != 1e-6 || q.HasRange() {
		t.Errorf("exponent: %+v %v", q, err)
	}
	if q, err := ParseQuantity("-5 mA [x]"); err != nil || q.Value != -5 || q.HasRange() {
		t.Errorf("negative: %+v %v", q, err)
	}
	if _, err := ParseQuantity("2.7–2.6 V [x]"); err == nil {
		t.Error("a range upside down passed")
	}
	if lo, hi := Q(3, "V", "x").Range(); lo != 3 || hi != 3 {
		t.Errorf("no range: %v %v", lo, hi)
	}
}
