package measure

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/stats"
)

// synthClock is a clock whose time moves only when read (by readCost: a
// clock read costs time) and when a synthetic operation runs. It makes the
// engine's arithmetic testable exactly, with no dependence on this
// machine's speed.
type synthClock struct {
	t        int64
	readCost int64
	cpu      bool
}

func (c *synthClock) Now() int64 { c.t += c.readCost; return c.t }
func (c *synthClock) ThreadCPU() (int64, bool) {
	return c.t, c.cpu // the synthetic operation is all CPU
}
func (c *synthClock) Name() string { return "synthetic" }

// synthOp costs costNs per operation, times a per-sample noise factor drawn
// by noise (nil: none).
func synthOp(c *synthClock, costNs float64, noise func() float64) Target {
	return Target{Run: func(n int) error {
		f := 1.0
		if noise != nil {
			f = noise()
		}
		c.t += int64(math.Round(float64(n) * costNs * f))
		return nil
	}}
}

func newSynth(cfg Config) (*Engine, *synthClock) {
	c := &synthClock{readCost: 20, cpu: true}
	cfg.Clock = c
	cfg.SkipAllocs = true
	return New(cfg), c
}

func TestCalibrationKeepsOverheadBelowOnePercent(t *testing.T) {
	e, c := newSynth(Config{MinSampleTime: time.Microsecond}) // asks for less than the floor
	obs, err := e.Measure(context.Background(), synthOp(c, 3, nil))
	if err != nil {
		t.Fatal(err)
	}
	if e.Timer().ResolutionNs != 20 || e.Timer().OverheadNs != 20 {
		t.Errorf("calibration = %+v, want resolution 20 and overhead 20 (one clock read)", e.Timer())
	}
	floor := 100 * (e.Timer().ResolutionNs + e.Timer().OverheadNs)
	if obs.MinSampleNs < floor {
		t.Errorf("MinSampleNs = %v, below the 1%% floor %v", obs.MinSampleNs, floor)
	}
	if got := float64(obs.Batch) * 3; got < floor {
		t.Errorf("batch %d × 3 ns = %v ns per sample, below the floor %v", obs.Batch, got, floor)
	}
}

// TestRecoversKnownCost: a 1 µs operation measured with a 20 ns clock read
// comes out at 1 µs to within the overhead / batch, with a converged stop.
func TestRecoversKnownCost(t *testing.T) {
	e, c := newSynth(Config{})
	obs, err := e.Measure(context.Background(), synthOp(c, 1000, nil))
	if err != nil {
		t.Fatal(err)
	}
	if obs.Stop != StopConverged {
		t.Errorf("stop = %s, want converged", obs.Stop)
	}
	if len(obs.NsPerOp) != 10 {
		t.Errorf("%d samples; a noiseless op should converge at the minimum of 10", len(obs.NsPerOp))
	}
	if d := math.Abs(obs.Summary.Median-1000) / 1000; d > 0.001 {
		t.Errorf("median %v ns, want 1000 ± 0.1%%", obs.Summary.Median)
	}
	if obs.CPUNsPerOp == nil || math.Abs(obs.CPUNsPerOp[0]-1000) > 1 {
		t.Errorf("cpu ns/op = %v, want ≈1000", obs.CPUNsPerOp)
	}
	if obs.WarmupOps == 0 {
		t.Error("no warm-up")
	}
}

// TestRecoversMedianUnderHeavyTailedNoise: per-sample noise lognormal
// (σ = 0.02) plus 10 % of samples slowed 3× by "interference". The median is
// recovered, the outliers do not move it, and the 95 % CI covers the truth
// about 95 % of the time (a 95 % interval misses 1 run in 20 on average).
func TestRecoversMedianUnderHeavyTailedNoise(t *testing.T) {
	const runs = 40
	misses := 0
	for seed := uint64(1); seed <= runs; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		noise := func() float64 {
			f := math.Exp(0.02 * r.NormFloat64())
			if r.Float64() < 0.10 {
				f *= 3
			}
			return f
		}
		e, c := newSynth(Config{})
		obs, err := e.Measure(context.Background(), synthOp(c, 500, noise))
		if err != nil {
			t.Fatal(err)
		}
		// The true median of the per-op time is 500 × median(f); with 10 %
		// outliers the median of f is the 55.6th percentile of the
		// lognormal: exp(0.02 × 0.14) ≈ 1.0028.
		want := 500 * math.Exp(0.02*0.1397)
		if obs.Summary.CILow > want || obs.Summary.CIHigh < want {
			misses++
		}
		if d := math.Abs(obs.Summary.Median-want) / want; d > 0.02 {
			t.Errorf("seed %d: median %.1f, want %.1f ± 2%%", seed, obs.Summary.Median, want)
		}
		if obs.Stop != StopConverged {
			t.Errorf("seed %d: stop = %s after %d samples, want converged", seed, obs.Stop, len(obs.NsPerOp))
		}
	}
	// Binomial(40, 0.05): P(misses > 6) < 1 %.
	if misses > 6 {
		t.Errorf("the CI missed the true median in %d of %d runs, want about 2", misses, runs)
	}
}

// TestBudgetStopsNoisyPoint: noise too wide for ±2 % ends on the budget,
// after at least MinSamples, and says so.
func TestBudgetStopsNoisyPoint(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	e, c := newSynth(Config{Budget: 200 * time.Millisecond})
	obs, err := e.Measure(context.Background(), synthOp(c, 1000, func() float64 { return math.Exp(r.NormFloat64()) }))
	if err != nil {
		t.Fatal(err)
	}
	if obs.Stop != StopBudget {
		t.Errorf("stop = %s, want budget", obs.Stop)
	}
	if len(obs.NsPerOp) < 10 {
		t.Errorf("%d samples, want at least 10", len(obs.NsPerOp))
	}
	// The budget is honoured to within one sample past the deadline
	// (a lognormal sample can be several times the mean).
	if obs.ElapsedNs > float64(400*time.Millisecond) {
		t.Errorf("point took %v of a 200ms budget", time.Duration(obs.ElapsedNs))
	}
}

// TestMinSamplesTakenPastBudget: a slow operation (100 ms, like RSA-4096
// key generation) still gets MinSamples samples of one op each.
func TestMinSamplesTakenPastBudget(t *testing.T) {
	e, c := newSynth(Config{Budget: 50 * time.Millisecond})
	obs, err := e.Measure(context.Background(), synthOp(c, 100e6, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.NsPerOp) != 10 || obs.Batch != 1 {
		t.Errorf("%d samples of batch %d, want 10 of 1", len(obs.NsPerOp), obs.Batch)
	}
}

func TestMaxSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	e, c := newSynth(Config{MaxSamples: 25, Budget: time.Hour})
	obs, _ := e.Measure(context.Background(), synthOp(c, 1000, func() float64 { return math.Exp(r.NormFloat64()) }))
	if obs.Stop != StopMaxSamples || len(obs.NsPerOp) != 25 {
		t.Errorf("stop %s after %d samples, want max-samples after 25", obs.Stop, len(obs.NsPerOp))
	}
}

// TestInterruptKeepsSamples: cancelling mid-run returns what was measured.
func TestInterruptKeepsSamples(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e, c := newSynth(Config{Warmup: time.Nanosecond})
	runs := 0
	r := rand.New(rand.NewPCG(1, 1))
	op := Target{Run: func(n int) error {
		runs++
		if runs == 12 { // calibration takes 3 or 4 runs
			cancel()
		}
		c.t += int64(n) * int64(1000*math.Exp(0.5*r.NormFloat64()))
		return nil
	}}
	obs, err := e.Measure(ctx, op)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if obs == nil || obs.Stop != StopInterrupted || len(obs.NsPerOp) == 0 {
		t.Fatalf("observation %+v, want the samples taken before the interrupt", obs)
	}
}

func TestRunErrorStopsPoint(t *testing.T) {
	e, _ := newSynth(Config{})
	boom := errors.New("decryption failed")
	_, err := e.Measure(context.Background(), Target{Run: func(int) error { return boom }})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the operation's error", err)
	}
}

func TestSeed002Design(t *testing.T) {
	e, c := newSynth(Config{})
	var prepared []int
	obs, total, err := Seed002{Keys: 10, Repetitions: 10}.Measure(context.Background(), e, func(k int) (Target, error) {
		prepared = append(prepared, k)
		return synthOp(c, float64(100*(k+1)), nil), nil // key k costs 100(k+1) ns
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(prepared) != 10 || prepared[9] != 9 {
		t.Errorf("prepared %v, want keys 0..9", prepared)
	}
	// Sum over k of 10 reps × 100(k+1) ns = 1000 × 55 = 55 µs, plus one
	// clock read (20 ns) per block.
	if want := 55000.0 + 10*20; total != want {
		t.Errorf("total %v ns, want %v", total, want)
	}
	if obs.Stop != StopFixed || len(obs.NsPerOp) != 10 || obs.Batch != 10 {
		t.Errorf("observation %+v", obs)
	}
}

func TestNextBatch(t *testing.T) {
	for _, tc := range []struct {
		n      int
		d      int64
		target float64
		want   int
	}{
		{1, 0, 1e6, 100},        // unmeasurably fast: grow 100×
		{1, 1000, 1e6, 100},     // capped at 100×
		{100, 500000, 1e6, 240}, // 1.2 × 1e6 / 5000 per op
		{10, 9999999, 1e6, 11},  // at least one more
	} {
		if got := nextBatch(tc.n, tc.d, tc.target); got != tc.want {
			t.Errorf("nextBatch(%d, %d, %g) = %d, want %d", tc.n, tc.d, tc.target, got, tc.want)
		}
	}
}

func TestClockEstimate(t *testing.T) {
	c := ClockEstimate{MHz: 2000, Source: "test"}
	if got := c.Cycles(10); got != 20 {
		t.Errorf("10 ns at 2 GHz = %v cycles, want 20", got)
	}
}

// TestSessionsInterleave: two points measured in alternating visits, as the
// bench runner does. Neither converges before MinVisits visits, and each
// point's samples reflect its own cost.
func TestSessionsInterleave(t *testing.T) {
	e, c := newSynth(Config{MinVisits: 3, MinSampleTime: time.Millisecond, Warmup: time.Millisecond})
	ctx := context.Background()
	a, err := e.Start(ctx, synthOp(c, 100, nil))
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Start(ctx, synthOp(c, 3000, nil))
	if err != nil {
		t.Fatal(err)
	}
	visits := 0
	for !a.Done() || !b.Done() {
		for _, s := range []*Session{a, b} {
			if _, err := s.Visit(ctx, 15*time.Millisecond); err != nil {
				t.Fatal(err)
			}
		}
		visits++
		if visits > 10 {
			t.Fatal("no convergence after 10 rounds")
		}
	}
	for _, tc := range []struct {
		s    *Session
		cost float64
	}{{a, 100}, {b, 3000}} {
		obs := tc.s.Observation()
		if obs.Stop != StopConverged || obs.Visits < 3 {
			t.Errorf("cost %v: stop %s after %d visits, want converged after ≥ 3", tc.cost, obs.Stop, obs.Visits)
		}
		if d := math.Abs(obs.Summary.Median-tc.cost) / tc.cost; d > 0.001 {
			t.Errorf("cost %v: median %v", tc.cost, obs.Summary.Median)
		}
		if obs.ElapsedNs < 2*15e6 { // two whole visits, and part of the third
			t.Errorf("cost %v: elapsed %v ns over %d visits of 15 ms", tc.cost, obs.ElapsedNs, obs.Visits)
		}
	}
}

// TestSessionBudgetAcrossVisits: the budget counts the time of all visits.
func TestSessionBudgetAcrossVisits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	e, c := newSynth(Config{Budget: 100 * time.Millisecond, MinSampleTime: time.Millisecond, Warmup: time.Millisecond})
	s, err := e.Start(context.Background(), synthOp(c, 1000, func() float64 { return math.Exp(r.NormFloat64()) }))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !s.Done(); i++ {
		if i > 100 {
			t.Fatal("budget never ended the session")
		}
		s.Visit(context.Background(), 10*time.Millisecond)
	}
	if obs := s.Observation(); obs.Stop != StopBudget || obs.Visits < 5 {
		t.Errorf("stop %s after %d visits, want budget after several", obs.Stop, obs.Visits)
	}
}

// TestReferenceUsesTheClock: the probe is three timings of the workload and
// reports the fastest (a synthetic clock advances only by its reads here,
// so the fastest timing is one read's cost).
func TestReferenceUsesTheClock(t *testing.T) {
	c := &synthClock{readCost: 20}
	if got, cpu := Reference(c); got != 20 || cpu != 0 {
		t.Errorf("Reference = %v, %v; want 20 (one clock read) and no CPU time (this clock has none)", got, cpu)
	}
}

// busyClock is a machine shared with other work: an operation costs its
// CPU time on the thread's CPU clock, but the wall clock also counts the
// time the thread waited for a core — a random share of each batch, as a
// loaded scheduler gives.
type busyClock struct {
	wall, cpu int64
	switches  int64
	counts    bool // SwitchCounter's answer: whether it can count
}

func (c *busyClock) ContextSwitches() (int64, bool) { return c.switches, c.counts }

func (c *busyClock) Now() int64               { c.wall += 20; return c.wall }
func (c *busyClock) ThreadCPU() (int64, bool) { return c.cpu, true }
func (c *busyClock) Name() string             { return "synthetic, busy" }

// busyOp costs costNs of CPU per operation; each batch also waits
// wait() × its CPU time on the wall clock.
func busyOp(c *busyClock, costNs float64, wait func() float64) Target {
	return Target{Run: func(n int) error {
		cpu := int64(float64(n) * costNs)
		c.cpu += cpu
		c.wall += cpu + int64(float64(cpu)*wait())
		return nil
	}}
}

// TestCPUStatistic: on a machine where each batch waits 0–300 % of its
// CPU time for a core, the wall-clock median is inflated and does not
// converge, while the CPU-time statistic recovers the operation's cost
// and converges.
func TestCPUStatistic(t *testing.T) {
	for _, tc := range []struct {
		stat          string
		wantConverged bool
	}{{StatWall, false}, {StatCPU, true}} {
		r := rand.New(rand.NewPCG(21, 21))
		c := &busyClock{}
		e := New(Config{Clock: c, SkipAllocs: true, Statistic: tc.stat, Budget: 500 * time.Millisecond})
		obs, err := e.Measure(context.Background(), busyOp(c, 2000, func() float64 { return 3 * r.Float64() }))
		if err != nil {
			t.Fatal(err)
		}
		if obs.Statistic != tc.stat || (obs.Stop == StopConverged) != tc.wantConverged {
			t.Errorf("%s: statistic %s, stop %s; want converged = %v", tc.stat, obs.Statistic, obs.Stop, tc.wantConverged)
		}
		if tc.stat == StatCPU {
			if d := math.Abs(obs.Summary.Median-2000) / 2000; d > 0.001 {
				t.Errorf("cpu: median %v ns, want the 2000 ns the operation costs", obs.Summary.Median)
			}
			if w := stats.Summarize(obs.NsPerOp).Median; w < 1.5*2000 {
				t.Errorf("cpu: wall median %v ns, want it inflated by the waits (≈ 2.5×)", w)
			}
		}
	}
	if err := (Config{Clock: &synthClock{}, Statistic: StatCPU}).Validate(); err == nil || !strings.Contains(err.Error(), "no thread CPU clock") {
		t.Errorf("CPU statistic without a CPU clock: %v", err)
	}
	if err := (Config{Statistic: "cycles"}).Validate(); err == nil || !strings.Contains(err.Error(), "want wall") {
		t.Errorf("unknown statistic: %v", err)
	}
}

// TestDisturbedSamplesLeftOut: with the CPU statistic, samples during
// which the thread was switched out — here 60 % of them, costing 20 %
// more CPU — and the samples just after (10 % more, the caches refilling:
// a sample lasts 5 ms, more than settleNs, so only the next one is still
// settling) are left out of the statistic when the clock counts context
// switches, and the median is the operation's cost; a clock that cannot
// count keeps every sample, as the wall statistic does.
func TestDisturbedSamplesLeftOut(t *testing.T) {
	for _, tc := range []struct {
		stat       string
		counts     bool
		wantMedian float64
	}{{StatCPU, true, 1000}, {StatCPU, false, 1200}, {StatWall, true, 2400}} {
		r := rand.New(rand.NewPCG(4, 4))
		c := &busyClock{counts: tc.counts}
		e := New(Config{Clock: c, SkipAllocs: true, Statistic: tc.stat, Budget: 2 * time.Second, TargetRelCI: 0.001})
		after := false // the previous batch was switched out
		op := Target{Run: func(n int) error {
			cpu := int64(n) * 1000
			switch {
			case r.Float64() < 0.6:
				c.switches++
				cpu, after = cpu*12/10, true
			case after:
				cpu, after = cpu*11/10, false
			}
			c.cpu += cpu
			c.wall += 2 * cpu
			return nil
		}}
		obs, err := e.Measure(context.Background(), op)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(obs.Summary.Median-tc.wantMedian) / tc.wantMedian; d > 0.001 {
			t.Errorf("%s, counts %v: median %v, want %v", tc.stat, tc.counts, obs.Summary.Median, tc.wantMedian)
		}
		wantLeft := 0
		if tc.stat == StatCPU && tc.counts {
			wantLeft = len(obs.CPUNsPerOp) - obs.Settled()
		}
		if left := obs.PrimaryLeftOut(); left != wantLeft || tc.stat == StatCPU && tc.counts && left == 0 {
			t.Errorf("%s, counts %v: %d samples left out of %d (%d settled), want %d", tc.stat, tc.counts, left, len(obs.CPUNsPerOp), obs.Settled(), wantLeft)
		}
	}
}

// TestDeadline: a session ends by the deadline whatever its budget and
// MinSamples (within one batch: none starts that the last one says would
// end past it); an operation longer than the time left is not started, one
// longer than the whole time runs once (calibration's first batch) past it;
// a session that gets no sample says so.
func TestDeadline(t *testing.T) {
	for _, tc := range []struct {
		name       string
		costNs     float64
		noise      bool
		deadlineNs int64
		wantErr    error
		maxOverNs  float64 // how far past the deadline the session may end
	}{
		{"many samples left", 1000, true, 50e6, nil, 0},
		{"an operation longer than the time left", 30e6, false, 50e6, ErrDeadline, 0},
		{"an operation longer than all the time", 80e6, false, 50e6, ErrDeadline, 80e6},
		{"no time to calibrate", 1000, false, 1e6, ErrDeadline, 0},
	} {
		r := rand.New(rand.NewPCG(2, 2))
		e, c := newSynth(Config{Budget: time.Hour, Warmup: 5 * time.Millisecond, MinSamples: 1000, Deadline: tc.deadlineNs, MinSampleTime: 2 * time.Millisecond})
		c.t = 0
		var noise func() float64
		if tc.noise {
			noise = func() float64 { return math.Exp(0.3 * r.NormFloat64()) }
		}
		obs, err := e.Measure(context.Background(), synthOp(c, tc.costNs, noise))
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.wantErr)
			continue
		}
		if over := float64(c.t - tc.deadlineNs); over > tc.maxOverNs+1e3 { // + a few clock reads
			t.Errorf("%s: ended %.0f ns past the deadline, want at most %.0f", tc.name, over, tc.maxOverNs)
		}
		if tc.wantErr == nil && (obs.Stop != StopBudget || len(obs.NsPerOp) < 10) {
			t.Errorf("%s: stop %s after %d samples, want budget after many", tc.name, obs.Stop, len(obs.NsPerOp))
		}
	}
}

// TestCPUBudget: with the CPU statistic a point's budget is the thread's
// CPU time, so on a machine where the thread waits twice as long as it
// runs, a point that cannot converge gets its budget's worth of work (and
// three times that on the wall clock); the wall statistic's budget is
// wall time.
func TestCPUBudget(t *testing.T) {
	for _, tc := range []struct {
		stat           string
		wantCPU, wantW float64 // ns used, ±10 %
	}{{StatCPU, 100e6, 300e6}, {StatWall, 33e6, 100e6}} {
		r := rand.New(rand.NewPCG(8, 8))
		c := &busyClock{}
		e := New(Config{Clock: c, SkipAllocs: true, Statistic: tc.stat, Budget: 100 * time.Millisecond, MinSampleTime: time.Millisecond})
		op := Target{Run: func(n int) error { // noisy CPU time, and twice that waiting
			cpu := int64(float64(n) * 1000 * math.Exp(0.5*r.NormFloat64()))
			c.cpu += cpu
			c.wall += 3 * cpu
			return nil
		}}
		obs, err := e.Measure(context.Background(), op)
		if err != nil {
			t.Fatal(err)
		}
		if obs.Stop != StopBudget {
			t.Errorf("%s: stop %s, want budget", tc.stat, obs.Stop)
		}
		if cpu := float64(c.cpu); math.Abs(cpu-tc.wantCPU)/tc.wantCPU > 0.15 {
			t.Errorf("%s: %v ns of CPU, want about %v", tc.stat, cpu, tc.wantCPU)
		}
		if math.Abs(obs.ElapsedNs-tc.wantW)/tc.wantW > 0.15 {
			t.Errorf("%s: %v ns on the wall clock, want about %v", tc.stat, obs.ElapsedNs, tc.wantW)
		}
	}
}

// TestCPUStatisticTiers: the CPU statistic takes the least disturbed
// samples there are at least ten of — settled; else those not switched
// out during them (a long operation on a machine too busy to leave it
// alone for 1 ms and a whole sample); else all. Fast tier.
func TestCPUStatisticTiers(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		settled, settling, switched int
		wantTier                    Disturbance
		wantN                       int
	}{
		{"enough settled", 12, 5, 30, Settled, 12},
		{"settling make up the ten", 3, 9, 30, Settling, 12},
		{"too few undisturbed", 5, 3, 30, Switched, 38},
		{"all settled", 20, 0, 0, Settled, 20},
	} {
		o := &Observation{Statistic: StatCPU}
		add := func(n int, d Disturbance, v float64) {
			for range n {
				o.CPUNsPerOp = append(o.CPUNsPerOp, v)
				o.Disturbed = append(o.Disturbed, d)
			}
		}
		add(tc.switched, Switched, 1300)
		add(tc.settling, Settling, 1010)
		add(tc.settled, Settled, 1000)
		if got := o.Tier(); got != tc.wantTier || len(o.Primary()) != tc.wantN || o.PrimaryLeftOut() != len(o.CPUNsPerOp)-tc.wantN {
			t.Errorf("%s: tier %d with %d samples (%d left out), want tier %d with %d", tc.name, got, len(o.Primary()), o.PrimaryLeftOut(), tc.wantTier, tc.wantN)
		}
	}
}
