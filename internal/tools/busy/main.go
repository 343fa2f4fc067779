// Command busy measures what a busy machine does to cryptocost's numbers:
// the 13-operation set of docs/benchmarks.md (the stability set, with Go's
// and CIRCL's ML-KEM-768) is benchmarked with `bench --clock cpu` in
// alternating rounds, one as the machine is ("quiet": no load added) and
// one with N busy loops added (child processes spinning on the CPU), and
// the table gives, per operation, the thread-CPU-time and the wall-time
// medians of both and their ratios — side by side in one run, so both see
// the same machine otherwise. It prints each run's load as the run itself
// recorded it (environment.load), so a "quiet" round on a shared machine
// says how quiet it was.
//
//	go run ./internal/tools/busy                  # 4 busy loops, 3 rounds of each
//	go run ./internal/tools/busy -loops 8 -rounds 5
//
// The figure of docs/benchmarks.md § Busy machine: CPU-time medians under
// load within 5 % of the quiet ones, where wall-time medians are not.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/bench"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// The set: the stability command of docs/benchmarks.md § 2, restricted to
// the Go and CIRCL providers.
var set = bench.Options{
	Algos:     []string{"AES-128-GCM", "SHA-256", "RSA-2048-PKCS1v15-SHA256", "ECDSA-P256-SHA256", "Ed25519", "X25519", "ML-KEM-768"},
	Ops:       []string{"seal", "hash", "sign", "verify", "derive", "encaps"},
	Providers: []string{"go", "circl"},
	Sizes:     []int{16, 16 << 10},
}

func main() {
	loops := flag.Int("loops", 4, "busy loops (processes spinning on a CPU) in the busy rounds")
	rounds := flag.Int("rounds", 3, "rounds of each kind, alternating")
	budget := flag.Duration("time-budget", 30*time.Second, "each run's --time-budget")
	flag.Parse()
	if flag.Arg(0) == "spin" {
		spin()
	}
	if err := run(*loops, *rounds, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "busy:", err)
		os.Exit(1)
	}
}

// spin is a busy loop: one thread, never yielding, until killed.
func spin() {
	runtime.GOMAXPROCS(1)
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1
		if x == 0 {
			fmt.Println(x)
		}
	}
}

type sample struct {
	cpu, wall map[string]float64 // subject → median (s)
	converged int
	took      time.Duration
	load      *result.Load
}

func run(loops, rounds int, budget time.Duration) error {
	plan, err := bench.NewPlan(set)
	if err != nil {
		return err
	}
	if len(plan.Points) != 13 {
		return fmt.Errorf("the set has %d points, want 13", len(plan.Points))
	}
	cfg := bench.RunConfig{Statistic: measure.StatCPU, TimeBudget: budget, TargetRelCI: 0.02, MinSamples: 10}
	var quiet, busy []sample
	for r := range 2 * rounds {
		loaded := r%2 == 1
		if r/2%2 == 1 {
			loaded = !loaded // alternate which kind goes first
		}
		var stop func()
		if loaded {
			if stop, err = startLoops(loops); err != nil {
				return err
			}
		}
		t0 := time.Now()
		res := bench.Run(context.Background(), plan, cfg, nil)
		s := sample{cpu: map[string]float64{}, wall: map[string]float64{}, took: time.Since(t0), load: res.Environment.Load}
		if stop != nil {
			stop()
		}
		for _, x := range res.Results {
			if c, w := x.Metric("cpu-time"), x.Metric("time"); c != nil && w != nil {
				s.cpu[x.Subject.Name], s.wall[x.Subject.Name] = c.Summary.Median, w.Summary.Median
			}
			if x.Method().Stop == measure.StopConverged {
				s.converged++
			}
		}
		if loaded {
			busy = append(busy, s)
		} else {
			quiet = append(quiet, s)
		}
		fmt.Fprintf(os.Stderr, "round %d (%s): %.1f s, %d of 13 converged, load %s\n", r+1, kind(loaded, loops), s.took.Seconds(), s.converged, loadText(s.load))
	}
	report(plan, quiet, busy, loops)
	return nil
}

func kind(loaded bool, loops int) string {
	if loaded {
		return fmt.Sprintf("+%d busy loops", loops)
	}
	return "as is"
}

func loadText(l *result.Load) string {
	if l == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.1f→%.1f (max %.1f) on %d CPUs, CPU pressure %.0f%%, thread CPU/wall %.2f",
		l.LoadStart, l.LoadEnd, l.LoadMax, l.CPUs, 100*l.CPUPressure, l.CPUWallRatio)
}

// startLoops starts n spinning child processes; stop kills them.
func startLoops(n int) (stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var procs []*exec.Cmd
	stop = func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}
	for range n {
		c := exec.Command(self, "spin")
		if err := c.Start(); err != nil {
			stop()
			return nil, err
		}
		procs = append(procs, c)
	}
	time.Sleep(200 * time.Millisecond) // let the scheduler spread them
	return stop, nil
}

func report(plan *bench.Plan, quiet, busy []sample, loops int) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "operation\tCPU as is\tCPU +%d loops\tCPU ratio\t(range)\twall as is\twall +%d loops\twall ratio\t\n", loops, loops)
	var worst float64
	for _, p := range plan.Points {
		name := p.Name()
		cq, cb := medians(quiet, name, true), medians(busy, name, true)
		wq, wb := medians(quiet, name, false), medians(busy, name, false)
		// Round-by-round ratios: busy round i against quiet round i.
		var ratios []float64
		for i := range min(len(quiet), len(busy)) {
			if q, b := quiet[i].cpu[name], busy[i].cpu[name]; q > 0 && b > 0 {
				ratios = append(ratios, b/q)
			}
		}
		cr := stats.Summarize(cb).Median / stats.Summarize(cq).Median
		worst = max(worst, math.Abs(cr-1))
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%s\t%s\t%s\t%.2f\t\n", name,
			result.Display(stats.Summarize(cq).Median, "s"), result.Display(stats.Summarize(cb).Median, "s"), cr, span(ratios),
			result.Display(stats.Summarize(wq).Median, "s"), result.Display(stats.Summarize(wb).Median, "s"),
			stats.Summarize(wb).Median/stats.Summarize(wq).Median)
	}
	tw.Flush()
	fmt.Printf("\nlargest CPU-time change: %.1f %%\n", 100*worst)
	for _, g := range []struct {
		name string
		s    []sample
	}{{"as is", quiet}, {fmt.Sprintf("+%d loops", loops), busy}} {
		var took []string
		conv := 0
		for _, s := range g.s {
			took = append(took, fmt.Sprintf("%.1f s", s.took.Seconds()))
			conv += s.converged
		}
		fmt.Printf("%s: runs took %s; %d of %d points converged (±2 %%)\n", g.name, strings.Join(took, ", "), conv, 13*len(g.s))
	}
}

// medians are a subject's per-round medians.
func medians(ss []sample, name string, cpu bool) []float64 {
	var out []float64
	for _, s := range ss {
		m := s.wall
		if cpu {
			m = s.cpu
		}
		if v, ok := m[name]; ok {
			out = append(out, v)
		}
	}
	return out
}

func span(x []float64) string {
	if len(x) == 0 {
		return ""
	}
	return fmt.Sprintf("%.3f–%.3f", slices.Min(x), slices.Max(x))
}
