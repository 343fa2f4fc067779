package catalog

import (
	"reflect"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"16": 16, "1k": 1024, "400K": 400 << 10, "1m": 1 << 20, "2MiB": 2 << 20, "8kb": 8192, " 3b ": 3} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "3g", "4096m", "9999999m"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
	if got, err := ParseSizes([]string{"1", "2k"}); err != nil || len(got) != 2 || got[1] != 2048 {
		t.Errorf("ParseSizes = %v, %v", got, err)
	}
	if _, err := ParseSizes([]string{"1", "bad"}); err == nil {
		t.Error("ParseSizes: no error for a bad size")
	}
}

// TestParseSizes checks size lists parse with k = 1024 and that a bad
// entry is refused. Tier: fast.
func TestParseSizes(t *testing.T) {
	got, err := ParseSizes([]string{"16", "1k"})
	if err != nil || !reflect.DeepEqual(got, []int{16, 1024}) {
		t.Errorf("ParseSizes(16,1k) = %v, %v; want [16 1024]", got, err)
	}
	if got, err := ParseSizes(nil); err != nil || got != nil {
		t.Errorf("ParseSizes(nil) = %v, %v; want nil", got, err)
	}
	if _, err := ParseSizes([]string{"lots"}); err == nil {
		t.Error("ParseSizes(lots) succeeded")
	}
}
