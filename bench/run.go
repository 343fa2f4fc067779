package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
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
	// TimeBudget bounds the whole run: each point gets an equal share of
	// what is left. 0: no total bound.
	TimeBudget time.Duration
	// PointBudget bounds each point (default 1 s, 20 ms with Quick).
	PointBudget time.Duration
	// TargetRelCI is the stop rule's precision (default 0.02 = ±2 %).
	TargetRelCI float64
	MinSamples  int
	MaxSamples  int
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
func Run(ctx context.Context, plan *Plan, cfg RunConfig, progress Progress) *result.Run {
	minSample, warmup, pointBudget := engineDefaults(cfg.Quick)
	if cfg.PointBudget > 0 {
		pointBudget = cfg.PointBudget
	}
	if cfg.Method == "" {
		cfg.Method = MethodAdaptive
	}
	if cfg.Keys <= 0 {
		cfg.Keys = 10
	}
	if cfg.Repetitions <= 0 {
		cfg.Repetitions = 10
	}
	env := measure.CaptureEnvironment()
	run := &result.Run{
		Schema:      result.Schema,
		ID:          newRunID(),
		Kind:        "bench",
		Started:     time.Now().UTC(),
		Status:      result.Complete,
		Environment: env,
	}
	var estimate *measure.ClockEstimate
	if env.CPUMHz > 0 {
		estimate = &measure.ClockEstimate{MHz: env.CPUMHz, Source: env.CPUMHzFrom}
	}

	if progress != nil {
		progress.Begin(len(plan.Points))
		defer progress.End()
	}
	katDone := map[string]error{}
	start := time.Now()
	for i, p := range plan.Points {
		if ctx.Err() != nil {
			run.Status = result.Interrupted
			break
		}
		if progress != nil {
			progress.Step(i, p.Name())
		}
		info := p.Scheme.Info()
		kat, checked := katDone[info.ID()]
		if !checked {
			kat = p.Scheme.KAT()
			katDone[info.ID()] = kat
			if kat != nil {
				run.Errors = append(run.Errors, fmt.Sprintf("%s: %v: not measured", info.ID(), kat))
			}
		}
		if kat != nil {
			run.Status = result.Failed
			run.Results = append(run.Results, result.Result{Subject: subject(p),
				Error: "known-answer test failed, not measured: " + kat.Error()})
			continue
		}

		budget := pointBudget
		if cfg.TimeBudget > 0 {
			left := cfg.TimeBudget - time.Since(start)
			budget = min(budget, max(left/time.Duration(len(plan.Points)-i), minSample*10))
		}
		eng := measure.New(measure.Config{
			MinSamples: cfg.MinSamples, MaxSamples: cfg.MaxSamples, TargetRelCI: cfg.TargetRelCI,
			Budget: budget, Warmup: min(warmup, budget/5), MinSampleTime: minSample,
			Cycles: !cfg.NoCycles,
		})
		res, err := measurePoint(ctx, eng, p, cfg)
		if res != nil {
			addEstimates(res, p, estimate)
			run.Results = append(run.Results, *res)
		}
		if errors.Is(err, measure.ErrInterrupted) || ctx.Err() != nil {
			run.Status = result.Interrupted
			break
		}
		if err != nil {
			run.Status = result.Failed
			run.Errors = append(run.Errors, fmt.Sprintf("%s: %v", p.Name(), err))
			run.Results = append(run.Results, result.Result{Subject: subject(p), Error: err.Error()})
		}
	}
	if progress != nil {
		progress.Step(len(plan.Points), "")
	}
	run.Finished = time.Now().UTC()
	return run
}

// measurePoint prepares and times one point. A failed preparation or
// operation is an error; an interruption returns what was measured.
func measurePoint(ctx context.Context, eng *measure.Engine, p Point, cfg RunConfig) (*result.Result, error) {
	bytes := int64(0)
	if p.Op.Input == scheme.InputBulk {
		bytes = int64(p.Size)
	}
	prepare := func(variant int) (measure.Target, error) {
		loop, err := p.Op.Prepare(scheme.Args{Size: p.Size, Variant: variant})
		if err != nil {
			return measure.Target{}, err
		}
		return measure.Target{Run: loop, Bytes: bytes}, nil
	}

	var (
		obs   *measure.Observation
		total float64
		err   error
	)
	if cfg.Method == MethodSeed002 {
		obs, total, err = measure.Seed002{Keys: cfg.Keys, Repetitions: cfg.Repetitions}.Measure(ctx, eng, prepare)
	} else {
		var t measure.Target
		if t, err = prepare(0); err != nil {
			return nil, fmt.Errorf("preparing: %w", err)
		}
		obs, err = eng.Measure(ctx, t)
	}
	if obs == nil || len(obs.NsPerOp) == 0 {
		return nil, err
	}
	res := observationResult(p, eng, obs, cfg)
	if cfg.Method == MethodSeed002 {
		m := result.NewScalar("total-time", "ns", result.Lower, result.Measured, total)
		m.Method = fmt.Sprintf("sum over %d keys/inputs × %d repetitions, as the seed002 study reported", cfg.Keys, cfg.Repetitions)
		res.Metrics = append(res.Metrics, m)
	}
	if len(obs.NsPerOp) < stats.MinSamplesForCI {
		res.Warnings = append(res.Warnings, fmt.Sprintf("fewer than %d samples, so no confidence interval: %d samples", stats.MinSamplesForCI, len(obs.NsPerOp)))
	}
	return res, err
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
		TargetRelCI:       ecfg.TargetRelCI,
		BudgetNs:          float64(ecfg.Budget),
		ElapsedNs:         obs.ElapsedNs,
		Stop:              obs.Stop,
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
	ns := obs.NsPerOp
	res.Metrics = append(res.Metrics, result.NewSampled("time", "ns/op", result.Lower, result.Measured, ns))
	res.Metrics = append(res.Metrics, result.NewSampled("rate", "ops/s", result.Higher, result.Measured, mapf(ns, func(v float64) float64 { return 1e9 / v })))
	if p.Op.Input == scheme.InputBulk && p.Size > 0 {
		size := float64(p.Size)
		m := result.NewSampled("throughput", "MB/s", result.Higher, result.Measured, mapf(ns, func(v float64) float64 { return size * 1e3 / v }))
		m.Method = "input bytes / time per op; MB = 10^6 bytes, as Go benchmarks count"
		res.Metrics = append(res.Metrics, m)
	}
	if obs.CPUNsPerOp != nil {
		m := result.NewSampled("cpu-time", "cpu-ns/op", result.Lower, result.Measured, obs.CPUNsPerOp)
		m.Method = "thread CPU clock (CLOCK_THREAD_CPUTIME_ID) around each sample"
		res.Metrics = append(res.Metrics, m)
		if cpu, wall := stats.Summarize(obs.CPUNsPerOp).Median, res.Metrics[0].Summary.Median; cpu < 0.9*wall {
			res.Warnings = append(res.Warnings, fmt.Sprintf("thread CPU time below 90%% of wall time, so the thread waited or was descheduled and wall time includes other load: CPU is %.0f%% of wall", 100*cpu/wall))
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
	if obs.Stop == measure.StopBudget {
		res.Warnings = append(res.Warnings, fmt.Sprintf("budget spent before the CI reached ±%.1f%% (see the CI column): CI is ±%.1f%%", 100*ecfg.TargetRelCI, 100*obs.Summary.RelCI()))
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
	t := res.Metric("time")
	if t == nil {
		return
	}
	m := result.NewSampled("cycles", "cycles/op", result.Lower, result.Estimated, mapf(t.Samples, est.Cycles))
	m.Method = est.Method()
	res.Metrics = append(res.Metrics, m)
	if p.Op.Input == scheme.InputBulk && p.Size > 0 {
		size := float64(p.Size)
		m := result.NewSampled("cycles-per-byte", "cycles/B", result.Lower, result.Estimated,
			mapf(t.Samples, func(ns float64) float64 { return est.Cycles(ns) / size }))
		m.Method = est.Method() + " / input bytes"
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

// newRunID returns a sortable, unique run ID: UTC time plus 4 random bytes.
func newRunID() string {
	var b [4]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
