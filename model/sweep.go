package model

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Vary is one swept parameter and its values (--vary n=2..14).
type Vary struct {
	Param  string
	Values []float64
	// FromModel is set when the values were not given (--vary n): the
	// model's declared values or range are used.
	FromModel bool
}

// maxPoints bounds a plan: beyond it a typo (--vary n=1..1e12) would run
// for days.
const maxPoints = 100_000_000

// ParseVary parses NAME=LO..HI (step 1), NAME=LO..HI:STEP, NAME=V1,V2,...
// or NAME alone (the model's study values, or its range in steps of 1).
func ParseVary(s string) (Vary, error) {
	name, spec, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return Vary{}, fmt.Errorf("--vary %q: %v", s, err)
	}
	if !ok {
		return Vary{Param: name, FromModel: true}, nil
	}
	vals, err := parseValues(spec)
	if err != nil {
		return Vary{}, fmt.Errorf("--vary %q: %v", s, err)
	}
	return Vary{Param: name, Values: vals}, nil
}

// parseValues parses "2..14", "2..14:2", "0.5..2:0.5" or "2.5,20".
func parseValues(spec string) ([]float64, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("no values: write a range such as 2..14 (or 2..14:2 for a step) or a list such as 2.5,20")
	}
	if strings.Contains(spec, "..") {
		rng, stepText, hasStep := strings.Cut(spec, ":")
		lo, hi, err := parseRange(rng)
		if err != nil {
			return nil, err
		}
		step := 1.0
		if hasStep {
			if step, err = parseNumber(stepText); err != nil {
				return nil, fmt.Errorf("bad step: %v", err)
			}
			if step <= 0 {
				return nil, fmt.Errorf("step %s must be positive", stepText)
			}
		}
		n := math.Floor((hi-lo)/step+1e-9) + 1
		if n > maxPoints {
			return nil, fmt.Errorf("%s has %.3g values, more than %d: use a larger step (LO..HI:STEP)", spec, n, maxPoints)
		}
		vals := make([]float64, 0, int(n))
		for i := 0; i < int(n); i++ {
			// lo + i·step, not repeated addition, so 0.1 steps do not drift.
			vals = append(vals, roundTiny(lo+float64(i)*step))
		}
		return vals, nil
	}
	var vals []float64
	for _, f := range strings.Split(spec, ",") {
		v, err := parseNumber(f)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// roundTiny removes binary noise from lo + i·step: 0.1·3 = 0.30000000000000004.
func roundTiny(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return r
}

func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !finite(v) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// ParseSet parses --set values: "n=6,d=20" (several flags may be given).
func ParseSet(specs []string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, spec := range specs {
		for _, kv := range strings.Split(spec, ",") {
			if strings.TrimSpace(kv) == "" {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok {
				return nil, fmt.Errorf("--set %q: want NAME=VALUE, such as n=6", kv)
			}
			if err := checkName(k); err != nil {
				return nil, fmt.Errorf("--set %q: %v", kv, err)
			}
			x, err := parseNumber(v)
			if err != nil {
				return nil, fmt.Errorf("--set %q: %v", kv, err)
			}
			out[k] = x
		}
	}
	return out, nil
}

// Options choose what a plan evaluates.
type Options struct {
	// Set are parameter values (--set); they override defaults, measured
	// inputs and variants' settings.
	Set map[string]float64
	// Vary are the swept parameters; the first is the x axis of
	// comparisons and plots.
	Vary []Vary
	// Variants selects variants by name (empty: all).
	Variants []string
	// Inputs are measured parameter values (--inputs), by parameter name.
	Inputs map[string]Input
	// Lenient lets Set and Vary name parameters the model does not have
	// (model compare: a protocol whose cost does not depend on d is flat
	// in d).
	Lenient bool
}

// Input is a parameter value read from a measurement.
type Input struct {
	Value  float64
	Source string // "run 2026…: subject tls/…, metric bytes-up"
}

// Plan is a model ready to evaluate over a grid of points.
type Plan struct {
	Model *Model
	Eval  *Evaluator
	costs *Costs
	// Cases are the variants evaluated (nil entries: the model without a
	// variant), after --set/--vary overrides merged the ones that became
	// identical.
	Cases []*Variant
	// Base are the parameter values before sweeping: defaults, then
	// measured inputs, then the case's settings, then --set.
	base [][]float64
	// Vary are the swept parameters this model has, with param indices.
	Vary    []Vary
	varyIdx []int
	// Sources says where each parameter's value came from ("default",
	// "--set", "variant", "measured: ..."), by name.
	Sources map[string]string
	// Unused are the --set/--vary parameters the model does not have.
	Unused []string
}

// NewPlan validates the options against the model (unknown parameters,
// values out of range, unknown variants, missing operation costs) before
// any evaluation.
func NewPlan(m *Model, costs *Costs, o Options) (*Plan, error) {
	p := &Plan{Model: m, Sources: map[string]string{}, costs: costs}
	user := map[string]bool{}
	for name, v := range o.Set {
		par := m.Param(name)
		if par == nil {
			if o.Lenient {
				p.Unused = append(p.Unused, name)
				continue
			}
			return nil, unknownParam(m, name, "--set")
		}
		if err := par.Check(v); err != nil {
			return nil, fmt.Errorf("--set: %v", err)
		}
		user[name] = true
	}
	for _, vr := range o.Vary {
		par := m.Param(vr.Param)
		if par == nil {
			if o.Lenient {
				p.Unused = append(p.Unused, vr.Param)
				continue
			}
			return nil, unknownParam(m, vr.Param, "--vary")
		}
		if user[vr.Param] {
			return nil, fmt.Errorf("parameter %s is both set and varied: give --set or --vary for it, not both", vr.Param)
		}
		if vr.FromModel {
			vr.Values = par.Values
			if len(vr.Values) == 0 && par.HasRange {
				vr.Values, _ = parseValues(par.RangeString())
			}
			if len(vr.Values) == 0 {
				return nil, fmt.Errorf("--vary %s: model %s declares no values or range for %s: give them, such as --vary %s=1..10", vr.Param, m.Name, vr.Param, vr.Param)
			}
		}
		for _, v := range vr.Values {
			if err := par.Check(v); err != nil {
				return nil, fmt.Errorf("--vary: %v", err)
			}
		}
		user[vr.Param] = true
		p.Vary = append(p.Vary, vr)
		p.varyIdx = append(p.varyIdx, slices.Index(m.Params, par))
	}
	slices.Sort(p.Unused)
	p.Unused = slices.Compact(p.Unused)

	// Cases: the selected variants with the user's parameters removed from
	// their settings, merged when they became identical.
	var selected []*Variant
	if len(o.Variants) > 0 {
		for _, name := range o.Variants {
			v := m.Variant(name)
			if v == nil {
				if len(m.Variants) == 0 {
					return nil, fmt.Errorf("model %s has no variants", m.Name)
				}
				return nil, fmt.Errorf("model %s has no variant %q: want one of %s", m.Name, name, strings.Join(m.VariantNames(), ", "))
			}
			selected = append(selected, v)
		}
	} else {
		selected = m.Variants
	}
	seen := map[string]bool{}
	for _, v := range selected {
		eff := &Variant{Name: v.Name, Description: v.Description, Costs: v.Costs, costPos: v.costPos}
		for _, s := range v.Set {
			if !user[s.Param] {
				eff.Set = append(eff.Set, s)
			}
		}
		key := variantKey(eff)
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(eff.Set) < len(v.Set) && len(eff.Costs) == 0 && len(eff.Set) == 0 {
			eff = nil // only the user's settings are left: no variant
		}
		p.Cases = append(p.Cases, eff)
	}
	if len(p.Cases) == 0 {
		p.Cases = []*Variant{nil}
	}
	ev, err := NewEvaluator(m, costs, p.Cases)
	if err != nil {
		return nil, err
	}
	p.Eval = ev

	// Base values per case.
	for _, par := range m.Params {
		p.Sources[par.Name] = "default"
		if par.DefaultSource != "" {
			p.Sources[par.Name] = "default [" + par.DefaultSource + "]"
		}
		if in, ok := o.Inputs[par.Name]; ok {
			p.Sources[par.Name] = "measured: " + in.Source
		}
		if user[par.Name] {
			p.Sources[par.Name] = "--set"
			if slices.ContainsFunc(p.Vary, func(v Vary) bool { return v.Param == par.Name }) {
				p.Sources[par.Name] = "--vary"
			}
		}
	}
	for _, c := range p.Cases {
		vals := make([]float64, len(m.Params))
		for i, par := range m.Params {
			vals[i] = par.Default
			if in, ok := o.Inputs[par.Name]; ok {
				if err := par.Check(in.Value); err != nil {
					return nil, fmt.Errorf("measured input: %v (from %s)", err, in.Source)
				}
				vals[i] = in.Value
			}
			if v, ok := o.Set[par.Name]; ok {
				vals[i] = v
			}
		}
		if c != nil {
			for _, s := range c.Set {
				vals[slices.IndexFunc(m.Params, func(q *Param) bool { return q.Name == s.Param })] = s.Value
			}
		}
		p.base = append(p.base, vals)
	}
	if n := p.Points(); n > maxPoints {
		return nil, fmt.Errorf("%d points is more than %d: vary fewer parameters or use larger steps", n, maxPoints)
	}
	return p, nil
}

func variantKey(v *Variant) string {
	var parts []string
	for _, s := range v.Set {
		parts = append(parts, s.Param+"="+formatNumber(s.Value))
	}
	slices.Sort(parts)
	var costs []string
	for k, c := range v.Costs {
		costs = append(costs, k+"="+c)
	}
	slices.Sort(costs)
	return strings.Join(parts, ",") + "|" + strings.Join(costs, ",")
}

func unknownParam(m *Model, name, flag string) error {
	msg := fmt.Sprintf("%s %s: model %s has no parameter %s", flag, name, m.Name, name)
	if c := closest(name, m.ParamNames()); c != "" {
		msg += fmt.Sprintf("; did you mean %s?", c)
	}
	return fmt.Errorf("%s (parameters: %s; see cryptocost model show %s)", msg, strings.Join(m.ParamNames(), ", "), m.Name)
}

// Points is the number of points the plan evaluates.
func (p *Plan) Points() int {
	n := len(p.Cases)
	for _, v := range p.Vary {
		n *= len(v.Values)
		if n > maxPoints {
			return n
		}
	}
	return n
}

// Point is one evaluation of a plan.
type Point struct {
	Case    int // index into Plan.Cases
	Variant *Variant
	// Values are all parameter values, in Model.Params order.
	Values []float64
	// Index is the index of each swept parameter's value, in Vary order.
	Index []int
}

// Run evaluates every point, cases outermost and the first swept
// parameter innermost, calling fn with each point's outputs. pt and out
// are reused between calls: copy what you keep. It stops early when ctx
// is cancelled (returning ctx.Err()) or fn returns an error.
func (p *Plan) Run(ctx context.Context, fn func(pt *Point, out *Outputs) error) error {
	var out Outputs
	pt := &Point{Index: make([]int, len(p.Vary)), Values: make([]float64, len(p.Model.Params))}
	for c, base := range p.base {
		pt.Case, pt.Variant = c, p.Cases[c]
		copy(pt.Values, base)
		clear(pt.Index)
		for i, v := range p.Vary {
			pt.Values[p.varyIdx[i]] = v.Values[0]
		}
		for n := 0; ; n++ {
			if n&0xfff == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if err := p.Eval.Eval(c, pt.Values, &out); err != nil {
				return err
			}
			if err := fn(pt, &out); err != nil {
				return err
			}
			if !p.next(pt) {
				break
			}
		}
	}
	return nil
}

// next advances pt's swept values like an odometer, first parameter
// fastest; false when every combination has been visited.
func (p *Plan) next(pt *Point) bool {
	for i, v := range p.Vary {
		pt.Index[i]++
		if pt.Index[i] < len(v.Values) {
			pt.Values[p.varyIdx[i]] = v.Values[pt.Index[i]]
			return true
		}
		pt.Index[i] = 0
		pt.Values[p.varyIdx[i]] = v.Values[0]
	}
	return false
}

// EvalAt evaluates the plan's case c with the first swept parameter at x
// and the others at the given indices: comparisons use it to locate a
// crossing between two swept values.
func (p *Plan) EvalAt(c int, index []int, x float64, out *Outputs) error {
	vals := slices.Clone(p.base[c])
	for i, v := range p.Vary {
		vals[p.varyIdx[i]] = v.Values[index[i]]
	}
	if len(p.Vary) > 0 {
		vals[p.varyIdx[0]] = x
	}
	return p.Eval.Eval(c, vals, out)
}
