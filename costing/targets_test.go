package costing

import "testing"

// TestTargetPricing: by default each target's own device, none for a
// given "", and an unknown device is an error. Tier: fast.
func TestTargetPricing(t *testing.T) {
	got, err := TargetPricing([]string{"atmega328p"}, "", false)
	if err != nil || len(got) != 1 || got[0].Target != "atmega328p" || got[0].Device == nil {
		t.Fatalf("default: %+v, %v", got, err)
	}
	if got, err := TargetPricing([]string{"atmega328p"}, "", true); err != nil || got != nil {
		t.Errorf("--device '': %+v, %v", got, err)
	}
	if _, err := TargetPricing(nil, "no-such-device", true); err == nil {
		t.Error("unknown device: no error")
	}
}
