package meter

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func near(got, want, abs float64) bool { return math.Abs(got-want) <= abs }

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// raplTree makes a sysfs-shaped powercap tree: package-0 with core and
// dram sub-zones, and psys.
func raplTree(t *testing.T) string {
	root := t.TempDir()
	zone := func(dir, name string, energy, max uint64) {
		d := filepath.Join(root, powercapDir, dir)
		write(t, filepath.Join(d, "name"), name+"\n")
		write(t, filepath.Join(d, "energy_uj"), fmt.Sprintf("%d\n", energy))
		write(t, filepath.Join(d, "max_energy_range_uj"), fmt.Sprintf("%d\n", max))
	}
	zone("intel-rapl:0", "package-0", 1_000_000, 262143328850)
	zone("intel-rapl:0:0", "core", 500_000, 262143328850)
	zone("intel-rapl:0:1", "dram", 100_000, 65712999613)
	zone("intel-rapl:1", "psys", 9_000_000, 262143328850)
	// The control-type directory, not a zone.
	write(t, filepath.Join(root, powercapDir, "intel-rapl", "enabled"), "1\n")
	return root
}

func setCounter(t *testing.T, root, zone string, v uint64) {
	write(t, filepath.Join(root, powercapDir, zone, "energy_uj"), fmt.Sprintf("%d\n", v))
}

// RAPL: the package counter wraps past max_energy_range_uj between two
// reads; the energy is still exact: (max − start) + end.
func TestPowercapWrapAround(t *testing.T) {
	root := raplTree(t)
	m, err := Open("powercap", Config{Root: root, Interval: time.Hour}) // no ticker reads: the test drives them
	if err != nil {
		t.Fatal(err)
	}
	sess, err := m.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := sess.(*raplSession)
	const max = 262143328850
	// package-0 goes 1,000,000 → max − 2,000,000 (read) → 3,000,000
	// (wrapped) → 7,000,000: total (max − 3,000,000) + 3,000,000 +
	// 4,000,000 ... computed step by step below.
	setCounter(t, root, "intel-rapl:0", max-2_000_000)
	s.sample()
	setCounter(t, root, "intel-rapl:0", 3_000_000) // wrapped once
	s.sample()
	setCounter(t, root, "intel-rapl:0", 1_000_000) // wrapped again (a full range in between is invisible: hence the interval)
	setCounter(t, root, "intel-rapl:0:0", 750_000)
	setCounter(t, root, "intel-rapl:0:1", 100_000)
	r, err := sess.Stop()
	if err != nil {
		t.Fatal(err)
	}
	wantUJ := float64((max - 2_000_000 - 1_000_000) + (max - (max - 2_000_000) + 3_000_000) + (max - 3_000_000 + 1_000_000))
	if !near(r.Joules, wantUJ*1e-6, 1e-9) {
		t.Errorf("package energy %.9f J, want %.9f J", r.Joules, wantUJ*1e-6)
	}
	got := map[string]float64{}
	for _, d := range r.Domains {
		got[d.Name] = d.Joules
	}
	if !near(got["intel-rapl:0:0 core"], 0.25, 1e-12) || got["intel-rapl:0:1 dram"] != 0 || got["intel-rapl:1 psys"] != 0 {
		t.Errorf("domains %v", got)
	}
	if !strings.Contains(r.Method, "2 wraps") || !strings.Contains(r.Method, "total = package-0") {
		t.Errorf("method %q", r.Method)
	}
}

func TestCounterDelta(t *testing.T) {
	for _, c := range []struct{ prev, cur, max, want uint64 }{
		{10, 15, 100, 5}, {90, 5, 100, 15}, {0, 0, 100, 0}, {100, 0, 100, 0},
	} {
		if got := counterDelta(c.prev, c.cur, c.max); got != c.want {
			t.Errorf("counterDelta(%d, %d, %d) = %d, want %d", c.prev, c.cur, c.max, got, c.want)
		}
	}
}

func TestPowercapUnavailable(t *testing.T) {
	_, err := Open("powercap", Config{Root: t.TempDir()})
	if !IsUnavailable(err) || !strings.Contains(err.Error(), "no RAPL zones") || !strings.Contains(err.Error(), "modprobe intel_rapl_msr") {
		t.Errorf("empty tree: %v", err)
	}
	// Root reads any file, so a real EACCES cannot be made here; the
	// explanation of the error the kernel returns to non-root users is
	// checked on the error itself.
	perr := &fs.PathError{Op: "open", Path: "/sys/class/powercap/intel-rapl:0/energy_uj", Err: syscall.EACCES}
	err = unavailableRead("powercap", perr)
	if !IsUnavailable(err) || !strings.Contains(err.Error(), "root only since Linux 5.10") || !strings.Contains(err.Error(), "CVE-2020-8694") || !strings.Contains(err.Error(), "chmod o+r") {
		t.Errorf("permission: %v", err)
	}
	root := raplTree(t)
	write(t, filepath.Join(root, powercapDir, "intel-rapl:0", "energy_uj"), "lots\n")
	if _, err := Open("powercap", Config{Root: root}); err == nil || !strings.Contains(err.Error(), "not a counter value") {
		t.Errorf("garbage counter: %v", err)
	}
	if _, err := Open("rapl2", Config{}); err == nil || !strings.Contains(err.Error(), "powercap") {
		t.Errorf("unknown meter: %v", err)
	}
}

// Probe on a tree with neither meter says why each is unavailable.
func TestProbe(t *testing.T) {
	st := Probe(Config{Root: t.TempDir()})
	if len(st) != 2 || st[0].Name != "power_supply" || st[0].Available || st[1].Available || !strings.Contains(st[0].Detail, "no battery") {
		t.Errorf("probe %+v", st)
	}
	st = Probe(Config{Root: raplTree(t)})
	if !st[1].Available || !strings.Contains(st[1].Detail, "package-0") {
		t.Errorf("probe with RAPL %+v", st)
	}
}

// battery makes a power_supply tree; values in the given raw units.
func battery(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	dir := filepath.Join(root, powerSupplyDir, "BAT0")
	write(t, filepath.Join(root, powerSupplyDir, "AC", "type"), "Mains\n")
	write(t, filepath.Join(dir, "type"), "Battery\n")
	for f, v := range files {
		write(t, filepath.Join(dir, f), v+"\n")
	}
	return root
}

// The gauge's sign and unit conventions, normalised: the same physical
// draw (3.8 V, 250 mA discharging = 0.95 W) read from five gauges.
func TestPowerSupplyConventions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		cfg   Config
		warn  string
	}{
		{"ABI, discharge negative", map[string]string{"status": "Discharging", "voltage_now": "3800000", "current_now": "-250000"}, Config{}, ""},
		{"discharge positive", map[string]string{"status": "Discharging", "voltage_now": "3800000", "current_now": "250000"}, Config{}, ""},
		{"mA detected from power_now", map[string]string{"status": "Discharging", "voltage_now": "3800000", "current_now": "250", "power_now": "950000"}, Config{}, ""},
		{"mV voltage", map[string]string{"status": "Discharging", "voltage_now": "3800", "current_now": "250000"}, Config{}, ""},
		{"mA given", map[string]string{"status": "Unknown", "voltage_now": "3800000", "current_now": "250"}, Config{CurrentUnit: "mA"}, ""},
		{"sign given, no status", map[string]string{"voltage_now": "3800000", "current_now": "-250000"}, Config{CurrentSign: "discharge-negative"}, ""},
		{"power_now only", map[string]string{"status": "Discharging", "power_now": "950000"}, Config{}, ""},
		{"mA unnoticed warns", map[string]string{"status": "Discharging", "voltage_now": "3800000", "current_now": "250"}, Config{}, "--current-unit mA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Root = battery(t, tc.files)
			tc.cfg.Interval = time.Hour
			m, err := Open("power_supply", tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			p := m.(*powerSupply)
			g, err := p.read()
			if err != nil {
				t.Fatal(err)
			}
			// Constant draw for 10 s, read three times: E = P × 10 s.
			r, err := p.reading([]gaugeRead{g, g, g}, []float64{0, 4, 10})
			if err != nil {
				t.Fatal(err)
			}
			want := 9.5
			if tc.warn != "" {
				want = 9.5e-3 // read as µA: 1000× too small, and said so
			}
			if !near(r.Joules, want, 1e-9) {
				t.Errorf("energy %v J, want %v (method %s)", r.Joules, want, r.Method)
			}
			if tc.warn != "" && !strings.Contains(strings.Join(r.Warnings, "|"), tc.warn) {
				t.Errorf("warnings %v, want %q", r.Warnings, tc.warn)
			}
		})
	}
}

// A waveform with an exactly known integral: power ramps linearly from
// 1 W to 3 W over 4 s (4 J... (1+3)/2 × 4 = 8 J) then holds 3 W for 2 s
// (6 J): 14 J, exact under the trapezoidal rule.
func TestPowerSupplyIntegratesSamples(t *testing.T) {
	root := battery(t, map[string]string{"status": "Discharging", "voltage_now": "4000000", "current_now": "-250000"})
	m, _ := Open("power_supply", Config{Root: root, Interval: time.Hour})
	p := m.(*powerSupply)
	mk := func(amps float64) gaugeRead {
		return gaugeRead{status: "Discharging", volts: 4, amps: -amps * 1e6, watts: math.NaN(), energyJ: math.NaN(), chargeC: math.NaN()}
	}
	r, err := p.reading([]gaugeRead{mk(0.25), mk(0.5), mk(0.75), mk(0.75)}, []float64{0, 2, 4, 6})
	if err != nil || !near(r.Joules, 14, 1e-12) {
		t.Errorf("energy %v J, %v; want 14 J", r.Joules, err)
	}
	// Live: a real session over the tree, sampled by its own ticker.
	m, _ = Open("power_supply", Config{Root: root, Interval: 5 * time.Millisecond})
	sess, err := m.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	waitSamples(t, sess.(*gaugeSession), 3) // the ticker's, beside Start's
	r, err = sess.Stop()
	if err != nil || r.Samples < 4 || !near(r.Joules, 1*r.Seconds, 1e-9) {
		t.Errorf("live session: %+v %v (want 1 W × %v s)", r, err, r.Seconds)
	}
}

// waitSamples waits until the session holds n gauge reads: an event (its
// ticker fired), not a time, so a loaded host only makes it slower. The
// poll's pause is the only sleep; the bound is a hang guard.
func waitSamples(t *testing.T, s *gaugeSession, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		got := len(s.raw)
		s.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d gauge reads after a minute of a 5 ms ticker, want %d", got, n)
		}
	}
}

func TestPowerSupplyUnavailable(t *testing.T) {
	_, err := Open("power_supply", Config{Root: t.TempDir()})
	if !IsUnavailable(err) || !strings.Contains(err.Error(), "no battery") {
		t.Errorf("no battery: %v", err)
	}
	root := battery(t, map[string]string{"status": "Discharging", "capacity": "50"})
	if _, err := Open("power_supply", Config{Root: root}); err == nil || !strings.Contains(err.Error(), "neither voltage_now") {
		t.Errorf("no gauge files: %v", err)
	}
	root = battery(t, map[string]string{"voltage_now": "3800000", "current_now": "1"})
	if _, err := Open("power_supply", Config{Root: root, Supply: "BAT9"}); err == nil || !strings.Contains(err.Error(), "BAT0") {
		t.Errorf("wrong battery: %v", err)
	}
	if _, err := Open("power_supply", Config{Root: root, CurrentSign: "up"}); err == nil || !strings.Contains(err.Error(), "discharge-positive") {
		t.Errorf("bad sign: %v", err)
	}
}
