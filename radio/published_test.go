package radio

import (
	"testing"
)

// TestPublishedComparisons keeps the figures docs/radio.md compares with
// the literature true: the same inputs through the built-in profiles.
func TestPublishedComparisons(t *testing.T) {
	in, err := ReadFile("testdata/small-lte-transfer.json", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	small := in[0].Trace
	for _, tc := range []struct {
		link                            string
		total, promotion, tail, tailSec float64
	}{
		// Promotion 0.26 s × 1.21 W; tail 0.1 s × 1.2 W + 0.02 s × 1.122 W
		// + 10 s × 1.091 W (ARO) or 11.456 s × 1.091 W (Huang's 11.576 s).
		{"lte-aro", 11.429417, 0.3146, 11.05244, 10.12},
		{"lte-huang2012", 13.031119, 0.3146, 12.64974, 11.576},
	} {
		b := simulate(t, tc.link, small, Options{})
		near(t, tc.link+" total", roundTo(b.Total(), 1e-6), tc.total)
		near(t, tc.link+" promotion", b.Energy(Promotion), tc.promotion)
		near(t, tc.link+" tail", b.Energy(Tail), tc.tail)
		near(t, tc.link+" tail time", b.Time(Tail).Seconds(), tc.tailSec)
	}
	// S000's background (Balasubramanian et al.): a 50 KB transfer's 3G
	// tail is about 60 % of its energy. ARO's profile: 85 % at 1 Mbit/s,
	// 65 % at 100 kbit/s; the tail itself is 7.7 J (theirs 0.62 W × 12.5 s
	// = 7.75 J).
	for _, tc := range []struct {
		rate  float64
		share float64
	}{{1e6, 84.981999}, {100e3, 65.434882}} {
		tr, err := SyntheticTransfer(1024, 50*1024, tc.rate, 1460)
		if err != nil {
			t.Fatal(err)
		}
		b := simulate(t, "3g", tr, Options{})
		near(t, "3G tail share", roundTo(100*b.Energy(Tail)/b.Total(), 1e-6), tc.share)
		near(t, "3G tail", b.Energy(Tail), 7.7)
	}
	// S000's RSA handshake: 3G against WLAN, alone and ten in a row.
	in, err = ReadFile("testdata/s000-rsa-handshake.json", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hs := in[0].Trace
	near(t, "3G handshake", roundTo(simulate(t, "3g", hs, Options{}).Total(), 1e-6), 8.77204)
	near(t, "WLAN handshake", roundTo(simulate(t, "wifi", hs, Options{}).Total(), 1e-7), 0.1076816)
	rep, err := Repeat(hs, 10, 2e9)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "3G ten handshakes", roundTo(simulate(t, "3g", rep, Options{Until: 20e9}).Total(), 1e-5), 21.37204)
	near(t, "WLAN ten handshakes", roundTo(simulate(t, "wifi", rep, Options{Until: 20e9}).Total(), 1e-6), 1.423376)
}

// roundTo rounds x to a multiple of unit, as the docs print it.
func roundTo(x, unit float64) float64 {
	n := x / unit
	if n < 0 {
		return -float64(int64(-n+0.5)) * unit
	}
	return float64(int64(n+0.5)) * unit
}
