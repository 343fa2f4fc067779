package compare

import (
	"bytes"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"golang.org/x/perf/benchfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestShiftHandComputed checks the interval against a hand computation.
// a = 1…6, b = 11…16: the 36 differences b_j − a_i are 5 (once), 6 (twice),
// 7 (3×), 8 (4×), 9 (5×), 10 (6×), 11 (5×), 12 (4×), 13 (3×), 14 (2×),
// 15 (once). For m = n = 6 the number of arrangements with U = 0…5 is 1, 1,
// 2, 3, 5, 7 (partitions of u into at most 6 parts of at most 6), so
// P(U ≤ 5) = 19/924 = 0.0206 ≤ 0.025 < P(U ≤ 6) = 30/924 = 0.0325: k = 6,
// the interval is [D(6), D(31)] = [7, 13] and its confidence is
// 1 − 2·19/924 = 0.95887 (the tabulated two-sided 5 % critical value of U
// for 6 and 6 is 5).
func TestShiftHandComputed(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{16, 11, 13, 12, 15, 14}
	ci := Shift(a, b, 0.05)
	if !ci.OK || ci.Lo != 7 || ci.Hi != 13 {
		t.Errorf("Shift = %+v, want [7, 13]", ci)
	}
	if want := 1 - 2*19.0/924; math.Abs(ci.Confidence-want) > 1e-9 {
		t.Errorf("confidence %v, want %v", ci.Confidence, want)
	}
	if k, _ := criticalK(6, 6, 0.05); k != 6 {
		t.Errorf("k(6,6) = %d, want 6", k)
	}
	// 10 and 10: tabulated critical U is 23, so k = 24.
	if k, _ := criticalK(10, 10, 0.05); k != 24 {
		t.Errorf("k(10,10) = %d, want 24", k)
	}
	// 3 and 3: P(U = 0) = 1/20 > 0.025: no finite 95 % interval.
	if ci := Shift([]float64{1, 2, 3}, []float64{4, 5, 6}, 0.05); ci.OK {
		t.Errorf("3+3 samples gave an interval %+v", ci)
	}
	// The normal approximation agrees with the exact value at the switch.
	kExact, _ := criticalK(50, 50, 0.05)
	mn := 2500.0
	kNormal := int(math.Floor(mn/2 - 1.959963984540054*math.Sqrt(mn*101/12)))
	if d := kExact - kNormal; d < -2 || d > 2 {
		t.Errorf("k(50,50) exact %d, normal %d", kExact, kNormal)
	}
}

// TestShiftCoverage: over many simulated pairs of samples with a known
// shift, the interval covers it at least about 95 % of the time (exact
// and normal-approximation branches). Seeded, so the test is repeatable.
func TestShiftCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{10, 60} {
		const trials, shift = 1000, 3.0
		covered := 0
		for range trials {
			a, b := make([]float64, n), make([]float64, n)
			for i := range n {
				a[i] = rng.NormFloat64()
				b[i] = rng.NormFloat64() + shift
			}
			if ci := Shift(a, b, 0.05); ci.OK && ci.Lo <= shift && shift <= ci.Hi {
				covered++
			}
		}
		// Binomial SD at 0.95 over 1000 trials is 0.007.
		if frac := float64(covered) / trials; frac < 0.93 || frac > 0.98 {
			t.Errorf("n=%d: coverage %.3f, want about 0.95", n, frac)
		}
	}
}

func TestRatioShift(t *testing.T) {
	a := []float64{100, 101, 99, 102, 98, 100.5, 99.5, 101.5, 98.5, 100.2}
	b := make([]float64, len(a))
	for i, v := range a {
		b[i] = 1.2 * v
	}
	ci, ok := RatioShift(a, b, 0.05)
	if !ok || !ci.OK || ci.Lo > 1.2 || ci.Hi < 1.2 || ci.Lo < 1.15 || ci.Hi > 1.25 {
		t.Errorf("ratio CI %+v for a 20%% slowdown", ci)
	}
	if _, ok := RatioShift([]float64{0, 1}, []float64{1, 2}, 0.05); ok {
		t.Error("a zero value accepted on the log scale")
	}
}

func TestThinning(t *testing.T) {
	a := make([]float64, 3000)
	b := make([]float64, 3000)
	for i := range a {
		a[i], b[i] = float64(i), float64(i)+1000
	}
	ta, tb := thin(a, b)
	if len(ta)*len(tb) > maxPairs {
		t.Errorf("thinned to %d×%d", len(ta), len(tb))
	}
	if ci := Shift(a, b, 0.05); !ci.OK || ci.Lo > 1000 || ci.Hi < 1000 {
		t.Errorf("thinned shift CI %+v, want around 1000", ci)
	}
}

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func sampled(name, unit string, label result.Label, base float64, spread []float64) result.Metric {
	s := make([]float64, len(spread))
	for i, d := range spread {
		s[i] = base * (1 + d)
	}
	return result.NewSampled(name, unit, result.Lower, label, s)
}

var spread10 = []float64{0, 0.01, -0.01, 0.005, -0.005, 0.002, -0.002, 0.001, -0.001, 0.003}

func fixtureRun(id, host string, slow float64, allocs float64, withZ bool) *result.Run {
	run := &result.Run{
		Schema: result.Schema, ID: id, Kind: "bench", Tool: result.Tool{Name: "cryptocost", Version: "v0.0.0-test"},
		Started: t0, Finished: t0.Add(time.Minute), Status: result.Complete,
		Environment: result.Environment{Hostname: host, OS: "linux", Arch: "amd64", GoVersion: "go1.26.8", CPUModel: "Test CPU"},
	}
	prim := func(scheme, op string, size int) result.Subject {
		name := scheme + "@go/" + op
		if size > 0 {
			name += "/" + map[int]string{1024: "1k"}[size]
		}
		return result.Subject{Kind: "primitive", Name: name, Scheme: scheme, Provider: "go", Operation: op, InputBytes: size}
	}
	run.Results = []result.Result{
		{Subject: prim("SHA-256", "hash", 1024), Metrics: []result.Metric{
			sampled("time", "ns/op", result.Measured, 1000*slow, spread10),
			result.NewScalar("allocs", "allocs/op", result.Lower, result.Measured, allocs),
			{Name: "cycles", Unit: "cycles", Label: result.Estimated, Method: "wall time × 2000 MHz", Summary: result.NewScalar("", "", "", "", 2000*slow).Summary},
		}},
		// The same in both runs: "~".
		{Subject: prim("Ed25519", "sign", 0), Metrics: []result.Metric{
			sampled("time", "ns/op", result.Measured, 20000, spread10),
		}},
		// Five samples: no CI of the median.
		{Subject: prim("Ed25519", "verify", 0), Metrics: []result.Metric{
			sampled("time", "ns/op", result.Measured, 50000*slow, spread10[:5]),
		}},
	}
	if withZ {
		run.Results = append(run.Results, result.Result{Subject: prim("MD5", "hash", 1024), Metrics: []result.Metric{
			sampled("time", "ns/op", result.Measured, 500, spread10)}})
	}
	return run
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (rerun with -update after an intended change):\n%s", path, got)
	}
}

func fixtureComparison(t *testing.T) *Comparison {
	t.Helper()
	a := fixtureRun("20261201T100000Z-aaaaaaaa", "lab1", 1, 0, true)
	b := fixtureRun("20261202T100000Z-bbbbbbbb", "pi-zero", 1.1, 2, false)
	b.Environment.Arch, b.Environment.Device = "arm", "rpi-zero-2w"
	c, err := Compare([]Input{{Run: a}, {Run: b, Origin: "imported from board.json"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGolden compares each text format with testdata/golden.<format>.
func TestGolden(t *testing.T) {
	c := fixtureComparison(t)
	for _, f := range []string{"table", "csv", "json"} {
		t.Run(f, func(t *testing.T) {
			format, err := FormatByName(f)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := format.Write(&buf, c); err != nil {
				t.Fatal(err)
			}
			golden(t, "golden."+f, buf.Bytes())
		})
	}
}

func TestCompareValues(t *testing.T) {
	c := fixtureComparison(t)
	find := func(subject, metric string) Row {
		for _, r := range c.Rows {
			if r.Subject == subject && r.Metric == metric {
				return r
			}
		}
		t.Fatalf("no row %s %s", subject, metric)
		return Row{}
	}
	sha := find("SHA-256@go/hash/1k", "time").Cells[1].Change
	if sha.Test != "mann-whitney" || !sha.Significant || math.Abs(sha.Delta-0.1) > 1e-9 {
		t.Errorf("SHA-256 time change %+v, want a significant +10%%", sha)
	}
	if !sha.HasCI || sha.DeltaLow > 0.1 || sha.DeltaHigh < 0.1 || sha.DeltaLow < 0.08 || sha.DeltaHigh > 0.12 {
		t.Errorf("SHA-256 delta CI [%v, %v], want around +10%%", sha.DeltaLow, sha.DeltaHigh)
	}
	if sha.P >= 0.001 {
		t.Errorf("p = %v for two disjoint samples of 10; the exact two-sided p is 2/C(20,10) = 1.08e-5", sha.P)
	}
	ed := find("Ed25519@go/sign", "time").Cells[1].Change
	if ed.Significant || ed.Delta != 0 || ed.P < 0.9 {
		t.Errorf("identical samples: %+v", ed)
	}
	allocs := find("SHA-256@go/hash/1k", "allocs").Cells[1].Change
	if allocs.Test != "exact" || !allocs.Significant || !math.IsInf(allocs.Delta, 1) {
		t.Errorf("allocs 0 → 2: %+v", allocs)
	}
	cyc := find("SHA-256@go/hash/1k", "cycles")
	if cyc.Cells[0].Label != result.Estimated || cyc.Cells[1].Change.Test != "exact" {
		t.Errorf("estimated cycles row %+v", cyc)
	}
	if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "MD5@go/hash/1k: only in A") {
		t.Errorf("notes %v", c.Notes)
	}
}

// TestIgnoreProvider compares two providers from one run.
func TestIgnoreProvider(t *testing.T) {
	run := fixtureRun("R", "h", 1, 0, false)
	other := run.Results[0]
	other.Subject.Provider, other.Subject.Name = "circl", "SHA-256@circl/hash/1k"
	other.Metrics = []result.Metric{sampled("time", "ns/op", result.Measured, 800, spread10)}
	run.Results = append(run.Results, other)
	c, err := Compare([]Input{{Run: run, Subjects: "*@go/*"}, {Run: run, Subjects: "*@circl/*"}}, Options{IgnoreProvider: true, Metrics: []string{"time"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 1 || c.Rows[0].Subject != "SHA-256/hash/1k" || math.Abs(c.Rows[0].Cells[1].Change.Delta+0.2) > 1e-9 {
		t.Errorf("rows %+v", c.Rows)
	}
	// Without the pattern the run has two subjects with the same key.
	if _, err := Compare([]Input{{Run: run}, {Run: run}}, Options{IgnoreProvider: true}); err == nil || !strings.Contains(err.Error(), "both compare as") {
		t.Errorf("duplicate keys: %v", err)
	}
}

func TestCompareErrors(t *testing.T) {
	a := fixtureRun("A", "h", 1, 0, false)
	other := fixtureRun("B", "h", 1, 0, false)
	for i := range other.Results {
		other.Results[i].Subject.Name += "-x"
	}
	cases := []struct {
		in   []Input
		opt  Options
		want string
	}{
		{[]Input{{Run: a}}, Options{}, "at least two runs"},
		{[]Input{{Run: a}, {Run: other}}, Options{}, "share no subject"},
		{[]Input{{Run: a, Subjects: "nothing*"}, {Run: a}}, Options{}, `no subject matching "nothing*"`},
		{[]Input{{Run: a}, {Run: a}}, Options{Metrics: []string{"energy"}}, "no shared subject has metric energy"},
		{[]Input{{Run: a}, {Run: a}}, Options{Alpha: 2}, "want a level between 0 and 1"},
	}
	for _, c := range cases {
		if _, err := Compare(c.in, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compare: %v, want %q", err, c.want)
		}
	}
}

func TestTableMarksEstimates(t *testing.T) {
	var buf bytes.Buffer
	if err := (tableFormat{}).Write(&buf, fixtureComparison(t)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"estimated: wall time × 2000 MHz", "~ (p=1.000 n=10+10)", "+10.0% [+9.5%, +10.6%]", "± ∞", "+2 allocs (exact)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestGobenchForBenchstat(t *testing.T) {
	var buf bytes.Buffer
	if err := (gobenchFormat{}).Write(&buf, fixtureComparison(t)); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "cmp.txt")
	runs := map[string]int{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatal(rec)
		case *benchfmt.Result:
			runs[rec.GetConfig("cryptocost-run")]++
		}
	}
	if len(runs) != 2 || runs["20261201T100000Z-aaaaaaaa"] == 0 || runs["20261202T100000Z-bbbbbbbb"] == 0 {
		t.Errorf("benchmark lines per run: %v", runs)
	}
}
