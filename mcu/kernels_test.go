package mcu

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/result"
)

// kernelCase is one image the tests build and run: each operation once
// (MaxInputs 1), after the image's known-answer tests.
type kernelCase struct{ target, kernel, opt string }

// kernelCases are the images the test suite runs. Every kernel that is not
// slow runs on one target of each architecture (atmega328p, cortex-m4,
// rv32imac) at -Os, the cheaper ones at -O2 (and -O3 on the Cortex-M4)
// too; the other targets run three kernels that exercise what differs
// between cores (table lookups, 32-bit words, multiplication). RSA-1024
// square-and-multiply runs on the 32-bit cores only (about 30 s of
// simulation each on the AVR), RSA-1024 with the CRT on the AVR only on
// the atmega2560, and RSA-2048 (minutes) from the command line, as does the full matrix
// (cryptocost mcu bench --target all --opt Os,O2,O3; docs/mcu.md records
// that run). The post-quantum kernels (those with a measured MinStack) run
// here on the cortex-m4, the one target of the three all of them fit;
// pq_test.go has them on the AVRs (does not fit on the atmega328p, the lean
// ones timed on the atmega2560). The ECDSA kernels run every operation on
// the two 32-bit targets (QEMU: seconds); on the AVR, where an image of
// every operation costs up to half a billion cycles, ecdsa_test.go times
// signing alone. A function, not a variable: the registry's RSA and ECDSA
// kernels are added by an init function, which runs after package
// variables are initialised.
func kernelCases() []kernelCase {
	var cs []kernelCase
	cheap := []string{"aes128", "speck64-128", "present80", "chacha20", "ascon-aead128", "sha1", "sha256", "hmac-sha1", "hmac-sha256"}
	for _, k := range Kernels() {
		if k.Slow {
			continue
		}
		if k.Name == "rsa1024-sm-sram" || k.Name == "rsa1024-sm-flash" {
			cs = append(cs, kernelCase{"cortex-m4", k.Name, "Os"}, kernelCase{"rv32imac", k.Name, "Os"})
			continue
		}
		if k.MinStack > 0 {
			cs = append(cs, kernelCase{"cortex-m4", k.Name, "Os"})
			continue
		}
		if strings.HasPrefix(k.Name, "ecdsa-") {
			cs = append(cs, kernelCase{"cortex-m4", k.Name, "Os"}, kernelCase{"rv32imac", k.Name, "Os"})
			continue
		}
		for _, t := range []string{"atmega328p", "cortex-m4", "rv32imac"} {
			if t == "atmega328p" && k.Name == "rsa1024-crt" {
				continue // the atmega2560 runs it below (35 s of CPU each)
			}
			cs = append(cs, kernelCase{t, k.Name, "Os"})
		}
		if slices.Contains(cheap, k.Name) || k.Name == "rsa512-sm-sram" || k.Name == "rsa512-crt" {
			cs = append(cs, kernelCase{"atmega328p", k.Name, "O2"})
		}
		if slices.Contains(cheap, k.Name) {
			cs = append(cs, kernelCase{"cortex-m4", k.Name, "O2"}, kernelCase{"cortex-m4", k.Name, "O3"})
		}
	}
	for _, t := range []string{"atmega2560", "cortex-m0", "cortex-m3", "cortex-m7"} {
		for _, k := range []string{"aes128", "sha256", "x25519"} {
			cs = append(cs, kernelCase{t, k, "Os"})
		}
	}
	cs = append(cs, kernelCase{"atmega2560", "rsa1024-crt", "Os"}, kernelCase{"cortex-m0", "rsa512-crt", "Os"})
	return cs
}

// TestKernelsInSimulator: every kernel passes its known-answer tests inside
// the simulator on each target of the matrix above, each operation gets
// numbers that fit the part, the operations a kernel claims constant time
// take the same count on its inputs, and on the QEMU targets the board
// timer's instruction count equals the profiler's (Results checks that).
// Tier: simulators, full run only.
func TestKernelsInSimulator(t *testing.T) {
	testtier.Slow(t, "simulates every kernel")
	for _, c := range kernelCases() {
		k, ok := KernelByName(c.kernel)
		if !ok {
			t.Fatalf("no kernel %s", c.kernel)
		}
		t.Run(c.target+"/"+c.kernel+"/"+c.opt, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			tg := target(t, c.target)
			run := runPlan(t, &Plan{Targets: []Target{tg}, Kernels: []Kernel{k}, Opts: []string{c.opt}, MaxInputs: 1}, 10*time.Minute)
			checkKernelRun(t, tg, run)
		})
	}
}

func runPlan(t *testing.T, plan *Plan, timeout time.Duration) *result.Run {
	t.Helper()
	tcs := map[string]*Toolchain{}
	for _, tg := range plan.Targets {
		tcs[tg.Name] = toolchain(t, tg)
	}
	return Run(context.Background(), plan, RunConfig{Toolchains: tcs, CacheDir: testCache, Timeout: timeout}, nil)
}

func checkKernelRun(t *testing.T, tg Target, run *result.Run) {
	t.Helper()
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Complete || len(run.Results) == 0 {
		t.Fatalf("status %s, %d results, errors %v", run.Status, len(run.Results), run.Errors)
	}
	for _, r := range run.Results {
		if r.Error != "" {
			t.Errorf("%s: %s", r.Subject.Name, r.Error)
			continue
		}
		if !strings.Contains(r.Provenance.Verified, "known-answer tests passed in the simulator") || r.Provenance.Method.Name != MethodName(tg) ||
			r.Provenance.Label != result.Simulated {
			t.Errorf("%s: provenance %+v", r.Subject.Name, r.Provenance)
		}
		for _, w := range r.Warnings {
			t.Errorf("%s: %s", r.Subject.Name, w)
		}
		count := r.Metric(tg.Unit())
		ram, rom, stack := r.Metric("ram"), r.Metric("rom"), r.Metric("stack")
		if count == nil || count.Summary.Min <= 0 || len(count.Samples) == 0 || count.Label != result.Simulated {
			t.Errorf("%s: %s %+v", r.Subject.Name, tg.Unit(), count)
			continue
		}
		if tg.CountsCycles() {
			// each sample exactly cycles ÷ clock, in seconds
			tm := r.Metric("time")
			for i, c := range count.Samples {
				if tm == nil || len(tm.Samples) != len(count.Samples) || tm.Samples[i] != c/tg.ClockHz() || tm.Unit != "s" {
					t.Errorf("%s: time %+v is not cycles ÷ %s in seconds", r.Subject.Name, tm, plain(tg.Clock))
					break
				}
			}
		} else if cy := r.Metric("cycles"); tg.Simulator.CycleRule != "" {
			lo, hi := r.Metric("cycles-min"), r.Metric("cycles-max")
			if cy == nil || cy.Label != result.Estimated || lo == nil || hi == nil ||
				!(lo.Summary.Median <= cy.Summary.Median && cy.Summary.Median <= hi.Summary.Median) ||
				cy.Summary.Median < count.Summary.Median*0.9 {
				t.Errorf("%s: estimated cycles %+v (range %v to %v) for %g instructions", r.Subject.Name, cy, lo, hi, count.Summary.Median)
			}
			if tm := r.Metric("time"); tm == nil || tm.Label != result.Estimated {
				t.Errorf("%s: time %+v, want an estimate", r.Subject.Name, tm)
			}
		} else if cy != nil {
			t.Errorf("%s: cycles %+v on a target without a cycle rule", r.Subject.Name, cy)
		}
		if stack.Summary.Median < 0 || ram.Summary.Median > float64(tg.SRAMBytes()) || rom.Summary.Median <= 0 || rom.Summary.Median > float64(tg.FlashBytes()) {
			t.Errorf("%s: stack %g, RAM %g, ROM %g B", r.Subject.Name, stack.Summary.Median, ram.Summary.Median, rom.Summary.Median)
		}
		for _, m := range r.Metrics {
			if m.Method == "" {
				t.Errorf("%s: metric %s has no method", r.Subject.Name, m.Name)
			}
		}
		for _, p := range []string{"target", "part", "core", "clock_hz", "counts", "timing"} {
			if r.Subject.Params[p] == "" {
				t.Errorf("%s: no %s param", r.Subject.Name, p)
			}
		}
		// the leak report covers eight secrets: each operation on a
		// secret declares MCU_SECRETS inputs in its bench file
		if r.Subject.Params["secret"] == "true" && r.Subject.Params["declared_inputs"] != "8" {
			t.Errorf("%s handles a secret and its bench file declares %s inputs, want MCU_SECRETS (8)", r.Subject.Name, r.Subject.Params["declared_inputs"])
		}
	}
}

// TestLeakReport: run on eight secrets, RSA's square-and-multiply (S004's
// algorithm, whose work follows the bits of d) is reported as leaking and
// the Montgomery ladder with the CRT as constant time, in the results and
// in the table. On the RV32 board, the cheapest simulation of the two.
// Tier: simulators, full run only.
func TestLeakReport(t *testing.T) {
	simulator(t)
	tg := target(t, "rv32imac")
	sm, _ := KernelByName("rsa512-sm-sram")
	crt, _ := KernelByName("rsa512-crt")
	run := runPlan(t, &Plan{Targets: []Target{tg}, Kernels: []Kernel{sm, crt}, Opts: []string{"Os"}}, 10*time.Minute)
	if run.Status != result.Complete || len(run.Results) != 2 {
		t.Fatalf("status %s, %d results: %v", run.Status, len(run.Results), run.Errors)
	}
	verdict := map[string]string{}
	for _, r := range run.Results {
		verdict[r.Subject.Params["kernel"]] = r.Subject.Params["timing"]
		if r.Subject.Params["timing_inputs"] != "8" || r.Subject.Params["secret"] != "true" {
			t.Errorf("%s: timed on %s inputs, secret %s", r.Subject.Name, r.Subject.Params["timing_inputs"], r.Subject.Params["secret"])
		}
		if s := r.Metric(tg.Unit() + "-spread"); s == nil || (r.Subject.Params["kernel"] == "rsa512-crt") != (s.Summary.Median == 0) {
			t.Errorf("%s: spread %+v", r.Subject.Name, s)
		}
	}
	if v := verdict["rsa512-sm-sram"]; !strings.HasPrefix(v, "leaks: ") || !strings.Contains(v, "instructions spread") || !strings.HasSuffix(v, "over 8 secrets") {
		t.Errorf("square-and-multiply: %q, want a leak over 8 secrets", v)
	}
	if v := verdict["rsa512-crt"]; v != "constant time (0 instructions spread over 8 secrets)" {
		t.Errorf("Montgomery ladder + CRT: %q", v)
	}
	var b strings.Builder
	if err := WriteTable(&b, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"leaks ", "constant, 8 secrets"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestConstantTimeCheck: differing counts on an operation a kernel claims
// constant time become a warning; on one it does not claim, they do not.
// Tier: fast.
func TestConstantTimeCheck(t *testing.T) {
	k, _ := KernelByName("ed25519")
	img := &Image{Kernel: k, Target: atmega328p(t), Opt: "Os", Hash: strings.Repeat("0", 64)}
	out := &Output{Calib: &Calibration{Empty: 12, ISRWith: 4071, ISRWithout: 4013}, KATs: []KATResult{{"kat", true}}}
	for _, name := range []string{"sign", "verify"} {
		out.Ops = append(out.Ops, Op{Name: name, Inputs: 2, RerunStack: 100, Runs: []OpRun{
			{Input: 0, Count: 1000, Stack: -1, Check: "pass"}, {Input: 1, Count: 1010, Stack: -1, Check: "pass"}}})
	}
	rs, err := Results(img, out, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs[0].Warnings) != 1 || !strings.Contains(rs[0].Warnings[0], "not constant time: cycles differ between inputs: 988 to 998") {
		t.Errorf("sign warnings %v", rs[0].Warnings)
	}
	if v := rs[0].Subject.Params["timing"]; v != "leaks: 10 cycles spread (1 %) over 2 secrets" {
		t.Errorf("sign timing %q", v)
	}
	if len(rs[1].Warnings) != 0 || rs[1].Subject.Params["timing"] != "varies with public data: 10 cycles spread (1 %) over 2 inputs" {
		t.Errorf("verify (variable time by design) warned %v, timing %q", rs[1].Warnings, rs[1].Subject.Params["timing"])
	}
}

// TestTimingVerdicts: the leak report's wording for each case. Tier: fast.
func TestTimingVerdicts(t *testing.T) {
	rsa, _ := KernelByName("rsa1024-sm-sram")
	sha, _ := KernelByName("sha256")
	for _, c := range []struct {
		k      Kernel
		op     string
		unit   string
		counts []float64
		est    []Estimate
		want   string
	}{
		{rsa, "private", "cycles", []float64{40e6, 40e6, 40e6, 40e6, 40e6, 40e6, 40e6, 40e6}, nil, "constant time (0 cycles spread over 8 secrets)"},
		{rsa, "private", "cycles", []float64{40e6, 41.2e6, 40.5e6, 40e6, 40e6, 40e6, 40e6, 40e6}, nil, "leaks: 1.2 M cycles spread (3 %) over 8 secrets"},
		{rsa, "private", "instructions", []float64{5, 5}, []Estimate{{Cycles: fixed(7)}, {Cycles: fixed(9)}}, "leaks: the same instructions over 2 secrets, but 2 estimated cycles spread (branches taken differently)"},
		{rsa, "private", "cycles", []float64{40e6}, nil, "not checked: timed on 1 secret of 8"},
		{sha, "hash", "cycles", []float64{70e3, 70e3}, nil, "0 cycles spread over 2 inputs (public data)"},
	} {
		op := &Op{Name: c.op, Inputs: 8}
		if got := timingVerdict(c.k, op, c.unit, c.counts, c.est).text; got != c.want {
			t.Errorf("%v: %q, want %q", c.counts, got, c.want)
		}
	}
}

// TestHangingFirmwareIsKilled: an operation that never returns is killed at
// the timeout and reported; what ran before it is kept. On simavr and on
// QEMU. Tier: simulators, full run only.
func TestHangingFirmwareIsKilled(t *testing.T) {
	for _, name := range []string{"atmega328p", "cortex-m4"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			tg := target(t, name)
			run := runPlan(t, &Plan{Targets: []Target{tg}, Kernels: []Kernel{fixtureKernel(t, "hang")}, Opts: []string{"Os"}}, 5*time.Second)
			if run.Status != result.Failed || len(run.Errors) != 1 || !strings.Contains(run.Errors[0], "did not finish within 5s and was killed") {
				t.Fatalf("status %s, errors %v", run.Status, run.Errors)
			}
			var quick, failed bool
			for _, r := range run.Results {
				quick = quick || (r.Subject.Operation == "quick" && r.Error == "" && r.Metric(tg.Unit()) != nil)
				failed = failed || (r.Error != "" && strings.Contains(r.Error, `the last: "op quick`))
			}
			if !quick || !failed {
				t.Errorf("want the quick operation's numbers and an error naming the last line: %+v", run.Results)
			}
		})
	}
}

// TestCrashIsReported: a firmware that takes a fault (an undefined
// instruction) is stopped by the platform's fault handler and reported
// at once, not left to hang. Tier: simulators, full run only.
func TestCrashIsReported(t *testing.T) {
	for _, name := range []string{"cortex-m0", "rv32imac"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			run := runPlan(t, &Plan{Targets: []Target{target(t, name)}, Kernels: []Kernel{fixtureKernel(t, "crash")}, Opts: []string{"Os"}}, 2*time.Minute)
			if run.Status != result.Failed || len(run.Errors) != 1 || !strings.Contains(run.Errors[0], "the firmware crashed: the processor took a") {
				t.Fatalf("status %s, errors %v", run.Status, run.Errors)
			}
		})
	}
}

// TestFailedKATGivesNoNumbers: one failed known-answer test and the image
// reports an error and no number at all (on QEMU the firmware's exit
// status says so too). Tier: simulators, full run only.
func TestFailedKATGivesNoNumbers(t *testing.T) {
	for _, name := range []string{"atmega328p", "rv32imac"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			run := runPlan(t, &Plan{Targets: []Target{target(t, name)}, Kernels: []Kernel{fixtureKernel(t, "badkat")}, Opts: []string{"Os"}}, time.Minute)
			if run.Status != result.Failed || len(run.Results) != 1 {
				t.Fatalf("status %s, %d results: %v", run.Status, len(run.Results), run.Errors)
			}
			r := run.Results[0]
			if len(r.Metrics) != 0 || !strings.Contains(r.Error, "known-answer test failed in the simulator: fails") {
				t.Errorf("result %+v", r)
			}
		})
	}
}

// TestDoesNotFit: too much flash, too much static SRAM, and a stack that
// runs into .bss are each reported as not fitting, with the sizes; the
// ATmega2560 holds RSA-2048 in CRT form, which the ATmega328P cannot.
// Tier: cross-compilers and simulators, full run only.
func TestDoesNotFit(t *testing.T) {
	simulator(t)
	for _, c := range []struct {
		target string
		kernel Kernel
		check  func(*DoesNotFitError) bool
		want   string
	}{
		{"atmega328p", fixtureKernel(t, "bigflash"), func(e *DoesNotFitError) bool { return e.Flash > 40000 && e.FlashMax == 32768 }, "B of flash, the atmega328p has 32768 B"},
		{"atmega328p", fixtureKernel(t, "bigbss"), func(e *DoesNotFitError) bool { return e.StaticRAM > 2100 && e.SRAMMax == 2048 }, "B of SRAM for .data and .bss before any stack, the atmega328p has 2048 B"},
		{"cortex-m0", fixtureKernel(t, "bigbss32"), func(e *DoesNotFitError) bool { return e.StaticRAM > 16384 && e.SRAMMax == 16384 }, "the cortex-m0 has 16384 B"},
		{"atmega328p", mustKernel(t, "rsa2048-crt"), func(e *DoesNotFitError) bool { return e.StaticRAM > 2048 }, "the atmega328p has 2048 B"},
	} {
		t.Run(c.target+"/"+c.kernel.Name, func(t *testing.T) {
			tg := target(t, c.target)
			_, err := toolchain(t, tg).Build(context.Background(), testCache, tg, c.kernel, "Os", 1)
			var fit *DoesNotFitError
			if !errors.As(err, &fit) || !c.check(fit) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Build = %v, want does not fit: %q", err, c.want)
			}
		})
	}
	t.Run("atmega2560/rsa2048-crt", func(t *testing.T) {
		mega := target(t, "atmega2560")
		img, err := toolchain(t, mega).Build(context.Background(), testCache, mega, mustKernel(t, "rsa2048-crt"), "Os", 1)
		if err != nil || img.Sizes.StaticRAM() <= 2048 {
			t.Errorf("the ATmega2560: %v (static RAM %d B)", err, img.Sizes.StaticRAM())
		}
	})
	for _, name := range []string{"atmega328p", "cortex-m0"} {
		t.Run("stack/"+name, func(t *testing.T) {
			run := runPlan(t, &Plan{Targets: []Target{target(t, name)}, Kernels: []Kernel{fixtureKernel(t, "deepstack")}, Opts: []string{"Os"}}, time.Minute)
			var shallow, deep bool
			for _, r := range run.Results {
				if r.Subject.Operation == "shallow" && r.Error == "" && r.Metric("stack").Summary.Median >= 16 {
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
}

func mustKernel(t testing.TB, name string) Kernel {
	t.Helper()
	k, ok := KernelByName(name)
	if !ok {
		t.Fatalf("no kernel %s", name)
	}
	return k
}

// TestResultsOfACutOffRun: an operation whose stack rerun never came (the
// run was interrupted) is left out; the ones before it are kept. Tier: fast.
func TestResultsOfACutOffRun(t *testing.T) {
	k, _ := KernelByName("x25519")
	img := &Image{Kernel: k, Target: atmega328p(t), Opt: "Os", Hash: strings.Repeat("0", 64)}
	out := &Output{Calib: &Calibration{Empty: 12, ISRWith: 4071, ISRWithout: 4013}, KATs: []KATResult{{"kat", true}}, Ops: []Op{
		{Name: "keygen", Inputs: 8, RerunStack: 900, Runs: []OpRun{{Input: 0, Count: 1000, ISRRuns: 2, Stack: -1, Check: "pass"}}},
		{Name: "shared-secret", Inputs: 8, RerunStack: -1, Runs: []OpRun{{Input: 0, Count: 1000, ISRRuns: 2, Stack: -1, Check: "pass"}}},
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

// TestMissingToolchainNamesPackages: without the tools on PATH, each target
// family's error names the Debian packages to install. Tier: fast.
func TestMissingToolchainNamesPackages(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for name, want := range map[string]string{
		"atmega328p": "sudo apt-get install gcc-avr binutils-avr avr-libc simavr",
		"cortex-m4":  "sudo apt-get install gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm gcc",
		"cortex-m7":  "sudo apt-get install gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm)",
		"rv32imac":   "sudo apt-get install gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc",
	} {
		_, err := FindToolchain(context.Background(), target(t, name))
		if !errors.Is(err, ErrNoToolchain) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	_, err := FindToolchain(context.Background(), target(t, "rv32imac"))
	if want := "qemu-system-riscv32 (Debian package qemu-system-misc)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("rv32imac: %v, want %q", err, want)
	}
}

// TestFullMatrix is the opt-in slow tier: every kernel that is not slow on
// every target at -Os and -O2, each operation on all its inputs (eight
// secrets for an operation on a secret), checked as TestKernelsInSimulator
// checks its images. An hour or more of simulation; it runs only with
// CRYPTOCOST_MCU_MATRIX=1 (go test ./mcu -run TestFullMatrix -timeout 4h),
// and cryptocost mcu bench --target all does the same from the command
// line. Tier: opt-in slow.
func TestFullMatrix(t *testing.T) {
	if os.Getenv("CRYPTOCOST_MCU_MATRIX") != "1" {
		t.Skip("the full matrix runs only with CRYPTOCOST_MCU_MATRIX=1")
	}
	simulator(t)
	for _, tg := range Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			ks, err := SelectKernels(nil)
			if err != nil {
				t.Fatal(err)
			}
			run := runPlan(t, &Plan{Targets: []Target{tg}, Kernels: ks, Opts: []string{"Os", "O2"}}, 3*time.Hour)
			// a kernel too big for the part is an answer, not a failure
			fits := run.Results[:0]
			for _, r := range run.Results {
				if r.Subject.Params["fit"] != "no" {
					fits = append(fits, r)
				}
			}
			run.Results = fits
			checkKernelRun(t, tg, run)
		})
	}
}
