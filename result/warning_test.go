package result

import "testing"

// Tier: fast. A table footnote keeps a "not priced" reason whole (bench
// --device printed it cut at its last ": ", losing what would price it);
// other warnings still share one footnote per kind.
func TestWarningKindKeepsNotPricedWhole(t *testing.T) {
	long := "not priced: SHA-256 hash on telosb: measured on the device: the run was made elsewhere; what would price it: a simulated target for its CPU (simulation: in the profile)"
	if got := warningKind(long); got != long {
		t.Errorf("warningKind cut a not-priced reason to %q", got)
	}
	if got := warningKind("clock drift: 3.2%"); got != "clock drift" {
		t.Errorf("warningKind(value warning) = %q, want its kind", got)
	}
}
