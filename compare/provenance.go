package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// maxDepsNamed bounds how many differing Go modules a warning names; the
// rest are counted.
const maxDepsNamed = 5

// provenanceWarnings say where what produced a column's run differs from
// what produced the first column's: the cryptocost build, the Go toolchain,
// Go modules, C libraries and outside tools (a cross-compiler, a
// simulator, an OpenSSL peer). A difference there can explain a change as
// well as the change being compared can, so compare says so. Columns of
// the same run (RUN:PATTERN, --by-provider) are not compared with
// themselves.
func provenanceWarnings(cols []Column, inputs []Input) []string {
	if len(inputs) < 2 {
		return nil
	}
	base := inputs[0].Run
	var out []string
	for i := 1; i < len(inputs); i++ {
		run := inputs[i].Run
		if run == base || run.ID == base.ID {
			continue
		}
		var diffs []string
		a, b := base.Environment, run.Environment
		if ta, tb := toolString(base.Tool), toolString(run.Tool); ta != tb {
			diffs = append(diffs, fmt.Sprintf("cryptocost %s vs %s", ta, tb))
		}
		if a.GoVersion != b.GoVersion {
			diffs = append(diffs, fmt.Sprintf("Go %s vs %s", orNone(a.GoVersion), orNone(b.GoVersion)))
		}
		diffs = append(diffs, mapDiffs("C library", a.Libraries, b.Libraries, 0)...)
		diffs = append(diffs, mapDiffs("tool", a.Tools, b.Tools, 0)...)
		diffs = append(diffs, mapDiffs("module", a.Deps, b.Deps, maxDepsNamed)...)
		if len(diffs) > 0 {
			out = append(out, fmt.Sprintf("%s and %s were made by different software: %s; a change may come from these as much as from what is compared",
				cols[0].Name, cols[i].Name, strings.Join(diffs, "; ")))
		}
	}
	return out
}

func toolString(t result.Tool) string { return strings.TrimSpace(t.Version + " " + t.Commit) }

func orNone(s string) string {
	if s == "" {
		return "(not recorded)"
	}
	return s
}

// mapDiffs lists the names whose versions differ between a and b (absent
// on one side included); past limit (0: none) the rest are counted.
func mapDiffs(what string, a, b map[string]string, limit int) []string {
	names := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var out []string
	for _, k := range names {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s %s %s vs %s", what, k, orNone(a[k]), orNone(b[k])))
		}
	}
	if limit > 0 && len(out) > limit {
		n := len(out) - limit
		out = append(out[:limit], fmt.Sprintf("%d more %ss", n, what))
	}
	return out
}

// Regression is a change for the worse: a metric of a column that is
// significantly worse than the first column's, by more than the
// threshold.
type Regression struct {
	Subject, Metric, Unit string
	// Column is the worse column's name (B, C, …).
	Column string
	// Delta is the relative change (+0.12 = 12 % more time).
	Delta float64
	Test  string
}

func (r Regression) String() string {
	return fmt.Sprintf("%s %s: %s is %+.1f%% (%s)", r.Subject, r.Metric, r.Column, 100*r.Delta, r.Test)
}

// Regressions are the changes for the worse — by the metric's better
// direction (a time up, a throughput down) — that are significant (the
// Mann–Whitney test at the comparison's alpha, or an exact difference)
// and larger than threshold (a fraction: 0.05 = 5 %). A metric with no
// better direction, or whose change could not be tested, is never a
// regression. This is what `compare --fail-on-regression` exits on, for CI.
func (c *Comparison) Regressions(threshold float64) []Regression {
	var out []Regression
	for _, r := range c.Rows {
		for i, cell := range r.Cells {
			ch := cell.Change
			if i == 0 || ch == nil || !ch.Significant || (ch.Test != "mann-whitney" && ch.Test != "exact") {
				continue
			}
			if math.IsInf(ch.Delta, 0) || math.IsNaN(ch.Delta) {
				continue
			}
			worse := 0.0
			switch r.Better {
			case result.Lower:
				worse = ch.Delta
			case result.Higher:
				worse = -ch.Delta
			default:
				continue
			}
			if worse > threshold {
				out = append(out, Regression{Subject: r.Subject, Metric: r.Metric, Unit: r.Unit, Column: c.Columns[i].Name, Delta: ch.Delta, Test: ch.Test})
			}
		}
	}
	return out
}
