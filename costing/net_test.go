package costing

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast (no external tools): the shipped tables, the profiles and
// hand arithmetic.

// Net energy takes each quantity once: V·(I − I_base)·t. ECDSA P-256 on
// the TelosB, 13.17–15.87 s at 2.6–2.7 V, 1.8 mA over the 5.1 µA sleep:
// the net's low bound is 2.6 V × 1.7949 mA × 13.17 s, not the gross's
// low bound less the baseline's high one.
func TestNetEnergyBounds(t *testing.T) {
	p := &Pricer{Device: mustDevice(t, "telosb")}
	e, err := p.OpEnergy(Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign", InputBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	s := *e.Cost.Seconds
	di := 1.8e-3 - 5.1e-6
	if e.Net == nil || !near(e.Net.V, 2.65*di*s.V, 1e-12) || !near(e.Net.Lo, 2.6*di*s.Lo, 1e-12) || !near(e.Net.Hi, 2.7*di*s.Hi, 1e-12) {
		t.Errorf("net %+v, want %v (%v–%v)", e.Net, 2.65*di*s.V, 2.6*di*s.Lo, 2.7*di*s.Hi)
	}
	// A lower-bound time: the net is bounded below by the same time.
	phone := &Pricer{Device: mustDevice(t, "s001-phone"), Reference: &result.Run{}}
	e, err = phone.OpEnergy(Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign", InputBytes: 32, HostSeconds: []float64{40e-6, 40e-6, 40e-6}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Net == nil || !near(e.Net.Lo, 3.85*(182.2e-3-139.7e-3)*40e-6, 1e-9) || !math.IsInf(e.Net.Hi, 1) {
		t.Errorf("s001 net %+v, want from 3.85 V × 42.5 mA × 40 µs up", e.Net)
	}
}

// A lower-bound time ([t, ∞): the host time on S001's phone) gives a
// lifetime between the phone signing all the time (3000 mAh / 182.2 mA)
// and the one the time gives — not "0.0 hours to …".
func TestBatteryLowerBoundTime(t *testing.T) {
	d := mustDevice(t, "s001-phone")
	ref := &result.Run{Results: []result.Result{{Subject: result.Subject{Kind: "primitive", Name: "ECDSA-P256-SHA256@go/sign/32", Scheme: "ECDSA-P256-SHA256", Operation: "sign", InputBytes: 32},
		Metrics: []result.Metric{result.NewSampled("time", "s", result.Lower, result.Measured, []float64{40e-6, 40e-6, 40e-6})}}}}
	a, err := AnswerBattery(BatteryQuery{Device: d, Algo: "ECDSA-P256-SHA256", Op: "sign", Period: time.Minute, Reference: ref})
	if err != nil {
		t.Fatal(err)
	}
	q := 3000 * 3.6
	lo := q / 182.2e-3
	avg := (182.2e-3*40e-6 + 139.7e-3*(60-40e-6)) / 60
	if l := a.Life.Seconds; !near(l.Lo, lo, 1e-9) || !near(l.V, q/avg, 1e-9) || !near(l.Hi, l.V, 1e-12) {
		t.Errorf("lifetime %+v, want %v (%v–%v)", l, q/avg, lo, q/avg)
	}
	if s := a.Sentence(); strings.Contains(s, "0.0 hours") || !strings.Contains(s, "16.5 hours to 21.5 hours") {
		t.Errorf("sentence %q", s)
	}
	if sh := a.Life.EventShare; math.IsNaN(sh.Hi) || sh.Hi != 1 {
		t.Errorf("event share %+v: at most all of it", sh)
	}
	// Without a current (an energy alone) the lifetime has no low bound:
	// the answer says "at most".
	if got := lifeRange(Interval{V: 3600, Lo: 0, Hi: 3600}); got != " (at most 1.0 hours)" {
		t.Errorf("lifeRange = %q", got)
	}
}

// The battery's charge per event at one current is I·t: the voltage does
// not enter twice, and the low bound takes the shortest time in both the
// event and the sleep.
func TestBatteryChargeConsistent(t *testing.T) {
	d := mustDevice(t, "telosb")
	tOp := Span(13.17, 13.17, 15.87)
	amps := Exact(1.8e-3)
	e := Span(2.65*1.8e-3*13.17, 2.6*1.8e-3*13.17, 2.7*1.8e-3*15.87)
	l, err := Battery{Device: d, Period: 10 * time.Minute, EventJoules: e, EventSeconds: tOp, EventAmps: &amps}.Life()
	if err != nil {
		t.Fatal(err)
	}
	per := func(t float64) float64 { return (1.8e-3*t + 5.1e-6*(600-t)) / 600 }
	if !near(l.Seconds.V, 2250*3.6/per(13.17), 1e-12) || !near(l.Seconds.Lo, 2000*3.6/per(15.87), 1e-12) || !near(l.Seconds.Hi, 2500*3.6/per(13.17), 1e-12) {
		t.Errorf("lifetime %+v, want %v (%v–%v)", l.Seconds, 2250*3.6/per(13.17), 2000*3.6/per(15.87), 2500*3.6/per(13.17))
	}
}
