package model

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// SubjectKind is the result subject kind of model evaluations.
const SubjectKind = "model"

// maxResultPoints bounds the points turned into a result.Run: a run holds
// every point in memory with its metrics (about 3 kB each), so larger
// sweeps stream (WriteSweepCSV) instead.
const maxResultPoints = 200_000

// NewRun starts a run of kind "model" for the results of plans.
func NewRun() *result.Run {
	return result.NewRun("model", result.Environment{OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version(),
		CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Notes: []string{"modelled results: the machine that computed them does not affect them"}})
}

// AppendResults evaluates every point of the plan into run, one result
// per point. breakdown adds per-message and per-operation metrics.
func (p *Plan) AppendResults(ctx context.Context, run *result.Run, breakdown bool) error {
	if n := p.Points(); n > maxResultPoints {
		return fmt.Errorf("%d points are too many to hold as results (at most %d): write them as CSV (--format csv streams any number), or vary fewer values", n, maxResultPoints)
	}
	if run.Environment.Device == "" {
		run.Environment.Device = p.deviceName()
	}
	err := p.Run(ctx, func(pt *Point, out *Outputs) error {
		run.Results = append(run.Results, p.Result(pt, out, breakdown))
		return nil
	})
	run.Finished = time.Now().UTC()
	if err != nil && ctx.Err() != nil {
		run.Status = result.Interrupted
	}
	return err
}

func (p *Plan) deviceName() string {
	if t, ok := p.costsTable(); ok {
		return t.Device
	}
	return ""
}

func (p *Plan) costsTable() (*CostTable, bool) {
	if t, ok := p.costs.Radio.(*CostTable); ok {
		return t, true
	}
	for _, s := range p.costs.Ops {
		if t, ok := s.(*CostTable); ok {
			return t, true
		}
	}
	return nil, false
}

// SubjectName names a point: the model, the variant, and the parameters
// the user set or swept ("tinysersync/d=20/n=6", "secsywise/RSA-1024").
func (p *Plan) SubjectName(pt *Point) string {
	parts := []string{p.Model.Name}
	if pt.Variant != nil {
		parts = append(parts, pt.Variant.Name)
	}
	var kv []string
	for i, par := range p.Model.Params {
		switch p.Sources[par.Name] {
		case "--set", "--vary":
			kv = append(kv, par.Name+"="+formatNumber(pt.Values[i]))
		}
	}
	if len(kv) > 0 {
		parts = append(parts, strings.Join(kv, ","))
	}
	return strings.Join(parts, "/")
}

// LineName names a point without the x-axis parameter: the line it
// belongs to in a comparison or plot.
func (p *Plan) LineName(pt *Point) string {
	parts := []string{p.Model.Name}
	if pt.Variant != nil {
		parts = append(parts, pt.Variant.Name)
	}
	var kv []string
	for i, v := range p.Vary {
		if i == 0 {
			continue
		}
		kv = append(kv, v.Param+"="+formatNumber(v.Values[pt.Index[i]]))
	}
	if len(kv) > 0 {
		parts = append(parts, strings.Join(kv, ","))
	}
	return strings.Join(parts, "/")
}

// Result turns one point's outputs into a result: every output a metric
// labelled modelled with its formula as method; parameters and the model's
// provenance in the subject and provenance.
func (p *Plan) Result(pt *Point, out *Outputs, breakdown bool) result.Result {
	m := p.Model
	params := map[string]string{"model": m.Name}
	if pt.Variant != nil {
		params["variant"] = pt.Variant.Name
	}
	if m.Per != "" {
		params["per"] = m.Per
	}
	for i, par := range m.Params {
		params[par.Name] = formatNumber(pt.Values[i])
	}
	if len(p.Vary) > 0 {
		// The report's sweep chart draws each output against the first
		// varied parameter, one line per the rest (LineName).
		params["sweep"] = p.Vary[0].Param
		params["series"] = p.LineName(pt)
	}
	r := result.Result{
		Subject: result.Subject{Kind: SubjectKind, Name: p.SubjectName(pt), Params: params},
		Provenance: result.Provenance{
			Label:  result.Modelled,
			Method: result.Method{Name: "analytic-model", Samples: 1, Stop: "exact"},
			Source: p.ProvenanceText(pt.Case),
		},
	}
	radio := p.Eval.radio
	for _, o := range outputs {
		v := o.Value(out)
		if math.IsNaN(v) {
			continue // an unknown operation energy; the warning says which
		}
		// 12 significant digits: exact for every model input, without the
		// binary noise of 0.000153 × bits (29.029247999999995).
		met := result.NewScalar(o.Name, o.Unit, result.Lower, result.Modelled, roundTo(v, 12))
		met.Method = p.method(o.Name, radio)
		r.Metrics = append(r.Metrics, met)
	}
	r.Warnings = p.warnings(pt.Case, out)
	if breakdown {
		for i, msg := range m.Messages {
			mo := out.Messages[i]
			met := result.NewScalar("message/"+msg.Name+"/bits", "bit", result.Lower, result.Modelled, roundTo(mo.WireBits, 12))
			met.Method = fmt.Sprintf("%s × (%s + %s fragment header + %s packets × %s overhead) bits, %s", formatNumber(mo.Count), formatNumber(mo.Bits),
				formatNumber(mo.FragmentHeaders), formatNumber(mo.Packets), formatNumber(mo.Overhead), msg.Direction())
			r.Metrics = append(r.Metrics, met)
		}
		for i, op := range m.Operations {
			oo := out.Ops[i]
			oc, src := p.Eval.OpCost(pt.Case, i)
			t := result.NewScalar("op/"+op.Name+"/time", "s", result.Lower, result.Modelled, roundTo(oo.TimeSeconds, 12))
			t.Method = fmt.Sprintf("%s × %s (%s, %s %s)", formatNumber(oo.Count), secondsString(oc.TimeSeconds), src, oc.Label, oc.Source)
			r.Metrics = append(r.Metrics, t)
			if !math.IsNaN(oo.EnergyJoules) {
				e := result.NewScalar("op/"+op.Name+"/energy", "J", result.Lower, result.Modelled, roundTo(oo.EnergyJoules, 12))
				e.Method = fmt.Sprintf("%s × %s (%s, %s %s)", formatNumber(oo.Count), joulesString(oc.EnergyJoules), src, oc.Label, oc.Source)
				r.Metrics = append(r.Metrics, e)
			}
		}
	}
	return r
}

// method is the formula behind an output, with the numbers it used.
func (p *Plan) method(name string, radio BitCost) string {
	bits := fmt.Sprintf("%s bit/s", formatNumber(radio.RateBitsPerSecond))
	tx := joulesString(radio.TxJoulesPerBit) + "/bit"
	rx := joulesString(radio.RxJoulesPerBit) + "/bit"
	switch name {
	case "energy":
		return fmt.Sprintf("bits sent × %s + bits received × %s + Σ operations × energy each (%s)", tx, rx, p.costs.Describe())
	case "time":
		return fmt.Sprintf("(bits sent + bits received) / %s + Σ operations × time each (%s)", bits, p.costs.Describe())
	case "energy-tx":
		return "bits sent × " + tx
	case "energy-rx":
		return "bits received × " + rx
	case "time-radio":
		return "(bits sent + bits received) / " + bits
	case "energy-ops", "time-ops":
		return "Σ operations × cost each (" + p.costs.Describe() + ")"
	}
	return "Σ messages × count × (bits + packets × per-packet overhead)"
}

// ProvenanceText says what the numbers of case c rest on: the model, its
// source, the costs and the assumptions.
func (p *Plan) ProvenanceText(c int) string {
	m := p.Model
	s := fmt.Sprintf("model %s (%s", m.Name, m.File)
	if m.Source != "" {
		s += "; " + m.Source
	}
	s += "); " + p.costs.Describe()
	if len(m.Assumptions) > 0 {
		s += "; assumptions: " + strings.Join(m.Assumptions, "; ")
	}
	return s
}

// warnings name the estimated inputs and unknown energies of case c.
func (p *Plan) warnings(c int, out *Outputs) []string {
	var w []string
	for i, op := range p.Model.Operations {
		oc, src := p.Eval.OpCost(c, i)
		if oc.Label == result.Estimated {
			w = append(w, fmt.Sprintf("operation %s is priced with an estimate (%s): %s", op.Name, src, oc.Method))
		}
		if math.IsNaN(out.Ops[i].EnergyJoules) {
			w = append(w, fmt.Sprintf("energy not computed: %s gives operation %s a time but no energy (a cost table with a cpu: section prices it as E = V·I·t)", src, op.Name))
		}
	}
	return w
}

func secondsString(s float64) string {
	switch {
	case math.IsNaN(s):
		return "unknown time"
	case s >= 1:
		return formatNumber(s) + " s"
	case s >= 1e-3:
		return formatNumber(s*1e3) + " ms"
	case s >= 1e-6:
		return formatNumber(s*1e6) + " µs"
	}
	return formatNumber(s*1e9) + " ns"
}

func joulesString(j float64) string {
	switch {
	case math.IsNaN(j):
		return "unknown energy"
	case j >= 1:
		return formatNumber(j) + " J"
	case j >= 1e-3:
		return formatNumber(roundSig(j*1e3)) + " mJ"
	case j >= 1e-6 || j == 0:
		return formatNumber(roundSig(j*1e6)) + " µJ"
	}
	return formatNumber(roundSig(j*1e9)) + " nJ"
}

// roundSig rounds to 12 significant digits, hiding binary noise
// (0.153e-6 J × 1e6 = 0.15299999999999997).
func roundSig(v float64) float64 { return roundTiny(v) }
