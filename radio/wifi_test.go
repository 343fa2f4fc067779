package radio

import (
	"testing"
	"time"
)

func TestWiFiPSMThreshold(t *testing.T) {
	const cam, psm = 0.403, 0.02 // ARO active and standby
	for _, tc := range []struct {
		name   string
		gapMs  float64
		energy [4]float64
		times  [4]time.Duration
	}{
		{"inside the 250 ms threshold", 200,
			[4]float64{0, 0.2 * cam, 2 * 0.25 * cam / 2, 0}, [4]time.Duration{0, ms(200), ms(250), 0}},
		{"exactly the threshold", 250,
			[4]float64{0, 0.25 * cam, 0.25 * cam, 0}, [4]time.Duration{0, ms(250), ms(250), 0}},
		{"past it: tail, PSM, CAM again", 300,
			[4]float64{0, 0, 2 * 0.25 * cam, 0.05 * psm}, [4]time.Duration{0, 0, ms(500), ms(50)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := simulate(t, "wifi", trace(pkt(0, up, 100), pkt(tc.gapMs, down, 1000)), Options{})
			phases(t, b, tc.energy, tc.times)
		})
	}
}

func TestWiFiEnergyBoxCAMHigh(t *testing.T) {
	// Ten 1000-byte packets 5 ms apart in the first 50 ms window: 10000 B
	// > 3000 B, so the 45 ms burst is CAM-high (0.45 W); then the 200 ms
	// tail in CAM (0.25 W).
	tr := trace()
	for i := range 10 {
		tr.Packets = append(tr.Packets, pkt(float64(5*i), down, 1000))
	}
	b := simulate(t, "wifi-energybox", tr, Options{})
	phases(t, b, [4]float64{0, 0.045 * 0.45, 0.2 * 0.25, 0}, [4]time.Duration{0, ms(45), ms(200), 0})
	// Three packets (3000 B, not above the threshold): plain CAM.
	b = simulate(t, "wifi-energybox", trace(pkt(0, down, 1000), pkt(5, down, 1000), pkt(10, down, 1000)), Options{})
	near(t, "CAM transfer", b.Energy(Transfer), 0.01*0.25)
	// The burst crossing a window boundary: window 0 (0–50 ms) holds 4000 B
	// and is high, window 1 (50–60 ms) 2000 B and is not.
	b = simulate(t, "wifi-energybox", trace(pkt(0, down, 1000), pkt(20, down, 1000), pkt(40, down, 1000), pkt(45, down, 1000),
		pkt(55, down, 1000), pkt(60, down, 1000)), Options{})
	near(t, "split transfer", b.Energy(Transfer), 0.05*0.45+0.01*0.25)
}

func TestWiFiHuangBeaconsPromotionAndRate(t *testing.T) {
	beaconW := 0.002 * 0.0772 / 0.3082 // 2 ms at 77.2 mW every 308.2 ms
	b := simulate(t, "wifi-huang2012", trace(pkt(0, up, 1000), pkt(100, down, 10000)), Options{Until: 10 * time.Second})
	near(t, "promotion", b.Energy(Promotion), 0.0791*0.1244)
	near(t, "transfer", b.Energy(Transfer), 0.1*0.13286+8000*283.17e-9+80000*137.01e-9)
	near(t, "tail", b.Energy(Tail), 0.2381*0.1193)
	near(t, "idle", b.Energy(Idle), (10-0.0791-0.1-0.2381)*beaconW)
}

func TestWiFiAssociation(t *testing.T) {
	b := simulate(t, "wifi", trace(pkt(0, up, 100)), Options{Associate: true})
	near(t, "promotion with scan+association", b.Energy(Promotion), 5.9)
	b = simulate(t, "wifi", trace(pkt(0, up, 100)), Options{})
	near(t, "no association asked", b.Energy(Promotion), 0)
}

// TestBREDRSniffTimeout (fast tier): packets within the 5 s sniff timeout
// are one ACTIVE burst at the CC256x's 40.5 mA; the tail lasts the timeout
// at the tail current; a gap beyond it returns the link to SNIFF.
func TestBREDRSniffTimeout(t *testing.T) {
	const volts, active, tailA, sniff = 3.6, 40.5e-3, 40.5e-3, 0.2e-3
	b := simulate(t, "bluetooth-bredr", trace(pkt(0, up, 100), pkt(1000, down, 1000)), Options{})
	phases(t, b, [4]float64{0, 1 * volts * active, 5 * volts * tailA, 0}, [4]time.Duration{0, ms(1000), ms(5000), 0})
	b = simulate(t, "bredr-cc256x", trace(pkt(0, up, 100), pkt(7000, down, 1000)), Options{})
	phases(t, b, [4]float64{0, 0, 2 * 5 * volts * tailA, 2 * volts * sniff}, [4]time.Duration{0, 0, ms(10000), ms(2000)})
}
