package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSummarizeKnownSample(t *testing.T) {
	// 1..11: median 6; quartiles by Hyndman-Fan definition 8, position
	// 1/3 + p(n + 1/3): 3.1667 → 3 1/6 and 8.8333 → 8 5/6;
	// MAD = median(|x-6|) = median(0,1,1,2,2,3,3,4,4,5,5) = 3.
	var x []float64
	for i := 11; i >= 1; i-- { // unsorted on purpose
		x = append(x, float64(i))
	}
	s := Summarize(x)
	want := Summary{N: 11, Median: 6, Q1: 3 + 1.0/6, Q3: 8 + 5.0/6, Min: 1, Max: 11, MAD: 3, Mean: 6}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if s.N != want.N || s.Median != want.Median || !near(s.Q1, want.Q1) || !near(s.Q3, want.Q3) ||
		s.Min != want.Min || s.Max != want.Max || s.MAD != want.MAD || s.Mean != want.Mean {
		t.Errorf("Summarize(1..11) = %+v, want %+v", s, want)
	}
	if !(s.CILow < 6 && s.CIHigh > 6) || math.IsInf(s.CILow, 0) {
		t.Errorf("95%% CI [%v, %v] should be finite and straddle 6", s.CILow, s.CIHigh)
	}
	if x[0] != 11 {
		t.Error("Summarize sorted its input in place")
	}
}

func TestSmallSampleHasInfiniteCI(t *testing.T) {
	s := Summarize([]float64{1, 2, 3, 4, 5})
	if !math.IsInf(s.CILow, -1) && !math.IsInf(s.CIHigh, 1) {
		t.Errorf("n=5 CI = [%v, %v], want unbounded (n < %d)", s.CILow, s.CIHigh, MinSamplesForCI)
	}
	if !math.IsInf(s.RelCI(), 1) {
		t.Errorf("RelCI = %v, want +Inf", s.RelCI())
	}
	if s := Summarize(make([]float64, 6)); math.IsInf(s.CILow, 0) {
		t.Errorf("n=6 gives an unbounded interval; MinSamplesForCI is wrong")
	}
}

// TestCICoverage checks the interval does what it says: over many samples
// of a known distribution, about 95 % of intervals contain the true median.
func TestCICoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const trials, n = 2000, 20
	trueMedian := math.Ln2 // exponential(1)
	hit := 0
	for range trials {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.ExpFloat64()
		}
		s := Summarize(x)
		if s.CILow <= trueMedian && trueMedian <= s.CIHigh {
			hit++
		}
	}
	cov := float64(hit) / trials
	// Order-statistic intervals are conservative: coverage ≥ 95 %, and
	// for n = 20 it is 95.9 %. Allow sampling error (σ ≈ 0.45 %).
	if cov < 0.93 || cov > 0.99 {
		t.Errorf("coverage %.3f, want about 0.95-0.96", cov)
	}
}

func TestCompare(t *testing.T) {
	a := []float64{10, 11, 10, 12, 11, 10, 11, 12, 10, 11}
	b := []float64{20, 21, 20, 22, 21, 20, 21, 22, 20, 21}
	c := Compare(a, b)
	if !c.Significant || c.P >= 0.05 {
		t.Errorf("clearly different samples: %+v", c)
	}
	if math.Abs(c.Delta-(20.5-11)/11) > 1e-9 && math.Abs(c.Delta-(21-11)/11.0) > 1e-9 {
		t.Errorf("delta = %v", c.Delta)
	}
	if c := Compare(a, a); c.Significant {
		t.Errorf("a sample differs from itself: %+v", c)
	}
}
