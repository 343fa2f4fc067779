package bench

import (
	"strings"
	"testing"
	"time"
)

// Fast tier.

func TestRunConfigValidate(t *testing.T) {
	ok := RunConfig{TimeBudget: time.Minute, TargetRelCI: 0.02, MinSamples: 10, Keys: 10, Repetitions: 10}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*RunConfig)
		want string
	}{
		{func(c *RunConfig) { c.TimeBudget = -time.Second }, "--time-budget -1s is negative"},
		{func(c *RunConfig) { c.PointBudget = -time.Millisecond }, "--point-budget -1ms is negative"},
		{func(c *RunConfig) { c.Keys = 0 }, "--keys 0: want at least 1"},
		{func(c *RunConfig) { c.Repetitions = -2 }, "--reps -2: want at least 1"},
		{func(c *RunConfig) { c.MinSamples = 1 }, "--min-samples 1"},
		{func(c *RunConfig) { c.TargetRelCI = 1 }, "--ci 1"},
	} {
		cfg := ok
		c.edit(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v, want %q", err, c.want)
		}
	}
	if err := CheckSizes("--sizes", []int{16, 0}); err == nil || !strings.Contains(err.Error(), "--sizes 0: want sizes of at least 1 byte") {
		t.Errorf("CheckSizes: %v", err)
	}
	if err := CheckSizes("--sizes", []int{16, 1024}); err != nil {
		t.Error(err)
	}
}
