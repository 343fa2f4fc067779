package radio

import (
	"testing"
	"time"
)

// ARO's LTE numbers (lte-aro.yaml), for hand computation.
const (
	lteProW   = 1.21 // promotion power
	lteProS   = 0.26 // promotion time
	lteBeta   = 1.2  // continuous reception base power and CR tail power
	lteAlphaU = 438.39e-9
	lteAlphaD = 51.97e-9
	// DRX averages: (on·1.68 W + (cycle−on)·1.06 W)/cycle with on 2 ms.
	lteShortW = (0.002*1.68 + 0.018*1.06) / 0.02 // 1.122 W
	lteLongW  = (0.002*1.68 + 0.038*1.06) / 0.04 // 1.091 W
	lteIdleW  = 0.043 * 0.594 / 1.28             // paging: 43 ms at 0.594 W every 1.28 s
	lteTailJ  = 0.1*lteBeta + 0.02*lteShortW + 10*lteLongW
)

var lteTail = ms(100 + 20 + 10000)

func TestLTEOnePacket(t *testing.T) {
	b := simulate(t, "lte", trace(pkt(0, up, 100)), Options{})
	phases(t, b,
		[4]float64{lteProS * lteProW, 800 * lteAlphaU, lteTailJ, 0},
		[4]time.Duration{ms(260), 0, lteTail, 0})
	if b.Promotions != 1 || b.DelayAdded != ms(260) || b.End != ms(260)+lteTail {
		t.Errorf("promotions %d, delay %v, end %v", b.Promotions, b.DelayAdded, b.End)
	}
	// The DRX averages themselves, by hand: 1.122 W and 1.091 W.
	near(t, "short DRX", lteShortW, 1.122)
	near(t, "long DRX", lteLongW, 1.091)
}

func TestLTEInactivityTimerEdge(t *testing.T) {
	// 50 ms and exactly 100 ms apart: one burst of continuous reception.
	for _, gap := range []float64{50, 100} {
		b := simulate(t, "lte", trace(pkt(0, up, 100), pkt(gap, down, 1000)), Options{})
		phases(t, b,
			[4]float64{lteProS * lteProW, gap/1000*lteBeta + 800*lteAlphaU + 8000*lteAlphaD, lteTailJ, 0},
			[4]time.Duration{ms(260), ms(gap), lteTail, 0})
	}
	// 1 ns over the timer: the second packet comes in the CR tail.
	b := simulate(t, "lte", trace(pkt(0, up, 100), pkt(100.000001, down, 1000)), Options{})
	if got := b.Time(Transfer); got != 0 {
		t.Errorf("gap just over the inactivity timer: transfer time %v, want 0", got)
	}
	near(t, "tail", b.Energy(Tail), 0.1*lteBeta+1e-9*lteShortW+lteTailJ)
}

func TestLTEInactivityTimerEdgeBits(t *testing.T) {
	b := simulate(t, "lte", trace(pkt(0, up, 100), pkt(50, down, 1000)), Options{})
	near(t, "transfer", b.Energy(Transfer), 0.05*lteBeta+800*lteAlphaU+8000*lteAlphaD)
}

func TestLTEPacketInShortDRX(t *testing.T) {
	// 110 ms after the first: CR tail 100 ms, short DRX 10 ms, then
	// continuous reception again without a promotion.
	b := simulate(t, "lte", trace(pkt(0, up, 100), pkt(110, up, 100)), Options{})
	if b.Promotions != 1 {
		t.Errorf("promotions = %d, want 1", b.Promotions)
	}
	phases(t, b,
		[4]float64{lteProS * lteProW, 1600 * lteAlphaU, 0.1*lteBeta + 0.01*lteShortW + lteTailJ, 0},
		[4]time.Duration{ms(260), 0, ms(110) + lteTail, 0})
}

func TestLTEPacketInLongDRX(t *testing.T) {
	b := simulate(t, "lte", trace(pkt(0, up, 100), pkt(5000, up, 100)), Options{})
	if b.Promotions != 1 {
		t.Errorf("promotions = %d, want 1", b.Promotions)
	}
	near(t, "tail", b.Energy(Tail), 0.1*lteBeta+0.02*lteShortW+4.88*lteLongW+lteTailJ)
}

func TestLTEPacketAtAndAfterTailEnd(t *testing.T) {
	// At the last instant of the tail: no promotion.
	b := simulate(t, "lte", trace(pkt(0, up, 100), pkt(10120, up, 100)), Options{})
	if b.Promotions != 1 {
		t.Errorf("packet at the tail's end: promotions = %d, want 1", b.Promotions)
	}
	// 20 s later: full tail, 9.88 s idle with paging, a second promotion
	// that delays the second packet too.
	b = simulate(t, "lte", trace(pkt(0, up, 100), pkt(20000, up, 100)), Options{})
	phases(t, b,
		[4]float64{2 * lteProS * lteProW, 1600 * lteAlphaU, 2 * lteTailJ, 9.88 * lteIdleW},
		[4]time.Duration{ms(520), 0, 2 * lteTail, ms(9880)})
	if b.Promotions != 2 || b.DelayAdded != ms(520) {
		t.Errorf("promotions %d, delay %v", b.Promotions, b.DelayAdded)
	}
}

func TestLTEUntilAddsIdle(t *testing.T) {
	b := simulate(t, "lte", trace(pkt(0, up, 100)), Options{Until: 60 * time.Second})
	near(t, "idle", b.Energy(Idle), (60-10.38)*lteIdleW)
	if b.End != 60*time.Second {
		t.Errorf("end %v", b.End)
	}
}

func TestLTEHuangTail(t *testing.T) {
	b := simulate(t, "lte-huang2012", trace(pkt(0, up, 100)), Options{})
	if got := b.Time(Tail); got != ms(11576) {
		t.Errorf("Huang tail = %v, want 11.576 s", got)
	}
}

func TestLTEWindows(t *testing.T) {
	// A 1.2 s burst (a packet every 100 ms) is three windows of continuous
	// reception (0.5, 0.5, 0.2 s); summed they cost β·1.2 s plus the bits
	// whatever the window.
	ps := trace()
	for i := range 13 {
		ps.Packets = append(ps.Packets, pkt(float64(100*i), down, 1000))
	}
	b := simulate(t, "lte", ps, Options{})
	near(t, "transfer", b.Energy(Transfer), 1.2*lteBeta+13*8000*lteAlphaD)
	n := 0
	for _, s := range b.Segments {
		if s.State == "CONTINUOUS_RECEPTION" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d continuous-reception windows, want 3", n)
	}
}
