package bench

import "fmt"

// Validate checks a run's configuration before any work, as the command
// line gives it: every count and budget is given, none silently replaced.
// (Run reads zero values as defaults, for library callers that leave them
// out; a user who types --keys 0 or a negative budget has made a mistake.)
func (c RunConfig) Validate() error {
	switch {
	case c.TimeBudget < 0:
		return fmt.Errorf("--time-budget %v is negative: give a duration such as 1m, or 0 for no total", c.TimeBudget)
	case c.PointBudget < 0:
		return fmt.Errorf("--point-budget %v is negative: give a duration such as 1s (25ms is --quick's)", c.PointBudget)
	case c.TargetRelCI <= 0 || c.TargetRelCI >= 1:
		return fmt.Errorf("--ci %v: want a fraction between 0 and 1, such as 0.02 for ±2%%", c.TargetRelCI)
	case c.MinSamples < 2:
		return fmt.Errorf("--min-samples %d: want at least 2 (6 or more for a confidence interval)", c.MinSamples)
	case c.Keys < 1:
		return fmt.Errorf("--keys %d: want at least 1 distinct key or input per point (the seed002 study used 10)", c.Keys)
	case c.Repetitions < 1:
		return fmt.Errorf("--reps %d: want at least 1 repetition per key (the seed002 study used 10)", c.Repetitions)
	}
	return nil
}

// CheckSizes refuses input sizes no operation can take: a bulk input of
// 0 bytes measures only the call.
func CheckSizes(flag string, sizes []int) error {
	for _, n := range sizes {
		if n < 1 {
			return fmt.Errorf("%s %d: want sizes of at least 1 byte, such as 16,1k,16k", flag, n)
		}
	}
	return nil
}
