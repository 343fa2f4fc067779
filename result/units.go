package result

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Units. A metric is stored in its dimension's base unit — seconds,
// joules, bytes, watts, amperes, bytes per second — whatever unit its
// runner measured in, and converted only for display (Display, the table
// format) and for the Go benchmark format's conventions (ns/op, B/op).
// Every metric is per subject: per operation for a primitive, per
// connection for a TLS cell, per node and interval for a model; the unit
// does not repeat "/op".
//
// unitAliases maps every unit the code or an older run may write to its
// base unit and the factor that converts to it: "ms" is 1e-3 "s".
var unitAliases = map[string]unitConversion{}

// unitConversion converts a value to the base unit: v × mul / div, kept
// apart so a decimal prefix divides by an exact power of ten (1000 ns is
// exactly 1e-6 s, not 1.0000000000000002e-06).
type unitConversion struct {
	base     string
	mul, div float64
}

func (c unitConversion) apply(v float64) float64 { return v * c.mul / c.div }

// baseUnits are the units metrics are stored in, with their display
// behaviour: SI-prefixed (s, J, W, A, B/s, Hz), bytes (B, decimal
// prefixes), or plain (counts, %, cycles).
var baseUnits = map[string]unitStyle{
	"s":              siStyle,
	"J":              siStyle,
	"J/B":            siStyle,
	"W":              siStyle,
	"A":              siStyle,
	"C":              siStyle,
	"V":              siStyle,
	"Hz":             siStyle,
	"B/s":            siStyle,
	"bit/s":          siStyle,
	"B":              byteStyle,
	"bit":            plainStyle, // S003\'s models count bits on the air
	"promotions":     plainStyle,
	"ops/s":          plainStyle,
	"cycles":         plainStyle,
	"cycles/B":       plainStyle,
	"instructions":   plainStyle,
	"instructions/B": plainStyle,
	"allocs":         plainStyle,
	"%":              plainStyle,
	"x":              plainStyle, // a ratio
	"ops":            plainStyle,
	"packets":        plainStyle,
	"frames":         plainStyle,
	"records":        plainStyle,
	"flights":        plainStyle,
	"round-trips":    plainStyle,
	"messages":       plainStyle,
	"attacks":        plainStyle,
	"signatures":     plainStyle,
	"readings":       plainStyle,
	"verifications":  plainStyle,
	"fragments":      plainStyle,
	"periods":        plainStyle,
	"1":              plainStyle, // a count of nothing more specific
}

type unitStyle int

const (
	plainStyle unitStyle = iota
	siStyle
	byteStyle
)

func init() {
	for u := range baseUnits {
		unitAliases[u] = unitConversion{u, 1, 1}
	}
	add := func(alias, base string, factor float64) {
		if factor < 1 {
			unitAliases[alias] = unitConversion{base, 1, math.Round(1 / factor)}
		} else {
			unitAliases[alias] = unitConversion{base, factor, 1}
		}
	}
	// Time. "cpu-ns/op" and "device-ns/op" are round 1's units for thread
	// CPU time and a device's time.
	for _, p := range []struct {
		prefix string
		f      float64
	}{{"n", 1e-9}, {"µ", 1e-6}, {"u", 1e-6}, {"m", 1e-3}, {"", 1}} {
		add(p.prefix+"s/op", "s", p.f)
		if p.prefix != "" {
			add(p.prefix+"s", "s", p.f)
		}
		add(p.prefix+"J/op", "J", p.f)
		if p.prefix != "" {
			add(p.prefix+"J", "J", p.f)
			add(p.prefix+"W", "W", p.f)
			add(p.prefix+"A", "A", p.f)
			add(p.prefix+"J/B", "J/B", p.f)
		}
	}
	add("cpu-ns/op", "s", 1e-9)
	add("device-ns/op", "s", 1e-9)
	add("min", "s", 60)
	add("h", "s", 3600)
	add("d", "s", 86400)
	add("kJ", "J", 1e3)
	add("mAh", "C", 3.6)
	add("Ah", "C", 3600)
	add("kHz", "Hz", 1e3)
	add("MHz", "Hz", 1e6)
	add("GHz", "Hz", 1e9)
	add("B/op", "B", 1)
	add("kB", "B", 1e3)
	add("MB", "B", 1e6)
	add("bits", "bit", 1)
	add("kB/s", "B/s", 1e3)
	add("MB/s", "B/s", 1e6)
	add("GB/s", "B/s", 1e9)
	add("kbit/s", "bit/s", 1e3)
	add("Mbit/s", "bit/s", 1e6)
	add("allocs/op", "allocs", 1)
	add("cycles/op", "cycles", 1)
	add("instructions/op", "instructions", 1)
	add("packets/op", "packets", 1)
	add("frames/op", "frames", 1)
	add("records/op", "records", 1)
	add("round-trips/op", "round-trips", 1)
	add("flights/op", "flights", 1)
	add("count", "1", 1)
	for _, u := range []string{"stack-B", "static-ram-B", "state-B", "ram-B", "rom-B"} {
		add(u, "B", 1) // round 1's mcu memory units
	}
	for _, per := range []string{"reading", "session", "registration", "request", "message"} {
		add("ops/"+per, "1", 1) // round 1's scenario operation counts
	}
	add("", "1", 1)
}

// BaseUnit returns the base unit a unit converts to and the factor
// (value_in_base = value × factor), or an error naming the known units.
func BaseUnit(unit string) (base string, factor float64, err error) {
	c, err := conversion(unit)
	return c.base, c.mul / c.div, err
}

func conversion(unit string) (unitConversion, error) {
	if c, ok := unitAliases[unit]; ok {
		return c, nil
	}
	return unitConversion{}, fmt.Errorf("unknown unit %q (units: s, J, W, A, B, B/s and their prefixes; counts; see result/vocabulary.go)", unit)
}

// ConvertTo converts v from a base unit to another unit of the same
// dimension ("J" to "mJ"); v unchanged when they do not convert.
func ConvertTo(v float64, base, unit string) float64 {
	c, err := conversion(unit)
	if err != nil || c.base != base {
		return v
	}
	return v * c.div / c.mul
}

// DisplayScale picks the unit a set of values in a base unit is shown in
// (a chart's axis, a table's column): the SI prefix that suits the largest
// magnitude ("mJ" for 0.08 J). Values are shown as v / div.
func DisplayScale(unit string, maxAbs float64) (div float64, display string) {
	if baseUnits[unit] == plainStyle || maxAbs == 0 || math.IsInf(maxAbs, 0) || math.IsNaN(maxAbs) {
		return 1, unit
	}
	for _, p := range siPrefixes {
		if maxAbs >= p.scale*0.9995 || p.scale == 1e-12 {
			if baseUnits[unit] == byteStyle && p.scale < 1 {
				return 1, unit
			}
			return p.scale, p.symbol + unit
		}
	}
	return 1, unit
}

// siPrefixes for display, largest first.
var siPrefixes = []struct {
	symbol string
	scale  float64
}{{"G", 1e9}, {"M", 1e6}, {"k", 1e3}, {"", 1}, {"m", 1e-3}, {"µ", 1e-6}, {"n", 1e-9}, {"p", 1e-12}}

// Display formats a value stored in a base unit for people: SI prefixes
// for physical units ("1.23 µs", "45.6 mJ", "12.3 MB/s"), decimal
// prefixes for bytes ("1.37 kB", exact below 10 kB: "2368 B"), plain
// numbers for counts. Four significant digits.
func Display(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	if math.IsInf(v, 0) {
		return "∞"
	}
	switch baseUnits[unit] {
	case siStyle:
		return siScaled(v, unit)
	case byteStyle:
		if math.Abs(v) < 1e4 {
			return strconv.FormatFloat(roundSig(v, 6), 'f', -1, 64) + " B"
		}
		return siScaled(v, "B")
	}
	s := strconv.FormatFloat(roundSig(v, 4), 'f', -1, 64)
	if unit == "1" || unit == "" {
		return s
	}
	if unit == "%" {
		return s + " %"
	}
	return s + " " + unit
}

// DisplayIn formats a value stored in a base unit in a named display unit
// ("d" for a battery life in seconds): "2107 d".
func DisplayIn(v float64, unit, display string) string {
	if display == "" || display == unit {
		return Display(v, unit)
	}
	base, f, err := BaseUnit(display)
	if err != nil || base != unit {
		return Display(v, unit)
	}
	return strconv.FormatFloat(roundSig(v/f, 4), 'f', -1, 64) + " " + display
}

func siScaled(v float64, unit string) string {
	a := math.Abs(v)
	if a == 0 {
		return "0 " + unit
	}
	for _, p := range siPrefixes {
		if a >= p.scale*0.9995 || p.scale == 1e-12 {
			return strconv.FormatFloat(roundSig(v/p.scale, 4), 'f', -1, 64) + " " + p.symbol + unit
		}
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + unit
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	x, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	if err != nil {
		return v
	}
	return x
}

// perOp is the Go benchmark format's spelling of a base unit: values per
// operation ("ns/op", "B/op", "allocs/op"), rates as they are ("B/s").
func perOp(unit string) (string, float64) {
	switch unit {
	case "s":
		return "ns/op", 1e9
	case "B/s", "ops/s", "bit/s", "%", "x", "cycles/B", "instructions/B", "J/B":
		return unit, 1
	case "1":
		return "count/op", 1
	}
	if strings.Contains(unit, "/") {
		return unit, 1
	}
	return unit + "/op", 1
}
