package radio

import (
	"errors"
	"math"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
)

// validator reads a profile's quantities into SI numbers and collects every
// problem with its file, line and field, so a user fixes a file in one pass.
type validator struct {
	node *catalog.Node
	errs []error
}

func (v *validator) fail(field, format string, args ...any) {
	v.errs = append(v.errs, v.node.Errorf(field, format, args...))
}

func (v *validator) err() error { return errors.Join(v.errs...) }

// examples show a unit of each dimension in error messages.
var examples = map[string]string{
	"power":           `"1.2 W [source]"`,
	"time":            `"0.5 s [source]"`,
	"bytes":           `"543 B [source]"`,
	"current":         `"23 mA [source]"`,
	"voltage":         `"3 V [source]"`,
	"energy":          `"5.9 J [source]"`,
	"energy-per-bit":  `"438.39 nJ/bit [source]"`,
	"bitrate":         `"250 kbit/s [source]"`,
	"dimensionless":   `"6 [source]"`,
	"energy-per-byte": `"59.2 µJ/B [source]"`,
}

// quantity returns q in unit (of dimension dim), or 0 when q is absent and
// optional. It checks the source, the unit's dimension, and that the value
// is a finite number ≥ 0: no radio draws negative power or waits negative
// time.
func (v *validator) quantity(field string, q catalog.Quantity, dim, unit string, required bool) float64 {
	if q.IsZero() {
		if required {
			v.fail(field, "missing: want a %s such as %s", dim, examples[dim])
		}
		return 0
	}
	if strings.TrimSpace(q.Source) == "" {
		v.fail(field, "%v has no source: say where the number comes from in brackets, such as \"%v [datasheet table 4]\" (or [unverified])", q, q)
	}
	if err := catalog.CheckUnit(q.Unit, dim); err != nil {
		v.fail(field, "%v", err)
		return 0
	}
	x := q.MustIn(unit)
	if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		v.fail(field, "%v is negative: a %s cannot be below zero", q, dim)
		return 0
	}
	return x
}

func (v *validator) power(field string, q catalog.Quantity, required bool) float64 {
	return v.quantity(field, q, "power", "W", required)
}

func (v *validator) current(field string, q catalog.Quantity, required bool) float64 {
	return v.quantity(field, q, "current", "A", required)
}

func (v *validator) voltage(field string, q catalog.Quantity, required bool) float64 {
	return v.quantity(field, q, "voltage", "V", required)
}

func (v *validator) energy(field string, q catalog.Quantity, required bool) float64 {
	return v.quantity(field, q, "energy", "J", required)
}

func (v *validator) energyPerBit(field string, q catalog.Quantity, required bool) float64 {
	return v.quantity(field, q, "energy-per-bit", "J/bit", required)
}

func (v *validator) bitrate(field string, q catalog.Quantity, required bool) float64 {
	return v.quantity(field, q, "bitrate", "bit/s", required)
}

func (v *validator) duration(field string, q catalog.Quantity, required bool) time.Duration {
	return time.Duration(math.Round(v.quantity(field, q, "time", "s", required) * 1e9))
}

// bytes returns a whole number of bytes.
func (v *validator) bytes(field string, q catalog.Quantity, required bool) int {
	x := v.quantity(field, q, "bytes", "B", required)
	if x != math.Trunc(x) {
		v.fail(field, "%v is not a whole number of bytes", q)
	}
	return int(x)
}

// count returns a whole dimensionless number.
func (v *validator) count(field string, q catalog.Quantity, required bool) int {
	x := v.quantity(field, q, "dimensionless", "", required)
	if x != math.Trunc(x) {
		v.fail(field, "%v is not a whole number", q)
	}
	return int(x)
}

// positive fails when a required quantity read as x is zero.
func (v *validator) positive(field string, x float64, q catalog.Quantity) {
	if x == 0 && !q.IsZero() {
		v.fail(field, "%v must be above zero", q)
	}
}
