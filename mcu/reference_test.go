package mcu

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestS004Reference: the data file reads, every row has a source-backed
// time and either kernels that exist or a reason, and the rows S004 is
// known for are there with its numbers (seeds.md S004). Fast tier.
func TestS004Reference(t *testing.T) {
	ref, err := ReferenceByName("s004")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ref.Source, "draft-aks-crypto-sensors-02") {
		t.Errorf("source %q does not name the draft", ref.Source)
	}
	want := map[string]float64{
		"RSA 1024-bit AvrCryptolib square-and-multiply, key in SRAM": 199666,
		"ECDSA secp128r1 TinyECC all optimisations, with assembly":   1858,
		"ECDSA secp160r1 TinyECC all optimisations, with assembly":   2250,
		"ECDSA secp192r1 Wiselib C++ templates, no optimisations":    34558,
		"ECDSA K163 Relic fast build, assembly field arithmetic":     300,
		"ECDSA K233 Relic fast build":                                1828,
	}
	relic := 0
	for _, r := range ref.Rows {
		key := r.Algorithm + " " + r.Size + " " + r.Library + " " + r.Style
		if v, ok := want[key]; ok {
			if r.TimeMs[0] != v {
				t.Errorf("%s: %v ms, S004 says %v", key, r.TimeMs, v)
			}
			delete(want, key)
		}
		if r.Library == "Relic" {
			relic++
			if r.None != "no kernel (binary curves not implemented)" {
				t.Errorf("%s: %q", key, r.None)
			}
		}
	}
	if len(want) > 0 || relic != 6 {
		t.Errorf("rows missing: %v; %d Relic rows", want, relic)
	}
	if _, err := ReferenceByName("s999"); err == nil || !strings.Contains(err.Error(), "want one of s004") {
		t.Errorf("unknown study: %v", err)
	}
}

// TestCompareS004: a kernel's fastest level is put beside its rows with
// the ratio of times at 16 MHz; kernels not in the runs say how to measure
// them; the output labels S004's figures imported with their source.
// Fast tier.
func TestCompareS004(t *testing.T) {
	ref, err := ReferenceByName("s004")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := KernelByName("ecdsa-secp128r1-fast")
	res := func(opt string, cycles float64) result.Result {
		r := result.Result{Subject: subject(atmega328p(t), k, opt, "sign", 6)}
		r.Metrics = []result.Metric{
			result.NewScalar("cycles", "cycles", result.Lower, result.Simulated, cycles),
			result.NewScalar("ram", "B", result.Lower, result.Measured, 600),
			result.NewScalar("rom", "B", result.Lower, result.Measured, 8000),
		}
		r.Provenance = result.Provenance{Label: result.Simulated, Method: result.Method{Name: MethodName(atmega328p(t))}}
		return r
	}
	run := &result.Run{Kind: "mcu", Results: []result.Result{res("Os", 16e6), res("O2", 8e6)}}
	c := Compare(ref, atmega328p(t), run)
	var got *ComparedRow
	for i := range c.Rows {
		if c.Rows[i].Row.Size == "secp128r1" && c.Rows[i].Row.Library == "TinyECC" {
			got = &c.Rows[i]
		}
	}
	if got == nil || len(got.Measured) != 1 || got.Measured[0].Opt != "-O2" || got.Measured[0].TimeMs != 500 || got.Ratio[0] != 500.0/1858 {
		t.Fatalf("secp128r1 row: %+v", got)
	}
	var b strings.Builder
	if err := WriteComparison(&b, c); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{
		"imported from IETF draft-aks-crypto-sensors-02",
		"no kernel (binary curves not implemented)",
		"ecdsa-secp128r1-fast",
		"0.27",
		"not in these runs (cryptocost mcu bench --kernel ecdsa-secp160r1-fast)",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestCompareS004OnQEMUTargets: on a QEMU target the comparison uses the
// estimated cycles and says so; a target with no cycle table has no time
// to compare and the row says why. Fast tier.
func TestCompareS004OnQEMUTargets(t *testing.T) {
	ref, err := ReferenceByName("s004")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := KernelByName("ecdsa-secp128r1-fast")
	res := func(tg Target, ms ...result.Metric) result.Result {
		r := result.Result{Subject: subject(tg, k, "Os", "sign", 6)}
		r.Metrics = append(ms,
			result.NewScalar("ram", "B", result.Lower, result.Simulated, 600),
			result.NewScalar("rom", "B", result.Lower, result.Measured, 8000))
		r.Provenance = result.Provenance{Label: result.Simulated, Method: result.Method{Name: MethodName(tg)}}
		return r
	}
	m4, rv := target(t, "cortex-m4"), target(t, "rv32imac")
	run := &result.Run{Kind: "mcu", Results: []result.Result{
		res(m4, result.NewScalar("instructions", "instructions", result.Lower, result.Simulated, 1e6),
			result.NewScalar("cycles", "cycles", result.Lower, result.Estimated, 1.6e6)),
		res(rv, result.NewScalar("instructions", "instructions", result.Lower, result.Simulated, 1.2e6)),
	}}
	row := func(c *Comparison) ComparedRow {
		for _, r := range c.Rows {
			if r.Row.Size == "secp128r1" && r.Row.Library == "TinyECC" {
				return r
			}
		}
		t.Fatal("no secp128r1 TinyECC row")
		return ComparedRow{}
	}
	// 1.6 M estimated cycles ÷ 16 MHz = 100 ms
	if got := row(Compare(ref, m4, run)); got.Measured[0].TimeMs != 100 || got.Measured[0].Label != "estimated" || got.Ratio[0] != 100.0/1858 {
		t.Errorf("cortex-m4: %+v", got)
	}
	c := Compare(ref, rv, run)
	if got := row(c); got.Ratio[0] != 0 || !strings.Contains(got.Measured[0].Missing, "no cycle count on the rv32imac") {
		t.Errorf("rv32imac: %+v", got)
	}
	var b strings.Builder
	if err := WriteComparison(&b, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "HERE columns: the rv32imac, instructions counted in qemu-system-riscv32 (virt); no cycle table") {
		t.Errorf("rv32imac header:\n%s", b.String())
	}
}
