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

	"github.com/cryptocost/cryptocost/stats"
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

// TestGobenchSharedUnits: metrics that share a unit on one line are each
// named in it, except Go's own and a metric named for its unit, so an MCU
// line keeps cycles/op beside its spread. Fast tier.
func TestGobenchSharedUnits(t *testing.T) {
	r := Result{
		Subject: Subject{Kind: "mcu", Name: "Speck@avr/encrypt/8", Operation: "encrypt", InputBytes: 8},
		Metrics: []Metric{
			NewScalar("cycles", "cycles", Lower, Simulated, 1200),
			NewScalar("time", "s", Lower, Simulated, 75e-6),
			NewScalar("cycles-spread", "cycles", Lower, Simulated, 0),
			NewScalar("cycles-min", "cycles", Lower, Estimated, 1100),
			NewScalar("stack", "B", Lower, Simulated, 40),
			NewScalar("rom", "B", Lower, Measured, 900),
		},
		Provenance: Provenance{Label: Simulated, Method: Method{Name: "simulated: test", Samples: 1, Stop: "fixed"}},
	}
	run := fixture()
	run.Results = []Result{r}
	var buf bytes.Buffer
	if err := (gobenchFormat{}).Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	want := "1200 sim-cycles/op 75000 sim-ns/op 0 cycles-spread-sim-cycles/op 1100 cycles-min-est-cycles/op 40 stack-sim-B/op 900 rom-B/op\n"
	if !strings.HasSuffix(buf.String(), want) {
		t.Errorf("gobench line:\n%s\nwant it to end %q", buf.String(), want)
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
	if s := got.Results[0].Metrics[0].Samples; len(s) != 10 || s[1] != 1010e-9 {
		t.Errorf("raw samples not kept: %v", s)
	}
	// The 5-sample result's CI is unbounded below: JSON writes null, read
	// back as -Inf (never a 0 that reads as a bound).
	if s := got.Results[1].Metrics[0].Summary; !math.IsInf(s.CILow, -1) || s.N != 5 {
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

func TestDisplay(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0.5e-9, "s", "500 ps"}, {12.34e-9, "s", "12.34 ns"}, {1234e-9, "s", "1.234 µs"}, {2.5e-3, "s", "2.5 ms"}, {1.5, "s", "1.5 s"},
		{0.0855, "J", "85.5 mJ"}, {2368, "B", "2368 B"}, {5.2e6, "B", "5.2 MB"}, {2.5e7, "B/s", "25 MB/s"},
		{0.0018, "A", "1.8 mA"}, {42, "packets", "42 packets"}, {12.5, "%", "12.5 %"},
	} {
		if got := Display(c.v, c.unit); got != c.want {
			t.Errorf("Display(%v, %s) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
	if got := DisplayIn(2107*86400, "s", "d"); got != "2107 d" {
		t.Errorf("a battery life in days: %q", got)
	}
	_ = math.Inf
}

// TestVocabularyConverts: a runner may give a metric in any unit of its
// dimension; it is stored in the base unit.
func TestVocabularyConverts(t *testing.T) {
	m := NewSampled("time", "ns/op", Lower, Measured, []float64{1000, 2000, 3000})
	if m.Unit != "s" || math.Abs(m.Summary.Median-2e-6) > 1e-18 || math.Abs(m.Samples[0]-1e-6) > 1e-18 {
		t.Errorf("ns/op → s: %+v", m)
	}
	if err := checkVocabulary(m); err != nil {
		t.Error(err)
	}
	e := NewScalar("battery-life", "d", Lower, Modelled, 2)
	if e.Unit != "s" || e.Summary.Median != 2*86400 || e.Better != Higher {
		t.Errorf("days → s, better from the vocabulary: %+v", e)
	}
	if err := checkVocabulary(NewScalar("no-such-metric", "s", Lower, Measured, 1)); err == nil || !strings.Contains(err.Error(), "vocabulary") {
		t.Errorf("an unknown name: %v", err)
	}
	if err := checkVocabulary(NewScalar("time", "packets", Lower, Measured, 1)); err == nil {
		t.Error("a time in packets passed")
	}
	if d, ok := Lookup("energy/asymmetric"); !ok || d.Unit != "J" {
		t.Errorf("family lookup: %+v %v", d, ok)
	}
	if d, ok := Lookup("op/ECDSA-160 verify/time"); !ok || d.Unit != "s" {
		t.Errorf("infix family lookup: %+v %v", d, ok)
	}
}

// TestUpgradeV1: a run saved by round 1 reads with the vocabulary's names
// and base units.
func TestUpgradeV1(t *testing.T) {
	run := &Run{Schema: "cryptocost/run/v1", Results: []Result{{Subject: Subject{Kind: "battery", Name: "b"},
		Metrics: []Metric{
			{Name: "lifetime", Unit: "d", Label: Modelled, Summary: stats.Scalar(2107)},
			{Name: "energy", Unit: "µJ/op", Label: Modelled, Summary: stats.Summary{N: 3, Median: 5, CILow: 0, CIHigh: 0}},
		}}}}
	if !Upgrade(run) {
		t.Fatal("nothing upgraded")
	}
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	life := run.Results[0].Metric("battery-life")
	if life == nil || life.Summary.Median != 2107*86400 || life.Unit != "s" {
		t.Errorf("lifetime: %+v", run.Results[0].Metrics[0])
	}
	e := run.Results[0].Metric("energy")
	if e.Unit != "J" || math.Abs(e.Summary.Median-5e-6) > 1e-18 || !math.IsInf(e.Summary.CIHigh, 1) {
		t.Errorf("energy: %+v", e)
	}
}

// TestReadRoundOneJSON reads a run written by round 1's `energy battery
// --format json` (testdata/round1-battery.json, build 559623b): the
// vocabulary's names and base units come out.
func TestReadRoundOneJSON(t *testing.T) {
	f, err := os.Open("testdata/round1-battery.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0].Results[0]
	life := r.Metric("battery-life")
	if life == nil || life.Unit != "s" || life.Summary.Median < 1000*86400 || life.Summary.Median > 3000*86400 {
		t.Errorf("battery-life: %+v", life)
	}
	if e := r.Metric("energy"); e == nil || e.Unit != "J" || e.Summary.Median < 1e-3 || e.Summary.Median > 1 {
		t.Errorf("energy: %+v", e)
	}
	if r.Metric("lifetime") != nil {
		t.Error("the old name survived")
	}
}

// TestConversionCopies: converting a metric to its base unit leaves the
// runner's own samples alone (the bench runner derives rate and
// throughput from the same ns/op slice after making the time metric).
func TestConversionCopies(t *testing.T) {
	ns := []float64{1000, 2000}
	NewSampled("time", "ns/op", Lower, Measured, ns)
	if ns[0] != 1000 || ns[1] != 2000 {
		t.Errorf("the caller's samples changed: %v", ns)
	}
}

// TestTableBusyMachine: a run measured on a busy machine with --clock cpu
// says so in the table's header (why, how many results it affected, the
// advice), and its time column is the CPU time the run was summarised by,
// headed so. Fast tier.
func TestTableBusyMachine(t *testing.T) {
	run := fixture()
	run.Results = run.Results[:1]
	r := &run.Results[0]
	r.Provenance.Method.Clock = "cpu"
	r.Metrics = append(r.Metrics, NewSampled("cpu-time", "ns/op", Lower, Measured, []float64{600, 601, 599, 600, 602, 598, 600, 600, 601, 599}))
	run.Environment.Load = &Load{CPUs: 2, LoadStart: 30, LoadEnd: 41, LoadMax: 41, CPUPressure: 0.97, Steal: 0, CPUWallRatio: 0.6,
		Busy: true, Reasons: []string{"load average up to 41.0 on 2 CPUs"}, Affected: []string{"SHA-256@go/hash/1k"}, Advice: "rerun"}
	var b strings.Builder
	if err := (tableFormat{}).Write(&b, run); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"machine busy (load average up to 41.0 on 2 CPUs): 1 of 1 results affected; rerun\n",
		"CPU TIME/OP", "  600 ns  ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if err := run.Validate(); err != nil {
		t.Error(err)
	}
	var js bytes.Buffer
	if err := (jsonFormat{}).Write(&js, run); err != nil {
		t.Fatal(err)
	}
	validateAgainstSchema(t, compileSchema(t), "a busy run", js.Bytes())
}

// TestGobenchSampledApart: a metric with fewer samples than the time
// metric (a --clock cpu run's CPU time, its preempted samples left out)
// is written on lines of its own, one per sample, rather than dropped;
// single values go once, with the first set. Fast tier.
func TestGobenchSampledApart(t *testing.T) {
	run := fixture()
	r := &run.Results[0]
	r.Metrics = append(r.Metrics, NewSampled("cpu-time", "ns/op", Lower, Measured, []float64{600, 601, 599, 602, 598, 600, 600}))
	run.Results = run.Results[:1]
	var b strings.Builder
	if err := (gobenchFormat{}).Write(&b, run); err != nil {
		t.Fatal(err)
	}
	var wall, cpu, allocs int
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		hasWall, hasCPU := strings.Contains(line, " ns/op"), strings.Contains(line, " cpu-time-ns/op")
		if hasWall && hasCPU {
			t.Errorf("wall and CPU samples on one line: %s", line)
		}
		if hasWall {
			wall++
		}
		if hasCPU {
			cpu++
		}
		if strings.Contains(line, "allocs/op") {
			allocs++
		}
	}
	if wall != 10 || cpu != 7 || allocs != 10 {
		t.Errorf("%d wall lines, %d CPU lines, %d with allocs; want 10, 7, 10:\n%s", wall, cpu, allocs, b.String())
	}
}

// TestStatusLine: a run that did not complete ends its table with its
// status and only the reasons it has (fast tier).
func TestStatusLine(t *testing.T) {
	for _, c := range []struct {
		status Status
		errors []string
		want   string
	}{
		{Complete, nil, ""},
		{Interrupted, nil, "run interrupted"},
		{Interrupted, []string{""}, "run interrupted"},
		{Interrupted, []string{" ", "stopped at 3 of 5"}, "run interrupted: stopped at 3 of 5"},
		{Failed, []string{"a", "b"}, "run failed: a; b"},
	} {
		if got := statusLine(&Run{Status: c.status, Errors: c.errors}); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.status, c.errors, got, c.want)
		}
	}
}
