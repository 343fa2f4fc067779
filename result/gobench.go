package result

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchfmt"
)

func init() { registerFormat(gobenchFormat{}) }

type gobenchFormat struct{}

func (gobenchFormat) Name() string { return "gobench" }
func (gobenchFormat) Description() string {
	return "the Go benchmark format, one line per sample: benchstat a.txt b.txt works"
}

// Write emits each sample as a benchmark line, so benchstat sees the
// distribution, not just a summary. Metrics with sampled values go on every
// line; single values (B/op, allocs/op) repeat. Estimated and modelled
// metrics get an "est-" or "model-" unit prefix so neither reads as a
// measurement.
func (gobenchFormat) Write(w io.Writer, runs ...*Run) error {
	bw := benchfmt.NewWriter(w)
	for _, run := range runs {
		sanitize(run)
		cfg := []benchfmt.Config{
			{Key: "goos", Value: []byte(run.Environment.OS), File: true},
			{Key: "goarch", Value: []byte(run.Environment.Arch), File: true},
			{Key: "pkg", Value: []byte("cryptocost/" + run.Kind), File: true},
		}
		if run.Environment.CPUModel != "" {
			cfg = append(cfg, benchfmt.Config{Key: "cpu", Value: []byte(run.Environment.CPUModel), File: true})
		}
		cfg = append(cfg,
			benchfmt.Config{Key: "cryptocost-run", Value: []byte(run.ID), File: true},
			benchfmt.Config{Key: "cryptocost-version", Value: []byte(run.Tool.Version), File: true})
		for _, r := range run.Results {
			if r.Error != "" || len(r.Metrics) == 0 {
				continue
			}
			n := 0
			for _, m := range r.Metrics {
				n = max(n, len(m.Samples))
			}
			iters := max(r.Provenance.Method.Batch, 1)
			for i := range max(n, 1) {
				res := &benchfmt.Result{
					Config: cfg,
					Name:   benchfmt.Name(GobenchName(r.Subject, run.Environment.GOMAXPROCS)),
					Iters:  iters,
				}
				seen := map[string]bool{}
				for _, m := range r.Metrics {
					v := m.Summary.Median
					if len(m.Samples) > 0 {
						if len(m.Samples) != n {
							continue // a metric with its own sampling
						}
						v = m.Samples[i]
					} else if m.Summary.N != 1 {
						continue // a summarised metric without samples
					}
					unit := m.Unit
					switch m.Label {
					case Estimated:
						unit = "est-" + unit
					case Modelled:
						unit = "model-" + unit
					}
					// benchstat keeps one value per unit and line: a
					// second metric with the same unit (energy-net after
					// energy) is named in its unit.
					if seen[unit] {
						unit = m.Name + "-" + unit
					}
					seen[unit] = true
					res.Values = append(res.Values, benchfmt.Value{Value: v, Unit: unit})
				}
				if err := bw.Write(res); err != nil {
					return err
				}
			}
		}
	}
	return nil
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
