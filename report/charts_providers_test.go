package report

import (
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// providerRun is shaped like `bench --provider go,openssl,wolfssl`: one
// scheme measured by three providers, Go's marked as the baseline.
func providerRun() *result.Run {
	base := map[string]string{"baseline": "yes"}
	return newRun("R-providers", "bench",
		prim("SHA-256", "go", "hash", "hash", 1024, base, timeM(1000)),
		prim("SHA-256", "openssl", "hash", "hash", 1024, nil, timeM(900)),
		prim("SHA-256", "wolfssl", "hash", "hash", 1024, nil, timeM(6000)),
		prim("X25519", "go", "kex", "derive", 0, base, timeM(50000)),
		prim("X25519", "sodium", "kex", "derive", 0, nil, timeM(40000)),
	)
}

// TestProviderChart: the ratios to Go are the medians' quotients, one row
// per provider other than the baseline. Fast tier.
func TestProviderChart(t *testing.T) {
	cs := build(t, providerBuilder, providerRun())
	if len(cs) != 1 {
		t.Fatalf("%d charts, want 1", len(cs))
	}
	want := map[string]string{"openssl": "0.9", "wolfssl": "6", "sodium": "0.8"}
	if len(cs[0].Table.Rows) != len(want) {
		t.Fatalf("rows %v", cs[0].Table.Rows)
	}
	for _, r := range cs[0].Table.Rows {
		if want[r[1]] != r[2] {
			t.Errorf("%s: ratio %s, want %s", r[1], r[2], want[r[1]])
		}
	}
	if cs := build(t, providerBuilder, benchRun()); len(cs) != 0 {
		t.Errorf("drew %d provider charts from a run with one provider per scheme", len(cs))
	}
}
