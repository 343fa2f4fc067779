package compare

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
)

// Request is the compare command's request: the runs (or one run's
// providers) compared subject by subject, where the comparison is written,
// and what fails a CI job. Check validates it before any run is read; Run
// does it.
type Request struct {
	// Format is the output format's name (FormatByName); Output, the file
	// written atomically ("" for Run's w).
	Format, Output string
	// Metrics, Alpha and IgnoreProvider are Options'.
	Metrics        []string
	Alpha          float64
	IgnoreProvider bool
	// ByProvider compares one run's providers, each beside its baseline
	// implementation (ByProvider, with Baseline), matched without the
	// provider.
	ByProvider bool
	Baseline   func(result.Subject) bool
	// FailOnRegression makes a regression beyond Threshold ("5%",
	// ParseThreshold; ThresholdGiven when the user gave it) Run's error, a
	// *RegressionFailure.
	FailOnRegression bool
	Threshold        string
	ThresholdGiven   bool

	format Format
	limit  float64
}

// RegressionFailure is Run's error when FailOnRegression finds a metric
// significantly worse than in the first run (a CI job's failure).
type RegressionFailure struct{ Err error }

func (e *RegressionFailure) Error() string { return e.Err.Error() }
func (e *RegressionFailure) Unwrap() error { return e.Err }

// Check resolves the format and checks the significance level and the
// threshold.
func (r *Request) Check() error {
	var err error
	if r.format, err = FormatByName(r.Format); err != nil {
		return err
	}
	if err := CheckAlpha(r.Alpha); err != nil {
		return err
	}
	if r.limit, err = ParseThreshold(r.Threshold); err != nil {
		return err
	}
	if r.ThresholdGiven && !r.FailOnRegression {
		return fmt.Errorf("--threshold needs --fail-on-regression: it is the change a regression must exceed")
	}
	return nil
}

// Run compares the inputs (with ByProvider, the first input's providers)
// and writes the comparison to Output, else to w. Its warnings go to log
// unless they are in a table on w, which prints them. With
// FailOnRegression, the regressions are the error, a *RegressionFailure.
func (r *Request) Run(w, log io.Writer, inputs []Input) error {
	if r.ByProvider {
		var err error
		if inputs, err = ByProvider(inputs[0].Run, inputs[0].Origin, r.Baseline); err != nil {
			return err
		}
	}
	c, err := Compare(inputs, Options{Alpha: r.Alpha, Metrics: r.Metrics, IgnoreProvider: r.IgnoreProvider || r.ByProvider})
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return r.format.Write(w, c) }
	if r.Output == "" {
		err = write(w)
	} else {
		err = atomicfile.Write(r.Output, write)
	}
	if err != nil {
		return err
	}
	if r.Output != "" || r.format.Name() != "table" {
		// The table prints them; other outputs may not be read by eye.
		for _, msg := range c.Warnings {
			fmt.Fprintln(log, "cryptocost: warning:", msg)
		}
	}
	if err := c.RegressionError(r.limit, r.Threshold, r.Alpha); r.FailOnRegression && err != nil {
		return &RegressionFailure{err}
	}
	return nil
}

// CheckAlpha refuses a significance level outside (0, 1).
func CheckAlpha(alpha float64) error {
	if alpha <= 0 || alpha >= 1 {
		return fmt.Errorf("--alpha %v: want a level between 0 and 1, such as 0.05", alpha)
	}
	return nil
}

// ParseThreshold reads a regression threshold, "5%", "5" or "0.5%", as a
// fraction (0.05), refusing negative values.
func ParseThreshold(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("--threshold %q: want a percentage of 0 or more, such as 5%%", s)
	}
	return v / 100, nil
}

// RegressionError lists the regressions beyond limit (threshold as the
// user gave it) at level alpha, or is nil when there are none.
func (c *Comparison) RegressionError(limit float64, threshold string, alpha float64) error {
	regs := c.Regressions(limit)
	if len(regs) == 0 {
		return nil
	}
	var lines []string
	for _, r := range regs {
		lines = append(lines, r.String())
	}
	return fmt.Errorf("%d regressions beyond %s (p < %g):\n  %s", len(regs), threshold, alpha, strings.Join(lines, "\n  "))
}
