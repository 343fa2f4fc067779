package costing

import (
	"fmt"
	"math"

	"github.com/cryptocost/cryptocost/result"
)

// Interval is a value with the range its inputs allow: a time's 95 %
// confidence interval, a profile's "2.6–2.7 V", the spread between two
// estimation rules. Arithmetic on positive quantities is monotone, so the
// bounds of a product are the products of the bounds: E_lo = V_lo·I_lo·t_lo.
// That is interval arithmetic, not a probability: the bounds hold if the
// inputs' bounds hold, and every one is recomputable by hand.
type Interval struct {
	V, Lo, Hi float64
}

// Exact is an interval of one value.
func Exact(v float64) Interval { return Interval{v, v, v} }

// Span is an interval from lo to hi around v; bounds out of order are
// sorted, and v is kept inside them.
func Span(v, lo, hi float64) Interval {
	if lo > hi {
		lo, hi = hi, lo
	}
	return Interval{v, math.Min(lo, v), math.Max(hi, v)}
}

// Exact reports whether the interval is a single value.
func (a Interval) Exact() bool { return a.Lo == a.V && a.Hi == a.V }

// Mul is a·b for positive intervals.
func (a Interval) Mul(b Interval) Interval { return Interval{a.V * b.V, a.Lo * b.Lo, a.Hi * b.Hi} }

// Scale is a·f for f > 0.
func (a Interval) Scale(f float64) Interval { return Interval{a.V * f, a.Lo * f, a.Hi * f} }

// Add is a+b.
func (a Interval) Add(b Interval) Interval { return Interval{a.V + b.V, a.Lo + b.Lo, a.Hi + b.Hi} }

// Sub is a−b: the low bound takes b's high.
func (a Interval) Sub(b Interval) Interval { return Interval{a.V - b.V, a.Lo - b.Hi, a.Hi - b.Lo} }

// Div is a/b for positive intervals: the low bound divides by b's high.
func (a Interval) Div(b Interval) Interval { return Interval{a.V / b.V, a.Lo / b.Hi, a.Hi / b.Lo} }

// Inv is 1/a for a positive interval.
func (a Interval) Inv() Interval { return Exact(1).Div(a) }

// String is "13.17 [13.17, 15.87]" with four significant figures.
func (a Interval) String() string {
	if a.Exact() {
		return fmt.Sprintf("%.4g", a.V)
	}
	return fmt.Sprintf("%.4g [%.4g, %.4g]", a.V, a.Lo, a.Hi)
}

// Display is the interval in a base unit for people: "2107 d (1870–2540 d)".
func (a Interval) Display(unit, display string) string {
	v := result.DisplayIn(a.V, unit, display)
	if a.Exact() {
		return v
	}
	return fmt.Sprintf("%s (%s–%s)", v, result.DisplayIn(a.Lo, unit, display), result.DisplayIn(a.Hi, unit, display))
}

// metric makes a scalar metric of the interval's value with its bounds
// (nil when exact); Bounds.Method says where the range comes from.
func (a Interval) metric(name, unit string, label result.Label, method, boundsHow string) result.Metric {
	m := result.NewScalar(name, unit, result.Lower, label, a.V)
	if !a.Exact() {
		m.Bounds = &result.Bounds{Lo: a.Lo, Hi: a.Hi, Method: boundsHow}
	}
	m.Method = method
	return m
}
