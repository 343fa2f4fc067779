package model

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestAppendG12 checks the sweep's number formatter against strconv's
// %.12g byte for byte: edge cases, then values drawn the ways model
// outputs arise — random bit patterns, short decimals (k/10^j), products
// and quotients of such, integers, and values just around powers of ten
// and half-way points of the 12th digit. Fast tier.
func TestAppendG12(t *testing.T) {
	check := func(v float64) {
		t.Helper()
		want := strconv.FormatFloat(v, 'g', 12, 64)
		if got := string(appendG12(nil, v)); got != want {
			t.Fatalf("appendG12(%v) = %q, want %q (strconv)", v, got, want)
		}
		// After other text, as in a row (and the room in the buffer
		// differing): only the number is appended.
		if got := string(appendG12([]byte("tinysersync,,"), v)); got != "tinysersync,,"+want {
			t.Fatalf("appendG12(\"tinysersync,,\", %v) = %q, want %q", v, got, "tinysersync,,"+want)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 0.1, 0.2 + 0.1, 1e-4, 1e-5, 9.99999999999e-5,
		0.000123456789012345, 1e11, 1e12, 999999999999, 999999999999.5, 999999999999.4, 1e12 - 1, 123456789012.5,
		1e21, 1e22, 1e23, 1e-11, 1e-12, 9.9999999999995e-12, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 0.000949536, 0.019328, 1952, 2.5e-7, 5e-324, 1.0000000000005,
		1.00000000000049, 1.0000000000015, 0.30000000000000004, 12345678901.25, 2e20, 3.0e15 + 0.5} {
		check(v)
		check(-v)
	}
	r := rand.New(rand.NewPCG(21, 1))
	for i := range 200_000 {
		var v float64
		switch i % 6 {
		case 0: // any finite float64
			v = math.Float64frombits(r.Uint64())
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
		case 1: // a short decimal
			v = float64(r.IntN(1_000_000)) / math.Pow10(r.IntN(12))
		case 2: // a product and a quotient of short decimals, as models compute
			a := float64(r.IntN(100_000)) / math.Pow10(r.IntN(6))
			b := float64(r.IntN(100_000)) / math.Pow10(r.IntN(9))
			v = a * b
			if i%12 == 2 && b != 0 {
				v = a / b
			}
		case 3: // integers, some beyond 12 digits, of every length
			v = float64(r.Int64N(1 << 52))
			if i%12 == 3 {
				v = float64(r.Int64N(int64(math.Pow10(1 + r.IntN(13)))))
			}
		case 4: // around a power of ten
			v = math.Nextafter(math.Pow10(r.IntN(40)-20), math.Inf(2*r.IntN(2)-1))
		case 5: // near a half-way point of the 12th digit
			e := r.IntN(30) - 12
			v = (float64(r.Int64N(9e11)+1e11) + 0.5) * math.Pow10(e-11)
			v = math.Nextafter(v, math.Inf(2*r.IntN(2)-1))
		}
		check(v)
	}
}

func BenchmarkAppendG12(b *testing.B) {
	vals := []float64{0.000949536, 0.019328, 1952, 2880, 0.000298656, 0.00065088, 0.027136, 0.30000000000000004, 1.234567e-7}
	var buf []byte
	cpu := processCPU()
	for b.Loop() {
		for _, v := range vals {
			buf = appendG12(buf[:0], v)
		}
	}
	reportCPU(b, cpu, len(vals), "number")
}

// reportCPU reports the process CPU time since cpu per unit (a point, a
// number) of b.N × per units: on a loaded machine ns/op is mostly the
// wait for a CPU, the CPU time is the work.
func reportCPU(b *testing.B, cpu time.Duration, per int, unit string) {
	if used := processCPU() - cpu; used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N*per), "cpu-ns/"+unit)
	}
}
