// Package compare sets runs side by side, subject by subject, the way
// benchstat does for Go benchmarks: for every subject present in the runs
// (matched by result.Subject.Name, the name that is stable across runs,
// machines, devices and versions), every metric's median with its 95 %
// confidence interval in each run, and for each run after the first its
// change from the first: the relative delta of the medians, a
// distribution-free confidence interval of that change (the Hodges–Lehmann
// / Moses interval that goes with the Mann–Whitney test, shift.go), and
// the Mann–Whitney U test's p-value (stats.Compare, as benchstat). A change
// whose p-value is not below α is shown as "~": not distinguishable from
// noise at this sample size.
//
// Exact values (a byte count, an allocation count, a modelled figure: one
// value, no samples) are compared exactly, without a test. A metric that is
// not a measurement in either run keeps its label, so a modelled or
// estimated figure is never compared as if it were measured.
package compare

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// Input is one column of a comparison: a run, optionally narrowed to the
// subjects whose name matches a glob (so one run can be compared with
// itself: providers side by side).
type Input struct {
	Run *result.Run
	// Subjects is a glob on subject names ("" for all), * matching any
	// characters including "/": "*@go/*".
	Subjects string
	// Origin describes where the run came from (the store's Origin
	// string, "file run.json"), for the header.
	Origin string
	// Keep, if set, selects the subjects instead of the Subjects glob,
	// which then only describes the selection in the header.
	Keep func(result.Subject) bool
}

func (in Input) keeps(s result.Subject) bool {
	if in.Keep != nil {
		return in.Keep(s)
	}
	if in.Subjects == "" {
		return true
	}
	ok, _ := matchGlob(in.Subjects, s.Name)
	return ok
}

// ByProvider splits one run into one column per provider, for implementations
// side by side (compare them with IgnoreProvider): the first column holds
// each algorithm's baseline implementation (baseline reports which: for
// cryptocost's primitives, the Go implementation that a name without a
// provider resolves to), then one column per other provider, in the order
// they first appear. Each row is then one scheme, operation and size across
// providers, and each change is that provider's time relative to the
// baseline's, with its confidence interval.
func ByProvider(run *result.Run, origin string, baseline func(result.Subject) bool) ([]Input, error) {
	inputs := []Input{{Run: run, Origin: origin, Subjects: "baseline (Go) implementations", Keep: baseline}}
	seen := map[string]bool{}
	for _, r := range run.Results {
		p := r.Subject.Provider
		if p == "" || seen[p] || baseline(r.Subject) {
			continue
		}
		seen[p] = true
		inputs = append(inputs, Input{Run: run, Origin: origin, Subjects: "provider " + p,
			Keep: func(s result.Subject) bool { return s.Provider == p && !baseline(s) }})
	}
	if len(inputs) < 2 {
		return nil, fmt.Errorf("run %s has no provider besides the baseline implementations: measure with bench --provider go,openssl,... first", run.ID)
	}
	return inputs, nil
}

// Options tune a comparison.
type Options struct {
	// Alpha is the significance level (default 0.05, as benchstat).
	Alpha float64
	// Metrics limits the comparison to these metric names (default all).
	Metrics []string
	// IgnoreProvider matches subjects by name without the provider
	// ("AES-128-GCM@go/seal/1k" matches "AES-128-GCM@openssl/seal/1k"),
	// to compare implementations.
	IgnoreProvider bool
}

// Comparison is the outcome: one column per input, one row per subject and
// metric.
type Comparison struct {
	Alpha   float64  `json:"alpha"`
	Columns []Column `json:"columns"`
	Rows    []Row    `json:"rows"`
	// Notes list what could not be compared, and why.
	Notes []string `json:"notes,omitempty"`
	// Warnings say where the software that made the runs differs (Go,
	// modules, C libraries, tools, cryptocost itself): a change may come
	// from that as much as from what is compared.
	Warnings []string `json:"warnings,omitempty"`

	inputs []Input
}

// Column describes one input run.
type Column struct {
	Name     string `json:"name"` // A, B, C…
	RunID    string `json:"run"`
	Subjects string `json:"subjects,omitempty"`
	Kind     string `json:"kind"`
	Host     string `json:"host,omitempty"`
	Device   string `json:"device,omitempty"`
	Platform string `json:"platform"` // goos/goarch
	CPU      string `json:"cpu,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Started  string `json:"started"`
	Origin   string `json:"origin,omitempty"`
}

// Row is one subject's metric across the columns.
type Row struct {
	Subject string        `json:"subject"`
	Metric  string        `json:"metric"`
	Unit    string        `json:"unit"`
	Better  result.Better `json:"better,omitempty"`
	Cells   []Cell        `json:"cells"`
}

// Cell is a metric in one column; Change is nil in the first column and
// where either side is missing.
type Cell struct {
	Present bool          `json:"present"`
	Label   result.Label  `json:"label,omitempty"`
	Method  string        `json:"method,omitempty"`
	Summary stats.Summary `json:"summary"`
	Samples int           `json:"samples"`
	Change  *Change       `json:"change,omitempty"`
}

// Change is a cell's difference from the first column.
type Change struct {
	// Test is "mann-whitney" (both sides sampled), "exact" (both exact
	// values: the difference is the difference) or "none" (summaries
	// without samples: cannot be tested).
	Test string `json:"test"`
	// Delta is (median − base median) / base median.
	Delta float64 `json:"delta"`
	// DeltaLow and DeltaHigh bound Delta at DeltaConfidence (0 when
	// HasCI is false: too few samples for a finite interval).
	HasCI           bool    `json:"has_ci"`
	DeltaLow        float64 `json:"delta_low"`
	DeltaHigh       float64 `json:"delta_high"`
	DeltaConfidence float64 `json:"delta_confidence,omitempty"`
	// CIMethod says how the interval was obtained.
	CIMethod string `json:"ci_method,omitempty"`
	// P is the Mann-Whitney p-value (Test "mann-whitney").
	P float64 `json:"p"`
	// Significant: P < Alpha, or an exact difference that is not zero.
	Significant bool     `json:"significant"`
	Warnings    []string `json:"warnings,omitempty"`
}

// Compare compares the inputs, the first being the baseline.
func Compare(inputs []Input, opt Options) (*Comparison, error) {
	if len(inputs) < 2 {
		return nil, fmt.Errorf("compare needs at least two runs, got %d", len(inputs))
	}
	if opt.Alpha == 0 {
		opt.Alpha = 0.05
	}
	if opt.Alpha <= 0 || opt.Alpha >= 1 {
		return nil, fmt.Errorf("alpha %v: want a level between 0 and 1, such as 0.05", opt.Alpha)
	}
	c := &Comparison{Alpha: opt.Alpha, inputs: inputs}
	// Index each input's results by key, keeping first-seen order.
	byKey := make([]map[string]*result.Result, len(inputs))
	var keys []string
	seenKey := map[string]bool{}
	for i, in := range inputs {
		c.Columns = append(c.Columns, column(i, in))
		byKey[i] = map[string]*result.Result{}
		matched := 0
		for j := range in.Run.Results {
			r := &in.Run.Results[j]
			if !in.keeps(r.Subject) {
				continue
			}
			matched++
			k := key(r.Subject, opt.IgnoreProvider)
			if _, dup := byKey[i][k]; dup {
				return nil, fmt.Errorf("run %s has two subjects that both compare as %q: drop --ignore-provider or narrow the run with RUN:PATTERN", in.Run.ID, k)
			}
			byKey[i][k] = r
			if !seenKey[k] {
				seenKey[k] = true
				keys = append(keys, k)
			}
		}
		if matched == 0 {
			return nil, fmt.Errorf("run %s has no subject matching %q", in.Run.ID, in.Subjects)
		}
	}
	want := map[string]bool{}
	for _, m := range opt.Metrics {
		want[m] = true
	}
	shared := 0
	for _, k := range keys {
		present := 0
		for i := range inputs {
			if byKey[i][k] != nil {
				present++
			}
		}
		if present < 2 {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: only in %s", k, onlyIn(c.Columns, byKey, k)))
			continue
		}
		shared++
		for _, metric := range metricOrder(byKey, k) {
			if len(want) > 0 && !want[metric.name] {
				continue
			}
			row := Row{Subject: k, Metric: metric.name, Unit: metric.unit}
			var base *result.Metric
			for i := range inputs {
				var cell Cell
				if r := byKey[i][k]; r != nil && r.Error == "" {
					if m := r.Metric(metric.name); m != nil && m.Unit == metric.unit {
						sum := m.Summary
						if len(m.Samples) > 0 {
							// The summary follows from the samples; recompute it
							// so a file with a partial summary compares the same.
							sum = stats.Summarize(m.Samples)
						}
						cell = Cell{Present: true, Label: m.Label, Method: m.Method, Summary: sum, Samples: len(m.Samples)}
						if row.Better == "" {
							row.Better = m.Better
						}
						if i == 0 {
							base = m
						} else if base != nil {
							cell.Change = change(base, m, opt.Alpha)
						}
					} else if m != nil {
						c.Notes = append(c.Notes, fmt.Sprintf("%s %s: unit %s in %s, %s in %s: not compared",
							k, metric.name, m.Unit, c.Columns[i].Name, metric.unit, c.Columns[0].Name))
					}
				}
				row.Cells = append(row.Cells, cell)
			}
			c.Rows = append(c.Rows, row)
		}
	}
	if shared == 0 {
		return nil, fmt.Errorf("the runs share no subject: compare runs of the same kind (subjects are matched by name%s)", map[bool]string{false: "; --ignore-provider matches across providers", true: ""}[opt.IgnoreProvider])
	}
	if len(want) > 0 && len(c.Rows) == 0 {
		return nil, fmt.Errorf("no shared subject has metric %s", strings.Join(opt.Metrics, " or "))
	}
	c.Warnings = provenanceWarnings(c.Columns, inputs)
	return c, nil
}

// Inputs returns the inputs compared (for writers that re-emit the runs).
func (c *Comparison) Inputs() []Input { return c.inputs }

func column(i int, in Input) Column {
	env := in.Run.Environment
	return Column{
		Name: string(rune('A' + i%26)), RunID: in.Run.ID, Subjects: in.Subjects, Kind: in.Run.Kind,
		Host: env.Hostname, Device: env.Device, Platform: env.OS + "/" + env.Arch, CPU: env.CPUModel,
		Tool: strings.TrimSpace(in.Run.Tool.Version + " " + env.GoVersion), Started: in.Run.Started.UTC().Format("2006-01-02 15:04Z"),
		Origin: in.Origin,
	}
}

// key is the subject's matching key.
func key(s result.Subject, ignoreProvider bool) string {
	if !ignoreProvider || s.Provider == "" {
		return s.Name
	}
	return strings.Replace(s.Name, "@"+s.Provider, "", 1)
}

func onlyIn(cols []Column, byKey []map[string]*result.Result, k string) string {
	var names []string
	for i, m := range byKey {
		if m[k] != nil {
			names = append(names, cols[i].Name)
		}
	}
	return strings.Join(names, ", ")
}

type metricID struct{ name, unit string }

// metricOrder lists the metrics of subject k in the order the runs have
// them, first run first.
func metricOrder(byKey []map[string]*result.Result, k string) []metricID {
	var out []metricID
	seen := map[string]bool{}
	for _, m := range byKey {
		r := m[k]
		if r == nil {
			continue
		}
		for _, mt := range r.Metrics {
			if !seen[mt.Name] {
				seen[mt.Name] = true
				out = append(out, metricID{mt.Name, mt.Unit})
			}
		}
	}
	return out
}

// change computes b's change from a.
func change(a, b *result.Metric, alpha float64) *Change {
	ma, mb := a.Summary.Median, b.Summary.Median
	ch := &Change{}
	if ma != 0 {
		ch.Delta = (mb - ma) / math.Abs(ma)
	} else if mb != 0 {
		ch.Delta = math.Inf(int(math.Copysign(1, mb)))
	}
	if a.Label != b.Label {
		ch.Warnings = append(ch.Warnings, fmt.Sprintf("compares %s with %s", b.Label, a.Label))
	}
	switch {
	case len(a.Samples) >= 2 && len(b.Samples) >= 2:
		ch.Test = "mann-whitney"
		cmp := stats.Compare(a.Samples, b.Samples)
		ch.P = cmp.P
		ch.Significant = cmp.P < alpha
		ch.Warnings = append(ch.Warnings, cmp.Warnings...)
		if ci, ok := RatioShift(a.Samples, b.Samples, alpha); ok {
			if ci.OK {
				ch.HasCI, ch.DeltaLow, ch.DeltaHigh, ch.DeltaConfidence = true, ci.Lo-1, ci.Hi-1, ci.Confidence
				ch.CIMethod = "Hodges–Lehmann/Moses interval of the ratio (shift of log values)"
			}
		} else if ci := Shift(a.Samples, b.Samples, alpha); ci.OK && ma != 0 {
			ch.HasCI, ch.DeltaLow, ch.DeltaHigh, ch.DeltaConfidence = true, ci.Lo/math.Abs(ma), ci.Hi/math.Abs(ma), ci.Confidence
			ch.CIMethod = "Hodges–Lehmann/Moses interval of the difference, over the base median"
		}
		if !ch.HasCI {
			ch.Warnings = append(ch.Warnings, fmt.Sprintf("too few samples for a %.0f%% interval of the change (n=%d+%d)", 100*(1-alpha), len(a.Samples), len(b.Samples)))
		}
	case a.Summary.N == 1 && b.Summary.N == 1 && len(a.Samples) <= 1 && len(b.Samples) <= 1:
		ch.Test = "exact"
		ch.HasCI, ch.DeltaLow, ch.DeltaHigh, ch.DeltaConfidence = true, ch.Delta, ch.Delta, 1
		ch.Significant = mb != ma
		ch.CIMethod = "exact values"
	default:
		ch.Test = "none"
		ch.Warnings = append(ch.Warnings, "no raw samples on one side: the change is not tested")
	}
	return ch
}

// matchGlob matches a subject name against a glob where * matches any
// run of characters, "/" included ("*@go/*" matches "SHA-256@go/hash/1k"),
// and ? any one character.
func matchGlob(pattern, name string) (bool, error) {
	re := "^" + strings.NewReplacer(`\*`, ".*", `\?`, ".").Replace(regexp.QuoteMeta(pattern)) + "$"
	return regexp.MatchString(re, name)
}
