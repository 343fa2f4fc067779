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
}

// Q builds a Quantity in code (built-in profiles, tests).
func Q(value float64, unit, source string) Quantity {
	return Quantity{Value: value, Unit: unit, Source: source}
}

// String prints "1.8 mA [S003]".
func (q Quantity) String() string {
	s := strconv.FormatFloat(q.Value, 'g', -1, 64)
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

// ParseQuantity parses "1.8 mA [S003]", "250 kbit/s [datasheet]" or
// "0.6 [unverified]" (dimensionless).
func ParseQuantity(s string) (Quantity, error) {
	var q Quantity
	t := strings.TrimSpace(s)
	if i := strings.LastIndexByte(t, '['); i >= 0 && strings.HasSuffix(t, "]") {
		q.Source = strings.TrimSpace(t[i+1 : len(t)-1])
		t = strings.TrimSpace(t[:i])
	}
	num, unit, _ := strings.Cut(t, " ")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return q, fmt.Errorf("bad quantity %q: want a number, a unit and a [source], such as \"1.8 mA [S003]\"", s)
	}
	q.Value, q.Unit = v, strings.TrimSpace(unit)
	return q, nil
}
