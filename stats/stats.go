// Package stats summarises samples the way cryptocost reports them: the
// median with a distribution-free confidence interval (from
// golang.org/x/perf/benchmath, the statistics behind benchstat), quartiles,
// tail and spread (from github.com/aclements/go-moremath/stats, the library
// benchmath is built on; quantiles are Hyndman and Fan's definition 8, the
// median-unbiased one they recommend). Nothing here is hand-rolled beyond
// glue: the estimators are the libraries'.
package stats

import (
	"encoding/json"
	"math"
	"slices"

	moremath "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Confidence is the confidence level of every interval cryptocost reports.
const Confidence = 0.95

// MinSamplesForCI is the smallest sample for which a 95 % confidence
// interval of the median is finite (order statistics need n ≥ 6); points
// with fewer samples carry a warning.
const MinSamplesForCI = 6

// Summary describes one sample.
type Summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	// CILow and CIHigh bound the median at Confidence (distribution-free,
	// from order statistics); ±Inf when N < MinSamplesForCI.
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	Confidence float64 `json:"confidence"`
	Q1         float64 `json:"q1"`
	Q3         float64 `json:"q3"`
	Min        float64 `json:"min"`
	Max        float64 `json:"max"`
	P95        float64 `json:"p95"`
	// MAD is the median absolute deviation from the median (unscaled).
	MAD  float64 `json:"mad"`
	Mean float64 `json:"mean"`
}

// Summarize computes the summary of values (which it does not modify).
// An empty input gives a zero Summary.
func Summarize(values []float64) Summary {
	if len(values) == 0 {
		return Summary{}
	}
	x := slices.Clone(values)
	slices.Sort(x)
	ci := benchmath.AssumeNothing.Summary(benchmath.NewSample(x, &benchmath.DefaultThresholds), Confidence)
	s := Summary{
		N:          len(x),
		Median:     ci.Center,
		CILow:      ci.Lo,
		CIHigh:     ci.Hi,
		Confidence: ci.Confidence,
		Min:        x[0],
		Max:        x[len(x)-1],
	}
	sample := moremath.Sample{Xs: x, Sorted: true}
	s.Q1, s.Q3, s.P95 = sample.Quantile(0.25), sample.Quantile(0.75), sample.Quantile(0.95)
	s.Mean = sample.Mean()
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = math.Abs(v - s.Median)
	}
	slices.Sort(dev)
	s.MAD = moremath.Sample{Xs: dev, Sorted: true}.Quantile(0.5)
	return s
}

// Scalar is the summary of a single exact value (a byte count, an
// allocation count): every statistic equals it.
func Scalar(v float64) Summary {
	return Summary{N: 1, Median: v, CILow: v, CIHigh: v, Confidence: 1,
		Q1: v, Q3: v, Min: v, Max: v, P95: v, Mean: v}
}

// RelCI is the larger half-width of the confidence interval relative to the
// median (0.02 = ±2 %); +Inf when the interval is unbounded or the median 0.
func (s Summary) RelCI() float64 {
	if s.Median == 0 || math.IsInf(s.CILow, 0) || math.IsInf(s.CIHigh, 0) {
		return math.Inf(1)
	}
	return math.Max(s.Median-s.CILow, s.CIHigh-s.Median) / math.Abs(s.Median)
}

// Comparison is the outcome of comparing two samples.
type Comparison struct {
	// P is the Mann-Whitney U test p-value (two-sided).
	P float64 `json:"p"`
	// Alpha is the significance level applied.
	Alpha float64 `json:"alpha"`
	// Significant is P < Alpha.
	Significant bool `json:"significant"`
	// Delta is (median(b) - median(a)) / median(a); reported as "~" by
	// writers when not Significant.
	Delta    float64  `json:"delta"`
	Warnings []string `json:"warnings,omitempty"`
}

// Compare tests whether b's location differs from a's with the Mann-Whitney
// U test (benchmath.AssumeNothing, as benchstat does) at alpha 0.05.
func Compare(a, b []float64) Comparison {
	sa := benchmath.NewSample(slices.Clone(a), &benchmath.DefaultThresholds)
	sb := benchmath.NewSample(slices.Clone(b), &benchmath.DefaultThresholds)
	c := benchmath.AssumeNothing.Compare(sa, sb)
	ma := benchmath.AssumeNothing.Summary(sa, Confidence).Center
	mb := benchmath.AssumeNothing.Summary(sb, Confidence).Center
	out := Comparison{P: c.P, Alpha: c.Alpha, Significant: c.P < c.Alpha}
	if ma != 0 {
		out.Delta = (mb - ma) / ma
	}
	for _, w := range c.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	return out
}

// Scaled is the summary of the sample multiplied by f > 0 (a unit
// conversion): every statistic scales, the count and confidence stay.
func (s Summary) Scaled(f float64) Summary {
	s.Median *= f
	s.CILow *= f
	s.CIHigh *= f
	s.Q1 *= f
	s.Q3 *= f
	s.Min *= f
	s.Max *= f
	s.P95 *= f
	s.MAD *= f
	s.Mean *= f
	return s
}

// summaryJSON is Summary with nullable numbers: JSON has no infinity, so
// an unbounded confidence interval (N < MinSamplesForCI) is written as
// null rather than as a number that looks like a bound.
type summaryJSON struct {
	N          int      `json:"n"`
	Median     *float64 `json:"median"`
	CILow      *float64 `json:"ci_low"`
	CIHigh     *float64 `json:"ci_high"`
	Confidence *float64 `json:"confidence"`
	Q1         *float64 `json:"q1"`
	Q3         *float64 `json:"q3"`
	Min        *float64 `json:"min"`
	Max        *float64 `json:"max"`
	P95        *float64 `json:"p95"`
	MAD        *float64 `json:"mad"`
	Mean       *float64 `json:"mean"`
}

func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// MarshalJSON writes non-finite statistics as null.
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(summaryJSON{N: s.N, Median: finite(s.Median), CILow: finite(s.CILow), CIHigh: finite(s.CIHigh),
		Confidence: finite(s.Confidence), Q1: finite(s.Q1), Q3: finite(s.Q3), Min: finite(s.Min), Max: finite(s.Max),
		P95: finite(s.P95), MAD: finite(s.MAD), Mean: finite(s.Mean)})
}

// UnmarshalJSON reads null as unbounded for the interval (−Inf, +Inf) and
// as NaN elsewhere.
func (s *Summary) UnmarshalJSON(b []byte) error {
	var j summaryJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	or := func(p *float64, v float64) float64 {
		if p == nil {
			return v
		}
		return *p
	}
	nan := math.NaN()
	*s = Summary{N: j.N, Median: or(j.Median, nan), CILow: or(j.CILow, math.Inf(-1)), CIHigh: or(j.CIHigh, math.Inf(1)),
		Confidence: or(j.Confidence, nan), Q1: or(j.Q1, nan), Q3: or(j.Q3, nan), Min: or(j.Min, nan), Max: or(j.Max, nan),
		P95: or(j.P95, nan), MAD: or(j.MAD, nan), Mean: or(j.Mean, nan)}
	return nil
}
