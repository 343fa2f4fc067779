package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

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
