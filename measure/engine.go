// Package measure is cryptocost's timing engine. It measures one prepared
// operation at a time: it calibrates a batch size so the timer's resolution
// and call overhead stay below 1 % of every sample, warms up, takes at least
// MinSamples samples and stops adaptively once the 95 % confidence interval
// of the median is within ±TargetRelCI — or when the point's budget is
// spent — and says which happened. It knows nothing of cryptography: it
// times a Target.
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
	// median is within ±TargetRelCI of it (default 0.02).
	TargetRelCI float64
	// Budget is the time a point may take, calibration and warm-up
	// included; MinSamples are taken even past it (default 1 s).
	Budget time.Duration
	// Warmup is the time spent running the operation before sampling
	// (default Budget/10, at least one batch).
	Warmup time.Duration
	// MinSampleTime is the shortest sample (default 5 ms). The engine
	// raises it to 100 × (timer resolution + call overhead), so those stay
	// below 1 % of each sample.
	MinSampleTime time.Duration
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
	return c
}

// Stop reasons.
const (
	StopConverged   = "converged"   // the median's CI reached the target
	StopBudget      = "budget"      // the budget ran out first
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
	// AllocBytesPerOp and AllocsPerOp come from a separate pass around
	// one batch; negative when skipped.
	AllocBytesPerOp float64
	AllocsPerOp     float64
	// PeakRSSBytes is the process's resident-set high-water mark after the
	// point (monotonic over the process); 0 if unknown.
	PeakRSSBytes int64
	// ElapsedNs is the wall time the whole point took.
	ElapsedNs float64
	// Summary summarises NsPerOp.
	Summary stats.Summary
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

// Measure times t. An error from t.Run stops the point and is returned
// with nil observation. Cancelling ctx returns the samples so far with
// Stop = "interrupted" (and ErrInterrupted if fewer than MinSamples).
func (e *Engine) Measure(ctx context.Context, t Target) (*Observation, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cfg, clk := e.cfg, e.cfg.Clock
	if _, ok := clk.(RealClock); ok {
		runtime.GC() // start each point without the previous point's garbage
	}
	start := clk.Now()
	deadline := start + int64(cfg.Budget)
	obs := &Observation{
		TimerResolutionNs: e.timer.ResolutionNs,
		CallOverheadNs:    e.timer.OverheadNs,
		AllocBytesPerOp:   -1,
		AllocsPerOp:       -1,
	}
	floor := 100 * (e.timer.ResolutionNs + e.timer.OverheadNs)
	obs.MinSampleNs = math.Max(float64(cfg.MinSampleTime), floor)

	var cycles CycleCounter
	if cfg.Cycles {
		c, err := OpenCycleCounter()
		if err != nil {
			obs.CycleError = err
		} else {
			cycles = c
			defer c.Close()
		}
	}
	_, cpuOK := clk.ThreadCPU()

	finish := func(stop string) *Observation {
		obs.Stop = stop
		obs.Summary = stats.Summarize(obs.NsPerOp)
		obs.ElapsedNs = float64(clk.Now() - start)
		if rss, ok := peakRSS(); ok {
			obs.PeakRSSBytes = rss
		}
		return obs
	}

	// Calibrate: grow the batch until one batch lasts MinSampleNs, as
	// testing.B does; these runs are the first part of the warm-up.
	n := 1
	for {
		if ctx.Err() != nil {
			return finish(StopInterrupted), fmt.Errorf("%w during calibration", ErrInterrupted)
		}
		d, err := timeBatch(clk, t.Run, n)
		if err != nil {
			return nil, err
		}
		obs.WarmupOps += n
		obs.WarmupNs += float64(d)
		if float64(d) >= obs.MinSampleNs {
			break
		}
		n = nextBatch(n, d, obs.MinSampleNs)
	}

	// Warm up at the calibrated batch size, then re-derive the batch from
	// the warm (caches filled, clock ramped) per-op time.
	for obs.WarmupNs < float64(cfg.Warmup) && clk.Now() < deadline {
		if ctx.Err() != nil {
			return finish(StopInterrupted), fmt.Errorf("%w during warm-up", ErrInterrupted)
		}
		d, err := timeBatch(clk, t.Run, n)
		if err != nil {
			return nil, err
		}
		obs.WarmupOps += n
		obs.WarmupNs += float64(d)
		if float64(d) < obs.MinSampleNs { // got faster when warm
			n = nextBatch(n, d, obs.MinSampleNs)
		}
	}
	obs.Batch = n

	// Sample.
	for {
		if ctx.Err() != nil {
			if len(obs.NsPerOp) < cfg.MinSamples {
				return finish(StopInterrupted), fmt.Errorf("%w after %d of at least %d samples", ErrInterrupted, len(obs.NsPerOp), cfg.MinSamples)
			}
			return finish(StopInterrupted), nil
		}
		var c0, c1 uint64
		var cpu0, cpu1 int64
		if cycles != nil {
			c0, _ = cycles.Cycles()
		}
		if cpuOK {
			cpu0, _ = clk.ThreadCPU()
		}
		t0 := clk.Now()
		err := t.Run(n)
		t1 := clk.Now()
		if cpuOK {
			cpu1, _ = clk.ThreadCPU()
		}
		if cycles != nil {
			c1, _ = cycles.Cycles()
		}
		if err != nil {
			return nil, err
		}
		obs.NsPerOp = append(obs.NsPerOp, float64(t1-t0)/float64(n))
		if cpuOK {
			obs.CPUNsPerOp = append(obs.CPUNsPerOp, float64(cpu1-cpu0)/float64(n))
		}
		if cycles != nil {
			obs.CyclesPerOp = append(obs.CyclesPerOp, float64(c1-c0)/float64(n))
		}
		k := len(obs.NsPerOp)
		if k < cfg.MinSamples {
			continue
		}
		if k >= cfg.MaxSamples {
			break
		}
		// The convergence test sorts the sample: cheap next to a 5 ms
		// sample, but thin it out for long runs of short samples.
		if k < 100 || k%10 == 0 {
			if stats.Summarize(obs.NsPerOp).RelCI() <= cfg.TargetRelCI {
				e.allocs(obs, t, n)
				return finish(StopConverged), nil
			}
		}
		if clk.Now() >= deadline {
			e.allocs(obs, t, n)
			return finish(StopBudget), nil
		}
	}
	e.allocs(obs, t, n)
	return finish(StopMaxSamples), nil
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
