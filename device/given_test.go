package device

import "testing"

// TestGivenBattery checks --capacity parsing. Tier: fast.
func TestGivenBattery(t *testing.T) {
	b, err := GivenBattery("2500 mAh", 0.8)
	if err != nil {
		t.Fatal(err)
	}
	if b.Capacity.Quantity.Value != 2500 || b.Capacity.Quantity.Unit != "mAh" || b.Usable.Quantity.Value != 0.8 {
		t.Errorf("got %+v", b)
	}
	for _, bad := range []string{"", "mAh", "0mAh", "10kg", "-3Wh"} {
		if _, err := GivenBattery(bad, 1); err == nil {
			t.Errorf("GivenBattery(%q) took it", bad)
		}
	}
}
