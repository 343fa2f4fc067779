package compare

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// Fast tier.

// TestProvenanceWarnings: runs made by different software say so, naming
// what differs; the same software, or a run compared with itself, does not.
func TestProvenanceWarnings(t *testing.T) {
	a := fixtureRun("A-run", "lab1", 1, 3, false)
	a.Environment.Deps = map[string]string{"golang.org/x/crypto": "v0.59.0", "github.com/cloudflare/circl": "v1.6.5"}
	a.Environment.Libraries = map[string]string{"openssl": "OpenSSL 3.0.22"}
	a.Environment.Tools = map[string]string{"simavr": "simavr 1.6+dfsg-3"}
	same := fixtureRun("B-run", "lab1", 1, 3, false)
	same.Environment.Deps, same.Environment.Libraries, same.Environment.Tools = a.Environment.Deps, a.Environment.Libraries, a.Environment.Tools
	c, err := Compare([]Input{{Run: a}, {Run: same}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("same software warned: %v", c.Warnings)
	}
	b := fixtureRun("C-run", "lab1", 1, 3, false)
	b.Tool.Version = "v0.2.0"
	b.Environment.GoVersion = "go1.27.0"
	b.Environment.Deps = map[string]string{"golang.org/x/crypto": "v0.60.0", "github.com/cloudflare/circl": "v1.6.5"}
	b.Environment.Libraries = map[string]string{"openssl": "OpenSSL 3.5.1", "sodium": "1.0.18"}
	b.Environment.Tools = map[string]string{"simavr": "simavr 1.6+dfsg-3", "avr-gcc": "avr-gcc (GCC) 7.3.0"}
	c, err = Compare([]Input{{Run: a}, {Run: b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 {
		t.Fatalf("warnings %v", c.Warnings)
	}
	w := c.Warnings[0]
	for _, want := range []string{"A and B were made by different software", "cryptocost v0.0.0-test vs v0.2.0", "Go go1.26.8 vs go1.27.0",
		"C library openssl OpenSSL 3.0.22 vs OpenSSL 3.5.1", "C library sodium (not recorded) vs 1.0.18",
		"tool avr-gcc (not recorded) vs avr-gcc (GCC) 7.3.0", "module golang.org/x/crypto v0.59.0 vs v0.60.0"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q:\n%s", want, w)
		}
	}
	if strings.Contains(w, "circl") || strings.Contains(w, "simavr") {
		t.Errorf("warning names what did not change: %s", w)
	}
	// One run split into columns is one piece of software.
	c, err = Compare([]Input{{Run: a, Subjects: "*sign*"}, {Run: a, Subjects: "*verify*"}}, Options{IgnoreProvider: true})
	if err == nil && len(c.Warnings) != 0 {
		t.Errorf("a run warned against itself: %v", c.Warnings)
	}
}

// TestRegressions: a significant change for the worse beyond the
// threshold, by each metric's better direction; "~" and improvements are
// not regressions.
func TestRegressions(t *testing.T) {
	a := fixtureRun("A", "lab1", 1, 3, false)
	b := fixtureRun("B", "lab1", 1.10, 3, false) // SHA-256 and verify 10 % slower
	c, err := Compare([]Input{{Run: a}, {Run: b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	regs := c.Regressions(0)
	var got []string
	for _, r := range regs {
		got = append(got, r.Subject+" "+r.Metric)
	}
	// SHA-256's time is 10 % up with 10+10 samples (significant); verify's
	// has 5+5 samples — the Mann–Whitney test still resolves a shift that
	// separates them completely (p = 0.008). Ed25519 sign is unchanged (~),
	// allocs are equal, and cycles (+10 %) has no better direction in the
	// fixture, so it is no regression.
	if strings.Join(got, ",") != "SHA-256@go/hash/1k time,Ed25519@go/verify time" {
		t.Errorf("regressions %v", got)
	}
	if len(c.Regressions(0.15)) != 0 {
		t.Errorf("a 10%% slowdown past a 15%% threshold: %v", c.Regressions(0.15))
	}
	// Faster is no regression; a higher-is-better metric going down is.
	faster := fixtureRun("F", "lab1", 0.9, 3, false)
	c, _ = Compare([]Input{{Run: a}, {Run: faster}}, Options{})
	if r := c.Regressions(0); len(r) != 0 {
		t.Errorf("a speed-up reported as regression: %v", r)
	}
	tp := func(id string, v float64) *result.Run {
		r := fixtureRun(id, "lab1", 1, 3, false)
		r.Results = r.Results[:1]
		m := sampled("throughput", "MB/s", result.Measured, v, spread10)
		m.Better = result.Higher
		r.Results[0].Metrics = []result.Metric{m}
		return r
	}
	c, _ = Compare([]Input{{Run: tp("T1", 100)}, {Run: tp("T2", 80)}}, Options{})
	if r := c.Regressions(0.05); len(r) != 1 || r[0].Metric != "throughput" || r[0].String() != "SHA-256@go/hash/1k throughput: B is -20.0% (mann-whitney)" {
		t.Errorf("throughput down 20%%: %v", r)
	}
}
