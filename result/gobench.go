package result

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

func init() { registerFormat(gobenchFormat{}) }

type gobenchFormat struct {
	// runKey writes the run's ID as a file configuration key,
	// cryptocost-run, for a stream that holds several runs to be pivoted
	// on (benchstat -col cryptocost-run); Write does so whenever it is
	// given several runs. A file of one run must not carry it, or
	// benchstat a.txt b.txt splits the two files into two tables with no
	// deltas.
	runKey bool
}

// GobenchByRun is the gobench format with the run's ID as the file
// configuration key cryptocost-run, for several runs in one stream.
func GobenchByRun() Format { return gobenchFormat{runKey: true} }

func (gobenchFormat) Name() string { return "gobench" }
func (gobenchFormat) Description() string {
	return "the Go benchmark format, one line per sample: benchstat a.txt b.txt works"
}

// Write emits each sample as a benchmark line, so benchstat sees the
// distribution, not just a summary. Metrics with sampled values go on every
// line; single values (B/op, allocs/op) repeat. Estimated and modelled
// metrics get an "est-" or "model-" unit prefix so neither reads as a
// measurement.
func (g gobenchFormat) Write(w io.Writer, runs ...*Run) error {
	bw := benchfmt.NewWriter(w)
	for _, run := range runs {
		cfg := []benchfmt.Config{
			{Key: "goos", Value: []byte(run.Environment.OS), File: true},
			{Key: "goarch", Value: []byte(run.Environment.Arch), File: true},
			{Key: "pkg", Value: []byte("cryptocost/" + run.Kind), File: true},
		}
		if run.Environment.CPUModel != "" {
			cfg = append(cfg, benchfmt.Config{Key: "cpu", Value: []byte(run.Environment.CPUModel), File: true})
		}
		// The run's ID and version go on a comment line, not a
		// configuration line: benchstat's default table key is every file
		// configuration key, so a per-run key would split two runs into
		// two tables with no deltas (benchfmt ignores lines that are
		// neither configuration nor results).
		if g.runKey || len(runs) > 1 {
			cfg = append(cfg, benchfmt.Config{Key: "cryptocost-run", Value: []byte(run.ID), File: true})
		} else if _, err := fmt.Fprintf(w, "# cryptocost run %s, version %s\n", run.ID, run.Tool.Version); err != nil {
			return err
		}
		for _, r := range run.Results {
			if r.Error != "" || len(r.Metrics) == 0 {
				continue
			}
			// Lines carry the metrics sampled together: one set of lines
			// per sample count, the largest first with the single values
			// (a --clock cpu run leaves preempted samples out of its
			// CPU-time metrics, so they have fewer).
			var counts []int
			for _, m := range r.Metrics {
				if k := len(m.Samples); k > 0 && !slices.Contains(counts, k) {
					counts = append(counts, k)
				}
			}
			slices.SortFunc(counts, func(a, b int) int { return b - a })
			if len(counts) == 0 {
				counts = []int{0}
			}
			iters := max(r.Provenance.Method.Batch, 1)
			for k, n := range counts {
				if err := g.writeLines(bw, r, cfg, run.Environment.GOMAXPROCS, iters, n, k == 0); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// writeLines writes the lines of one result's metrics that have n samples
// (one line per sample), with its single values when scalars is set.
func (gobenchFormat) writeLines(bw *benchfmt.Writer, r Result, cfg []benchfmt.Config, procs, iters, n int, scalars bool) error {
	// benchstat keeps one value per unit and line: metrics that share a
	// unit (an MCU's stack, static RAM and ROM bytes; energy and
	// energy-net; cpu-time beside time) are each named in their unit,
	// except Go's own: time stays ns/op, alloc-bytes B/op.
	shared := map[string]int{}
	for _, m := range r.Metrics {
		u, _ := perOp(m.Unit)
		shared[u]++
	}
	for i := range max(n, 1) {
		res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(GobenchName(r.Subject, procs)), Iters: iters}
		for _, m := range r.Metrics {
			v := m.Summary.Median
			if len(m.Samples) > 0 {
				if len(m.Samples) != n {
					continue // sampled apart: on its own lines
				}
				v = m.Samples[i]
			} else if m.Summary.N != 1 || !scalars {
				continue // a summarised metric without samples, or written already
			}
			unit, f := perOp(m.Unit)
			// 1.01e-6 s is 1010 ns, not 1010.0000000000001; 5 V ×
			// 10.5 mA is 0.0525 W, not 0.052500000000000005.
			v = roundSig(v*f, 12)
			if shared[unit] > 1 && !goConvention[m.Name] && m.Name != m.Unit { // cycles stays cycles/op beside cycles-spread
				unit = m.Name + "-" + labelled(unit, m.Label)
			} else {
				unit = labelled(unit, m.Label)
			}
			res.Values = append(res.Values, benchfmt.Value{Value: v, Unit: unit})
		}
		if len(res.Values) == 0 {
			continue
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	return nil
}

// goConvention are the metrics whose units go test writes: they keep
// them whatever else shares the unit.
var goConvention = map[string]bool{"time": true, "alloc-bytes": true, "allocs": true}

// labelled marks estimated and modelled values in their unit ("est-",
// "model-") so neither reads as a measurement.
func labelled(unit string, l Label) string {
	switch l {
	case Estimated:
		return "est-" + unit
	case Modelled:
		return "model-" + unit
	case Simulated:
		return "sim-" + unit
	case Imported:
		return "imported-" + unit
	}
	return unit
}

// GobenchName is the benchmark name of a subject, without the "Benchmark"
// prefix: "SHA-256@go/hash/size=1k-8". The trailing -GOMAXPROCS is what
// `go test` writes, and benchfmt strips it into the .gomaxprocs key.
func GobenchName(s Subject, gomaxprocs int) string {
	name := strings.NewReplacer(" ", "_").Replace(s.Name)
	if s.InputBytes > 0 {
		// The last path element is the size; give it a key so benchstat
		// can pivot on it (-col /size).
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[:i+1] + "size=" + name[i+1:]
		}
	}
	return fmt.Sprintf("%s-%d", name, max(gomaxprocs, 1))
}
