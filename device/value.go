package device

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"go.yaml.in/yaml/v3"
)

// Value is a profile number: a catalog.Quantity (value, unit, source) or,
// when nobody knows it, the reason it is unknown. Principle 1 forbids
// inventing a number, so a profile says "unknown" out loud instead:
//
//	active: "1.8 mA [S003]"
//	active: "unknown [a virtual machine exposes no power rail]"
//	active: {unknown: "no datasheet figure for this board"}
type Value struct {
	catalog.Quantity
	// Unknown is why the number is not known; set instead of the quantity.
	Unknown string `json:"unknown,omitempty" yaml:"unknown,omitempty"`
}

// V builds a known Value in code.
func V(value float64, unit, source string) Value {
	return Value{Quantity: catalog.Q(value, unit, source)}
}

// Known reports whether v holds a number.
func (v Value) Known() bool { return v.Unknown == "" && !v.Quantity.IsZero() }

// Given reports whether v was written in the file at all (a number or an
// explicit "unknown").
func (v Value) Given() bool { return v.Unknown != "" || !v.Quantity.IsZero() }

// String prints "1.8 mA [S003]" or "unknown (why)".
func (v Value) String() string {
	if v.Unknown != "" {
		return "unknown (" + v.Unknown + ")"
	}
	if v.Quantity.IsZero() {
		return "not given"
	}
	return v.Quantity.String()
}

// UnmarshalYAML accepts the catalog.Quantity forms and "unknown [why]".
func (v *Value) UnmarshalYAML(n *yaml.Node) error {
	*v = Value{}
	switch n.Kind {
	case yaml.ScalarNode:
		s := strings.TrimSpace(n.Value)
		if strings.HasPrefix(strings.ToLower(s), "unknown") {
			why := strings.TrimSpace(s[len("unknown"):])
			why = strings.TrimSuffix(strings.TrimPrefix(why, "["), "]")
			if why == "" {
				return errors.New(`"unknown" needs a reason: "unknown [why nobody knows it]"`)
			}
			v.Unknown = why
			return nil
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "unknown" {
				if len(n.Content) != 2 {
					return errors.New("an unknown value has only the key unknown: {unknown: why}")
				}
				v.Unknown = strings.TrimSpace(n.Content[i+1].Value)
				if v.Unknown == "" {
					return errors.New("unknown needs a reason")
				}
				return nil
			}
		}
	}
	return v.Quantity.UnmarshalYAML(n)
}

// MarshalYAML writes the short string form.
func (v Value) MarshalYAML() (any, error) {
	if v.Unknown != "" {
		return "unknown [" + v.Unknown + "]", nil
	}
	return v.Quantity.String(), nil
}

// limit is a dimension a field may have and its plausible range, in the
// dimension's unit base.
type limit struct {
	dim    string
	base   string
	lo, hi float64
}

// check validates v as a figure of one of the limits' dimensions, with a
// source, strictly positive and plausible. A missing value is an error when
// required.
func (v Value) check(n *catalog.Node, field string, required bool, limits ...limit) error {
	if !v.Given() {
		if required {
			return n.Errorf(field, "missing: give a number with unit and [source], or \"unknown [why]\"")
		}
		return nil
	}
	if v.Unknown != "" {
		return nil
	}
	if strings.TrimSpace(v.Source) == "" {
		return n.Errorf(field, "%v has no source: add one in brackets, such as \"%g %s [datasheet, table 3]\" or [unverified]", v.Quantity, v.Value, v.Unit)
	}
	dim, err := v.Dimension()
	if err != nil {
		return n.Errorf(field, "%v", err)
	}
	var want []string
	for _, l := range limits {
		want = append(want, l.dim)
		if l.dim != dim {
			continue
		}
		if v.Value <= 0 {
			return n.Errorf(field, "%v must be positive", v.Quantity)
		}
		if x := v.MustIn(l.base); x < l.lo || x > l.hi {
			return n.Errorf(field, "%v is implausible: want %g to %g %s", v.Quantity, l.lo, l.hi, l.base)
		}
		return nil
	}
	return n.Errorf(field, "unit %q is %s, want %s", v.Unit, dim, strings.Join(want, " or "))
}

// describe is "2.65 V [S003]" for method texts.
func describe(v Value) string { return v.Quantity.String() }

// ErrUnknown says a profile figure is unknown or absent.
func ErrUnknown(what string, v Value) error { return errUnknown(what, v) }

func errUnknown(what string, v Value) error {
	if v.Unknown != "" {
		return fmt.Errorf("%s is unknown (%s)", what, v.Unknown)
	}
	return fmt.Errorf("%s is not in the profile", what)
}
