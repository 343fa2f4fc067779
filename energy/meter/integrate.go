package meter

import (
	"fmt"
	"math"
	"sort"
)

// Sample is one point of a power waveform: time in seconds and the power
// in watts, with the current and voltage it came from when known (NaN
// otherwise).
type Sample struct {
	T     float64 `json:"t"`
	Watts float64 `json:"w"`
	Amps  float64 `json:"a"`
	Volts float64 `json:"v"`
}

// Integrate is the energy of a sampled waveform in joules by the
// trapezoidal rule: exact for a waveform that is linear between samples,
// and the standard estimate otherwise.
func Integrate(s []Sample) float64 {
	var e float64
	for i := 1; i < len(s); i++ {
		e += (s[i].Watts + s[i-1].Watts) / 2 * (s[i].T - s[i-1].T)
	}
	return e
}

// IntegrateWindow is the energy between times a and b (a < b, both within
// the samples' span), interpolating the power linearly at the window's
// edges. It returns the charge too (coulombs) when every sample in the
// window has a current, NaN otherwise.
func IntegrateWindow(s []Sample, a, b float64) (joules, coulombs float64, err error) {
	if len(s) < 2 {
		return 0, 0, fmt.Errorf("a waveform needs at least two samples")
	}
	if !(a < b) {
		return 0, 0, fmt.Errorf("window %g–%g s: the end must be after the start", a, b)
	}
	if a < s[0].T || b > s[len(s)-1].T {
		return 0, 0, fmt.Errorf("window %g–%g s lies outside the samples' %g–%g s", a, b, s[0].T, s[len(s)-1].T)
	}
	// First segment ending after a.
	i := sort.Search(len(s), func(k int) bool { return s[k].T > a })
	if i == 0 {
		i = 1
	}
	lo := interpolate(s[i-1], s[i], a)
	prev := lo
	for ; i < len(s) && s[i].T < b; i++ {
		joules += (prev.Watts + s[i].Watts) / 2 * (s[i].T - prev.T)
		coulombs += (prev.Amps + s[i].Amps) / 2 * (s[i].T - prev.T)
		prev = s[i]
	}
	j := min(i, len(s)-1)
	hi := interpolate(s[j-1], s[j], b)
	joules += (prev.Watts + hi.Watts) / 2 * (hi.T - prev.T)
	coulombs += (prev.Amps + hi.Amps) / 2 * (hi.T - prev.T)
	return joules, coulombs, nil
}

// interpolate is the sample at time t on the line from p to q.
func interpolate(p, q Sample, t float64) Sample {
	if q.T == p.T {
		return Sample{T: t, Watts: p.Watts, Amps: p.Amps, Volts: p.Volts}
	}
	f := (t - p.T) / (q.T - p.T)
	lerp := func(x, y float64) float64 { return x + f*(y-x) }
	return Sample{T: t, Watts: lerp(p.Watts, q.Watts), Amps: lerp(p.Amps, q.Amps), Volts: lerp(p.Volts, q.Volts)}
}

// Gap is an interval between two samples much longer than the usual one.
type Gap struct {
	From, To float64 // seconds
	Line     int     // the line (or sample number) after the gap
}

func (g Gap) String() string {
	return fmt.Sprintf("%.6g s with no sample between %.6g s and %.6g s (line %d)", g.To-g.From, g.From, g.To, g.Line)
}

// findGaps reports intervals longer than max (or, for max ≤ 0, ten times
// the median interval); lines maps sample i to its input line.
func findGaps(s []Sample, max float64, lines []int) []Gap {
	if len(s) < 3 {
		return nil
	}
	if max <= 0 {
		d := make([]float64, len(s)-1)
		for i := 1; i < len(s); i++ {
			d[i-1] = s[i].T - s[i-1].T
		}
		sort.Float64s(d)
		max = 10 * d[len(d)/2]
	}
	var out []Gap
	for i := 1; i < len(s); i++ {
		if s[i].T-s[i-1].T > max {
			line := i + 1
			if i < len(lines) {
				line = lines[i]
			}
			out = append(out, Gap{From: s[i-1].T, To: s[i].T, Line: line})
		}
	}
	return out
}

func isNaN(v float64) bool { return math.IsNaN(v) }
