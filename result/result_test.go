package result

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixture is a small run with the shapes writers must handle: a bulk
// primitive with an estimated metric and a warning, a signature without a
// size, a failed KAT, and a non-primitive (modelled) subject.
func fixture() *Run {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	samples := []float64{1000, 1010, 990, 1005, 995, 1002, 998, 1001, 999, 1003}
	mbs := make([]float64, len(samples))
	est := make([]float64, len(samples))
	for i, v := range samples {
		mbs[i] = 1024 * 1e3 / v
		est[i] = v * 2.0 / 1024
	}
	bulk := Result{
		Subject: Subject{Kind: "primitive", Name: "SHA-256@go/hash/1k", Scheme: "SHA-256", Provider: "go",
			Family: "hash", Operation: "hash", InputBytes: 1024, Params: map[string]string{"input": "bulk"}},
		Metrics: []Metric{
			NewSampled("time", "ns/op", Lower, Measured, samples),
			NewSampled("throughput", "MB/s", Higher, Measured, mbs),
			{Name: "cycles-per-byte", Unit: "cycles/B", Better: Lower, Label: Estimated, Method: "wall time × 2000 MHz (test)", Samples: est},
			NewScalar("allocs", "allocs/op", Lower, Measured, 0),
		},
		Provenance: Provenance{Label: Measured, Method: Method{Name: "adaptive", Batch: 5000, Samples: 10, Stop: "converged"},
			Verified: "known-answer test passed: FIPS 180-4"},
		Warnings: []string{"CPU time is 85% of wall time"},
	}
	bulk.Metrics[2].Summary = NewSampled("x", "x", Lower, Measured, est).Summary
	sign := Result{
		Subject: Subject{Kind: "primitive", Name: "Ed25519@go/sign/32", Scheme: "Ed25519", Provider: "go",
			Family: "sign", Operation: "sign", InputBytes: 32, Params: map[string]string{"input": "message"}},
		Metrics:    []Metric{NewSampled("time", "ns/op", Lower, Measured, []float64{20000, 20100, 19900, 20050, 19950})},
		Provenance: Provenance{Label: Measured, Method: Method{Name: "adaptive", Batch: 50, Samples: 5, Stop: "interrupted"}},
		Warnings:   []string{"only 5 samples: no confidence interval (needs 6)"},
	}
	failed := Result{
		Subject: Subject{Kind: "primitive", Name: "MD5@go/hash/1k", Scheme: "MD5", Provider: "go", Family: "hash",
			Operation: "hash", InputBytes: 1024, Params: map[string]string{"input": "bulk"}},
		Error: "known-answer test failed, not measured: MD5: vector #1",
	}
	model := Result{
		Subject:    Subject{Kind: "model", Name: "secsywise/n=6"},
		Metrics:    []Metric{NewScalar("energy", "mJ", Lower, Modelled, 25.4)},
		Provenance: Provenance{Label: Modelled, Source: "seed003 model"},
	}
	return &Run{
		Schema: Schema, ID: "20261201T100000Z-00000000", Kind: "bench",
		Tool:    Tool{Name: "cryptocost", Version: "v0.0.0-test"},
		Started: t0, Finished: t0.Add(time.Minute), Status: Failed,
		Environment: Environment{OS: "linux", Arch: "amd64", GoVersion: "go1.26.8", CPUModel: "Test CPU", CPUs: 2, GOMAXPROCS: 2},
		Results:     []Result{bulk, sign, failed, model},
		Errors:      []string{"MD5@go: known-answer test failed"},
	}
}

// TestGolden compares every format's output with testdata/golden.<format>.
// Run with -update after an intended change and review the diff.
func TestGolden(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f.Name(), func(t *testing.T) {
			var buf bytes.Buffer
			if err := f.Write(&buf, fixture()); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden."+f.Name())
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./result -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s output differs from %s:\n%s", f.Name(), path, buf.String())
			}
		})
	}
}

// TestGobenchParsesWithBenchfmt reads our gobench output with benchfmt, as
// benchstat would, and checks every sample and unit arrives.
func TestGobenchParsesWithBenchfmt(t *testing.T) {
	var buf bytes.Buffer
	if err := (gobenchFormat{}).Write(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "gobench")
	perName := map[string]int{}
	units := map[string]bool{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			base, parts := rec.Name.Parts()
			if len(parts) == 0 || string(parts[len(parts)-1]) != "-2" {
				t.Errorf("%s: no -GOMAXPROCS suffix part", rec.Name)
			} else {
				parts = parts[:len(parts)-1]
			}
			perName[string(base)+string(bytes.Join(parts, nil))]++
			for _, v := range rec.Values {
				units[v.OrigUnit+v.Unit] = true
			}
			if got := rec.GetConfig("goos"); got != "linux" {
				t.Errorf("goos config = %q", got)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if got := perName["SHA-256@go/hash/size=1k"]; got != 10 {
		t.Errorf("SHA-256 lines = %d, want one per sample (10); names: %v", got, perName)
	}
	if got := perName["Ed25519@go/sign/size=32"]; got != 5 {
		t.Errorf("Ed25519 lines = %d, want 5", got)
	}
	for name := range perName {
		if strings.Contains(name, "MD5") {
			t.Errorf("failed subject %s written as a benchmark", name)
		}
	}
	for _, want := range []string{"sec/op", "B/s", "est-cycles/B"} {
		found := false
		for u := range units {
			if strings.Contains(u, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s values; units seen: %v", want, units)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := (jsonFormat{}).Write(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	runs, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got := runs[0]
	want := fixture()
	if got.ID != want.ID || len(got.Results) != len(want.Results) {
		t.Fatalf("round trip lost data: %+v", got)
	}
	if s := got.Results[0].Metrics[0].Samples; len(s) != 10 || s[1] != 1010 {
		t.Errorf("raw samples not kept: %v", s)
	}
	// The 5-sample result's CI is unbounded below; JSON writes 0 for -Inf.
	if s := got.Results[1].Metrics[0].Summary; s.CILow != 0 || s.N != 5 {
		t.Errorf("unbounded CI summary = %+v", s)
	}
}

func TestReadJSONRejectsBadInput(t *testing.T) {
	for _, in := range []string{"", "not json", `{"schema":"other/v9"}`, `[{"schema":"cryptocost/run/v1","results":[{"subject":{"name":""}}]}]`} {
		if _, err := ReadJSON(strings.NewReader(in)); err == nil {
			t.Errorf("ReadJSON(%q) accepted", in)
		}
	}
}

func TestValidate(t *testing.T) {
	r := fixture()
	if err := r.Validate(); err != nil {
		t.Fatalf("fixture invalid: %v", err)
	}
	r.Results = append(r.Results, r.Results[0])
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate subject: %v", err)
	}
	r = fixture()
	r.Results[0].Metrics[0].Label = ""
	if err := r.Validate(); err == nil {
		t.Error("a metric without a label passed validation")
	}
}

func TestFormatByName(t *testing.T) {
	if _, err := FormatByName("JSON"); err != nil {
		t.Error(err)
	}
	_, err := FormatByName("xml")
	if err == nil || !strings.Contains(err.Error(), "gobench") {
		t.Errorf("unknown format error %v should list the formats", err)
	}
}

func TestDurationString(t *testing.T) {
	for ns, want := range map[float64]string{0.5: "0.50 ns", 12.34: "12.3 ns", 1234: "1.23 µs", 2.5e6: "2.50 ms", 1.5e9: "1.50 s"} {
		if got := durationString(ns); got != want {
			t.Errorf("durationString(%v) = %q, want %q", ns, got, want)
		}
	}
	_ = math.Inf
}
