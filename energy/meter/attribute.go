package meter

import (
	"fmt"
	"math"
)

// Attribution is one phase occurrence's energy from a trace.
type Attribution struct {
	Phase
	// Joules is the energy over the phase (gross).
	Joules float64
	// BaselineWatts is the idle power subtracted, measured over
	// BaselineFrom (the idle intervals next to the phase).
	BaselineWatts float64
	BaselineFrom  string
	// NetJoules = Joules − BaselineWatts × Duration.
	NetJoules float64
	// Coulombs is the charge over the phase (NaN without a current column).
	Coulombs float64
	Warnings []string
}

// AttributeOptions control the baseline.
type AttributeOptions struct {
	// BaselineWatts, when positive, is used instead of measuring the idle
	// power between phases.
	BaselineWatts float64
	// Guard is trimmed from each idle interval's ends (seconds), so the
	// ramps into and out of a phase do not count as idle.
	Guard float64
}

// Attribute integrates the trace over each phase and subtracts an idle
// baseline: the mean power of the idle intervals immediately before and
// after the phase (time-weighted), which is S003's oscilloscope-and-LED
// method done in software — the LED pin's edges are the markers, the shunt
// voltage is the trace.
func Attribute(t *Trace, phases []Phase, opt AttributeOptions) ([]Attribution, error) {
	from, to := t.Span()
	for _, p := range phases {
		if p.Start < from || p.End > to {
			return nil, fmt.Errorf("phase %q at %.9g–%.9g s (marker line %d) lies outside the trace's %.9g–%.9g s: are the markers on the trace's clock? (--offset shifts them)",
				p.Name, p.Start, p.End, p.Line, from, to)
		}
	}
	// Idle intervals: before the first phase, between phases, after the
	// last, each trimmed by the guard.
	type idle struct {
		a, b          float64
		watts         float64
		usable        bool
		before, after int // phase indexes it borders (-1: none)
	}
	var idles []idle
	edges := append([]float64{from}, func() []float64 {
		var e []float64
		for _, p := range phases {
			e = append(e, p.Start, p.End)
		}
		return e
	}()...)
	edges = append(edges, to)
	for i := 0; i+1 < len(edges); i += 2 {
		a, b := edges[i]+opt.Guard, edges[i+1]-opt.Guard
		in := idle{a: a, b: b, before: i/2 - 1, after: i / 2}
		if in.after >= len(phases) {
			in.after = -1
		}
		if b > a {
			j, _, err := IntegrateWindow(t.Samples, a, b)
			if err == nil {
				in.watts, in.usable = j/(b-a), true
			}
		}
		idles = append(idles, in)
	}
	var out []Attribution
	for k, p := range phases {
		j, c, err := IntegrateWindow(t.Samples, p.Start, p.End)
		if err != nil {
			return nil, fmt.Errorf("phase %q (line %d): %w", p.Name, p.Line, err)
		}
		at := Attribution{Phase: p, Joules: j, Coulombs: c}
		if math.IsNaN(c) {
			at.Coulombs = math.NaN()
		}
		for _, g := range t.GapsIn(p.Start, p.End) {
			at.Warnings = append(at.Warnings, fmt.Sprintf("phase %q (line %d) spans a gap in the trace: %s", p.Name, p.Line, g))
		}
		if opt.BaselineWatts > 0 {
			at.BaselineWatts, at.BaselineFrom = opt.BaselineWatts, "given (--baseline-power)"
		} else {
			var sumJ, sumT float64
			var from []string
			for _, in := range idles {
				if in.usable && (in.after == k || in.before == k) {
					sumJ += in.watts * (in.b - in.a)
					sumT += in.b - in.a
					from = append(from, fmt.Sprintf("%.6g–%.6g s", in.a, in.b))
				}
			}
			if sumT == 0 {
				return nil, fmt.Errorf("phase %q (line %d) has no idle time next to it to measure the baseline: leave idle time between phases (S003 measured idle between operations) or give --baseline-power", p.Name, p.Line)
			}
			at.BaselineWatts = sumJ / sumT
			at.BaselineFrom = "idle " + joinComma(from)
		}
		at.NetJoules = at.Joules - at.BaselineWatts*p.Duration()
		out = append(out, at)
	}
	return out, nil
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " and "
		}
		out += x
	}
	return out
}
