package mcu

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// testedKernels are the images the test suite builds and runs: every
// kernel at -Os, the cheaper ones at -O2 as well. RSA-1024 with plain
// square-and-multiply (about 30 s of simulation each) and RSA-2048 (minutes)
// run from the command line; docs/mcu.md records those runs.
var testedKernels = map[string][]string{
	"aes128": {"Os", "O2"}, "speck64-128": {"Os", "O2"}, "present80": {"Os", "O2"}, "chacha20": {"Os", "O2"},
	"ascon-aead128": {"Os", "O2"}, "sha256": {"Os", "O2"}, "hmac-sha256": {"Os", "O2"},
	"x25519": {"Os"}, "ed25519": {"Os"},
	"rsa512-sm-sram": {"Os", "O2"}, "rsa512-sm-flash": {"Os"}, "rsa512-crt": {"Os", "O2"}, "rsa1024-crt": {"Os"},
}

// TestKernelsInSimulator: every kernel passes its known-answer tests inside
// the simulator, each operation gets numbers that fit the part, and the
// operations a kernel claims constant time take the same cycles on every
// input.
func TestKernelsInSimulator(t *testing.T) {
	tc := toolchain(t)
	for name, opts := range testedKernels {
		k, ok := KernelByName(name)
		if !ok {
			t.Fatalf("no kernel %s", name)
		}
		for _, opt := range opts {
			t.Run(name+"/"+opt, func(t *testing.T) {
				t.Parallel()
				plan := &Plan{Target: atmega328p(t), Kernels: []Kernel{k}, Opts: []string{opt}}
				run := Run(context.Background(), plan, RunConfig{Toolchain: tc, CacheDir: testCache, Timeout: 10 * time.Minute}, nil)
				checkKernelRun(t, k, run)
			})
		}
	}
}

func checkKernelRun(t *testing.T, k Kernel, run *result.Run) {
	t.Helper()
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Complete || len(run.Results) == 0 {
		t.Fatalf("status %s, %d results, errors %v", run.Status, len(run.Results), run.Errors)
	}
	tg := atmega328p(t)
	for _, r := range run.Results {
		if r.Error != "" {
			t.Errorf("%s: %s", r.Subject.Name, r.Error)
			continue
		}
		if !strings.Contains(r.Provenance.Verified, "known-answer tests passed in the simulator") || r.Provenance.Method.Name != "simulated: simavr atmega328p" {
			t.Errorf("%s: provenance %+v", r.Subject.Name, r.Provenance)
		}
		for _, w := range r.Warnings {
			t.Errorf("%s: %s", r.Subject.Name, w)
		}
		cycles, ram, rom, stack := r.Metric("cycles"), r.Metric("ram"), r.Metric("rom"), r.Metric("stack")
		if cycles == nil || cycles.Summary.Min <= 0 || len(cycles.Samples) == 0 {
			t.Errorf("%s: cycles %+v", r.Subject.Name, cycles)
			continue
		}
		if s, want := r.Metric("time").Summary.Median, cycles.Summary.Median/tg.ClockHz(); math.Abs(s-want) > 1e-12*want {
			t.Errorf("%s: time %g s is not cycles ÷ 16 MHz", r.Subject.Name, s)
		}
		if stack.Summary.Median < 2 || ram.Summary.Median > float64(tg.SRAMBytes()) || rom.Summary.Median <= 0 || rom.Summary.Median > float64(tg.FlashBytes()) {
			t.Errorf("%s: stack %g, RAM %g, ROM %g B", r.Subject.Name, stack.Summary.Median, ram.Summary.Median, rom.Summary.Median)
		}
		for _, m := range r.Metrics {
			// Counted in the simulator (cycles, time, stack) or read from the
			// linker map (ROM, static RAM).
			if m.Label != result.Simulated && m.Label != result.Measured || m.Method == "" {
				t.Errorf("%s: metric %s labelled %q with method %q", r.Subject.Name, m.Name, m.Label, m.Method)
			}
		}
	}
}

// TestConstantTimeCheck: differing cycles on an operation a kernel claims
// constant time become a warning; on one it does not claim, they do not.
func TestConstantTimeCheck(t *testing.T) {
	k, _ := KernelByName("ed25519")
	img := &Image{Kernel: k, Target: atmega328p(t), Opt: "Os", Hash: strings.Repeat("0", 64)}
	out := &Output{Calib: &Calibration{EmptyCycles: 12, ISRCycles: 58}, KATs: []KATResult{{"kat", true}}}
	for _, name := range []string{"sign", "verify"} {
		out.Ops = append(out.Ops, Op{Name: name, RerunStack: 100, Runs: []OpRun{
			{Input: 0, Cycles: 1000, Stack: -1, Check: "pass"}, {Input: 1, Cycles: 1010, Stack: -1, Check: "pass"}}})
	}
	rs, err := Results(img, out, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs[0].Warnings) != 1 || !strings.Contains(rs[0].Warnings[0], "not constant time: cycles differ between inputs: 988 to 998") {
		t.Errorf("sign warnings %v", rs[0].Warnings)
	}
	if len(rs[1].Warnings) != 0 {
		t.Errorf("verify (variable time by design) warned: %v", rs[1].Warnings)
	}
}

// TestHangingFirmwareIsKilled: an operation that never returns is killed at
// the timeout and reported; what ran before it is kept.
func TestHangingFirmwareIsKilled(t *testing.T) {
	tc := toolchain(t)
	k := fixtureKernel(t, "hang")
	plan := &Plan{Target: atmega328p(t), Kernels: []Kernel{k}, Opts: []string{"Os"}}
	start := time.Now()
	run := Run(context.Background(), plan, RunConfig{Toolchain: tc, CacheDir: testCache, Timeout: 3 * time.Second}, nil)
	if time.Since(start) > 2*time.Minute {
		t.Errorf("the run took %s with a 3 s timeout", time.Since(start))
	}
	if run.Status != result.Failed || len(run.Errors) != 1 || !strings.Contains(run.Errors[0], "did not finish within 3s and was killed") {
		t.Fatalf("status %s, errors %v", run.Status, run.Errors)
	}
	var quick, failed bool
	for _, r := range run.Results {
		quick = quick || (r.Subject.Operation == "quick" && r.Error == "" && r.Metric("cycles") != nil)
		failed = failed || (r.Error != "" && strings.Contains(r.Error, `the last: "op quick`))
	}
	if !quick || !failed {
		t.Errorf("want the quick operation's numbers and an error naming the last line: %+v", run.Results)
	}
}

// TestFailedKATGivesNoNumbers: one failed known-answer test and the image
// reports an error and no number at all.
func TestFailedKATGivesNoNumbers(t *testing.T) {
	tc := toolchain(t)
	plan := &Plan{Target: atmega328p(t), Kernels: []Kernel{fixtureKernel(t, "badkat")}, Opts: []string{"Os"}}
	run := Run(context.Background(), plan, RunConfig{Toolchain: tc, CacheDir: testCache, Timeout: time.Minute}, nil)
	if run.Status != result.Failed || len(run.Results) != 1 {
		t.Fatalf("status %s, %d results", run.Status, len(run.Results))
	}
	r := run.Results[0]
	if len(r.Metrics) != 0 || !strings.Contains(r.Error, "known-answer test failed in the simulator: fails") {
		t.Errorf("result %+v", r)
	}
}

// TestDoesNotFit: too much flash, too much static SRAM, and a stack that
// runs into .bss are each reported as not fitting, with the sizes.
func TestDoesNotFit(t *testing.T) {
	tc := toolchain(t)
	for _, c := range []struct {
		kernel string
		check  func(*DoesNotFitError) bool
		want   string
	}{
		{"bigflash", func(e *DoesNotFitError) bool { return e.Flash > 40000 && e.FlashMax == 32768 }, "B of flash, the atmega328p has 32768 B"},
		{"bigbss", func(e *DoesNotFitError) bool { return e.StaticRAM > 2100 && e.SRAMMax == 2048 }, "B of SRAM for .data and .bss before any stack, the atmega328p has 2048 B"},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			_, err := tc.Build(context.Background(), testCache, atmega328p(t), fixtureKernel(t, c.kernel), "Os")
			var fit *DoesNotFitError
			if !errors.As(err, &fit) || !c.check(fit) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Build = %v, want does not fit: %q", err, c.want)
			}
		})
	}
	t.Run("stack", func(t *testing.T) {
		plan := &Plan{Target: atmega328p(t), Kernels: []Kernel{fixtureKernel(t, "deepstack")}, Opts: []string{"Os"}}
		run := Run(context.Background(), plan, RunConfig{Toolchain: tc, CacheDir: testCache, Timeout: time.Minute}, nil)
		var shallow, deep bool
		for _, r := range run.Results {
			if r.Subject.Operation == "shallow" && r.Error == "" && r.Metric("stack").Summary.Median >= 18 {
				shallow = true
			}
			if r.Subject.Params["fit"] == "no" && strings.Contains(r.Error, "its stack used all") {
				deep = true
			}
		}
		if !shallow || !deep || run.Status == result.Failed {
			t.Errorf("status %s; results %+v", run.Status, run.Results)
		}
	})
}

// TestResultsOfACutOffRun: an operation whose stack rerun never came (the
// run was interrupted) is left out; the ones before it are kept.
func TestResultsOfACutOffRun(t *testing.T) {
	k, _ := KernelByName("x25519")
	img := &Image{Kernel: k, Target: atmega328p(t), Opt: "Os", Hash: strings.Repeat("0", 64)}
	out := &Output{Calib: &Calibration{EmptyCycles: 12, ISRCycles: 58}, KATs: []KATResult{{"kat", true}}, Ops: []Op{
		{Name: "keygen", RerunStack: 900, Runs: []OpRun{{Input: 0, Cycles: 1000, ISRRuns: 2, Stack: -1, Check: "pass"}}},
		{Name: "shared-secret", RerunStack: -1, Runs: []OpRun{{Input: 0, Cycles: 1000, ISRRuns: 2, Stack: -1, Check: "pass"}}},
	}}
	rs, err := Results(img, out, time.Second)
	if err != nil || len(rs) != 1 || rs[0].Subject.Operation != "keygen" {
		t.Errorf("Results = %d results, %v; want keygen only", len(rs), err)
	}
	out.Ended = true // a finished run without a stack is an error
	if _, err := Results(img, out, time.Second); err == nil {
		t.Error("a finished run with an operation lacking its stack gave no error")
	}
}
