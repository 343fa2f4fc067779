package meter

import (
	"fmt"
	"math"
	"strconv"

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

// TraceResult is energy trace's result: the trace's energy, duration and
// mean power, and (when the trace has current) its mean current.
func TraceResult(t *Trace) result.Result {
	from, to := t.Span()
	j := t.Energy()
	r := result.Result{
		Subject: result.Subject{Kind: "trace", Name: "trace/" + t.File, Params: map[string]string{"columns": t.Columns,
			"format": t.Format, "sample_interval_s": strconv.FormatFloat(t.SampleInterval, 'g', 6, 64)}},
		Provenance: result.Provenance{Label: result.Measured, Source: t.File, Method: result.Method{Name: "trapezoidal integration", Samples: len(t.Samples)}},
		Warnings:   t.Warnings,
	}
	method := "trapezoidal rule over " + t.Columns
	r.Metrics = append(r.Metrics,
		scalar("energy", "mJ", j*1e3, method),
		scalar("duration", "s", to-from, "last sample time − first"),
		scalar("power", "mW", j/(to-from)*1e3, "energy / duration"))
	if _, c, err := IntegrateWindow(t.Samples, from, to); err == nil && !math.IsNaN(c) {
		r.Metrics = append(r.Metrics, scalar("current", "mA", c/(to-from)*1e3, "charge (trapezoidal) / duration"))
	}
	return r
}

// ReadingResult is energy measure's result for a live meter's reading of
// what (a command, or idling): the energy, duration, power and each
// domain's energy.
func ReadingResult(rd Reading, what string) result.Result {
	r := result.Result{
		Subject:    result.Subject{Kind: "meter", Name: "meter/" + rd.Meter + "/" + what},
		Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: rd.Meter, Samples: rd.Samples}},
		Warnings:   rd.Warnings,
	}
	r.Metrics = append(r.Metrics, scalar("energy", "J", rd.Joules, rd.Method),
		scalar("duration", "s", rd.Seconds, "wall clock between start and stop"),
		scalar("power", "W", rd.Watts(), "energy / duration"))
	for _, d := range rd.Domains {
		r.Metrics = append(r.Metrics, scalar("meter-energy/"+d.Name, "J", d.Joules, rd.Method))
	}
	return r
}

// scalar is one measured value, lower better, computed by method.
func scalar(name, unit string, v float64, method string) result.Metric {
	m := result.NewScalar(name, unit, result.Lower, result.Measured, v)
	m.Method = method
	return m
}
