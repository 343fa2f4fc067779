package costing

import (
	"sort"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast (no external tools): the shipped tables, the profiles and
// hand arithmetic.

// medianOf is the table's median cycles of one kernel operation.
func medianOf(t *testing.T, target, kernel, op string, bytes int) float64 {
	t.Helper()
	tb := SimulatedTable(target)
	if tb == nil {
		t.Fatalf("no %s table", target)
	}
	for _, o := range tb.Ops {
		if o.Kernel == kernel && o.Operation == op && o.InputBytes == bytes && o.Opt == "Os" {
			s := append([]float64(nil), o.Cycles...)
			sort.Float64s(s)
			if len(s)%2 == 1 {
				return s[len(s)/2]
			}
			return (s[len(s)/2-1] + s[len(s)/2]) / 2
		}
	}
	t.Fatalf("%s has no %s %s of %d B", target, kernel, op, bytes)
	return 0
}

// The table's ECDSA rows are the kernels' algorithm, ECDSA-P256-SHA256 (as
// package mcu and the registry name it): with no message size the sign is
// the simulated figure itself, labelled simulated, from the table's run.
func TestSimulatedECDSAOnUno(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "arduino-uno")}
	c, err := p.Resolve(Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign"})
	if err != nil {
		t.Fatal(err)
	}
	cyc := medianOf(t, "atmega328p", "ecdsa-p256-fast", "sign", 6)
	if c.Rung != Simulated || c.Label != result.Simulated || !near(c.Seconds.V, cyc/16e6, 1e-12) || !c.Seconds.Exact() {
		t.Errorf("ECDSA P-256 sign on the Uno: %s %s %+v, want simulated %v s", c.Rung, c.Label, c.Seconds, cyc/16e6)
	}
	if run := SimulatedTable("atmega328p").Run; !strings.Contains(c.Source, "run "+run) || !strings.Contains(c.Source, "ecdsa-p256-fast") {
		t.Errorf("source %q: want the kernel and the table's run", c.Source)
	}
	// 32 bytes: the kernel hashed 6; the 26 extra bytes cost SHA-256's
	// simulated cycles per byte (the line through 32 B and 1 KiB).
	slope := (medianOf(t, "atmega328p", "sha256", "hash", 1024) - medianOf(t, "atmega328p", "sha256", "hash", 32)) / (1024 - 32)
	c, err = p.Resolve(Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign", InputBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	if want := (cyc + 26*slope) / 16e6; c.Rung != Simulated || c.Label != result.Estimated || !near(c.Seconds.V, want, 1e-12) ||
		!strings.Contains(c.Method, "SHA-256 of the 26 extra bytes") {
		t.Errorf("32-B sign: %s %+v %q, want estimated %v s", c.Label, c.Seconds, c.Method, want)
	}
	for _, op := range []string{"keygen", "verify"} {
		if c, err := p.Resolve(Op{Scheme: "ECDSA-P256-SHA256", Operation: op}); err != nil || c.Rung != Simulated {
			t.Errorf("ECDSA %s on the Uno: %s %v", op, c.Rung, err)
		}
	}
}

// A signature's time does not follow its message: Ed25519 signs a 32-byte
// message in the simulated 64-byte message's time, not half of it (there
// is no SHA-512 kernel to take the 32 bytes off, and the method says so);
// hashes and ciphers still scale per byte.
func TestSimulatedSizeRule(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "arduino-uno")}
	ed := medianOf(t, "atmega328p", "ed25519", "sign", 64)
	c, err := p.Resolve(Op{Scheme: "Ed25519", Operation: "sign", InputBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	if !near(c.Seconds.V, ed/16e6, 1e-12) || c.Label != result.Estimated || !strings.Contains(c.Method, "as is") {
		t.Errorf("Ed25519 sign of 32 B: %v s (%s, %q), want the 64-B %v s as is", c.Seconds.V, c.Label, c.Method, ed/16e6)
	}
	c, err = p.Resolve(Op{Scheme: "Ed25519", Operation: "sign", InputBytes: 1024})
	if err != nil || !near(c.Seconds.V, ed/16e6, 1e-12) || !strings.Contains(c.Method, "no SHA-512 simulation") {
		t.Errorf("Ed25519 sign of 1 KiB: %+v %v", c, err)
	}
	// AES-128 ECB of 1 KiB: the 16-byte block × 64; SHA-256 of 16 B: the line.
	c, err = p.Resolve(Op{Scheme: "AES-128", Operation: "encrypt-ecb", InputBytes: 1024})
	if blk := medianOf(t, "atmega328p", "aes128", "encrypt", 16); err != nil || !near(c.Seconds.V, blk*64/16e6, 1e-12) || c.Label != result.Estimated {
		t.Errorf("AES-128 ECB of 1 KiB: %+v %v", c, err)
	}
	h32, h1k := medianOf(t, "atmega328p", "sha256", "hash", 32), medianOf(t, "atmega328p", "sha256", "hash", 1024)
	c, err = p.Resolve(Op{Scheme: "SHA-256", Operation: "hash", InputBytes: 16})
	if want := (h32 - 16*(h1k-h32)/992) / 16e6; err != nil || !near(c.Seconds.V, want, 1e-12) {
		t.Errorf("SHA-256 of 16 B: %+v %v, want %v", c, err, want)
	}
	// RSA's kernel does not hash: the whole message's SHA-256 is added.
	c, err = p.Resolve(Op{Scheme: "RSA-1024-PKCS1v15-SHA256", Operation: "sign", InputBytes: 32})
	if want := (medianOf(t, "atmega328p", "rsa1024-crt", "private", 0) + h32) / 16e6; err != nil || !near(c.Seconds.V, want, 1e-12) || c.Label != result.Simulated {
		t.Errorf("RSA-1024 sign of 32 B: %+v %v, want simulated %v", c, err, want)
	}
}

// The nRF52840 names its core: it gets the simulated rung from the
// Cortex-M4 QEMU table, whose cycles are estimated from exact instruction
// counts, so its times are labelled estimated, with the cycle rule's ends
// as the interval — and an mcu run of that target priced on it says the
// same.
func TestCortexM4OnNRF52840(t *testing.T) {
	d := mustDevice(t, "nrf52840")
	if d.Simulation == nil || d.Simulation.Target != "cortex-m4" {
		t.Fatalf("nrf52840 simulation %+v", d.Simulation)
	}
	tb := SimulatedTable("cortex-m4")
	if tb == nil || tb.Counts != "instructions" || tb.CycleRule == "" || tb.ClockHz != 64e6 {
		t.Fatalf("cortex-m4 table %+v", tb)
	}
	if SimulatedTable("atmega328p").Counts != "cycles" {
		t.Error("the AVR table counts cycles")
	}
	c, err := (&Pricer{Device: d}).Resolve(Op{Scheme: "X25519", Operation: "keygen"})
	if err != nil {
		t.Fatal(err)
	}
	var o SimOp
	for _, x := range tb.Ops {
		if x.Kernel == "x25519" && x.Operation == "keygen" {
			o = x
		}
	}
	if c.Rung != Simulated || c.Label != result.Estimated || !near(c.Seconds.V, median(o.Cycles)/64e6, 1e-12) ||
		!near(c.Seconds.Lo, median(o.CyclesMin)/64e6, 1e-12) || !near(c.Seconds.Hi, median(o.CyclesMax)/64e6, 1e-12) {
		t.Errorf("X25519 keygen on nrf52840: %s %s %+v", c.Rung, c.Label, c.Seconds)
	}
	if !strings.Contains(c.Method, "estimated") || !strings.Contains(c.Source, "cycles estimated") || !strings.Contains(c.Method, "stands in for nrf52840") {
		t.Errorf("method %q, source %q", c.Method, c.Source)
	}
	// An mcu run of the target, as package mcu writes it for QEMU.
	mk := func(name, unit string, v float64) result.Metric {
		return result.NewSampled(name, unit, result.Lower, result.Estimated, []float64{v})
	}
	run := &result.Run{Results: []result.Result{{
		Subject: result.Subject{Kind: "mcu", Name: "X25519@cortex-m4-Os/keygen", Scheme: "X25519", Operation: "keygen",
			Params: map[string]string{"target": "cortex-m4", "clock_hz": "64000000", "counts": "instructions"}},
		Metrics: []result.Metric{mk("time", "s", 0.5), mk("cycles-min", "cycles", 0.4*64e6), mk("cycles-max", "cycles", 0.7*64e6)}}}}
	if err := Price(run, Options{Device: d}); err != nil {
		t.Fatal(err)
	}
	dt, e := run.Results[0].Metric("device-time"), run.Results[0].Metric("energy")
	if dt == nil || dt.Label != result.Estimated || dt.Bounds == nil || !near(dt.Bounds.Lo, 0.4, 1e-12) || !near(dt.Bounds.Hi, 0.7, 1e-12) {
		t.Errorf("mcu run on nrf52840: device-time %+v", dt)
	}
	if e == nil || e.Label != result.Estimated {
		t.Errorf("mcu run on nrf52840: energy %+v", e)
	}
}
