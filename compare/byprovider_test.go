package compare

import (
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestByProvider splits one run into a Go column and one column per other
// provider; compared with IgnoreProvider, each row is one scheme and
// operation across providers and each change is relative to Go. Fast tier.
func TestByProvider(t *testing.T) {
	run := fixtureRun("R", "h", 1, 0, false)
	sub := func(prov string) result.Subject {
		return result.Subject{Kind: "primitive", Name: "SHA-256@" + prov + "/hash/1k", Scheme: "SHA-256", Provider: prov, Operation: "hash", InputBytes: 1024}
	}
	run.Results = append(run.Results,
		result.Result{Subject: sub("openssl"), Metrics: []result.Metric{sampled("time", "ns/op", result.Measured, 2000, spread10)}},
		result.Result{Subject: sub("wolfssl"), Metrics: []result.Metric{sampled("time", "ns/op", result.Measured, 500, spread10)}})
	inputs, err := ByProvider(run, "file r.json", func(s result.Subject) bool { return s.Provider == "go" })
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 3 || inputs[1].Subjects != "provider openssl" || inputs[2].Subjects != "provider wolfssl" {
		t.Fatalf("columns %+v", inputs)
	}
	c, err := Compare(inputs, Options{IgnoreProvider: true, Metrics: []string{"time"}})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range c.Rows {
		if r.Subject != "SHA-256/hash/1k" {
			continue
		}
		found = true
		if d := r.Cells[1].Change.Delta; d < 0.9 || d > 1.1 {
			t.Errorf("openssl change %v, want about +100%%", d)
		}
		if d := r.Cells[2].Change.Delta; d < -0.55 || d > -0.45 {
			t.Errorf("wolfssl change %v, want about -50%%", d)
		}
	}
	if !found {
		t.Errorf("no SHA-256 row in %+v", c.Rows)
	}
	if _, err := ByProvider(fixtureRun("R", "h", 1, 0, false), "", func(s result.Subject) bool { return true }); err == nil {
		t.Error("a run with only baseline subjects gave a comparison")
	}
}
