package compare

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestRequestCheck refuses a bad format, level or threshold, and a
// threshold without --fail-on-regression, before any run is read. Tier:
// fast.
func TestRequestCheck(t *testing.T) {
	ok := Request{Format: "table", Alpha: 0.05, Threshold: "0%"}
	cases := []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"ok", func(*Request) {}, ""},
		{"format", func(r *Request) { r.Format = "xml" }, `format "xml"`},
		{"alpha", func(r *Request) { r.Alpha = 1 }, "--alpha 1: want a level between 0 and 1, such as 0.05"},
		{"threshold", func(r *Request) { r.Threshold = "-5%" }, `--threshold "-5%": want a percentage of 0 or more, such as 5%`},
		{"threshold alone", func(r *Request) { r.Threshold, r.ThresholdGiven = "5%", true }, "--threshold needs --fail-on-regression: it is the change a regression must exceed"},
		{"threshold with fail", func(r *Request) { r.Threshold, r.ThresholdGiven, r.FailOnRegression = "5%", true, true }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ok
			c.edit(&r)
			err := r.Check()
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("Check: %v, want %q", err, c.want)
			}
		})
	}
}

// regressedInputs are two runs, the second 10 % slower and made by
// another Go: a regression and a provenance warning.
func regressedInputs() []Input {
	a := fixtureRun("A", "h", 1, 0, false)
	b := fixtureRun("B", "h", 1.1, 0, false)
	b.Environment.GoVersion = "go1.27.0"
	return []Input{{Run: a}, {Run: b}}
}

// TestRequestRun writes the comparison, its warnings to log unless the
// table on w has them, and fails on a regression only when asked to.
// Tier: fast.
func TestRequestRun(t *testing.T) {
	for _, c := range []struct {
		format   string
		fail     bool
		warnings bool
	}{
		{"table", false, false},
		{"json", false, true},
		{"table", true, false},
	} {
		r := Request{Format: c.format, Alpha: 0.05, Threshold: "5%", FailOnRegression: c.fail}
		if err := r.Check(); err != nil {
			t.Fatal(err)
		}
		var w, log bytes.Buffer
		err := r.Run(&w, &log, regressedInputs())
		var failed *RegressionFailure
		if got := errors.As(err, &failed); got != c.fail || err != nil && !c.fail {
			t.Errorf("%+v: Run: %v", c, err)
		} else if c.fail && !strings.Contains(err.Error(), "regressions beyond 5% (p < 0.05)") {
			t.Errorf("%+v: regression error %q", c, err)
		}
		if w.Len() == 0 {
			t.Errorf("%+v: nothing written", c)
		}
		if got := strings.Contains(log.String(), "cryptocost: warning: ") && strings.Contains(log.String(), "go1.27.0"); got != c.warnings {
			t.Errorf("%+v: log %q", c, log.String())
		}
	}
}

// TestRequestRunOutput writes the file atomically, warnings on log, and
// nothing on w. Tier: fast.
func TestRequestRunOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp.txt")
	r := Request{Format: "table", Output: out, Alpha: 0.05, Threshold: "0%"}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	var w, log bytes.Buffer
	if err := r.Run(&w, &log, regressedInputs()); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(out); err != nil || len(data) == 0 || w.Len() != 0 {
		t.Errorf("file %d bytes (%v), stdout %q", len(data), err, w.String())
	}
	if !strings.Contains(log.String(), "cryptocost: warning: ") {
		t.Errorf("no warning on log: %q", log.String())
	}
}

// TestRequestByProvider compares one run's providers, and says when it
// has no provider besides the baseline. Tier: fast.
func TestRequestByProvider(t *testing.T) {
	run := fixtureRun("A", "h", 1, 0, false)
	goOnly := func(s result.Subject) bool { return s.Provider == "go" }
	r := Request{Format: "table", Alpha: 0.05, Threshold: "0%", ByProvider: true, Baseline: goOnly}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	err := r.Run(&w, &w, []Input{{Run: run, Origin: "file a.json"}})
	if err == nil || !strings.Contains(err.Error(), "run A has no provider besides the baseline implementations") {
		t.Errorf("Run: %v", err)
	}
	for _, res := range slices.Clone(run.Results) {
		res.Subject.Provider, res.Subject.Name = "openssl", strings.Replace(res.Subject.Name, "@go/", "@openssl/", 1)
		run.Results = append(run.Results, res)
	}
	w.Reset()
	if err := r.Run(&w, &w, []Input{{Run: run, Origin: "file a.json"}}); err != nil || !strings.Contains(w.String(), "provider openssl") {
		t.Errorf("Run: %v\n%s", err, w.String())
	}
}
