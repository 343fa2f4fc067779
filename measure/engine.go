// Package measure is cryptocost's timing engine. It measures one prepared
// operation at a time: it calibrates a batch size so the timer's resolution
// and call overhead stay below 1 % of every sample, warms up, takes at least
// MinSamples samples and stops adaptively once the 95 % confidence interval
// of the median is within ±TargetRelCI of it (the interval's larger
// half-width relative to the median: "±2 %" means 0.02) — or when the
// point's budget is spent, or the run's deadline comes — and says which
// happened. Each sample is timed on two clocks, the wall clock and the
// thread's CPU clock; Config.Statistic says which one the stop rule and
// the summary use (StatCPU for CPU-bound work on a busy machine: a thread
// that waits for a core accrues wall time, not CPU time). It knows nothing
// of cryptography: it times a Target.
package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/cryptocost/cryptocost/stats"
)

// Target is an operation ready to be timed.
type Target struct {
	// Run performs the operation n times. Everything it must not time
	// (keys, buffers, contexts) has been prepared before.
	Run func(n int) error
	// Bytes is the number of bytes one operation processes, for
	// throughput; 0 when not meaningful.
	Bytes int64
}

// Config tunes the engine. The zero value of a field means its default.
type Config struct {
	// MinSamples is the fewest samples a point gets, whatever the budget
	// (default 10).
	MinSamples int
	// MaxSamples caps the samples per point (default 1000).
	MaxSamples int
	// TargetRelCI is the stop rule: sampling ends once the 95 % CI of the
	// median is within ±TargetRelCI of it — the interval's larger
	// half-width over the median (stats.Summary.RelCI) at most this
	// (default 0.02, "±2 %").
	TargetRelCI float64
	// Statistic is the clock whose samples are the point's primary
	// statistic — the stop rule's, Observation.Summary's: StatWall
	// (default) or StatCPU.
	Statistic string
	// Deadline is the Clock.Now() time by which every session must have
	// finished, 0 for none: a run's wall-clock budget. The engine starts
	// no batch that its last batch's duration says would end later, so a
	// session ends by the deadline, or within one batch past it when a
	// single operation is longer than the time left. It overrides
	// MinSamples.
	Deadline int64
	// Budget is the time a point may take, calibration and warm-up
	// included; MinSamples are taken even past it (default 1 s). With the
	// CPU statistic it is the thread's CPU time, so a point on a busy
	// machine gets the work it would get on a quiet one (Deadline bounds
	// the wall time).
	Budget time.Duration
	// Warmup is the time spent running the operation before sampling
	// (default Budget/10, at least one batch).
	Warmup time.Duration
	// MinSampleTime is the shortest sample (default 5 ms). The engine
	// raises it to 100 × (timer resolution + call overhead) — with the CPU
	// statistic, at least 100 × the CPU clock's two reads — so those stay
	// below 1 % of each sample.
	MinSampleTime time.Duration
	// MinVisits is the fewest separate visits (time windows) a point's
	// samples must come from before it may stop as converged (default 1;
	// a runner interleaving points sets more).
	MinVisits int
	// Clock is the time source (default RealClock).
	Clock Clock
	// Cycles, if true, counts cycles with the hardware counter when one
	// can be opened.
	Cycles bool
	// SkipAllocs skips the allocation-counting pass.
	SkipAllocs bool
}

func (c Config) withDefaults() Config {
	if c.MinSamples <= 0 {
		c.MinSamples = 10
	}
	if c.MaxSamples <= 0 {
		c.MaxSamples = 1000
	}
	c.MaxSamples = max(c.MaxSamples, c.MinSamples)
	if c.TargetRelCI <= 0 {
		c.TargetRelCI = 0.02
	}
	if c.Budget <= 0 {
		c.Budget = time.Second
	}
	if c.Warmup <= 0 {
		c.Warmup = c.Budget / 10
	}
	if c.MinSampleTime <= 0 {
		c.MinSampleTime = 5 * time.Millisecond
	}
	if c.Clock == nil {
		c.Clock = RealClock{}
	}
	c.MinVisits = max(c.MinVisits, 1)
	if c.Statistic == "" {
		c.Statistic = StatWall
	}
	return c
}

// The statistics a point can be summarised by.
const (
	// StatWall is the monotonic wall clock: what a caller waits for,
	// including any time the thread waited for a core or for I/O.
	StatWall = "wall"
	// StatCPU is the measuring thread's CPU clock: what the operation
	// costs the core, not inflated by other load. Right for CPU-bound
	// primitives; wrong for anything that waits (I/O, a network, a
	// simulator in another process), whose waiting it does not count.
	StatCPU = "cpu"
)

// Validate checks the configuration: a known statistic, and a thread CPU
// clock on this platform when the statistic is CPU time.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch c.Statistic {
	case StatWall:
	case StatCPU:
		if _, ok := c.Clock.ThreadCPU(); !ok {
			return fmt.Errorf("clock %q: this platform has no thread CPU clock to take CPU time from; use the wall clock", StatCPU)
		}
	default:
		return fmt.Errorf("unknown clock %q: want %s (wall time) or %s (thread CPU time)", c.Statistic, StatWall, StatCPU)
	}
	return nil
}

// Stop reasons.
const (
	StopConverged   = "converged"   // the median's CI reached the target
	StopBudget      = "budget"      // the point's budget or the run's deadline came first
	StopMaxSamples  = "max-samples" // MaxSamples reached first
	StopFixed       = "fixed"       // a fixed design (seed002)
	StopInterrupted = "interrupted" // the context was cancelled
)

// Observation is what the engine saw of one point.
type Observation struct {
	// NsPerOp holds one value per sample: the sample's wall time / Batch.
	NsPerOp []float64
	// CPUNsPerOp is the thread CPU time per op per sample; nil when the
	// platform has no thread CPU clock.
	CPUNsPerOp []float64
	// Disturbed says, per sample, how the thread's context switches
	// touched it: Settled, Settling (it began less than settleNs of CPU
	// time after the thread was switched back in) or Switched (switched out
	// during it); nil when the clock cannot count context switches.
	Disturbed []Disturbance
	// CyclesPerOp holds counted cycles per op per sample; nil without a
	// hardware counter (then CycleError says why).
	CyclesPerOp []float64
	CycleError  error
	// Batch is the number of operations per sample.
	Batch int
	// WarmupOps and WarmupNs describe the warm-up, calibration included.
	WarmupOps int
	WarmupNs  float64
	// MinSampleNs is the sample duration calibration aimed at.
	MinSampleNs float64
	// TimerResolutionNs and CallOverheadNs are the calibration inputs.
	TimerResolutionNs float64
	CallOverheadNs    float64
	// Stop says why sampling ended.
	Stop string
	// Statistic names the primary samples: StatWall (NsPerOp) or StatCPU
	// (CPUNsPerOp).
	Statistic string
	// AllocBytesPerOp and AllocsPerOp come from a separate pass around
	// one batch; negative when skipped.
	AllocBytesPerOp float64
	AllocsPerOp     float64
	// PeakRSSBytes is the process's resident-set high-water mark after the
	// point (monotonic over the process); 0 if unknown.
	PeakRSSBytes int64
	// Visits is the number of separate time windows the samples come from.
	Visits int
	// ElapsedNs is the clock time the point took, all visits together.
	ElapsedNs float64
	// Summary summarises the primary samples (Primary).
	Summary stats.Summary
}

// Disturbance is what context switches did to a sample (SwitchCounter).
type Disturbance uint8

const (
	// Settled: the thread ran settleNs since it was last switched in
	// before the sample, and was not switched out during it.
	Settled Disturbance = iota
	// Settling: not switched out during the sample, but switched in less
	// than settleNs before it: its CPU time includes some refilling.
	Settling
	// Switched: switched out (and back in) during the sample.
	Switched
)

// Primary returns the samples of the observation's statistic: wall time;
// or CPU time, from the least disturbed samples there are at least
// minSettled of — the settled ones; else (a long operation on a machine
// so busy that it is rarely left alone for settleNs and a whole sample)
// those not switched out during them; else all.
func (o *Observation) Primary() []float64 {
	if o.Statistic != StatCPU {
		return o.NsPerOp
	}
	if tier := o.Tier(); tier < Switched {
		out := make([]float64, 0, len(o.CPUNsPerOp))
		for i, v := range o.CPUNsPerOp {
			if o.Disturbed[i] <= tier {
				out = append(out, v)
			}
		}
		return out
	}
	return o.CPUNsPerOp
}

// Tier is the most disturbed kind of sample Primary keeps with the CPU
// statistic: Settled, Settling, or Switched (all samples).
func (o *Observation) Tier() Disturbance {
	if len(o.Disturbed) != len(o.CPUNsPerOp) {
		return Switched // unknown: every sample
	}
	var n [3]int
	for _, d := range o.Disturbed {
		n[d]++
	}
	switch {
	case n[Settled] >= minSettled:
		return Settled
	case n[Settled]+n[Settling] >= minSettled:
		return Settling
	}
	return Switched
}

// minSettled is the fewest samples of a kind the CPU statistic is taken
// from (Primary).
const minSettled = 10

// settleNs is how long the thread must have run since its last context
// switch before a sample's CPU time counts: measured here, RSA-2048
// verifications and Ed25519 signatures sharing a CPU with busy loops ran
// 3–15 % slower in the first ~1 ms after the thread was switched back in
// (the caches, TLB and branch predictors it left behind refilling), and at
// their quiet speed after (docs/benchmarks.md § Busy machine).
const settleNs = 1e6

// Settled is the number of samples that were not disturbed (all of them
// when the clock cannot tell).
func (o *Observation) Settled() int {
	if len(o.Disturbed) != len(o.CPUNsPerOp) {
		return len(o.CPUNsPerOp) // unknown
	}
	k := 0
	for _, d := range o.Disturbed {
		if d == Settled {
			k++
		}
	}
	return k
}

// PrimaryLeftOut is how many samples Primary leaves out.
func (o *Observation) PrimaryLeftOut() int {
	all := o.NsPerOp
	if o.Statistic == StatCPU {
		all = o.CPUNsPerOp
	}
	return len(all) - len(o.Primary())
}

// Engine measures targets with one configuration.
type Engine struct {
	cfg   Config
	timer TimerCalibration
}

// New returns an engine. It calibrates the clock once (a few milliseconds).
func New(cfg Config) *Engine {
	cfg = cfg.withDefaults()
	return &Engine{cfg: cfg, timer: CalibrateTimer(cfg.Clock)}
}

// Config returns the engine's effective configuration.
func (e *Engine) Config() Config { return e.cfg }

// Timer returns the clock calibration.
func (e *Engine) Timer() TimerCalibration { return e.timer }

// ErrInterrupted is returned (wrapped) when the context ends a point before
// MinSamples samples; the observation holds what was measured.
var ErrInterrupted = errors.New("interrupted")

// ErrDeadline is returned (wrapped) by Start when the deadline comes
// before the batch is calibrated: the point has no samples.
var ErrDeadline = errors.New("the deadline came before the first sample")

// Measure times t in one sitting: Start, then visits until a stop rule
// ends it. An error from t.Run stops the point and is returned with a nil
// observation. Cancelling ctx returns the samples so far with Stop =
// "interrupted" (and ErrInterrupted if fewer than MinSamples).
func (e *Engine) Measure(ctx context.Context, t Target) (*Observation, error) {
	s, err := e.Start(ctx, t)
	if err != nil {
		return s.Interrupted(err)
	}
	for {
		done, err := s.Visit(ctx, e.cfg.Budget)
		if err != nil {
			return s.Interrupted(err)
		}
		if done {
			return s.Observation(), nil
		}
	}
}

// Session measures one target over several visits, so that a runner can
// interleave points: samples taken in separate time windows make the
// median robust against the slow phases of a shared machine (a noisy
// neighbour, a thermal episode) that would otherwise capture every sample
// of a point taken in one short sitting.
type Session struct {
	e     *Engine
	t     Target
	obs   *Observation
	spent int64 // clock time spent in this session, all visits
	// used is the budget spent: spent, or with the CPU statistic the
	// thread CPU time of all visits.
	used   int64
	visits int
	cpuOK  bool
	done   bool
	// lastBatchNs is the wall time of the last batch run, the estimate of
	// the next one's for the deadline.
	lastBatchNs float64
	// switches is the thread's context-switch count at the last reading;
	// settledFrom the thread CPU time from which it has run without one
	// (MinInt64: a switch at a time unknown, settling from the next read).
	switches    int64
	settledFrom int64
}

// disturbed says how a sample that began with sw0 context switches at
// thread CPU time cpu0 and ended with sw1 at cpu1 was disturbed: the
// thread was switched out during it, or had settled for less than
// settleNs before it, or neither. It tracks the switches for the next
// sample.
func (s *Session) disturbed(sw0, sw1, cpu0, cpu1 int64) Disturbance {
	if sw0 != s.switches || s.settledFrom == math.MinInt64 {
		s.settledFrom = cpu0 // switched in just before, as far as we know
	}
	d := Settled
	switch {
	case sw1 != sw0:
		d = Switched
		s.settledFrom = cpu1
	case cpu0-s.settledFrom < settleNs:
		d = Settling
	}
	s.switches = sw1
	return d
}

// Start calibrates the batch size and warms up. Its time counts against
// the point's budget.
func (e *Engine) Start(ctx context.Context, t Target) (*Session, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cfg, clk := e.cfg, e.cfg.Clock
	if _, ok := clk.(RealClock); ok {
		runtime.GC() // start each point without the previous point's garbage
	}
	s := &Session{e: e, t: t, obs: &Observation{
		TimerResolutionNs: e.timer.ResolutionNs,
		CallOverheadNs:    e.timer.OverheadNs,
		AllocBytesPerOp:   -1,
		AllocsPerOp:       -1,
		Statistic:         cfg.Statistic,
	}}
	_, s.cpuOK = clk.ThreadCPU()
	s.settledFrom = math.MinInt64
	if cfg.Statistic == StatCPU && !s.cpuOK {
		return nil, errors.New("no thread CPU clock on this platform for the CPU-time statistic")
	}
	obs := s.obs
	floor := 100 * (e.timer.ResolutionNs + e.timer.OverheadNs)
	if cfg.Statistic == StatCPU {
		floor = max(floor, 100*e.timer.CPUOverheadNs)
	}
	obs.MinSampleNs = math.Max(float64(cfg.MinSampleTime), floor)
	start, b0 := clk.Now(), s.budgetClock()
	defer func() { s.spent += clk.Now() - start; s.used += s.budgetClock() - b0 }()

	// Calibrate: grow the batch until one batch lasts MinSampleNs, as
	// testing.B does; these runs are the first part of the warm-up.
	n, last := 1, int64(0) // last: the previous batch's duration
	for {
		if ctx.Err() != nil {
			return s, fmt.Errorf("%w during calibration", ErrInterrupted)
		}
		if n > 1 && !s.fits(float64(last)*float64(n)/float64(obs.Batch)) {
			return s, fmt.Errorf("%w: calibrating the batch", ErrDeadline)
		}
		obs.Batch = n
		d, err := timeBatch(clk, t.Run, n)
		if err != nil {
			return nil, err
		}
		obs.WarmupOps += n
		obs.WarmupNs += float64(d)
		last = d
		if float64(d) >= obs.MinSampleNs {
			break
		}
		n = nextBatch(n, d, obs.MinSampleNs)
	}
	// Warm up at the calibrated batch size, re-deriving the batch from the
	// warm (caches filled, clock ramped) per-op time.
	for obs.WarmupNs < float64(cfg.Warmup) && s.budgetClock()-b0 < int64(cfg.Budget) && s.fits(2*float64(last)) {
		if ctx.Err() != nil {
			return s, fmt.Errorf("%w during warm-up", ErrInterrupted)
		}
		d, err := timeBatch(clk, t.Run, n)
		if err != nil {
			return nil, err
		}
		obs.WarmupOps += n
		obs.WarmupNs += float64(d)
		last = d
		if float64(d) < obs.MinSampleNs { // got faster when warm
			n = nextBatch(n, d, obs.MinSampleNs)
			last = int64(float64(d) * float64(n) / float64(obs.Batch))
			obs.Batch = n
		}
	}
	obs.Batch = n
	s.lastBatchNs = float64(last)
	// Allocations, outside the timed samples and before them, so that
	// ending a session (at a deadline, for instance) runs no more batches.
	if s.fits(2 * float64(last)) {
		e.allocs(obs, t, n)
	}
	return s, nil
}

// fits reports whether work of about ns would end by the deadline.
func (s *Session) fits(ns float64) bool {
	dl := s.e.cfg.Deadline
	return dl == 0 || float64(s.e.cfg.Clock.Now())+ns <= float64(dl)
}

// Visit samples for about d of the budget's clock (wall time, or thread
// CPU time with the CPU statistic; at least one sample), then
// applies the stop rules. It returns done = true when the point is
// finished: converged (MinSamples taken over at least MinVisits visits and
// the median's CI within TargetRelCI), budget spent, or MaxSamples reached.
// A visit that follows other work first runs one unrecorded batch, if
// batches are short, so the sample does not pay for cold caches.
func (s *Session) Visit(ctx context.Context, d time.Duration) (done bool, err error) {
	if s.done {
		return true, nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cfg, clk, obs, n := s.e.cfg, s.e.cfg.Clock, s.obs, s.obs.Batch
	start, b0 := clk.Now(), s.budgetClock()
	// end closes the visit: its time is added before finish records it.
	end := func(stop string) {
		s.spent += clk.Now() - start
		s.used += s.budgetClock() - b0
		start, b0 = clk.Now(), s.budgetClock()
		if stop != "" {
			s.finish(stop)
		}
	}
	defer end("")

	switches, _ := clk.(SwitchCounter)
	if switches != nil && s.cpuOK {
		if n, ok := switches.ContextSwitches(); !ok {
			switches = nil
		} else if n != s.switches {
			// Switched out since the last sample, at a time unknown: count
			// the settling from now.
			s.switches, s.settledFrom = n, math.MinInt64
		}
	} else {
		switches = nil
	}
	var cycles CycleCounter
	if cfg.Cycles && obs.CycleError == nil {
		if c, err := OpenCycleCounter(); err != nil {
			obs.CycleError = err
		} else {
			cycles = c
			defer c.Close()
		}
	}
	if !s.fits(s.lastBatchNs) {
		end(StopBudget)
		if len(obs.NsPerOp) == 0 {
			return true, fmt.Errorf("%w: a batch takes %.3g s", ErrDeadline, s.lastBatchNs/1e9)
		}
		return true, nil
	}
	if s.visits > 0 && s.lastBatchNs < 10e6 && s.fits(2*s.lastBatchNs) {
		if _, err := timeBatch(clk, s.t.Run, n); err != nil {
			s.done = true
			return true, err
		}
	}
	s.visits++
	for first := true; first || s.budgetClock()-b0 < int64(d); first = false {
		if !first && !s.fits(s.lastBatchNs) {
			end(StopBudget)
			return true, nil
		}
		if ctx.Err() != nil {
			end(StopInterrupted)
			if len(obs.NsPerOp) < cfg.MinSamples {
				return true, fmt.Errorf("%w after %d of at least %d samples", ErrInterrupted, len(obs.NsPerOp), cfg.MinSamples)
			}
			return true, nil
		}
		var c0, c1 uint64
		var cpu0, cpu1, sw0, sw1 int64
		if switches != nil {
			sw0, _ = switches.ContextSwitches()
		}
		if cycles != nil {
			c0, _ = cycles.Cycles()
		}
		if s.cpuOK {
			cpu0, _ = clk.ThreadCPU()
		}
		t0 := clk.Now()
		err := s.t.Run(n)
		t1 := clk.Now()
		if s.cpuOK {
			cpu1, _ = clk.ThreadCPU()
		}
		if cycles != nil {
			c1, _ = cycles.Cycles()
		}
		if switches != nil {
			sw1, _ = switches.ContextSwitches()
		}
		if err != nil {
			s.done = true
			return true, err
		}
		s.lastBatchNs = float64(t1 - t0)
		obs.NsPerOp = append(obs.NsPerOp, float64(t1-t0)/float64(n))
		if s.cpuOK {
			obs.CPUNsPerOp = append(obs.CPUNsPerOp, float64(cpu1-cpu0)/float64(n))
		}
		if switches != nil && len(obs.Disturbed) == len(obs.NsPerOp)-1 {
			obs.Disturbed = append(obs.Disturbed, s.disturbed(sw0, sw1, cpu0, cpu1))
		}
		if cycles != nil {
			obs.CyclesPerOp = append(obs.CyclesPerOp, float64(c1-c0)/float64(n))
		}
		if stop := s.stopRule(s.budgetClock() - b0); stop != "" {
			end(stop)
			return true, nil
		}
	}
	return false, nil
}

// budgetClock reads the clock the point's budget is kept on: the wall
// clock, or the thread's CPU clock with the CPU statistic.
func (s *Session) budgetClock() int64 {
	clk := s.e.cfg.Clock
	if s.e.cfg.Statistic == StatCPU {
		if t, ok := clk.ThreadCPU(); ok {
			return t
		}
	}
	return clk.Now()
}

// stopRule returns why sampling should end now, or "" (inVisit: the
// budget used in this visit so far).
func (s *Session) stopRule(inVisit int64) string {
	cfg, k := s.e.cfg, len(s.obs.NsPerOp)
	switch {
	case k < cfg.MinSamples:
		return ""
	case k >= cfg.MaxSamples:
		return StopMaxSamples
	}
	// The convergence test sorts the sample: cheap next to a millisecond
	// sample, but thin it out for long runs of short samples.
	// The CPU statistic converges on unpreempted samples only: a point
	// whose samples were mostly preempted keeps sampling for clean ones.
	enough := cfg.Statistic != StatCPU || s.obs.Settled() >= minSettled
	if enough && s.visits >= cfg.MinVisits && (k < 100 || k%10 == 0) && stats.Summarize(s.obs.Primary()).RelCI() <= cfg.TargetRelCI {
		return StopConverged
	}
	if s.used+inVisit >= int64(cfg.Budget) {
		return StopBudget
	}
	return ""
}

// Done reports whether the session has finished.
func (s *Session) Done() bool { return s.done }

// SpentNs is the clock time the session has used so far.
func (s *Session) SpentNs() int64 { return s.spent }

// Stop ends the session early (the runner ran out of time, or was
// interrupted) with the given reason.
func (s *Session) Stop(reason string) {
	if !s.done {
		s.finish(reason)
	}
}

// Observation returns what the session measured; valid once it is done.
func (s *Session) Observation() *Observation { return s.obs }

// Interrupted is the result of a session cut short by err: the samples so
// far, or none if there are none.
func (s *Session) Interrupted(err error) (*Observation, error) {
	if s == nil || len(s.obs.NsPerOp) == 0 && !errors.Is(err, ErrInterrupted) {
		return nil, err
	}
	s.Stop(StopInterrupted)
	return s.obs, err
}

func (s *Session) finish(stop string) {
	s.done = true
	obs := s.obs
	obs.Stop = stop
	obs.Summary = stats.Summarize(obs.Primary())
	obs.ElapsedNs = float64(s.spent)
	obs.Visits = s.visits
	if rss, ok := peakRSS(); ok {
		obs.PeakRSSBytes = rss
	}
}

// allocs counts heap allocations over one batch, outside the timed samples:
// runtime.ReadMemStats stops the world, so it never brackets a timed
// sample. The counts are process-wide; the engine's own goroutine
// allocates nothing in between, other goroutines (a progress bar) little.
func (e *Engine) allocs(obs *Observation, t Target, n int) {
	if e.cfg.SkipAllocs {
		return
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if err := t.Run(n); err != nil {
		return
	}
	runtime.ReadMemStats(&m1)
	obs.AllocBytesPerOp = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
	obs.AllocsPerOp = float64(m1.Mallocs-m0.Mallocs) / float64(n)
}

func timeBatch(clk Clock, run func(int) error, n int) (int64, error) {
	t0 := clk.Now()
	err := run(n)
	return clk.Now() - t0, err
}

// nextBatch predicts the batch that lasts target ns from one that lasted d
// ns, aiming 20 % over, growing at most 100× and at least by one (the rule
// testing.B uses).
func nextBatch(n int, d int64, target float64) int {
	next := 100 * n
	if d > 0 {
		next = int(math.Ceil(target * 1.2 * float64(n) / float64(d)))
	}
	return min(max(next, n+1), 100*n, 1<<30)
}
