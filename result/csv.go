package result

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

func init() { registerFormat(csvFormat{}) }

type csvFormat struct{}

func (csvFormat) Name() string { return "csv" }
func (csvFormat) Description() string {
	return "one row per subject and metric (long format, for pandas, R or a spreadsheet)"
}

var csvHeader = []string{"run", "subject", "kind", "scheme", "provider", "family", "operation", "input_bytes",
	"metric", "unit", "label", "n", "median", "ci_low", "ci_high", "q1", "q3", "min", "max", "p95", "mad", "mean",
	"method", "stop", "error"}

func (csvFormat) Write(w io.Writer, runs ...*Run) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	// An unbounded interval (N < 6) is empty, never a number that reads
	// as a bound.
	f := func(v float64) string {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 8, 64)
	}
	for _, run := range runs {
		for _, r := range run.Results {
			base := []string{run.ID, r.Subject.Name, r.Subject.Kind, r.Subject.Scheme, r.Subject.Provider,
				r.Subject.Family, r.Subject.Operation, strconv.Itoa(r.Subject.InputBytes)}
			if r.Error != "" {
				row := append(base, make([]string, len(csvHeader)-len(base)-1)...)
				if err := cw.Write(append(row, r.Error)); err != nil {
					return err
				}
				continue
			}
			for _, m := range r.Metrics {
				s := m.Summary
				method := m.Method
				if method == "" {
					method = r.Provenance.Method.Name
				}
				row := append(append([]string{}, base...), m.Name, m.Unit, string(m.Label), strconv.Itoa(s.N),
					f(s.Median), f(s.CILow), f(s.CIHigh), f(s.Q1), f(s.Q3), f(s.Min), f(s.Max), f(s.P95), f(s.MAD), f(s.Mean),
					method, r.Provenance.Method.Stop, "")
				if err := cw.Write(row); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
