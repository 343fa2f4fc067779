package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/scheme"
)

// TestSeed002NamesDistinctKeys (fast tier) checks that the seed002
// design's K keys are K distinct keys where the scheme has them (RSA-2048:
// ten embedded keys), and that where it has fewer (RSA-7680, -15360: two)
// the result names the count used instead of promising K.
func TestSeed002NamesDistinctKeys(t *testing.T) {
	cfg := fastConfig()
	cfg.Method, cfg.Keys, cfg.Repetitions = MethodSeed002, 10, 1
	sc, err := scheme.Lookup("RSA-2048-PKCS1v15-SHA256")
	if err != nil {
		t.Fatal(err)
	}
	var sign scheme.Operation
	for _, op := range sc.Operations() {
		if op.Name == scheme.OpSign {
			sign = op
		}
	}
	if sign.DistinctKeys != 10 {
		t.Fatalf("RSA-2048 sign has %d distinct keys, want the 10 the seed002 method uses", sign.DistinctKeys)
	}
	for _, tc := range []struct {
		name     string
		distinct int
		warn     string
	}{
		{"ten keys", 10, ""},
		{"two keys, as RSA-15360 has", 2, "2 distinct keys, not 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := sign
			op.DistinctKeys = tc.distinct
			run := Run(context.Background(), &Plan{Schemes: []scheme.Scheme{sc},
				Points: []Point{{Scheme: sc, Op: op, Size: 32}}}, cfg, nil)
			r := run.Results[0]
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			total := r.Metric("total-time")
			warns := strings.Join(r.Warnings, "; ")
			if tc.warn == "" {
				if strings.Contains(warns, "distinct keys") || r.Subject.Params["distinct_keys"] != "" {
					t.Errorf("ten distinct keys flagged: %q", warns)
				}
				return
			}
			if !strings.Contains(warns, tc.warn) || !strings.Contains(total.Method, tc.warn) || r.Subject.Params["distinct_keys"] != "2" {
				t.Errorf("warnings %q, method %q, params %v: want the count used named", warns, total.Method, r.Subject.Params)
			}
		})
	}
}
