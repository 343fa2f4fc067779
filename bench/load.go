package bench

import (
	"fmt"
	"math"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// Thresholds of a busy machine.
const (
	// cpuWallFloor: a point whose thread CPU time is below this share of
	// its wall time waited for a core (or was preempted) for more than a
	// tenth of it, so its wall time describes the load as much as the
	// operation.
	cpuWallFloor = 0.9
	// pressureCeiling: CPU pressure above this share of the run means
	// runnable tasks queued for a CPU a fifth of the time or more.
	pressureCeiling = 0.2
)

// judgeLoad completes what the load watch saw with what the samples
// showed — each point's CPU time against its wall time, and the reference
// probe's drift — and decides whether the machine was busy, which results
// that affected on the run's statistic, and what would help.
//
// On the wall clock a point is affected when its thread waited (CPU below
// cpuWallFloor of wall) or the reference ran more than speedTolerance
// slower or faster during it. On the CPU clock waiting costs nothing, so
// only the reference's drift (on the CPU clock: a shared or throttled
// core) affects a point.
func judgeLoad(l *result.Load, points []*pointState, results []result.Result, statistic string) *result.Load {
	cpuClock := statistic == measure.StatCPU
	var ratios []float64
	affected := map[string]bool{}
	for _, ps := range points {
		if ps.obs == nil || len(ps.obs.CPUNsPerOp) == 0 || len(ps.obs.NsPerOp) == 0 {
			continue
		}
		r := stats.Summarize(ps.obs.CPUNsPerOp).Median / stats.Summarize(ps.obs.NsPerOp).Median
		ratios = append(ratios, r)
		if r < cpuWallFloor && !cpuClock {
			affected[ps.Name()] = true
		}
	}
	if len(ratios) > 0 {
		l.CPUWallRatio = stats.Summarize(ratios).Median
	}
	for _, r := range results {
		if rr := r.Provenance.Method.ReferenceRatio; rr > 0 {
			d := math.Abs(rr - 1)
			l.ReferenceDrift = max(l.ReferenceDrift, d)
			if d > speedTolerance {
				affected[r.Subject.Name] = true
			}
		}
	}
	for _, r := range results { // in plan order
		if affected[r.Subject.Name] {
			l.Affected = append(l.Affected, r.Subject.Name)
		}
	}

	if l.LoadMax > float64(l.CPUs) {
		l.Reasons = append(l.Reasons, fmt.Sprintf("load average up to %.1f on %d CPUs", l.LoadMax, l.CPUs))
	}
	if l.CPUPressure > pressureCeiling {
		l.Reasons = append(l.Reasons, fmt.Sprintf("some task waited for a CPU %.0f%% of the time", 100*l.CPUPressure))
	}
	if l.CPUWallRatio > 0 && l.CPUWallRatio < cpuWallFloor {
		l.Reasons = append(l.Reasons, fmt.Sprintf("the measuring thread ran %.0f%% of its wall time (median of points)", 100*l.CPUWallRatio))
	}
	if l.ReferenceDrift > speedTolerance {
		l.Reasons = append(l.Reasons, fmt.Sprintf("a reference workload ran up to %.0f%% off its run median", 100*l.ReferenceDrift))
	}
	if len(l.Reasons) == 0 && len(l.Affected) > 0 {
		l.Reasons = append(l.Reasons, fmt.Sprintf("%d points' samples show their thread waiting or the machine running slower", len(l.Affected)))
	}
	l.Busy = len(l.Reasons) > 0
	switch {
	case !l.Busy:
	case !cpuClock:
		l.Advice = "for CPU-bound primitives use --clock cpu (thread CPU time, which waiting for a core does not inflate); or run fewer jobs at once, or rerun when the machine is quieter"
	case len(l.Affected) > 0:
		l.Advice = "thread CPU time does not count waiting, but a core shared with other work (a busy sibling hyperthread, caches) still runs slower: rerun the affected points with fewer jobs at once"
	default:
		l.Advice = "the results are thread CPU time, which the waiting did not inflate; wall times (the time metric) are inflated"
	}
	return l
}
