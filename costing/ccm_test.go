package costing

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast (no external tools): the shipped tables, the profiles and
// hand arithmetic.

// The TelosB's CC2420 radio encrypts an AES-128 block in 14 µs (CC2420-DS
// §21.8 Table 8): a CCM of n bytes is its block count of those, B0 + one
// or two blocks of associated data + 2⌈n/16⌉ + 1 — 40 bytes: 9 to 10
// blocks, 126–140 µs, estimated; 1 byte: 5 to 6. The block figure prices 16 bytes only.
func TestCCMOnTheCC2420(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "telosb")}
	c, err := p.Resolve(Op{Scheme: "AES-128-CCM-8", Operation: "seal", InputBytes: 40})
	if err != nil {
		t.Fatal(err)
	}
	if c.Label != result.Estimated || !near(c.Seconds.V, 9*14e-6, 1e-12) || !near(c.Seconds.Lo, 9*14e-6, 1e-12) || !near(c.Seconds.Hi, 10*14e-6, 1e-12) ||
		!strings.Contains(c.Method, "CC2420") {
		t.Errorf("CCM-8 seal of 40 B on telosb: %s %+v %q", c.Label, c.Seconds, c.Method)
	}
	if c, err := p.Resolve(Op{Scheme: "AES-128-CCM-8", Operation: "open", InputBytes: 1}); err != nil || !near(c.Seconds.V, 5*14e-6, 1e-12) {
		t.Errorf("CCM-8 open of 1 B: %+v %v", c.Seconds, err)
	}
	if c, err := p.Resolve(Op{Scheme: "AES-128", Operation: "encrypt-ecb", InputBytes: 1024}); err == nil {
		t.Errorf("the 16-byte block's figure priced 1 KiB: %+v", c)
	}
}
