package model

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Comparison is several models (or variants of one) evaluated along one
// parameter: one line per model, variant and combination of the other
// swept parameters, and where the lines cross.
type Comparison struct {
	// X is the x-axis parameter: the first --vary.
	X Vary
	// Others are the other swept parameters: each combination of their
	// values is a condition ("when d = 20").
	Others []Vary
	// Metrics are the outputs compared.
	Metrics []Output
	Lines   []*Line
	// Unit is the x parameter's unit, if the models declare one.
	XUnit string
	// Per says what one evaluation covers, when all models agree.
	Per string
	// Statements say in words where the lines cross, per metric.
	Statements []Statement
}

// Line is one model variant's outputs along the x parameter under one
// condition.
type Line struct {
	// Name is "model[/variant][/d=20]".
	Name  string
	Model *Model
	// Label is "model[/variant]", without the condition.
	Label string
	// Cond are the values of Comparison.Others for this line.
	Cond []float64
	// Y[metric][i] is the output at X.Values[i].
	Y map[string][]float64

	plan *Plan
	c    int
}

// Statement is a sentence about two lines: "secsywise/RSA-1024 uses less
// energy than tinysersync/d=20 for n ≥ 2", with the crossing points.
type Statement struct {
	Metric string
	A, B   string
	Cond   string
	Text   string
	// Crossings are the x values where the lines cross (located by
	// bisection on the models between two swept values).
	Crossings []float64
}

// Compare evaluates plans (built with the same Vary list and Lenient set)
// along vary[0] and states the crossovers of metrics.
func Compare(ctx context.Context, plans []*Plan, vary []Vary, metrics []string) (*Comparison, error) {
	if len(vary) == 0 {
		return nil, fmt.Errorf("compare needs a parameter to vary, such as --vary n=2..14: the first --vary is the x axis")
	}
	cmp := &Comparison{X: vary[0], Others: slices.Clone(vary[1:])}
	for _, name := range metrics {
		o, err := LookupOutput(name)
		if err != nil {
			return nil, err
		}
		cmp.Metrics = append(cmp.Metrics, o)
	}
	// The x values come from the first plan that has the parameter; every
	// plan resolved FromModel the same way.
	for _, p := range plans {
		for _, v := range p.Vary {
			if v.Param == cmp.X.Param {
				cmp.X = v
			}
			for i := range cmp.Others {
				if v.Param == cmp.Others[i].Param {
					cmp.Others[i] = v
				}
			}
		}
		if par := p.Model.Param(cmp.X.Param); par != nil && cmp.XUnit == "" {
			cmp.XUnit = par.Unit
		}
	}
	if len(cmp.X.Values) == 1 {
		return nil, fmt.Errorf("--vary %s: a comparison needs at least two values on the x axis", cmp.X.Param)
	}
	for _, v := range append([]Vary{cmp.X}, cmp.Others...) {
		if len(v.Values) == 0 {
			return nil, fmt.Errorf("--vary %s: none of the models declares values for %s: give them, such as --vary %s=1..10", v.Param, v.Param, v.Param)
		}
	}
	pers := map[string]bool{}
	for _, p := range plans {
		pers[p.Model.Per] = true
	}
	if len(pers) == 1 {
		cmp.Per = plans[0].Model.Per
	}
	conds := conditions(cmp.Others)
	var out Outputs
	for _, cond := range conds {
		for _, p := range plans {
			for c, v := range p.Cases {
				label := p.Model.Name
				if v != nil {
					label += "/" + v.Name
				}
				l := &Line{Label: label, Name: label + condSuffix(cmp.Others, cond, "/"), Model: p.Model, Cond: cond,
					Y: map[string][]float64{}, plan: p, c: c}
				for i, x := range cmp.X.Values {
					if i&0xff == 0 && ctx.Err() != nil {
						return nil, ctx.Err()
					}
					if err := l.eval(cmp, x, &out); err != nil {
						return nil, err
					}
					for _, m := range cmp.Metrics {
						l.Y[m.Name] = append(l.Y[m.Name], m.Value(&out))
					}
				}
				cmp.Lines = append(cmp.Lines, l)
			}
		}
	}
	for _, m := range cmp.Metrics {
		for _, cond := range conds {
			st, err := cmp.statements(m, cond, len(plans) > 1)
			if err != nil {
				return nil, err
			}
			cmp.Statements = append(cmp.Statements, st...)
		}
	}
	return cmp, nil
}

// conditions lists every combination of the other swept values (one
// empty combination when there are none).
func conditions(others []Vary) [][]float64 {
	out := [][]float64{{}}
	for _, v := range others {
		var next [][]float64
		for _, c := range out {
			for _, x := range v.Values {
				next = append(next, append(slices.Clone(c), x))
			}
		}
		out = next
	}
	return out
}

func condSuffix(others []Vary, cond []float64, sep string) string {
	if len(cond) == 0 {
		return ""
	}
	var kv []string
	for i, v := range others {
		kv = append(kv, v.Param+"="+formatNumber(cond[i]))
	}
	return sep + strings.Join(kv, ",")
}

func condWords(others []Vary, cond []float64) string {
	if len(cond) == 0 {
		return ""
	}
	var kv []string
	for i, v := range others {
		kv = append(kv, v.Param+" = "+formatNumber(cond[i]))
	}
	return " when " + strings.Join(kv, " and ")
}

// eval evaluates the line's model at x under its condition. Parameters the
// model does not have are ignored: its cost does not depend on them.
func (l *Line) eval(cmp *Comparison, x float64, out *Outputs) error {
	p := l.plan
	vals := slices.Clone(p.base[l.c])
	set := func(name string, v float64) {
		if i := slices.IndexFunc(p.Model.Params, func(q *Param) bool { return q.Name == name }); i >= 0 {
			vals[i] = v
		}
	}
	set(cmp.X.Param, x)
	for i, v := range cmp.Others {
		set(v.Param, l.Cond[i])
	}
	return p.Eval.Eval(l.c, vals, out)
}

// verbs say "less" in the words of each output.
var verbs = map[string]string{
	"energy":                 "uses less energy than",
	"time":                   "takes less time than",
	"bits-sent":              "sends fewer bits than",
	"bits-received":          "receives fewer bits than",
	"bytes-sent":             "sends fewer bytes than",
	"bytes-received":         "receives fewer bytes than",
	"payload-bytes-sent":     "sends fewer payload bytes than",
	"payload-bytes-received": "receives fewer payload bytes than",
	"packets-sent":           "sends fewer packets than",
	"packets-received":       "receives fewer packets than",
	"energy-tx":              "uses less energy sending than",
	"energy-rx":              "uses less energy receiving than",
	"energy-ops":             "uses less energy computing than",
	"time-radio":             "keeps the radio busy for less time than",
	"time-ops":               "computes for less time than",
}

// statements compares every pair of lines under cond (across models when
// several are compared, else across variants).
func (cmp *Comparison) statements(m Output, cond []float64, acrossModels bool) ([]Statement, error) {
	var lines []*Line
	for _, l := range cmp.Lines {
		if slices.Equal(l.Cond, cond) {
			lines = append(lines, l)
		}
	}
	var out []Statement
	for i, a := range lines {
		for _, b := range lines[i+1:] {
			if acrossModels && a.Model == b.Model {
				continue
			}
			st, err := cmp.statement(m, a, b, cond)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
	}
	return out, nil
}

// maxIntegerSteps bounds the whole numbers a statement evaluates between
// the first and last swept value.
const maxIntegerSteps = 100_000

// series returns the x values a statement about a and b rests on, with
// both lines' values. When every compared model declares the x parameter
// a whole number, that is every whole number between the first and last
// swept value, so "for n ≥ 11" is exact even if only 2, 6, 10, 14 were
// swept; otherwise the swept values.
func (cmp *Comparison) series(m Output, a, b *Line) (xs, ya, yb []float64, err error) {
	xs, ya, yb = cmp.X.Values, a.Y[m.Name], b.Y[m.Name]
	lo, hi := slices.Min(xs), slices.Max(xs)
	if !cmp.integerX() || hi-lo > maxIntegerSteps || !slices.IsSorted(xs) {
		return xs, ya, yb, nil
	}
	var whole []float64
	for x := math.Ceil(lo); x <= hi; x++ {
		whole = append(whole, x)
	}
	if slices.Equal(whole, xs) {
		return xs, ya, yb, nil
	}
	var out Outputs
	ya, yb = make([]float64, len(whole)), make([]float64, len(whole))
	for i, x := range whole {
		if err := a.eval(cmp, x, &out); err != nil {
			return nil, nil, nil, err
		}
		ya[i] = m.Value(&out)
		if err := b.eval(cmp, x, &out); err != nil {
			return nil, nil, nil, err
		}
		yb[i] = m.Value(&out)
	}
	return whole, ya, yb, nil
}

// integerX reports whether every compared model that has the x parameter
// declares it a whole number.
func (cmp *Comparison) integerX() bool {
	seen := false
	for _, l := range cmp.Lines {
		if p := l.Model.Param(cmp.X.Param); p != nil {
			if !p.Integer {
				return false
			}
			seen = true
		}
	}
	return seen
}

// sign compares a and b with a relative tolerance, so binary noise is not
// a crossing.
func sign(a, b float64) int {
	if math.IsNaN(a) || math.IsNaN(b) {
		return 2 // unknown
	}
	tol := 1e-9 * max(math.Abs(a), math.Abs(b))
	switch {
	case a < b-tol:
		return -1
	case a > b+tol:
		return 1
	}
	return 0
}

// statement puts the comparison of two lines in words.
func (cmp *Comparison) statement(m Output, a, b *Line, cond []float64) (Statement, error) {
	xs, ya, yb, err := cmp.series(m, a, b)
	if err != nil {
		return Statement{}, err
	}
	st := Statement{Metric: m.Name, A: a.Label, B: b.Label, Cond: condWords(cmp.Others, cond)}
	x := cmp.X.Param
	verb := verbs[m.Name]
	if verb == "" {
		verb = "has a lower " + m.Name + " than"
	}
	signs := make([]int, len(xs))
	for i := range xs {
		signs[i] = sign(ya[i], yb[i])
		if signs[i] == 2 {
			st.Text = fmt.Sprintf("%s and %s cannot be compared on %s: it is unknown for one of them", a.Label, b.Label, m.Name)
			return st, nil
		}
	}
	all := func(s int) bool {
		return !slices.ContainsFunc(signs, func(v int) bool { return v != s && v != 0 })
	}
	span := fmt.Sprintf("%s in %s..%s", x, formatNumber(xs[0]), formatNumber(xs[len(xs)-1]))
	switch {
	case !slices.ContainsFunc(signs, func(v int) bool { return v != 0 }):
		st.Text = fmt.Sprintf("%s and %s are equal in %s for every %s%s", a.Label, b.Label, m.Name, span, st.Cond)
		return st, nil
	case all(-1):
		st.Text = fmt.Sprintf("%s %s %s for every %s%s", a.Label, verb, b.Label, span, st.Cond)
		return st, nil
	case all(1):
		st.Text = fmt.Sprintf("%s %s %s for every %s%s", b.Label, verb, a.Label, span, st.Cond)
		return st, nil
	}
	// The lines cross: find where, between the swept values, by bisection.
	var out Outputs
	diff := func(xv float64) (float64, error) {
		if err := a.eval(cmp, xv, &out); err != nil {
			return 0, err
		}
		va := m.Value(&out)
		if err := b.eval(cmp, xv, &out); err != nil {
			return 0, err
		}
		return va - m.Value(&out), nil
	}
	prev := -1
	for i, s := range signs {
		if s == 0 {
			continue
		}
		if prev >= 0 && signs[prev] != s {
			lo, hi := xs[prev], xs[i]
			if i-prev > 1 {
				// Equal at the swept values in between: the lines touch there.
				lo, hi = xs[prev+1], xs[i-1]
				st.Crossings = append(st.Crossings, lo)
				if hi != lo {
					st.Crossings = append(st.Crossings, hi)
				}
			} else {
				xc, err := bisect(diff, lo, hi, signs[prev])
				if err != nil {
					return st, err
				}
				st.Crossings = append(st.Crossings, xc)
			}
		}
		prev = i
	}
	var cross []string
	for _, c := range st.Crossings {
		cross = append(cross, formatNumber(roundSig4(c)))
	}
	st.Text = fmt.Sprintf("%s %s %s for %s%s; %s %s %s for %s (the lines cross at %s ≈ %s)",
		a.Label, verb, b.Label, ranges(x, xs, signs, -1), st.Cond,
		b.Label, verb, a.Label, ranges(x, xs, signs, 1), x, strings.Join(cross, ", "))
	return st, nil
}

// ranges describes where signs[i] == want, as ranges of the swept values:
// "n ≥ 11", "n ≤ 4 and n in 9..12".
func ranges(x string, xs []float64, signs []int, want int) string {
	var out []string
	for i := 0; i < len(xs); {
		if signs[i] != want {
			i++
			continue
		}
		j := i
		for j+1 < len(xs) && signs[j+1] == want {
			j++
		}
		switch {
		case i == 0:
			out = append(out, fmt.Sprintf("%s ≤ %s", x, formatNumber(xs[j])))
		case j == len(xs)-1:
			out = append(out, fmt.Sprintf("%s ≥ %s", x, formatNumber(xs[i])))
		case i == j:
			out = append(out, fmt.Sprintf("%s = %s", x, formatNumber(xs[i])))
		default:
			out = append(out, fmt.Sprintf("%s in %s..%s", x, formatNumber(xs[i]), formatNumber(xs[j])))
		}
		i = j + 1
	}
	return strings.Join(out, " and ")
}

// bisect finds x in [lo, hi] where f changes sign (f(lo) has sign s).
func bisect(f func(float64) (float64, error), lo, hi float64, s int) (float64, error) {
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi || hi-lo <= 1e-12*max(math.Abs(lo), math.Abs(hi), 1) {
			break
		}
		d, err := f(mid)
		if err != nil {
			return 0, err
		}
		switch {
		case d == 0:
			return mid, nil
		case (d < 0) == (s < 0):
			lo = mid
		default:
			hi = mid
		}
	}
	return lo + (hi-lo)/2, nil
}

// roundSig4 rounds to four significant digits for sentences.
func roundSig4(v float64) float64 {
	if v == 0 {
		return 0
	}
	e := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*e) / e
}
