package model

import (
	"math"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/radio"
)

// TestCatalogCosts: the TelosB device profile and the 802.15.4 radio
// profile price what the built-in cost table prices, with the same numbers
// where both quote S003 (ECDSA-160 verify: 3642 ms and 10.72 mJ; 0.153 and
// 0.226 µJ per bit at 250 kbit/s).
func TestCatalogCosts(t *testing.T) {
	d, err := energy.Lookup("telosb")
	if err != nil {
		t.Fatal(err)
	}
	c := DeviceCosts(d)
	got, ok := c.OpCost("ECDSA-160/verify")
	if !ok {
		t.Fatalf("ECDSA-160/verify not priced; the profile has %v", c.OpNames())
	}
	if math.Abs(got.TimeSeconds-3.642) > 1e-9 || math.Abs(got.EnergyJoules-10.72e-3) > 1e-9 {
		t.Errorf("ECDSA-160/verify = %+v, want 3.642 s and 10.72 mJ (S003)", got)
	}
	if _, ok := c.OpCost("NOPE-1/sign"); ok {
		t.Error("an operation the profile lacks was priced")
	}
	p, err := radio.Lookup("ieee802154-telosb")
	if err != nil {
		t.Fatal(err)
	}
	src, err := RadioCosts(p)
	if err != nil {
		t.Fatal(err)
	}
	bc, _ := src.BitCost()
	if bc.RateBitsPerSecond != 250e3 || math.Abs(bc.TxJoulesPerBit-0.153e-6) > 1e-15 || math.Abs(bc.RxJoulesPerBit-0.226e-6) > 1e-15 {
		t.Errorf("bit costs %+v", bc)
	}
	lte, _ := radio.Lookup("lte")
	if _, err := RadioCosts(lte); err == nil || !strings.Contains(err.Error(), "no per-bit costs") {
		t.Errorf("LTE as per-bit: %v", err)
	}
}
