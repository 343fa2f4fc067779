package radio

import (
	"math"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// pkt builds a packet at ms milliseconds.
func pkt(ms float64, dir result.Direction, bytes int) result.Packet {
	return result.Packet{TimeNs: int64(math.Round(ms * 1e6)), Dir: dir, Bytes: bytes}
}

func trace(ps ...result.Packet) *result.Trace { return &result.Trace{Packets: ps} }

const (
	up   = result.Up
	down = result.Down
)

func simulate(t *testing.T, profile string, tr *result.Trace, opt Options) *Breakdown {
	t.Helper()
	p, err := Lookup(profile)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Simulate(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, b)
	return b
}

// checkTimeline asserts the invariants every breakdown keeps: segments in
// order without gaps from Start to End, energies ≥ 0, and phase energies
// summing to the total.
func checkTimeline(t *testing.T, b *Breakdown) {
	t.Helper()
	now := b.Start
	for i, s := range b.Segments {
		if s.Start != now || s.End < s.Start {
			t.Fatalf("segment %d %+v: want it to start at %v", i, s, now)
		}
		if s.EnergyJ < 0 {
			t.Fatalf("segment %d %+v: negative energy", i, s)
		}
		now = s.End
	}
	if now != b.End {
		t.Fatalf("segments end at %v, breakdown at %v", now, b.End)
	}
	var sum float64
	var dur time.Duration
	for _, p := range Phases {
		sum += b.Energy(p)
		dur += b.Time(p)
	}
	near(t, "phases sum to total", sum, b.Total())
	if dur != b.End-b.Start {
		t.Fatalf("phase times sum to %v, timeline lasts %v", dur, b.End-b.Start)
	}
}

// near fails unless got is within 1e-9 relative (or 1e-12 absolute) of want.
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Abs(want)+1e-12 {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// phases checks the energy (J) and time of each phase of b.
func phases(t *testing.T, b *Breakdown, energy [4]float64, times [4]time.Duration) {
	t.Helper()
	for i, p := range Phases {
		near(t, "energy "+string(p), b.Energy(p), energy[i])
		if got := b.Time(p); got != times[i] {
			t.Errorf("time %s = %v, want %v", p, got, times[i])
		}
	}
}

func ms(x float64) time.Duration { return time.Duration(math.Round(x * 1e6)) }
