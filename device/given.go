package device

import (
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// GivenBattery is a battery the user gave instead of the profile's:
// capacity a charge or energy such as "2500mAh", "3Ah" or "10Wh", of which
// the fraction usable (in (0, 1]) can be used. The error names the
// --capacity flag that gives it.
func GivenBattery(capacity string, usable float64) (*Battery, error) {
	v, unit := splitUnit(strings.ReplaceAll(capacity, " ", ""))
	if v <= 0 || (catalog.CheckUnit(unit, "charge") != nil && catalog.CheckUnit(unit, "energy") != nil) {
		return nil, fmt.Errorf("--capacity %q: want a positive charge or energy such as 2500mAh, 3Ah or 10Wh", capacity)
	}
	return &Battery{Chemistry: "a battery of " + capacity, Capacity: V(v, unit, "given: --capacity"),
		NominalVoltage: Value{Unknown: "not given"}, Usable: V(usable, "", "given: --usable")}, nil
}

// splitUnit splits "2500mAh" into 2500 and "mAh".
func splitUnit(s string) (float64, string) {
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i <= 0 {
		return 0, ""
	}
	var v float64
	fmt.Sscan(s[:i], &v)
	return v, strings.TrimSpace(s[i:])
}
