package bench

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/stats"
)

// Methods a run can use.
const (
	MethodAdaptive = "adaptive"
	MethodSeed002  = "seed002"
)

// RunConfig tunes how a plan is measured. Zero values mean defaults.
type RunConfig struct {
	Method string // MethodAdaptive (default) or MethodSeed002
	// Keys and Repetitions are the seed002 design's K and R (default 10 × 10).
	Keys, Repetitions int
	// TimeBudget bounds the whole run on the wall clock, known-answer
	// tests included: each point gets an equal share, and the run ends
	// within it whatever the load (points not yet converged stop as
	// "budget", points not yet reached are reported as not measured), or
	// one batch past it when a single batch is longer than the time left.
	// 0: no total bound.
	TimeBudget time.Duration
	// PointBudget bounds each point (default 1 s, 20 ms with Quick).
	PointBudget time.Duration
	// TargetRelCI is the stop rule's precision: the 95 % CI of the median's
	// larger half-width relative to the median (default 0.02 = ±2 %).
	TargetRelCI float64
	// Statistic is the clock the points are summarised and stopped by:
	// measure.StatWall (default) or measure.StatCPU (--clock cpu: thread
	// CPU time, for CPU-bound primitives on a busy machine).
	Statistic string
	// Clock is the engine's time source (nil: measure.RealClock). Tests
	// give a synthetic clock their operations advance, so budgets and
	// rounds do not depend on how busy the host is.
	Clock      measure.Clock
	MinSamples int
	MaxSamples int
	// NoCycles skips the hardware cycle counter (cycles are then
	// estimated from the clock rate).
	NoCycles bool
	Quick    bool
}

// Progress hears about a run's progress; nil-safe implementations only.
type Progress interface {
	Begin(total int)
	Step(done int, current string)
	End()
}

// Run measures the plan. It always returns a run: on interruption (ctx
// cancelled) the results measured so far, with Status Interrupted; when a
// scheme fails its KAT, an error result for each of its points (never a
// number) and Status Failed.
//
// Every scheme's KAT runs before anything is timed. The adaptive method then
// measures the points in rounds: each round visits every unfinished point
// for a few samples, so a point's samples come from several time windows
// spread over the run and a slow phase of a shared machine (seen here as
// 60 % slower episodes lasting ~100 ms) cannot capture all of them. A point
// stops when its median's CI is within the target after at least MinVisits
// visits, or when its own budget is spent.
func Run(ctx context.Context, plan *Plan, cfg RunConfig, progress Progress) *result.Run {
	if cfg.Method == "" {
		cfg.Method = MethodAdaptive
	}
	if cfg.Keys <= 0 {
		cfg.Keys = 10
	}
	if cfg.Repetitions <= 0 {
		cfg.Repetitions = 10
	}
	if cfg.Statistic == "" {
		cfg.Statistic = measure.StatWall
	}
	if cfg.Clock == nil {
		cfg.Clock = measure.RealClock{}
	}
	begin := cfg.Clock.Now()
	load := measure.WatchLoad()
	env := measure.CaptureEnvironment()
	describeCProviders(&env, plan)
	run := result.NewRun("bench", env)
	var estimate *measure.ClockEstimate
	if env.CPUMHz > 0 {
		estimate = &measure.ClockEstimate{MHz: env.CPUMHz, Source: env.CPUMHzFrom}
	}
	if progress != nil {
		progress.Begin(len(plan.Points))
		defer progress.End()
	}

	// The correctness gate, before any timing.
	failed := map[string]error{}
	for _, s := range plan.Schemes {
		if err := s.KAT(); err != nil {
			failed[s.Info().ID()] = err
			run.Errors = append(run.Errors, fmt.Sprintf("%s: %v: not measured", s.Info().ID(), err))
		}
	}
	points := make([]*pointState, len(plan.Points))
	for i, p := range plan.Points {
		points[i] = &pointState{Point: p, err: failed[p.Scheme.Info().ID()]}
		if points[i].err != nil {
			points[i].err = fmt.Errorf("known-answer test failed, not measured: %w", points[i].err)
		}
	}

	ecfg := engineConfig(cfg, len(plan.Points))
	if cfg.TimeBudget > 0 {
		ecfg.Deadline = begin + int64(deadlineShare*float64(cfg.TimeBudget))
	}
	eng := measure.New(ecfg)
	if cfg.Method == MethodSeed002 {
		runFixed(ctx, eng, points, cfg, progress)
	} else {
		runRounds(ctx, eng, points, cfg, progress, load)
	}

	refAll := referenceMedians(points)
	for _, ps := range points {
		switch {
		case errors.Is(ps.err, measure.ErrDeadline):
			// Not a failure: the run's time ran out first.
			run.Results = append(run.Results, result.Result{Subject: subject(ps.Point),
				Error: fmt.Sprintf("not measured: the run's --time-budget (%v) ran out before its first sample (%v); give a larger budget or fewer points", cfg.TimeBudget, ps.err)})
		case ps.err != nil && !errors.Is(ps.err, measure.ErrInterrupted):
			run.Status = result.Failed
			run.Results = append(run.Results, result.Result{Subject: subject(ps.Point), Error: ps.err.Error()})
			if failed[ps.Scheme.Info().ID()] == nil {
				run.Errors = append(run.Errors, fmt.Sprintf("%s: %v", ps.Name(), ps.err))
			}
		case ps.obs != nil && len(ps.obs.NsPerOp) > 0:
			res := observationResult(ps.Point, eng, ps.obs, cfg)
			if cfg.Method == MethodSeed002 {
				m := result.NewScalar("total-time", "ns", result.Lower, result.Measured, ps.totalNs)
				m.Method = fmt.Sprintf("sum over %d keys/inputs × %d repetitions, as the seed002 study reported", cfg.Keys, cfg.Repetitions)
				if note := distinctKeys(ps.Point, cfg.Keys); note != "" {
					m.Method += "; " + note
					res.Warnings = append(res.Warnings, note)
					res.Subject.Params["distinct_keys"] = fmt.Sprint(ps.Op.DistinctKeys)
				}
				res.Metrics = append(res.Metrics, m)
			}
			addEstimates(res, ps.Point, estimate)
			flagSpeedChange(res, ps, refAll)
			run.Results = append(run.Results, *res)
		}
	}
	if ctx.Err() != nil && run.Status != result.Failed {
		run.Status = result.Interrupted
	}
	run.Environment.Load = judgeLoad(load.Finish(), points, run.Results, cfg.Statistic)
	run.Finished = time.Now().UTC()
	return run
}

// deadlineShare is the part of --time-budget the engine may measure in:
// the rest is for what follows the last sample (summaries, results).
const deadlineShare = 0.98

// speedTolerance is how far the reference workload may drift from the run's
// median while a point is measured before the point is flagged.
const speedTolerance = 0.05

// referenceMedians returns the median reference time over all visits of
// the run, 0 if none were taken (the seed002 method takes none).
func referenceMedians(points []*pointState) float64 {
	var all []float64
	for _, ps := range points {
		all = append(all, ps.refs()...)
	}
	if len(all) == 0 {
		return 0
	}
	return stats.Summarize(all).Median
}

// flagSpeedChange records how fast the machine ran while the point was
// measured, relative to the whole run, and warns when it differs by more
// than speedTolerance: the point's numbers then describe a slower (or
// faster) machine than its neighbours' in the same table.
func flagSpeedChange(res *result.Result, ps *pointState, runMedian float64) {
	if runMedian == 0 || len(ps.refs()) == 0 {
		return
	}
	ratio := stats.Summarize(ps.refs()).Median / runMedian
	res.Provenance.Method.ReferenceRatio = ratio
	if ratio > 1+speedTolerance {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the machine ran slower while this point was measured (a reference workload took longer than its run median): %.0f%% slower", 100*(ratio-1)))
	} else if ratio < 1-speedTolerance {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the machine ran faster while this point was measured (a reference workload took less than its run median): %.0f%% faster", 100*(1-ratio)))
	}
}

// pointState is a point under measurement.
type pointState struct {
	Point
	sess *measure.Session
	obs  *measure.Observation
	// The reference workload's time at each visit, on the wall and the
	// thread CPU clock; cpu says which the run's statistic is.
	refsWall, refsCPU []float64
	cpu               bool
	totalNs           float64 // seed002's sum
	err               error
}

// refs are the reference probes on the run's clock.
func (ps *pointState) refs() []float64 {
	if ps.cpu {
		return ps.refsCPU
	}
	return ps.refsWall
}

func (ps *pointState) finished() bool { return ps.err != nil || ps.obs != nil }

// engineConfig derives the engine's settings from the run's.
func engineConfig(cfg RunConfig, points int) measure.Config {
	minSample, warmup, budget := engineDefaults(cfg.Quick)
	// Samples shorter than a loaded scheduler's time slice (Linux CFS:
	// 0.75 ms at least, sched_min_granularity) are mostly not preempted
	// (the CPU statistic takes the unpreempted ones), and on either clock
	// the median's CI narrows with the number of samples, not their
	// length: 2 ms wall-clock samples gave a point 8× fewer samples per
	// visit than 250 µs CPU-clock ones, and it took 2–7× as long to reach
	// ±2 % (docs/benchmarks.md § 3). 250 µs is still far above the floor
	// the engine enforces (100 × timer resolution and call overhead).
	minSample = min(minSample, shortSampleTime)
	if cfg.PointBudget > 0 {
		budget = cfg.PointBudget
	}
	if cfg.TimeBudget > 0 {
		budget = min(budget, max(cfg.TimeBudget/time.Duration(points), 10*minSample))
	}
	return measure.Config{
		MinSamples: cfg.MinSamples, MaxSamples: cfg.MaxSamples, TargetRelCI: cfg.TargetRelCI,
		Budget: budget, Warmup: min(warmup, budget/5), MinSampleTime: minSample,
		MinVisits: minVisits, Cycles: !cfg.NoCycles, Statistic: cfg.Statistic, Clock: cfg.Clock,
	}
}

// shortSampleTime is the shortest sample, on either clock.
const shortSampleTime = 250 * time.Microsecond

// minVisits is how many separate time windows a point's samples must come
// from before it may stop as converged.
const minVisits = 3

// runRounds measures the points in interleaved visits (see Run). With a
// deadline, a visit is at most the time left, and a point whose session
// cannot start by then (the engine says ErrDeadline) is not measured.
func runRounds(ctx context.Context, eng *measure.Engine, points []*pointState, cfg RunConfig, progress Progress, load *measure.LoadWatch) {
	visit := visitDefaults(cfg.Quick)
	clk, deadline := cfg.Clock, eng.Config().Deadline
	late := false // the deadline has come for points not yet started
	done := 0
	for _, ps := range points {
		if ps.finished() {
			done++
		}
	}
	for round := 1; done < len(points); round++ {
		for _, ps := range points {
			if ps.finished() {
				continue
			}
			if ctx.Err() != nil {
				interruptAll(points)
				return
			}
			if progress != nil {
				progress.Step(done, fmt.Sprintf("round %d: %s", round, ps.Name()))
			}
			load.Sample()
			d := visit
			if deadline > 0 {
				d = min(d, time.Duration(deadline-clk.Now()))
			}
			if ps.sess == nil && deadline > 0 && (late || time.Duration(deadline-clk.Now()) < eng.Config().MinSampleTime) {
				// Too late to start: one first batch (of one operation)
				// per remaining point would overrun the budget.
				late = true
				ps.err = fmt.Errorf("%w: not started", measure.ErrDeadline)
				done++
				continue
			}
			if ps.sess == nil {
				t, err := prepare(ps.Point, 0)
				if err != nil {
					ps.err = fmt.Errorf("preparing: %w", err)
					done++
					continue
				}
				if ps.sess, err = eng.Start(ctx, t); err != nil {
					ps.err = err
					late = late || errors.Is(err, measure.ErrDeadline)
					if ps.sess != nil && !errors.Is(err, measure.ErrDeadline) {
						ps.sess.Stop(measure.StopInterrupted)
						ps.obs = ps.sess.Observation()
					}
					done++
					continue
				}
			}
			ps.cpu = cfg.Statistic == measure.StatCPU
			wall, cpu := measure.Reference(clk)
			ps.refsWall, ps.refsCPU = append(ps.refsWall, wall), append(ps.refsCPU, cpu)
			fin, err := ps.sess.Visit(ctx, max(d, 0))
			if err != nil {
				ps.err = err
			}
			if fin {
				ps.obs = ps.sess.Observation()
				ps.sess = nil // release the prepared buffers and keys
				done++
			}
		}
	}
	if progress != nil {
		progress.Step(done, "")
	}
}

// interruptAll closes every unfinished point with what it has measured.
func interruptAll(points []*pointState) {
	for _, ps := range points {
		if ps.finished() || ps.sess == nil {
			continue
		}
		ps.sess.Stop(measure.StopInterrupted)
		ps.obs = ps.sess.Observation()
		ps.err = measure.ErrInterrupted
	}
}

// runFixed measures the points one after another with the seed002 design.
func runFixed(ctx context.Context, eng *measure.Engine, points []*pointState, cfg RunConfig, progress Progress) {
	design := measure.Seed002{Keys: cfg.Keys, Repetitions: cfg.Repetitions}
	for i, ps := range points {
		if ps.finished() {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if progress != nil {
			progress.Step(i, ps.Name())
		}
		ps.obs, ps.totalNs, ps.err = design.Measure(ctx, eng, func(variant int) (measure.Target, error) {
			return prepare(ps.Point, variant)
		})
	}
	if progress != nil {
		progress.Step(len(points), "")
	}
}

func prepare(p Point, variant int) (measure.Target, error) {
	loop, err := p.Op.Prepare(scheme.Args{Size: p.Size, Variant: variant})
	if err != nil {
		return measure.Target{}, err
	}
	bytes := int64(0)
	if p.Op.Input == scheme.InputBulk {
		bytes = int64(p.Size)
	}
	return measure.Target{Run: loop, Bytes: bytes}, nil
}

func subject(p Point) result.Subject {
	info := p.Scheme.Info()
	params := map[string]string{}
	for _, kv := range info.Params {
		params[kv.Key] = kv.Value
	}
	params["security_bits"] = strconv.Itoa(info.Security.Bits)
	if info.Legacy != "" {
		params["legacy"] = info.Legacy
	}
	// The implementation a name without a provider resolves to: compare
	// --by-provider and the report's provider chart measure the others
	// against it.
	if ref, err := scheme.Lookup(info.Name); err == nil && ref == p.Scheme {
		params["baseline"] = "yes"
	}
	s := result.Subject{
		Kind: "primitive", Name: p.Name(),
		Scheme: info.Name, Provider: string(info.Provider), Family: string(info.Family),
		Operation: p.Op.Name, Params: params,
	}
	if p.Op.Input != scheme.InputNone {
		s.InputBytes = p.Size
		params["input"] = p.Op.Input.String()
	}
	return s
}

func observationResult(p Point, eng *measure.Engine, obs *measure.Observation, cfg RunConfig) *result.Result {
	ecfg := eng.Config()
	timer := eng.Timer()
	method := result.Method{
		Name:              cfg.Method,
		Timer:             timer.Clock,
		TimerResolutionNs: timer.ResolutionNs,
		CallOverheadNs:    timer.OverheadNs,
		Batch:             obs.Batch,
		WarmupOps:         obs.WarmupOps,
		WarmupNs:          obs.WarmupNs,
		Samples:           len(obs.NsPerOp),
		Visits:            obs.Visits,
		TargetRelCI:       ecfg.TargetRelCI,
		BudgetNs:          float64(ecfg.Budget),
		ElapsedNs:         obs.ElapsedNs,
		Stop:              obs.Stop,
		Clock:             obs.Statistic,
	}
	if cfg.Method == MethodSeed002 {
		method.Keys, method.Repetitions = cfg.Keys, cfg.Repetitions
		method.TargetRelCI, method.BudgetNs = 0, 0
	}
	res := &result.Result{
		Subject: subject(p),
		Provenance: result.Provenance{Label: result.Measured, Method: method,
			Verified: "known-answer test passed: " + p.Scheme.Info().Standard},
	}
	// Rate and throughput follow the run's statistic: per second of wall
	// time, or with --clock cpu per second of the thread's CPU time.
	ns, per := obs.Primary(), "time per op"
	if obs.Statistic == measure.StatCPU {
		per = "thread CPU time per op (--clock cpu)"
	}
	res.Metrics = append(res.Metrics, result.NewSampled("time", "ns/op", result.Lower, result.Measured, obs.NsPerOp))
	rate := result.NewSampled("rate", "ops/s", result.Higher, result.Measured, mapf(ns, func(v float64) float64 { return 1e9 / v }))
	rate.Method = "1 / " + per
	res.Metrics = append(res.Metrics, rate)
	if p.Op.Input == scheme.InputBulk && p.Size > 0 {
		size := float64(p.Size)
		m := result.NewSampled("throughput", "MB/s", result.Higher, result.Measured, mapf(ns, func(v float64) float64 { return size * 1e3 / v }))
		m.Method = "input bytes / " + per + "; MB = 10^6 bytes, as Go benchmarks count"
		res.Metrics = append(res.Metrics, m)
	}
	if obs.CPUNsPerOp != nil {
		cpuSamples, method := obs.CPUNsPerOp, "thread CPU clock (CLOCK_THREAD_CPUTIME_ID) around each sample"
		if obs.Statistic == measure.StatCPU {
			cpuSamples = obs.Primary()
			switch left := obs.PrimaryLeftOut(); {
			case left > 0 && obs.Tier() == measure.Settled:
				method += fmt.Sprintf("; %d of %d samples left out: the thread was switched out during them or less than 1 ms before (getrusage RUSAGE_THREAD), so their CPU time includes refilling the caches other work left cold", left, len(obs.CPUNsPerOp))
			case left > 0:
				method += fmt.Sprintf("; %d of %d samples left out: the thread was switched out during them (getrusage RUSAGE_THREAD), so their CPU time includes refilling the caches other work left cold", left, len(obs.CPUNsPerOp))
				res.Warnings = append(res.Warnings, fmt.Sprintf("the thread was rarely left alone for 1 ms and a whole sample (%d of %d samples), so the CPU time also counts samples that began less than 1 ms after it was switched back in, each with some cache refilling in it", obs.Settled(), len(obs.CPUNsPerOp)))
			case obs.Settled() < len(obs.CPUNsPerOp):
				res.Warnings = append(res.Warnings, fmt.Sprintf("the thread was switched out during or just before most samples, so their CPU time includes refilling the caches other work left cold: %d of %d samples undisturbed", obs.Settled(), len(obs.CPUNsPerOp)))
			}
		}
		m := result.NewSampled("cpu-time", "cpu-ns/op", result.Lower, result.Measured, cpuSamples)
		m.Method = method
		res.Metrics = append(res.Metrics, m)
		cpu, wall := stats.Summarize(obs.CPUNsPerOp).Median, stats.Summarize(obs.NsPerOp).Median
		if cpu < cpuWallFloor*wall && obs.Statistic != measure.StatCPU {
			res.Warnings = append(res.Warnings, fmt.Sprintf("thread CPU time below 90%% of wall time, so the thread waited or was descheduled and wall time includes other load (--clock cpu would not count it): CPU is %.0f%% of wall", 100*cpu/wall))
		}
	}
	if obs.CyclesPerOp != nil {
		m := result.NewSampled("cycles", "cycles/op", result.Lower, result.Measured, obs.CyclesPerOp)
		m.Method = "hardware counter (perf_event cpu-cycles, user space)"
		res.Metrics = append(res.Metrics, m)
		if p.Op.Input == scheme.InputBulk && p.Size > 0 {
			size := float64(p.Size)
			m := result.NewSampled("cycles-per-byte", "cycles/B", result.Lower, result.Measured, mapf(obs.CyclesPerOp, func(v float64) float64 { return v / size }))
			m.Method = "hardware counter (perf_event cpu-cycles, user space) / input bytes"
			res.Metrics = append(res.Metrics, m)
		}
	}
	if obs.AllocBytesPerOp >= 0 {
		m := result.NewScalar("alloc-bytes", "B/op", result.Lower, result.Measured, obs.AllocBytesPerOp)
		m.Method = "runtime.MemStats.TotalAlloc over one batch outside the timed samples"
		res.Metrics = append(res.Metrics, m)
		m = result.NewScalar("allocs", "allocs/op", result.Lower, result.Measured, obs.AllocsPerOp)
		m.Method = "runtime.MemStats.Mallocs over one batch outside the timed samples"
		res.Metrics = append(res.Metrics, m)
	}
	if obs.PeakRSSBytes > 0 {
		m := result.NewScalar("peak-rss", "B", result.Lower, result.Measured, float64(obs.PeakRSSBytes))
		m.Method = "process resident-set high-water mark (getrusage) after this point; monotonic over the run"
		res.Metrics = append(res.Metrics, m)
	}
	if len(obs.NsPerOp) < stats.MinSamplesForCI {
		res.Warnings = append(res.Warnings, fmt.Sprintf("fewer than %d samples, so no confidence interval: %d samples", stats.MinSamplesForCI, len(obs.NsPerOp)))
	}
	if obs.Stop == measure.StopBudget {
		res.Warnings = append(res.Warnings, fmt.Sprintf("budget spent before the 95%% CI of the median reached ±%.1f%% of it (see the CI column): CI is ±%.1f%%", 100*ecfg.TargetRelCI, 100*obs.Summary.RelCI()))
	}
	if obs.CycleError != nil && cfg.Method != MethodSeed002 {
		res.Provenance.Method.Timer += "; cycles not counted: " + obs.CycleError.Error()
	}
	return res
}

// addEstimates adds clock-derived cycle estimates where no counter counted,
// labelled "estimated" with the assumption.
func addEstimates(res *result.Result, p Point, est *measure.ClockEstimate) {
	if est == nil || res.Metric("cycles") != nil {
		return
	}
	// From the run's statistic: with --clock cpu, the thread's CPU time
	// (the core's cycles, not the time it waited).
	t, method := res.Metric("time"), est.Method()
	if res.Provenance.Method.Clock == measure.StatCPU && res.Metric("cpu-time") != nil {
		t, method = res.Metric("cpu-time"), strings.Replace(method, "wall time", "thread CPU time", 1)
	}
	if t == nil {
		return
	}
	// est.Cycles takes nanoseconds; the samples are in seconds.
	cycles := func(s float64) float64 { return est.Cycles(s * 1e9) }
	m := result.NewSampled("cycles", "cycles/op", result.Lower, result.Estimated, mapf(t.Samples, cycles))
	m.Method = method
	res.Metrics = append(res.Metrics, m)
	if p.Op.Input == scheme.InputBulk && p.Size > 0 {
		size := float64(p.Size)
		m := result.NewSampled("cycles-per-byte", "cycles/B", result.Lower, result.Estimated,
			mapf(t.Samples, func(s float64) float64 { return cycles(s) / size }))
		m.Method = method + " / input bytes"
		res.Metrics = append(res.Metrics, m)
	}
}

func mapf(xs []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// distinctKeys says when the seed002 design's K keys are fewer distinct
// keys: an operation with DistinctKeys < K reuses key k mod DistinctKeys
// (RSA-7680 and RSA-15360 ship two embedded keys each: generating them
// takes minutes, and Go's rsa.GenerateKey cannot regenerate them from a
// seed). The output names the count used.
func distinctKeys(p Point, keys int) string {
	n := p.Op.DistinctKeys
	if n == 0 || n >= keys {
		return ""
	}
	return fmt.Sprintf("%d distinct keys, not %d: %s has %d embedded test keys, so key k is key k mod %d", n, keys, p.Scheme.Info().Name, n, n)
}

// describeCProviders records, for a plan that measures C-library
// providers, the libraries' versions and what one cgo call costs here, so
// a reader can see that it is small beside the timed batches (each batch
// crosses into C once for n calls).
func describeCProviders(env *result.Environment, plan *Plan) {
	used := map[scheme.Provider]bool{}
	for _, s := range plan.Schemes {
		if p := s.Info().Provider; scheme.IsCProvider(p) {
			used[p] = true
		}
	}
	if len(used) == 0 {
		return
	}
	env.Libraries = map[string]string{}
	for _, p := range scheme.Providers() {
		if used[p.Name] {
			env.Libraries[string(p.Name)] = p.Library
		}
	}
	if call, ok := scheme.CgoNullCall(); ok {
		env.CgoCallNs = cgoCallNs(call)
		env.Notes = append(env.Notes, fmt.Sprintf("C providers: each timed batch is one cgo call running the library n times inside C; one empty cgo call costs %.0f ns here (median of 15 batches of 10000)", env.CgoCallNs))
	}
}

// cgoCallNs times batches of empty cgo calls and returns the median cost
// of one call.
func cgoCallNs(call func(n int)) float64 {
	const batches, per = 15, 10000
	call(per) // warm-up
	ns := make([]float64, batches)
	for i := range ns {
		start := time.Now()
		call(per)
		ns[i] = float64(time.Since(start).Nanoseconds()) / per
	}
	return stats.Summarize(ns).Median
}
