package measure

import (
	"context"
	"fmt"
)

// Seed002 is the fixed design of the Java ME study (S002): K distinct keys
// or inputs, each timed over R repetitions as one block; the study reported
// the sum of all K·R operations.
type Seed002 struct {
	Keys, Repetitions int
}

// Measure runs the design. prepare(k) returns the target for the k-th key or
// input (preparation is not timed). The observation has one sample per key
// (block time / R) and Stop = "fixed"; TotalNs is the study's reported sum.
func (d Seed002) Measure(ctx context.Context, e *Engine, prepare func(variant int) (Target, error)) (obs *Observation, totalNs float64, err error) {
	if d.Keys < 1 || d.Repetitions < 1 {
		return nil, 0, fmt.Errorf("seed002 needs at least 1 key and 1 repetition, got %d × %d", d.Keys, d.Repetitions)
	}
	clk := e.cfg.Clock
	start := clk.Now()
	obs = &Observation{TimerResolutionNs: e.timer.ResolutionNs, CallOverheadNs: e.timer.OverheadNs,
		Batch: d.Repetitions, AllocBytesPerOp: -1, AllocsPerOp: -1, Statistic: e.cfg.Statistic}
	_, cpuOK := clk.ThreadCPU()
	for k := range d.Keys {
		if ctx.Err() != nil {
			obs.Stop = StopInterrupted
			obs.ElapsedNs = float64(clk.Now() - start)
			return obs, totalNs, fmt.Errorf("%w after %d of %d keys", ErrInterrupted, k, d.Keys)
		}
		t, err := prepare(k)
		if err != nil {
			return nil, 0, fmt.Errorf("preparing key/input %d: %w", k, err)
		}
		var cpu0, cpu1 int64
		if cpuOK {
			cpu0, _ = clk.ThreadCPU()
		}
		dt, err := timeBatch(clk, t.Run, d.Repetitions)
		if cpuOK {
			cpu1, _ = clk.ThreadCPU()
		}
		if err != nil {
			return nil, 0, err
		}
		totalNs += float64(dt)
		obs.NsPerOp = append(obs.NsPerOp, float64(dt)/float64(d.Repetitions))
		if cpuOK {
			obs.CPUNsPerOp = append(obs.CPUNsPerOp, float64(cpu1-cpu0)/float64(d.Repetitions))
		}
	}
	obs.Stop = StopFixed
	obs.ElapsedNs = float64(clk.Now() - start)
	if rss, ok := peakRSS(); ok {
		obs.PeakRSSBytes = rss
	}
	return obs, totalNs, nil
}
