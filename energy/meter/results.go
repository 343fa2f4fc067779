package meter

import (
	"fmt"
	"math"

	"github.com/cryptocost/cryptocost/result"
)

// AttributionResults are energy attribute's results: one per phase name,
// in first-seen order, each occurrence a sample of the phase's energy
// (gross and net of idle), duration, baseline power and current. markers
// names where the phases came from (a marker file, a digital channel).
func AttributionResults(t *Trace, markers string, ats []Attribution) []result.Result {
	var order []string
	by := map[string][]Attribution{}
	for _, a := range ats {
		if _, ok := by[a.Name]; !ok {
			order = append(order, a.Name)
		}
		by[a.Name] = append(by[a.Name], a)
	}
	var out []result.Result
	for _, name := range order {
		out = append(out, phaseResult(t, markers, name, by[name]))
	}
	return out
}

// phaseResult is one phase's result over its occurrences.
func phaseResult(t *Trace, markers, name string, list []Attribution) result.Result {
	var gross, net, dur, base, cur []float64
	var warnings []string
	hasCurrent := true
	for _, a := range list {
		gross = append(gross, a.Joules*1e3)
		net = append(net, a.NetJoules*1e3)
		dur = append(dur, a.Duration()*1e3)
		base = append(base, a.BaselineWatts*1e3)
		if math.IsNaN(a.Coulombs) {
			hasCurrent = false
		} else {
			cur = append(cur, a.Coulombs/a.Duration()*1e3)
		}
		warnings = append(warnings, a.Warnings...)
	}
	method := fmt.Sprintf("trapezoidal integration of %s over each phase between the markers of %s", t.Columns, markers)
	r := result.Result{
		Subject: result.Subject{Kind: "phase", Name: "phase/" + name, Params: map[string]string{"phase": name, "occurrences": fmt.Sprint(len(list))}},
		Provenance: result.Provenance{Label: result.Measured, Source: t.File + " + " + markers,
			Method: result.Method{Name: "trace attribution", Samples: len(list)}},
		Warnings: append(t.Warnings, warnings...),
	}
	r.Metrics = append(r.Metrics,
		sampled("energy", "mJ", gross, method),
		sampled("energy-net", "mJ", net, "gross − baseline power × duration; baseline: mean power of the idle intervals next to each occurrence ("+list[0].BaselineFrom+" for the first)"),
		sampled("duration", "ms", dur, "end marker − start marker"),
		sampled("baseline-power", "mW", base, "mean power over the idle intervals next to each occurrence"))
	if hasCurrent {
		r.Metrics = append(r.Metrics, sampled("current", "mA", cur, "charge over the phase (trapezoidal) / duration"))
	}
	return r
}

// sampled is a measured metric of samples, lower better, with its method.
func sampled(name, unit string, v []float64, how string) result.Metric {
	x := result.NewSampled(name, unit, result.Lower, result.Measured, v)
	x.Method = how
	return x
}
