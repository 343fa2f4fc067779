package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// unit is a unit's dimension and its size in the dimension's base unit.
type unit struct {
	dim   string
	scale float64
}

// units lists what data files may use. Base units: A, V, W, J, s, Hz,
// bit/s, B, C (charge; mAh is 3.6 C), 1 (dimensionless).
var units = map[string]unit{}

func init() {
	prefixed := func(dim, base string, prefixes map[string]float64) {
		for p, f := range prefixes {
			units[p+base] = unit{dim, f}
		}
	}
	si := map[string]float64{"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3, "µ": 1e-6, "u": 1e-6, "n": 1e-9, "p": 1e-12}
	prefixed("current", "A", si)
	prefixed("voltage", "V", si)
	prefixed("power", "W", si)
	prefixed("energy", "J", si)
	prefixed("frequency", "Hz", si)
	prefixed("time", "s", si)
	units["min"] = unit{"time", 60}
	units["h"] = unit{"time", 3600}
	units["d"] = unit{"time", 86400}
	for p, f := range map[string]float64{"": 1, "k": 1e3, "M": 1e6, "G": 1e9} {
		units[p+"bit/s"] = unit{"bitrate", f}
		units[p+"bps"] = unit{"bitrate", f}
	}
	units["B"] = unit{"bytes", 1}
	units["bit"] = unit{"bytes", 1.0 / 8}
	units["kB"] = unit{"bytes", 1e3}
	units["KiB"] = unit{"bytes", 1 << 10}
	units["MB"] = unit{"bytes", 1e6}
	units["MiB"] = unit{"bytes", 1 << 20}
	units["Ah"] = unit{"charge", 3600}
	units["mAh"] = unit{"charge", 3.6}
	units["C"] = unit{"charge", 1}
	units["Wh"] = unit{"energy", 3600}
	units["mWh"] = unit{"energy", 3.6}
	units["µWh"] = unit{"energy", 3.6e-3}
	units["uWh"] = unit{"energy", 3.6e-3}
	units["J/bit"] = unit{"energy-per-bit", 1}
	units["µJ/bit"] = unit{"energy-per-bit", 1e-6}
	units["uJ/bit"] = unit{"energy-per-bit", 1e-6}
	units["nJ/bit"] = unit{"energy-per-bit", 1e-9}
	units["J/B"] = unit{"energy-per-byte", 1}
	units["mJ/B"] = unit{"energy-per-byte", 1e-3}
	units["µJ/B"] = unit{"energy-per-byte", 1e-6}
	units["uJ/B"] = unit{"energy-per-byte", 1e-6}
	units["nJ/B"] = unit{"energy-per-byte", 1e-9}
	units[""] = unit{"dimensionless", 1}
	units["%"] = unit{"dimensionless", 0.01}
	units["dBm"] = unit{"dBm", 1} // logarithmic: only compared with dBm
}

func lookupUnit(name string) (unit, error) {
	if u, ok := units[strings.TrimSpace(name)]; ok {
		return u, nil
	}
	return unit{}, fmt.Errorf("unknown unit %q: want one of %s", name, strings.Join(unitNames(), ", "))
}

// CheckUnit reports whether name is a unit of dimension dim ("current",
// "voltage", "power", "energy", "time", "frequency", "bitrate", "bytes",
// "charge", "dimensionless"), with an error listing the units that are.
func CheckUnit(name, dim string) error {
	u, err := lookupUnit(name)
	if err != nil {
		return err
	}
	if u.dim != dim {
		var want []string
		for n, v := range units {
			if v.dim == dim && n != "" {
				want = append(want, n)
			}
		}
		sort.Strings(want)
		return fmt.Errorf("unit %q is %s, want %s (%s)", name, u.dim, dim, strings.Join(want, ", "))
	}
	return nil
}

func unitNames() []string {
	var names []string
	for n := range units {
		if n != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
