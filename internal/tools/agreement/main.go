// Command agreement checks cryptocost's engine against the Go toolchain's
// own benchmark engine, and measures its floor and stability. It produces
// the figures in docs/benchmarks.md:
//
//	go run ./internal/tools/agreement            # engine vs testing.Benchmark, and the floor
//	go run ./internal/tools/agreement spread FILE...   # spread of medians over runs
//
// Agreement: for each operation the same prepared loop (scheme.Operation's
// Loop) is timed by testing.Benchmark — the code behind `go test -bench`,
// ns/op as the mean over b.N — and by cryptocost's measure engine with the
// bench command's sample settings, alternately, in 31 rounds of about 100 ms
// each (-benchtime 100ms; a 100 ms engine budget). Pairing short
// alternating windows matters on a shared machine whose speed changes from
// one 100 ms to the next: both engines see the same mixture. The table gives
// the median over rounds of each engine, the median of the per-round ratios
// (each pair adjacent in time, so a slow phase of the machine tends to hit
// both) with its 95 % confidence interval, and the spread (interquartile
// range / median) of each engine's values: the machine's own noise.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/stats"
)

// The operations of docs/benchmarks.md item 1.
var ops = []struct {
	algo, op string
	size     int
}{
	{"AES-128-GCM", "seal", 16},
	{"AES-128-GCM", "seal", 16 << 10},
	{"SHA-256", "hash", 16 << 10},
	{"RSA-2048-PKCS1v15-SHA256", "sign", 32},
	{"RSA-2048-PKCS1v15-SHA256", "verify", 32},
	{"ECDSA-P256-SHA256", "sign", 32},
	{"ECDSA-P256-SHA256", "verify", 32},
	{"Ed25519", "sign", 32},
	{"X25519", "derive", 0},
	{"ML-KEM-768", "encaps", 0},
}

func main() {
	testing.Init()
	flag.Parse()
	if flag.Arg(0) == "spread" {
		if err := spread(flag.Args()[1:]); err != nil {
			fmt.Fprintln(os.Stderr, "agreement:", err)
			os.Exit(1)
		}
		return
	}
	if err := agreement(); err != nil {
		fmt.Fprintln(os.Stderr, "agreement:", err)
		os.Exit(1)
	}
}

// engineConfig is `cryptocost bench`'s sample length and warm-up (bench
// package) with a 100 ms budget per round.
func engineConfig() measure.Config {
	return measure.Config{MinSampleTime: 2 * time.Millisecond, Warmup: 10 * time.Millisecond, Budget: 100 * time.Millisecond, SkipAllocs: true}
}

// iqr is the interquartile range relative to the median.
func iqr(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	return (y[(3*n)/4] - y[n/4]) / y[n/2]
}

const rounds = 31

func agreement() error {
	if err := flag.Set("test.benchtime", "100ms"); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tgo test ns/op\tcryptocost ns/op\tratio\tratio 95% CI\tgo test IQR\tcryptocost IQR\t")
	for _, o := range ops {
		loop, err := prepare(o.algo, o.op, o.size)
		if err != nil {
			return err
		}
		var gt, cc, ratio []float64
		for range rounds {
			gt = append(gt, goTest(loop))
			obs, err := measure.New(engineConfig()).Measure(context.Background(), measure.Target{Run: loop})
			if err != nil {
				return err
			}
			cc = append(cc, obs.Summary.Median)
			ratio = append(ratio, cc[len(cc)-1]/gt[len(gt)-1])
		}
		r := stats.Summarize(ratio)
		name := fmt.Sprintf("%s %s", o.algo, o.op)
		if o.size > 0 {
			name += " " + scheme.FormatSize(o.size)
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.3f\t[%.3f, %.3f]\t%.1f%%\t%.1f%%\t\n", name, median(gt), median(cc),
			r.Median, r.CILow, r.CIHigh, 100*iqr(gt), 100*iqr(cc))
	}
	// The floor: an operation that does nothing.
	noop := func(n int) error {
		for range n {
		}
		return nil
	}
	obs, err := measure.New(engineConfig()).Measure(context.Background(), measure.Target{Run: noop})
	if err != nil {
		return err
	}
	fmt.Fprintf(tw, "no-op (floor)\t%.2f\t%.2f\t\t\t±%.1f%% CI\t\n", goTest(noop), obs.Summary.Median, 100*obs.Summary.RelCI())
	return tw.Flush()
}

func prepare(algo, op string, size int) (scheme.Loop, error) {
	s, err := scheme.Lookup(algo)
	if err != nil {
		return nil, err
	}
	if err := s.KAT(); err != nil {
		return nil, err
	}
	for _, o := range s.Operations() {
		if o.Name == op {
			return o.Prepare(scheme.Args{Size: size})
		}
	}
	return nil, fmt.Errorf("%s has no operation %s", algo, op)
}

// goTest times loop with testing.Benchmark, the engine of `go test -bench`
// (default -benchtime 1s), as a float to keep sub-nanosecond precision.
func goTest(loop scheme.Loop) float64 {
	r := testing.Benchmark(func(b *testing.B) {
		if err := loop(b.N); err != nil {
			b.Fatal(err)
		}
	})
	return float64(r.T.Nanoseconds()) / float64(r.N)
}

func median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	return y[len(y)/2]
}

// spread reads runs (cryptocost bench -o FILE.json) and prints, per subject
// present in all of them, the medians and their spread (max-min)/median.
func spread(files []string) error {
	if len(files) < 2 {
		return fmt.Errorf("spread needs at least two run files")
	}
	medians := map[string][]float64{}
	var order []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		runs, err := result.ReadJSON(fh)
		fh.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, r := range runs[0].Results {
			if m := r.Metric("time"); m != nil {
				if _, ok := medians[r.Subject.Name]; !ok {
					order = append(order, r.Subject.Name)
				}
				medians[r.Subject.Name] = append(medians[r.Subject.Name], m.Summary.Median)
			}
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subject\tmedians (ns/op)\tspread\t")
	worst := 0.0
	for _, name := range order {
		m := medians[name]
		if len(m) != len(files) {
			continue
		}
		s := (slices.Max(m) - slices.Min(m)) / median(m)
		worst = math.Max(worst, s)
		fmt.Fprintf(tw, "%s\t%s\t%.2f%%\t\n", name, fmtList(m), 100*s)
	}
	fmt.Fprintf(tw, "worst\t\t%.2f%%\t\n", 100*worst)
	return tw.Flush()
}

func fmtList(x []float64) string {
	s := ""
	for i, v := range x {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.4g", v)
	}
	return s
}
