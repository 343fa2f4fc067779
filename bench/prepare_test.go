package bench

import (
	"reflect"
	"testing"
)

// TestParseSizes checks size lists parse with k = 1024 and that a bad
// entry is refused. Tier: fast.
func TestParseSizes(t *testing.T) {
	got, err := parseSizes([]string{"16", "1k"})
	if err != nil || !reflect.DeepEqual(got, []int{16, 1024}) {
		t.Errorf("parseSizes(16,1k) = %v, %v; want [16 1024]", got, err)
	}
	if got, err := parseSizes(nil); err != nil || got != nil {
		t.Errorf("parseSizes(nil) = %v, %v; want nil", got, err)
	}
	if _, err := parseSizes([]string{"lots"}); err == nil {
		t.Error("parseSizes(lots) succeeded")
	}
}

// TestPrepareRefusesZeroSize checks a 0-byte --sizes entry is refused
// before any work. Tier: fast.
func TestPrepareRefusesZeroSize(t *testing.T) {
	var opts Options
	cfg := RunConfig{Method: MethodAdaptive}
	if _, err := Prepare(&opts, &cfg, []string{"0"}, nil); err == nil {
		t.Error("Prepare accepted --sizes 0")
	}
}
