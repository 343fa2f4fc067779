package radio

import (
	"testing"
	"time"
)

// ARO's 3G numbers (umts-aro.yaml), for hand computation.
const (
	umtsDCHW     = 0.7
	umtsFACHW    = 0.35
	umtsIdleDCHJ = 2.0 * 0.53 // IDLE→DCH: 2 s at 0.53 W
	umtsFACHDCHJ = 1.5 * 0.55 // FACH→DCH: 1.5 s at 0.55 W
	umtsTailJ    = 5*umtsDCHW + 12*umtsFACHW
)

var umtsTail = 17 * time.Second

func TestUMTSOnePacket(t *testing.T) {
	b := simulate(t, "3g", trace(pkt(0, up, 100)), Options{})
	phases(t, b, [4]float64{umtsIdleDCHJ, 0, umtsTailJ, 0}, [4]time.Duration{2 * time.Second, 0, umtsTail, 0})
	if b.End != 19*time.Second || b.DelayAdded != 2*time.Second || b.Promotions != 1 {
		t.Errorf("end %v, delay %v, promotions %d", b.End, b.DelayAdded, b.Promotions)
	}
	// S000's background: the tail is most of a small transfer's energy.
	if share := b.Energy(Tail) / b.Total(); share < 0.85 {
		t.Errorf("tail share %.2f", share)
	}
}

func TestUMTSTimers(t *testing.T) {
	for _, tc := range []struct {
		name       string
		gapMs      float64
		bytes      int
		energy     [4]float64
		times      [4]time.Duration
		promotions int
	}{
		{"inside T1: DCH carries on", 3000, 100,
			[4]float64{umtsIdleDCHJ, 3 * umtsDCHW, umtsTailJ, 0},
			[4]time.Duration{2 * time.Second, 3 * time.Second, umtsTail, 0}, 1},
		{"exactly T1", 5000, 100,
			[4]float64{umtsIdleDCHJ, 5 * umtsDCHW, umtsTailJ, 0},
			[4]time.Duration{2 * time.Second, 5 * time.Second, umtsTail, 0}, 1},
		{"1 ms past T1: a small packet in FACH stays there", 5001, 100,
			[4]float64{umtsIdleDCHJ, 0, 5*umtsDCHW + 0.001*umtsFACHW + 12*umtsFACHW, 0},
			[4]time.Duration{2 * time.Second, 0, ms(5001) + 12*time.Second, 0}, 1},
		{"in FACH, a packet above the RLC threshold promotes to DCH", 10000, 1000,
			[4]float64{umtsIdleDCHJ + umtsFACHDCHJ, 0, 5*umtsDCHW + 5*umtsFACHW + umtsTailJ, 0},
			[4]time.Duration{3500 * time.Millisecond, 0, 10*time.Second + umtsTail, 0}, 2},
		{"exactly T1+T2: still FACH", 17000, 100,
			[4]float64{umtsIdleDCHJ, 0, umtsTailJ + 12*umtsFACHW, 0},
			[4]time.Duration{2 * time.Second, 0, umtsTail + 12*time.Second, 0}, 1},
		{"past T1+T2: idle, then IDLE→DCH again", 18000, 100,
			[4]float64{2 * umtsIdleDCHJ, 0, 2 * umtsTailJ, 0},
			[4]time.Duration{4 * time.Second, 0, 2 * umtsTail, time.Second}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := simulate(t, "umts-aro", trace(pkt(0, up, 100), pkt(tc.gapMs, up, tc.bytes)), Options{})
			phases(t, b, tc.energy, tc.times)
			if b.Promotions != tc.promotions {
				t.Errorf("promotions %d, want %d", b.Promotions, tc.promotions)
			}
		})
	}
}

func TestUMTSRLCBufferFillsAndDrains(t *testing.T) {
	// Into FACH at 6 s (1 s after the DCH tail), then two 300-byte uplink
	// packets. The uplink buffer of 300 B drains in 20 + 1.6·300 +
	// 0.0014·300² = 626 ms (ARO's polynomial): 100 ms later it still holds
	// 300 B, the second packet makes 600 > 543 B and promotes to DCH; 700 ms
	// later it has drained and the second packet stays in FACH.
	for _, tc := range []struct {
		gapMs      float64
		promotions int
	}{{100, 2}, {626, 2}, {627, 1}, {700, 1}} {
		b := simulate(t, "umts-aro", trace(pkt(0, up, 40), pkt(6000, up, 300), pkt(6000+tc.gapMs, up, 300)), Options{})
		if b.Promotions != tc.promotions {
			t.Errorf("second packet %v ms later: %d promotions, want %d", tc.gapMs, b.Promotions, tc.promotions)
		}
	}
	// Directions have separate buffers: 300 B up then 300 B down (475 B
	// downlink threshold) stays in FACH.
	b := simulate(t, "umts-aro", trace(pkt(0, up, 40), pkt(6000, up, 300), pkt(6100, down, 300)), Options{})
	if b.Promotions != 1 {
		t.Errorf("up then down: %d promotions, want 1", b.Promotions)
	}
}

func TestUMTSPromotionDuringUpload(t *testing.T) {
	// Ten 1000-byte segments 10 ms apart from idle: the first starts the
	// IDLE→DCH promotion and the upload waits 2 s for it; the rest of the
	// upload keeps its pace in DCH.
	tr := trace()
	for i := range 10 {
		tr.Packets = append(tr.Packets, pkt(float64(10*i), up, 1000))
	}
	b := simulate(t, "umts-aro", tr, Options{})
	phases(t, b, [4]float64{umtsIdleDCHJ, 0.09 * umtsDCHW, umtsTailJ, 0},
		[4]time.Duration{2 * time.Second, ms(90), umtsTail, 0})
	if b.DelayAdded != 2*time.Second {
		t.Errorf("delay %v", b.DelayAdded)
	}

	// EnergyBox: a 500-byte first segment is small enough for IDLE→FACH
	// (≤ 1000 B); the second pushes the FACH uplink buffer past 294 B, so
	// FACH→DCH follows during the upload: two promotions, 0.43 + 0.65 s.
	b = simulate(t, "umts-energybox", trace(pkt(0, up, 500), pkt(10, up, 500), pkt(20, up, 500)), Options{})
	if b.Promotions != 2 || b.DelayAdded != ms(1080) {
		t.Errorf("EnergyBox: %d promotions, delay %v; want 2 and 1.08 s", b.Promotions, b.DelayAdded)
	}
	near(t, "EnergyBox promotion", b.Energy(Promotion), (0.43+0.65)*0.45)
	var states []string
	for _, s := range b.Segments {
		states = append(states, s.State)
	}
	want := []string{"PROMO_IDLE_FACH", "FACH", "PROMO_FACH_DCH", "DCH", "DCH", "FACH"}
	if len(states) != len(want) {
		t.Fatalf("states %v, want %v", states, want)
	}
	for i := range want {
		if states[i] != want[i] {
			t.Fatalf("states %v, want %v", states, want)
		}
	}
}

func TestUMTSIdleToFACHThreshold(t *testing.T) {
	// EnergyBox: ≤ 1000 B up goes IDLE→FACH, 1001 B IDLE→DCH.
	b := simulate(t, "umts-energybox", trace(pkt(0, up, 1000)), Options{})
	near(t, "IDLE→FACH then FACH tail", b.Total(), 0.43*0.45+5.6*0.45)
	b = simulate(t, "umts-energybox", trace(pkt(0, up, 1001)), Options{})
	near(t, "IDLE→DCH then DCH and FACH tails", b.Total(), 1.7*0.45+4.1*0.6+5.6*0.45)
}
