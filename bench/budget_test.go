package bench

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// busyClock is a synthetic machine shared with other work: time moves
// only when it is read (20 ns) or an operation runs; an operation costs
// its CPU time on the thread's CPU clock, and the wall clock also counts
// the time its thread waited for a core. The engine and the runner take
// all their time from it, so these tests measure nothing real.
type busyClock struct {
	wall, cpu int64
	// wait is the wall time a batch waits, as a multiple of its CPU time.
	wait func() float64
}

func (c *busyClock) Now() int64               { c.wall += 20; return c.wall }
func (c *busyClock) ThreadCPU() (int64, bool) { return c.cpu, true }
func (c *busyClock) Name() string             { return "synthetic, busy" }

// clockedScheme is a scheme whose one operation costs costNs of CPU on a
// busyClock, times a per-batch factor noise() (nil: none).
type clockedScheme struct {
	info   scheme.Info
	clk    *busyClock
	costNs float64
	noise  func() float64
}

func (s *clockedScheme) Info() *scheme.Info { return &s.info }
func (s *clockedScheme) KAT() error         { return nil }
func (s *clockedScheme) Operations() []scheme.Operation {
	return []scheme.Operation{{Name: "spin", Input: scheme.InputNone,
		Prepare: func(scheme.Args) (scheme.Loop, error) {
			return func(n int) error {
				f := 1.0
				if s.noise != nil {
					f = s.noise()
				}
				cpu := int64(float64(n) * s.costNs * f)
				s.clk.cpu += cpu
				s.clk.wall += cpu
				if s.clk.wait != nil {
					s.clk.wall += int64(float64(cpu) * s.clk.wait())
				}
				return nil
			}, nil
		}}}
}

func clockedPlan(clk *busyClock, points int, costNs float64, noise func() float64) *Plan {
	p := &Plan{}
	for i := range points {
		s := &clockedScheme{info: scheme.Info{Name: "S" + string(rune('A'+i)), Family: scheme.FamilyHash, Provider: "test",
			Security: scheme.Security{Bits: 128}, Standard: "test vectors"}, clk: clk, costNs: costNs, noise: noise}
		p.Schemes = append(p.Schemes, s)
		p.Points = append(p.Points, Point{Scheme: s, Op: s.Operations()[0]})
	}
	return p
}

// TestTimeBudgetIsAWallClockBound: --time-budget bounds the run's wall
// time on the injected clock, whatever the load: with every batch waiting
// up to 20× its CPU time for a core and noise no point can converge on,
// the run ends within 10 % of the budget, the points measured say they
// stopped on the budget, and those never reached say they were not
// measured and why. An operation longer than the budget ends the run one
// operation past it. Fast tier.
func TestTimeBudgetIsAWallClockBound(t *testing.T) {
	for _, tc := range []struct {
		name       string
		points     int
		costNs     float64
		budget     time.Duration
		maxElapsed time.Duration
	}{
		{"40 noisy points, 1 s", 40, 5000, time.Second, 1100 * time.Millisecond},
		{"400 noisy points, 2 s", 400, 5000, 2 * time.Second, 2200 * time.Millisecond},
		{"an operation of 3 s, 1 s", 3, 3e9, time.Second, 4 * time.Second},
	} {
		r := rand.New(rand.NewPCG(7, 7))
		clk := &busyClock{wait: func() float64 { return 20 * r.Float64() }}
		noise := func() float64 { return math.Exp(0.5 * r.NormFloat64()) }
		if tc.costNs > 1e9 { // one operation, 3 s: the load's waits are the other cases'
			noise, clk.wait = nil, nil
		}
		cfg := RunConfig{TimeBudget: tc.budget, TargetRelCI: 0.001, Clock: clk, NoCycles: true}
		begin := clk.Now()
		run := Run(context.Background(), clockedPlan(clk, tc.points, tc.costNs, noise), cfg, nil)
		elapsed := time.Duration(clk.Now() - begin)
		t.Logf("%s: %v, %d results", tc.name, elapsed, len(run.Results))
		if elapsed > tc.maxElapsed {
			t.Errorf("%s: the run took %v of its %v budget on the clock, want at most %v", tc.name, elapsed, tc.budget, tc.maxElapsed)
		}
		if run.Status != result.Complete || len(run.Results) != tc.points {
			t.Errorf("%s: status %s with %d results, want complete with %d", tc.name, run.Status, len(run.Results), tc.points)
		}
		measured, notMeasured := 0, 0
		for _, r := range run.Results {
			switch {
			case r.Error != "":
				notMeasured++
				if !strings.Contains(r.Error, "not measured: the run's --time-budget") {
					t.Errorf("%s: %s: error %q, want it to say the budget ran out", tc.name, r.Subject.Name, r.Error)
				}
			default:
				measured++
				if r.Method().Stop != measure.StopBudget || !hasWarning(r, "budget spent before the 95% CI") {
					t.Errorf("%s: %s: stop %s, warnings %q; want budget, saying the CI did not reach its target", tc.name, r.Subject.Name, r.Method().Stop, r.Warnings)
				}
			}
		}
		if tc.costNs < 1e9 && measured == 0 {
			t.Errorf("%s: nothing measured", tc.name)
		}
		if err := run.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestBusyMachineReported: on a machine where each batch's thread waits
// 0.5–2.5× its CPU time for a core, a wall-clock run records the CPU/wall
// ratio, names every result as affected, says why, and advises --clock
// cpu; a --clock cpu run of the same plan converges on CPU time, reports
// the operation's true cost and names no result as affected. (The load
// average and CPU pressure come from this machine's /proc, so only what
// the samples show is asserted.) Fast tier.
func TestBusyMachineReported(t *testing.T) {
	for _, stat := range []string{measure.StatWall, measure.StatCPU} {
		r := rand.New(rand.NewPCG(3, 3))
		clk := &busyClock{wait: func() float64 { return 0.5 + 2*r.Float64() }}
		cfg := RunConfig{PointBudget: 200 * time.Millisecond, Statistic: stat, Clock: clk, NoCycles: true}
		run := Run(context.Background(), clockedPlan(clk, 3, 2000, nil), cfg, nil)
		l := run.Environment.Load
		if l == nil {
			t.Fatalf("%s: no load recorded", stat)
		}
		if l.CPUWallRatio < 0.25 || l.CPUWallRatio > 0.6 {
			t.Errorf("%s: CPU/wall ratio %v, want about 1/2.5", stat, l.CPUWallRatio)
		}
		if !l.Busy || !containsText(l.Reasons, "measuring thread ran") {
			t.Errorf("%s: busy %v, reasons %q; want busy because the thread waited", stat, l.Busy, l.Reasons)
		}
		switch stat {
		case measure.StatWall:
			if len(l.Affected) != 3 || !strings.Contains(l.Advice, "--clock cpu") {
				t.Errorf("wall: affected %v, advice %q; want all 3 and --clock cpu", l.Affected, l.Advice)
			}
			if !hasWarning(run.Results[0], "thread CPU time below 90% of wall time") {
				t.Errorf("wall: warnings %q", run.Results[0].Warnings)
			}
		case measure.StatCPU:
			if len(l.Affected) != 0 {
				t.Errorf("cpu: affected %v, want none: waiting does not inflate CPU time", l.Affected)
			}
			for _, res := range run.Results {
				cpu := res.Metric("cpu-time").Summary.Median
				if res.Method().Stop != measure.StopConverged || res.Method().Clock != measure.StatCPU || math.Abs(cpu-2e-6)/2e-6 > 0.001 {
					t.Errorf("cpu: %s stop %s, clock %q, cpu-time %v s; want converged on the 2 µs the operation costs", res.Subject.Name, res.Method().Stop, res.Method().Clock, cpu)
				}
				if rate := res.Metric("rate"); !strings.Contains(rate.Method, "CPU time") || math.Abs(rate.Summary.Median-5e5)/5e5 > 0.001 {
					t.Errorf("cpu: rate %v (%s), want 500k ops per CPU second", rate.Summary.Median, rate.Method)
				}
			}
		}
		if err := run.Validate(); err != nil {
			t.Error(err)
		}
	}
}

func hasWarning(r result.Result, text string) bool { return containsText(r.Warnings, text) }

func containsText(list []string, text string) bool {
	for _, s := range list {
		if strings.Contains(s, text) {
			return true
		}
	}
	return false
}

// The wall clock samples as finely as the CPU clock: the median's CI
// narrows with the number of samples, so longer wall-clock samples only
// made a point take longer to reach the same ±2 % (issue 21).
func TestWallAndCPUSampleAlike(t *testing.T) {
	for _, quick := range []bool{false, true} {
		wall := engineConfig(RunConfig{Statistic: measure.StatWall, Quick: quick}, 19)
		cpu := engineConfig(RunConfig{Statistic: measure.StatCPU, Quick: quick}, 19)
		if wall.MinSampleTime != cpu.MinSampleTime || wall.MinSampleTime > shortSampleTime {
			t.Errorf("quick=%v: wall samples %v, CPU samples %v; want both at most %v", quick, wall.MinSampleTime, cpu.MinSampleTime, shortSampleTime)
		}
		if wall.TargetRelCI != cpu.TargetRelCI || wall.MinVisits != cpu.MinVisits || wall.MinSamples != cpu.MinSamples {
			t.Errorf("quick=%v: the stop rule differs between the clocks: %+v vs %+v", quick, wall, cpu)
		}
	}
}
