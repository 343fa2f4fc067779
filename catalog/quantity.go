// Package catalog holds what cryptocost's data files have in common: numbers
// with a unit and a source, read from YAML or JSON with errors that name the
// file, the line and the field. Device profiles (energy), radio profiles
// (radio) and model cost tables (model) are built on it.
//
// Principle 1 of cryptocost is that every number says where it came from.
// A Quantity cannot be written without a source: in a data file it is either
// a mapping
//
//	current_active: {value: 1.8, unit: mA, source: "[S003] TelosB measurement"}
//
// or a string with the source in brackets at the end
//
//	current_active: "1.8 mA [S003]"
//
// and "unverified" is a source (it says the number is not checked).
package catalog

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Quantity is a number with its unit and where it came from.
type Quantity struct {
	Value  float64 `json:"value" yaml:"value"`
	Unit   string  `json:"unit" yaml:"unit"`
	Source string  `json:"source" yaml:"source"`
	// Lo and Hi are the range the source gives ("2.6–2.7 V": Value is the
	// midpoint), in Unit; both zero when it gives one value.
	Lo float64 `json:"lo,omitempty" yaml:"lo,omitempty"`
	Hi float64 `json:"hi,omitempty" yaml:"hi,omitempty"`
}

// HasRange reports whether the source gave a range.
func (q Quantity) HasRange() bool { return q.Lo != 0 || q.Hi != 0 }

// Range is the low and high bounds in q's unit: the source's range, or
// the value twice.
func (q Quantity) Range() (lo, hi float64) {
	if !q.HasRange() {
		return q.Value, q.Value
	}
	return q.Lo, q.Hi
}

// RangeIn is Range converted to unit.
func (q Quantity) RangeIn(unit string) (lo, hi float64) {
	l, h := q.Range()
	f := q.MustIn(unit) / q.Value
	if q.Value == 0 {
		f = Quantity{Value: 1, Unit: q.Unit}.MustIn(unit)
	}
	return l * f, h * f
}

// Q builds a Quantity in code (built-in profiles, tests).
func Q(value float64, unit, source string) Quantity {
	return Quantity{Value: value, Unit: unit, Source: source}
}

// String prints "1.8 mA [S003]", or "2.6–2.7 V [S003]" for a range.
func (q Quantity) String() string {
	s := strconv.FormatFloat(q.Value, 'g', -1, 64)
	if q.HasRange() {
		s = strconv.FormatFloat(q.Lo, 'g', -1, 64) + "–" + strconv.FormatFloat(q.Hi, 'g', -1, 64)
	}
	if q.Unit != "" {
		s += " " + q.Unit
	}
	if q.Source != "" {
		s += " [" + q.Source + "]"
	}
	return s
}

// IsZero reports whether q was not given.
func (q Quantity) IsZero() bool { return q == Quantity{} }

// Unverified reports whether the source says the number is unchecked.
func (q Quantity) Unverified() bool {
	return strings.Contains(strings.ToLower(q.Source), "unverified")
}

// In converts q to unit, which must measure the same dimension.
func (q Quantity) In(unit string) (float64, error) {
	from, err := lookupUnit(q.Unit)
	if err != nil {
		return 0, err
	}
	to, err := lookupUnit(unit)
	if err != nil {
		return 0, err
	}
	if from.dim != to.dim {
		return 0, fmt.Errorf("cannot convert %s (%s) to %s (%s)", q.Unit, from.dim, unit, to.dim)
	}
	return q.Value * from.scale / to.scale, nil
}

// MustIn is In for units a validated profile is known to have.
func (q Quantity) MustIn(unit string) float64 {
	v, err := q.In(unit)
	if err != nil {
		panic(err)
	}
	return v
}

// Dimension returns what q's unit measures ("current", "energy", ...).
func (q Quantity) Dimension() (string, error) {
	u, err := lookupUnit(q.Unit)
	if err != nil {
		return "", err
	}
	return u.dim, nil
}

// UnmarshalYAML accepts the mapping and the "VALUE UNIT [SOURCE]" forms.
func (q *Quantity) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		type plain Quantity
		var p plain
		if err := n.Decode(&p); err != nil {
			return err
		}
		*q = Quantity(p)
	case yaml.ScalarNode:
		v, err := ParseQuantity(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err) // Decode turns it into file:line
		}
		*q = v
	default:
		return errors.New(`want a quantity: "1.8 mA [source]" or {value: 1.8, unit: mA, source: ...}`)
	}
	return nil
}

// ParseQuantity parses "1.8 mA [S003]", "250 kbit/s [datasheet]",
// "0.6 [unverified]" (dimensionless) or a range, "2.6–2.7 V [S003]" or
// "2000-2500 mAh [R]", whose value is the midpoint.
func ParseQuantity(s string) (Quantity, error) {
	var q Quantity
	t := strings.TrimSpace(s)
	if i := strings.LastIndexByte(t, '['); i >= 0 && strings.HasSuffix(t, "]") {
		q.Source = strings.TrimSpace(t[i+1 : len(t)-1])
		t = strings.TrimSpace(t[:i])
	}
	num, unit, _ := strings.Cut(t, " ")
	q.Unit = strings.TrimSpace(unit)
	bad := fmt.Errorf("bad quantity %q: want a number or a range, a unit and a [source], such as \"1.8 mA [S003]\" or \"2.6–2.7 V [S003]\"", s)
	if lo, hi, ok := cutRange(num); ok {
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		if err1 != nil || err2 != nil || !finite(l) || !finite(h) || l > h {
			return q, bad
		}
		// The midpoint without binary noise: (2.6+2.7)/2 is 2.65, not
		// 2.6500000000000004.
		q.Lo, q.Hi = l, h
		q.Value, _ = strconv.ParseFloat(strconv.FormatFloat((l+h)/2, 'g', 12, 64), 64)
		return q, nil
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !finite(v) {
		return q, bad
	}
	q.Value = v
	return q, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// cutRange splits "2.6–2.7" (en dash) or "2.6-2.7" (a hyphen after a
// digit, so "-5" stays a negative number).
func cutRange(s string) (lo, hi string, ok bool) {
	if lo, hi, ok := strings.Cut(s, "–"); ok {
		return lo, hi, true
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '-' && s[i-1] >= '0' && s[i-1] <= '9' && (i < 2 || s[i-1] != 'e' && s[i-1] != 'E') {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}
