package bench

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// fakeScheme is a scheme the tests control: its KAT can fail, its
// operation spins for a fixed number of iterations.
type fakeScheme struct {
	info scheme.Info
	kat  error
	runs *int
	// clock, if set, is advanced 1 µs per operation: the time the
	// operation takes on a synthetic clock.
	clock *synthClock
}

// synthClock is a measure.Clock whose time moves only when read (20 ns a
// read) and when a fake operation runs: budgets, visits and rounds then
// come out the same on a quiet and on a loaded host.
type synthClock struct{ t int64 }

func (c *synthClock) Now() int64               { c.t += 20; return c.t }
func (c *synthClock) ThreadCPU() (int64, bool) { return c.t, true }
func (c *synthClock) Name() string             { return "synthetic" }

func (f *fakeScheme) Info() *scheme.Info { return &f.info }
func (f *fakeScheme) KAT() error         { return f.kat }
func (f *fakeScheme) Operations() []scheme.Operation {
	return []scheme.Operation{{
		Name: "spin", Input: scheme.InputBulk,
		Prepare: func(a scheme.Args) (scheme.Loop, error) {
			buf := make([]byte, a.Size)
			return func(n int) error {
				if f.runs != nil {
					*f.runs++
				}
				if f.clock != nil {
					f.clock.t += int64(n) * 1000
					return nil
				}
				for range n {
					for i := range buf {
						buf[i]++
					}
				}
				return nil
			}, nil
		},
	}}
}

func fake(name string, kat error) *fakeScheme {
	return &fakeScheme{info: scheme.Info{Name: name, Family: scheme.FamilyHash, Provider: "test",
		Security: scheme.Security{Bits: 128}, Standard: "test vectors"}, kat: kat}
}

func fastConfig() RunConfig {
	return RunConfig{Quick: true, PointBudget: 5 * time.Millisecond, TargetRelCI: 0.5, MinSamples: 3}
}

func planOf(ss ...*fakeScheme) *Plan {
	p := &Plan{}
	for _, s := range ss {
		p.Schemes = append(p.Schemes, s)
		for _, op := range s.Operations() {
			p.Points = append(p.Points, Point{Scheme: s, Op: op, Size: 64})
		}
	}
	return p
}

// TestFailedKATNeverYieldsANumber: a scheme whose KAT fails produces an
// error result with no metrics, the run is marked failed, and its
// operation is never run; other schemes are still measured.
func TestFailedKATNeverYieldsANumber(t *testing.T) {
	runs := 0
	bad := fake("Broken", errors.New("vector #0: got 00, want 01"))
	bad.runs = &runs
	good := fake("Fine", nil)
	run := Run(context.Background(), planOf(bad, good), fastConfig(), nil)
	if run.Status != result.Failed {
		t.Errorf("status = %s, want failed", run.Status)
	}
	if runs != 0 {
		t.Errorf("the failing scheme's operation ran %d times", runs)
	}
	if len(run.Results) != 2 {
		t.Fatalf("%d results, want 2", len(run.Results))
	}
	if r := run.Results[0]; r.Error == "" || len(r.Metrics) != 0 || !strings.Contains(r.Error, "known-answer") {
		t.Errorf("failed scheme result = %+v", r)
	}
	if r := run.Results[1]; r.Error != "" || r.Metric("time") == nil {
		t.Errorf("good scheme result = %+v", r)
	}
	if len(run.Errors) != 1 || !strings.Contains(run.Errors[0], "Broken") {
		t.Errorf("run errors = %v", run.Errors)
	}
	if err := run.Validate(); err != nil {
		t.Error(err)
	}
}

func TestResultShape(t *testing.T) {
	run := Run(context.Background(), planOf(fake("Fine", nil)), fastConfig(), nil)
	r := run.Results[0]
	if r.Subject.Name != "Fine@test/spin/64" || r.Subject.InputBytes != 64 || r.Subject.Kind != "primitive" {
		t.Errorf("subject = %+v", r.Subject)
	}
	for _, name := range []string{"time", "rate", "throughput", "alloc-bytes", "allocs"} {
		if r.Metric(name) == nil {
			t.Errorf("no %s metric", name)
		}
	}
	if m := r.Metric("time"); len(m.Samples) < 3 || m.Label != result.Measured {
		t.Errorf("time metric = %+v", m)
	}
	if m := r.Metric("cycles"); m != nil && m.Label == result.Estimated && m.Method == "" {
		t.Error("estimated cycles without the assumption")
	}
	if r.Provenance.Method.Stop == "" || r.Provenance.Method.Batch < 1 || !strings.Contains(r.Provenance.Verified, "test vectors") {
		t.Errorf("provenance = %+v", r.Provenance)
	}
	if run.Environment.GoVersion == "" || run.Schema != result.Schema {
		t.Errorf("run = %+v", run)
	}
}

// TestInterruptedRunKeepsResults: Ctrl-C in the second round leaves every
// point partly measured, each with its samples. The operations run on a
// synthetic clock and the interrupt comes at an event, the progress report
// of round 2's first visit, so no point can finish in round 1 because the
// host was slow (it did, 6 of 40 runs under load, with the real clock).
// Fast tier.
func TestInterruptedRunKeepsResults(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	clk := &synthClock{}
	schemes := []*fakeScheme{fake("A", nil), fake("B", nil), fake("C", nil)}
	for _, s := range schemes {
		s.clock = clk
	}
	p := planOf(schemes...)
	prog := &cancelAt{round: "round 2:", cancel: cancel}
	cfg := fastConfig()
	cfg.Clock, cfg.PointBudget, cfg.NoCycles = clk, time.Second, true
	run := Run(ctx, p, cfg, prog)
	if run.Status != result.Interrupted {
		t.Errorf("status = %s, want interrupted", run.Status)
	}
	// Points are measured in rounds, so an interrupt leaves several points
	// partly measured: each keeps its samples, marked interrupted.
	interrupted := 0
	for _, r := range run.Results {
		if r.Method().Stop == "interrupted" {
			interrupted++
			if len(r.Metric("time").Samples) == 0 {
				t.Errorf("%s: interrupted without its samples", r.Subject.Name)
			}
		}
	}
	if len(run.Results) != 3 || interrupted != 3 {
		t.Errorf("%d results, %d interrupted; want all 3 points with the samples of round 1", len(run.Results), interrupted)
	}
	if err := run.Validate(); err != nil {
		t.Error(err)
	}
}

// cancelAt cancels the run when a step whose description starts with
// round begins.
type cancelAt struct {
	round  string
	cancel func()
}

func (c *cancelAt) Begin(int) {}
func (c *cancelAt) Step(_ int, current string) {
	if strings.HasPrefix(current, c.round) {
		c.cancel()
	}
}
func (c *cancelAt) End() {}

func TestSeed002Method(t *testing.T) {
	cfg := fastConfig()
	cfg.Method, cfg.Keys, cfg.Repetitions = MethodSeed002, 4, 3
	run := Run(context.Background(), planOf(fake("A", nil)), cfg, nil)
	r := run.Results[0]
	if m := r.Method(); m.Keys != 4 || m.Repetitions != 3 || m.Stop != "fixed" || m.Samples != 4 {
		t.Errorf("method = %+v", m)
	}
	if r.Metric("total-time") == nil {
		t.Error("no total-time metric (the study's reported sum)")
	}
	if len(r.Warnings) == 0 {
		t.Error("4 samples and no warning about the missing confidence interval")
	}
}

func TestPlanFilters(t *testing.T) {
	count := func(o Options) int {
		p, err := NewPlan(o)
		if err != nil {
			t.Fatalf("NewPlan(%+v): %v", o, err)
		}
		return len(p.Points)
	}
	all := count(Options{})
	hash := count(Options{Families: []string{"hash"}})
	if hash == 0 || hash >= all {
		t.Errorf("hash points %d of %d", hash, all)
	}
	if n := count(Options{Algos: []string{"sha256"}}); n != len(DefaultBulkSizes) {
		t.Errorf("sha256 points = %d, want one per default size", n)
	}
	if n := count(Options{Algos: []string{"sha256"}, Quick: true}); n != 1 {
		t.Errorf("quick sha256 points = %d, want 1", n)
	}
	if n := count(Options{Algos: []string{"sha256"}, Sizes: []int{16, 64}}); n != 2 {
		t.Errorf("sha256 with two sizes = %d points", n)
	}
	// Legacy schemes: out by default, in with --legacy or when named.
	p, _ := NewPlan(Options{Families: []string{"hash"}})
	for _, pt := range p.Points {
		if pt.Scheme.Info().Legacy != "" {
			t.Errorf("legacy %s in a default plan", pt.Name())
		}
	}
	if n := count(Options{Algos: []string{"md5"}}); n == 0 {
		t.Error("MD5 named explicitly was left out")
	}
	if count(Options{Families: []string{"hash"}, Legacy: true}) <= hash {
		t.Error("--legacy added nothing to the hash family")
	}
	if n := count(Options{Families: []string{"hash"}, Security: "256"}); n == 0 || n >= hash {
		t.Errorf("security 256 hash points = %d", n)
	}
}

func TestPlanErrors(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Families: []string{"hashes"}}, "unknown family"},
		{Options{Families: []string{"keygen"}}, "--op keygen"},
		{Options{Algos: []string{"sha265"}}, "SHA-256"},
		{Options{Algos: []string{"nothing-like-this*"}}, "no algorithm matches"},
		{Options{Security: "lots"}, "bad --security"},
		{Options{Security: "256-128"}, "bad --security"},
		{Options{Algos: []string{"sha256"}, Ops: []string{"sign"}}, "nothing to measure"},
		{Options{Ops: []string{"[bad"}}, "bad pattern"},
	} {
		_, err := NewPlan(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewPlan(%+v) error = %v, want one mentioning %q", tc.opts, err, tc.want)
		}
	}
}

func TestParseSecurity(t *testing.T) {
	for in, want := range map[string]Security{"128": {128, 128}, "112+": {112, 1 << 30}, "80-128": {80, 128}, "": {0, 1 << 30}} {
		got, err := ParseSecurity(in)
		if err != nil || got != want {
			t.Errorf("ParseSecurity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestFlagSpeedChange: a point measured while the reference workload ran
// 30 % slower than the run's median is flagged; one at the median is not.
func TestFlagSpeedChange(t *testing.T) {
	slow := &pointState{refs: []float64{130, 131, 129}}
	steady := &pointState{refs: []float64{100, 101, 99}}
	var rs, rq result.Result
	flagSpeedChange(&rs, slow, 100)
	flagSpeedChange(&rq, steady, 100)
	if r := rs.Method().ReferenceRatio; r < 1.29 || r > 1.31 || len(rs.Warnings) != 1 || !strings.Contains(rs.Warnings[0], "30% slower") {
		t.Errorf("slow point: ratio %v, warnings %v", r, rs.Warnings)
	}
	if r := rq.Method().ReferenceRatio; r != 1 || len(rq.Warnings) != 0 {
		t.Errorf("steady point: ratio %v, warnings %v", r, rq.Warnings)
	}
	var none result.Result
	flagSpeedChange(&none, &pointState{}, 100)
	if none.Method().ReferenceRatio != 0 {
		t.Error("a point without probes got a ratio")
	}
}
