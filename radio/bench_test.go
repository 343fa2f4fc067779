package radio

import (
	"testing"
)

// BenchmarkPrice prices a 10 MB download at 10 Mbit/s (7182 segments and
// 3591 ACKs) on each technology: what a long trace costs to model.
func BenchmarkPrice(b *testing.B) {
	tr, err := SyntheticTransfer(1000, 10_000_000, 10e6, 1460)
	if err != nil {
		b.Fatal(err)
	}
	for _, link := range []string{"lte", "3g", "wifi-energybox", "ble", "802.15.4"} {
		b.Run(link, func(b *testing.B) {
			p, err := Lookup(link)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := p.Simulate(tr, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
