package model

import (
	"math"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/radio"
)

// TestCatalogCosts: the 802.15.4 radio profile prices bits as the built-in
// cost table does (0.153 and 0.226 µJ per bit at 250 kbit/s, S003); device
// operations are priced by package costing (costing.ModelCosts).
func TestCatalogCosts(t *testing.T) {
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
