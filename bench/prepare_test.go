package bench

import (
	"testing"
)

// TestPrepareRefusesZeroSize checks a 0-byte --sizes entry is refused
// before any work. Tier: fast.
func TestPrepareRefusesZeroSize(t *testing.T) {
	var opts Options
	cfg := RunConfig{Method: MethodAdaptive}
	if _, err := Prepare(&opts, &cfg, []string{"0"}, nil); err == nil {
		t.Error("Prepare accepted --sizes 0")
	}
}
