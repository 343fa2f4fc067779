package compare

import (
	"math"
	"slices"

	moremath "github.com/aclements/go-moremath/stats"
)

// exactLimit is the largest sample size per side for which the critical
// value comes from the exact null distribution of U (Mann & Whitney 1947,
// computed by go-moremath's UDist); above it, the normal approximation.
// go-moremath's own Mann-Whitney test switches at the same size
// (MannWhitneyExactLimit = 50).
const exactLimit = 50

// maxPairs caps the number of pairwise differences (m·n) the interval
// sorts: 4·10⁶ float64 = 32 MB. Larger samples are thinned evenly first,
// which widens the interval a little (it stays valid for the thinned
// samples, themselves a fair sample).
const maxPairs = 4_000_000

// ShiftCI is a distribution-free confidence interval for the difference
// in location between two samples: the interval that goes with the
// Mann-Whitney test (Hodges & Lehmann 1963; Moses, in Walker & Lev,
// Statistical Inference, 1953; Hollander, Wolfe & Chicken, Nonparametric
// Statistical Methods, 3rd ed., §4.3). With the m·n differences b_j − a_i
// sorted, the interval is [D(k), D(mn+1−k)] where k is the largest
// integer with P(U ≤ k−1) ≤ α/2 under the null hypothesis; its exact
// confidence is 1 − 2·P(U ≤ k−1) ≥ 1 − α.
type ShiftCI struct {
	Lo, Hi float64
	// Confidence is the interval's exact level (≥ 1 − α) when the exact
	// distribution was used, the nominal 1 − α otherwise.
	Confidence float64
	// OK is false when the samples are too small for any finite interval
	// at this level (e.g. 3 against 3 at α = 0.05).
	OK bool
}

// Shift returns the (1 − alpha) confidence interval of the shift b − a.
func Shift(a, b []float64, alpha float64) ShiftCI {
	a, b = thin(a, b)
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return ShiftCI{}
	}
	k, conf := criticalK(m, n, alpha)
	if k < 1 {
		return ShiftCI{}
	}
	d := make([]float64, 0, m*n)
	for _, x := range a {
		for _, y := range b {
			d = append(d, y-x)
		}
	}
	slices.Sort(d)
	return ShiftCI{Lo: d[k-1], Hi: d[m*n-k], Confidence: conf, OK: true}
}

// RatioShift returns the (1 − alpha) confidence interval of the ratio of
// b's location to a's, from the shift of the logarithms: the right scale
// for times and rates, where a change is a percentage. All values must be
// positive; ok is false otherwise.
func RatioShift(a, b []float64, alpha float64) (ci ShiftCI, ok bool) {
	la, lb := make([]float64, len(a)), make([]float64, len(b))
	for i, v := range a {
		if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return ShiftCI{}, false
		}
		la[i] = math.Log(v)
	}
	for i, v := range b {
		if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return ShiftCI{}, false
		}
		lb[i] = math.Log(v)
	}
	ci = Shift(la, lb, alpha)
	ci.Lo, ci.Hi = math.Exp(ci.Lo), math.Exp(ci.Hi)
	return ci, true
}

// criticalK returns k (see ShiftCI) and the interval's confidence.
func criticalK(m, n int, alpha float64) (int, float64) {
	mn := m * n
	if m <= exactLimit && n <= exactLimit {
		dist := moremath.UDist{N1: m, N2: n}
		// The largest k with P(U ≤ k−1) ≤ α/2, by binary search on the
		// nondecreasing CDF over k−1 ∈ [−1, mn/2].
		lo, hi := -1, mn/2 // invariant: CDF(lo) ≤ α/2 (CDF(−1) = 0); CDF(hi+1) > α/2 or hi is the bound
		if dist.CDF(float64(hi)) <= alpha/2 {
			lo = hi
		}
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if dist.CDF(float64(mid)) <= alpha/2 {
				lo = mid
			} else {
				hi = mid
			}
		}
		k := lo + 1
		if k < 1 {
			return 0, 0
		}
		return k, 1 - 2*dist.CDF(float64(k-1))
	}
	// Normal approximation to U: mean mn/2, variance mn(m+n+1)/12.
	z := moremath.StdNormal.InvCDF(1 - alpha/2)
	k := int(math.Floor(float64(mn)/2 - z*math.Sqrt(float64(mn)*float64(m+n+1)/12)))
	return k, 1 - alpha
}

// thin keeps at most maxPairs pairs by taking evenly spaced order
// statistics of the larger sample(s).
func thin(a, b []float64) ([]float64, []float64) {
	for len(a)*len(b) > maxPairs {
		if len(a) >= len(b) {
			a = every(a, len(a)/2)
		} else {
			b = every(b, len(b)/2)
		}
	}
	return a, b
}

func every(x []float64, keep int) []float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	out := make([]float64, keep)
	for i := range keep {
		out[i] = s[(2*i+1)*len(s)/(2*keep)]
	}
	return out
}
