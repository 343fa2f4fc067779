package model

import (
	"strings"
	"testing"
)

// TestRequestRules checks a model command's request rules without the
// CLI: a parameter varied twice, a plot without --vary, an unknown
// metric or plot output, and the plotted metrics added. Tier: fast.
func TestRequestRules(t *testing.T) {
	if _, err := ParseOptions(nil, []string{"n=2..4", "n=6"}, nil); err == nil || !strings.Contains(err.Error(), "--vary n is given twice") {
		t.Errorf("vary twice: %v", err)
	}
	o, err := ParseOptions([]string{"d=20"}, []string{"n=2..4"}, []string{"a"})
	if err != nil || o.Set["d"] != 20 || len(o.Vary) != 1 || o.Variants[0] != "a" {
		t.Fatalf("ParseOptions = %+v, %v", o, err)
	}
	plots, err := ParsePlots([]string{"bits-sent=b.svg"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePlots([]string{"energy"}); err == nil || !strings.Contains(err.Error(), "want OUTPUT=FILE") {
		t.Errorf("plot without file: %v", err)
	}
	metrics, err := CompareMetrics(o, "", []string{"energy"}, plots)
	if err != nil || strings.Join(metrics, ",") != "energy,bits-sent" {
		t.Errorf("CompareMetrics = %v, %v", metrics, err)
	}
	if _, err := CompareMetrics(Options{}, "", []string{"energy"}, nil); err == nil || !strings.Contains(err.Error(), "compare needs --vary") {
		t.Errorf("nothing to compare: %v", err)
	}
	if _, err := CompareMetrics(Options{}, "run.json", nil, plots); err == nil || !strings.Contains(err.Error(), "--plot needs --vary") {
		t.Errorf("plot without vary: %v", err)
	}
	if _, err := CompareMetrics(o, "", []string{"joy"}, nil); err == nil || !strings.Contains(err.Error(), "--metrics") {
		t.Errorf("unknown metric: %v", err)
	}
}
