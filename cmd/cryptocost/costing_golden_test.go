package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// One answer per question (issue 14): every command that can price a
// (device, scheme, operation, size) is asked for it, and all give the
// golden figure — the same value in base units, the same label and the
// same source. The figures are recomputable by hand from the profiles
// (docs/energy.md works each rung).
//
// figure is what a command said about one operation on one device.
type figure struct {
	value  float64
	label  result.Label
	source string
}

type goldenCost struct {
	device, scheme, op string
	size               int
	metric             string // "device-time", "energy" or "current"
	want               figure // source: a prefix of every command's
}

// asker asks one command; it returns the figure it printed.
type asker struct {
	name string
	ask  func(t *testing.T, work string, g goldenCost) figure
}

var goldenCosts = []goldenCost{
	// imported: S003's measured verification on the mote.
	{"telosb", "RSA-2048-PKCS1v15-SHA256", "verify", 32, "device-time",
		figure{5.919, result.Imported, "imported from the literature: RSA-2048 verify (SecSyWiSe RSA)"}},
	{"telosb", "RSA-2048-PKCS1v15-SHA256", "verify", 32, "energy",
		figure{0.01772, result.Imported, "imported from the literature: RSA-2048 verify (SecSyWiSe RSA)"}},
	// estimated: the key-size power law fitted on TinyECC's secp160r1 and
	// secp192k1 signatures: 6.695 s × (256/192)^(ln(6.695/4.361)/ln(1.2)).
	{"telosb", "ECDSA-P256-SHA256", "sign", 32, "device-time",
		figure{6.695 * math.Pow(256.0/192, math.Log(6.695/4.361)/math.Log(192.0/160)), result.Estimated, "estimated: ECDSA secp192k1 sign (TinyECC 0.2)"}},
	// simulated: the AES kernel in simavr, 9477 cycles ÷ 16 MHz.
	{"arduino-uno", "AES-128", "encrypt-ecb", 16, "device-time",
		figure{9477 / 16e6, result.Simulated, "simulated on the device's microcontroller: atmega328p"}},
	// simulated, at another message size: ECDSA P-256 signs the 6-byte
	// "sample" in 79,559,996 cycles (SHA-256 included); 32 bytes add 26 B
	// at SHA-256's simulated (1,069,547 − 67,531) / 992 cycles per byte.
	{"arduino-uno", "ECDSA-P256-SHA256", "sign", 32, "device-time",
		figure{(79559996 + 26*(1069547.0-67531)/992) / 16e6, result.Estimated, "simulated on the device's microcontroller: atmega328p, kernel ecdsa-p256-fast"}},
	// QEMU's instructions, cycles estimated by the Cortex-M4 rule: the AES
	// kernel's 5494 estimated cycles ÷ 64 MHz, estimated everywhere.
	{"nrf52840", "AES-128", "encrypt-ecb", 16, "device-time",
		figure{5494 / 64e6, result.Estimated, "simulated on the device's microcontroller: cortex-m4"}},
	// imported per byte: S000's SHA-1 incl. read, 0.7 µJ/B × 1024 B.
	{"nokia-n95", "SHA-1", "hash", 1024, "energy",
		figure{0.7e-6 * 1024, result.Imported, "imported from the literature: SHA-1 incl. read (S000)"}},
	// imported: S001's current while signing with ECDSA.
	{"s001-phone", "ECDSA-P256-SHA256", "sign", 32, "current",
		figure{0.1822, result.Imported, "device/devices/s001-phone.yaml"}},
}

// opMetric is a scenario's or the lab's per-operation name for metric.
func opMetric(g goldenCost) string {
	return map[string]string{"device-time": "op-device-time", "energy": "op-energy", "current": "op-current"}[g.metric] + "/" + g.scheme + "/" + g.op
}

func readFigure(t *testing.T, file string, subject func(*result.Result) bool, metric string) figure {
	t.Helper()
	runs, err := result.ReadJSON(bytes.NewReader(mustRead(t, file)))
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range runs {
		for i := range run.Results {
			r := &run.Results[i]
			if !subject(r) {
				continue
			}
			if m := r.Metric(metric); m != nil {
				return figure{m.Summary.Median, m.Label, m.Source}
			}
			t.Fatalf("%s: %s has no %s (warnings %q)", file, r.Subject.Name, metric, r.Warnings)
		}
	}
	t.Fatalf("%s: no result for the operation", file)
	return figure{}
}

func primitive(g goldenCost) func(*result.Result) bool {
	return func(r *result.Result) bool {
		return r.Subject.Scheme == g.scheme && r.Subject.Operation == g.op && r.Subject.InputBytes == g.size
	}
}

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := runMain(t, args...)
	if err != nil {
		t.Fatalf("cryptocost %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

func benchArgs(g goldenCost, file string) []string {
	return []string{"bench", "--quick", "--algo", g.scheme, "--op", g.op, "--sizes", fmt.Sprint(g.size),
		"--point-budget", "5ms", "--legacy", "--no-save", "-q", "--format", "json", "-o", file}
}

var commonAskers = []asker{
	{"bench --device", func(t *testing.T, work string, g goldenCost) figure {
		f := filepath.Join(work, "bench-device.json")
		runOK(t, append(benchArgs(g, f), "--device", g.device)...)
		return readFigure(t, f, primitive(g), g.metric)
	}},
	{"energy cost", func(t *testing.T, work string, g goldenCost) figure {
		in, f := filepath.Join(work, "bench.json"), filepath.Join(work, "priced.json")
		runOK(t, benchArgs(g, in)...)
		runOK(t, "energy", "cost", "--device", g.device, "--from", in, "--format", "json", "-o", f) // re-prices a run: nothing new to save
		return readFigure(t, f, primitive(g), g.metric)
	}},
}

// extraAskers are the commands that price this operation on this device
// beside bench and energy cost.
var extraAskers = map[string][]asker{
	"telosb/RSA-2048-PKCS1v15-SHA256/verify": {
		{"energy battery", energyBattery},
		{"scenario timesync", func(t *testing.T, work string, g goldenCost) figure {
			f := filepath.Join(work, "timesync.json")
			runOK(t, "scenario", "timesync", "--quick", "--schemes", "RSA-2048", "--device", g.device, "--no-save", "-o", f)
			return readFigure(t, f, func(r *result.Result) bool { return r.Subject.Name == "timesync/RSA-2048" }, opMetric(g))
		}},
		{"model eval secsywise", func(t *testing.T, work string, g goldenCost) figure {
			return modelRow(t, "secsywise", "RSA-2048/verify", g)
		}},
	},
	"telosb/ECDSA-P256-SHA256/sign": {
		{"energy battery", energyBattery},
		{"scenario sensor", func(t *testing.T, work string, g goldenCost) figure {
			f := filepath.Join(work, "sensor.json")
			runOK(t, "scenario", "sensor", "--quick", "--readings", "1", "--protection", "cose", "--device", g.device, "--no-save", "--format", "json", "-o", f)
			return readFigure(t, f, func(r *result.Result) bool { return strings.HasPrefix(r.Subject.Name, "sensor/cose-sign1/") }, opMetric(g))
		}},
		{"model eval sensor-reading", func(t *testing.T, work string, g goldenCost) figure {
			return modelRow(t, "sensor-reading", "ECDSA-P256/sign", g)
		}},
	},
	"arduino-uno/AES-128/encrypt-ecb": {mcuAES("atmega328p")},
	"nrf52840/AES-128/encrypt-ecb":    {mcuAES("cortex-m4")},
	"s001-phone/ECDSA-P256-SHA256/sign": {
		{"scenario remote-sign", func(t *testing.T, work string, g goldenCost) figure {
			f := filepath.Join(work, "remote-sign.json")
			runOK(t, "scenario", "remote-sign", "--quick", "--schemes", g.scheme, "--docs", "1k", "--mode", "plain", "--no-save", "-o", f)
			return readFigure(t, f, func(r *result.Result) bool { return strings.HasPrefix(r.Subject.Name, "remote-sign/"+g.scheme+"/") }, opMetric(g))
		}},
	},
}

// mcuAES asks mcu bench to simulate the AES kernel on target and price
// it on the golden's device: the same figure and label as the shipped
// table's (simavr's cycles simulated, QEMU's estimated).
func mcuAES(target string) asker {
	return asker{"mcu bench --target " + target + " --device", func(t *testing.T, work string, g goldenCost) figure {
		f := filepath.Join(work, "mcu.json")
		runOK(t, "mcu", "bench", "--target", target, "--kernel", "aes128", "--opt", "Os", "--device", g.device, "--no-save", "--format", "json", "-o", f)
		fg := readFigure(t, f, func(r *result.Result) bool {
			return r.Subject.Operation == "encrypt" && r.Subject.InputBytes == g.size
		}, g.metric)
		// This run's own simulation, not the shipped table: the same
		// cycles, its source names the run instead.
		fg.source = strings.Replace(fg.source, " simulation (this run)", "", 1)
		return fg
	}}
}

func energyBattery(t *testing.T, work string, g goldenCost) figure {
	f := filepath.Join(work, "battery.json")
	out := runOK(t, "energy", "battery", "--device", g.device, "--algo", g.scheme, "--op", g.op, "--every", "10m", "--format", "json", "--no-save")
	if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return readFigure(t, f, func(*result.Result) bool { return true }, g.metric)
}

// modelRow reads a model's operation row (--detail): its time in ms or
// energy in mJ, label and the costing stage's source.
func modelRow(t *testing.T, model, op string, g goldenCost) figure {
	t.Helper()
	out := runOK(t, "model", "eval", model, "--device", g.device, "--detail", "--no-save")
	re := regexp.MustCompile(`(?m)^ +\S+ +` + regexp.QuoteMeta(op) + ` +1 +([0-9.]+) +([0-9.]+) +(\w+) +the costing stage on ` + g.device + ` \([^)]*\): ([^;]*)`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("model eval %s: no row for %s:\n%s", model, op, out)
	}
	var ms, mj float64
	fmt.Sscan(m[1], &ms)
	fmt.Sscan(m[2], &mj)
	v := ms / 1e3
	if g.metric == "energy" {
		v = mj / 1e3
	}
	return figure{v, result.Label(m[3]), m[4]}
}

// TestOneAnswerPerQuestion asks every command that prices for each golden
// figure. Full tier: it runs benchmarks, scenarios, a model and simavr.
func TestOneAnswerPerQuestion(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks, scenarios and simavr (-short)")
	}
	t.Setenv("CRYPTOCOST_CALIBRATIONS", t.TempDir()) // no calibration of this machine's
	for _, g := range goldenCosts {
		key := g.device + "/" + g.scheme + "/" + g.op
		t.Run(key+"/"+g.metric, func(t *testing.T) {
			for _, a := range append(append([]asker(nil), commonAskers...), extraAskers[key]...) {
				got := a.ask(t, t.TempDir(), g)
				// Commands print a model row to 7 significant digits; the
				// rest carry the value itself.
				if math.Abs(got.value-g.want.value) > 1e-6*math.Abs(g.want.value) || got.label != g.want.label || !strings.HasPrefix(got.source, g.want.source) {
					t.Errorf("%s: %.7g %s from %q, want %.7g %s from %q", a.name, got.value, got.label, got.source, g.want.value, g.want.label, g.want.source)
				}
			}
		})
	}
}
