package costing

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/model"
)

// Tier: fast (no external tools): the shipped tables, the profiles and
// hand arithmetic.

// The model hint names the flag model users have (--radio), not --link.
func TestModelRadioHint(t *testing.T) {
	m, err := model.Open("sensor-reading")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Messages) == 0 {
		t.Skip("sensor-reading sends no messages")
	}
	_, err = ModelCostsOn(&Pricer{Device: mustDevice(t, "nrf52840")}, m, nil, nil)
	if err == nil || strings.Contains(err.Error(), "--link") || !strings.Contains(err.Error(), "--radio") {
		t.Errorf("hint: %v", err)
	}
}
