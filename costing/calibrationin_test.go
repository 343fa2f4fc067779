package costing

import "testing"

// TestStoredCalibrationNone checks that a directory without a calibration
// gives none, and that --calibrations DIR is used as given. Tier: fast.
func TestStoredCalibrationNone(t *testing.T) {
	dir := t.TempDir()
	if got, err := CalibrationIn(dir); err != nil || got != dir {
		t.Errorf("CalibrationIn(%q) = %q, %v", dir, got, err)
	}
	if c, err := StoredCalibration(dir, "nrf52840"); c != nil || err != nil {
		t.Errorf("StoredCalibration in an empty dir = %v, %v", c, err)
	}
}
