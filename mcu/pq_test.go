package mcu

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/result"
)

// The post-quantum kernels are checked four ways, all in the full tier
// (each needs a compiler, most an emulator): natively with the host's gcc
// (every known answer and every sweep input, in seconds), as Cortex-M4 code
// under qemu-arm's user mode (the same checks, and the stack by painting),
// inside simavr (one timed run per operation where the part has the
// memory, "does not fit" with the sizes where it has not), and on the
// cortex-m4 target in QEMU's system emulation with the real harness
// (TestKernelsInSimulator).

// pqKernelNames are the post-quantum kernels of the registry.
var pqKernelNames = []string{"mlkem512", "mlkem512-lean", "mlkem768", "mlkem768-lean", "mldsa44", "mldsa44-lean"}

func pqKernel(t testing.TB, name string) Kernel {
	t.Helper()
	k, ok := KernelByName(name)
	if !ok {
		t.Fatalf("no kernel %s", name)
	}
	return k
}

// hostOutput is what harness_host.c printed.
type hostOutput struct {
	kats   map[string]bool
	ops    []hostOp
	ended  bool
	failed int
}

type hostOp struct {
	name              string
	input             int
	check             string
	iterations, stack int
}

func parseHostOutput(out string) (*hostOutput, error) {
	h := &hostOutput{kats: map[string]bool{}}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		kv := map[string]string{}
		for _, x := range f[1:] {
			if k, v, ok := strings.Cut(x, "="); ok {
				kv[k] = v
			}
		}
		num := func(k string) int { n, _ := strconv.Atoi(kv[k]); return n }
		switch f[0] {
		case "host":
		case "kat":
			if len(f) != 3 {
				return nil, fmt.Errorf("bad line %q", sc.Text())
			}
			h.kats[f[1]] = f[2] == "pass"
		case "op":
			h.ops = append(h.ops, hostOp{name: f[1], input: num("input"), check: kv["check"], iterations: num("iterations"), stack: num("stack")})
		case "end":
			h.ended, h.failed = true, num("failed")
		default:
			return nil, fmt.Errorf("unexpected line %q", sc.Text())
		}
	}
	return h, nil
}

// check fails the test unless every known answer and every checked run
// passed and every operation ran on all its inputs.
func (h *hostOutput) check(t *testing.T, k Kernel, out string) {
	t.Helper()
	if !h.ended || h.failed != 0 || len(h.kats) < 3 {
		t.Fatalf("%s: %d known-answer tests, %d failed, ended %v:\n%s", k.Name, len(h.kats), h.failed, h.ended, out)
	}
	for name, pass := range h.kats {
		if !pass {
			t.Errorf("%s: known-answer test %s failed", k.Name, name)
		}
	}
	inputs := map[string]int{}
	for _, op := range h.ops {
		inputs[op.name]++
		if op.check != "pass" {
			t.Errorf("%s: %s on input %d: check %s", k.Name, op.name, op.input, op.check)
		}
	}
	want := map[string]int{"keygen": pqSweeps, "encaps": pqSweeps, "decaps": pqSweeps}
	if k.Family == "sign" {
		want = map[string]int{"keygen": pqSweeps, "sign": pqSweeps, "verify": 1}
	}
	for op, n := range want {
		if inputs[op] != n {
			t.Errorf("%s: %s ran on %d inputs, want %d", k.Name, op, inputs[op], n)
		}
	}
}

// hostProgram writes the kernel's sources and harness_host.c into a
// temporary directory and compiles them with cc.
func hostProgram(t *testing.T, k Kernel, cc string, flags ...string) (exe, dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.CopyFS(dir, k.files()); err != nil {
		t.Fatal(err)
	}
	host, err := filepath.Abs(filepath.Join("testdata", "host"))
	if err != nil {
		t.Fatal(err)
	}
	// one object per source, named as the AVR build names them, so the
	// linker map attributes the kernel's bytes the same way; flash reads
	// are plain reads off the AVR (the kernels' compat/avr/pgmspace.h)
	cflags := append([]string{"-std=gnu11", "-Wall", "-Wextra", "-Werror", "-I", filepath.Join(dir, "compat"), "-I", dir}, flags...)
	cflags = append(cflags, k.Defines...)
	var objs []string
	for _, src := range append(append(slices.Clone(k.Sources), k.Bench), filepath.Join(host, "harness_host.c")) {
		obj := filepath.Base(src) + ".o"
		cmd := exec.Command(cc, append(slices.Clone(cflags), "-c", src, "-o", obj)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %s -c %s: %v\n%s", k.Name, cc, src, err, out)
		}
		objs = append(objs, obj)
	}
	exe = filepath.Join(dir, "prog")
	cmd := exec.Command(cc, append(append(slices.Clone(cflags), objs...), "-o", exe)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %s: linking: %v\n%s", k.Name, cc, err, out)
	}
	return exe, dir
}

func runProgram(t *testing.T, k Kernel, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		t.Fatalf("%s: %s: %v\n%s", k.Name, name, err, out)
	}
	return string(out)
}

// TestPQKernelsOnHost (full tier: the host's gcc, a few seconds of
// compiling, milliseconds of running): every post-quantum kernel, built
// natively with gcc and the undefined-behaviour sanitizer, passes its
// known-answer tests and gives the expected output on every input of every
// timing sweep. A failed known answer fails the test.
func TestPQKernelsOnHost(t *testing.T) {
	gcc := testtier.RequireTool(t, "gcc", "gcc")
	for _, name := range pqKernelNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k := pqKernel(t, name)
			exe, _ := hostProgram(t, k, gcc, "-O0", "-fsanitize=undefined", "-fno-sanitize-recover=all")
			out := runProgram(t, k, exe)
			h, err := parseHostOutput(out)
			if err != nil {
				t.Fatal(err)
			}
			h.check(t, k, out)
			if k.Family == "sign" {
				var its []string
				for _, op := range h.ops {
					if op.name == "sign" {
						its = append(its, strconv.Itoa(op.iterations))
					}
				}
				t.Logf("%s: signing iterations per sweep input: %s", k.Name, strings.Join(its, " "))
			}
		})
	}
}

// TestMLKEMCompressExhaustive (full tier: the host's gcc): ML-KEM's
// division-free Compress_d and Decompress_d equal FIPS 203's definitions on
// every input.
func TestMLKEMCompressExhaustive(t *testing.T) {
	gcc := testtier.RequireTool(t, "gcc", "gcc")
	k := pqKernel(t, "mlkem512")
	dir := t.TempDir()
	if err := os.CopyFS(dir, k.files()); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "check")
	src, _ := filepath.Abs(filepath.Join("testdata", "host", "compress_check.c"))
	if out, err := exec.Command(gcc, "-O1", "-Wall", "-I", dir, src, filepath.Join(dir, "fips202.c"), "-o", exe).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out := runProgram(t, k, exe); strings.TrimSpace(out) != "ok" {
		t.Error(out)
	}
}

// cortexM4 is one kernel's Cortex-M4 build: its stack per operation
// (painting, under qemu-arm) and its code and constants (the linker map).
type cortexM4 struct {
	stack map[string]int
	rom   int
}

var (
	m4Once    sync.Map // kernel name → *m4Result
	m4Toolset struct {
		once      sync.Once
		gcc, qemu string
	}
)

type m4Result struct {
	once sync.Once
	res  cortexM4
	err  error
}

// m4Flags build Cortex-M4 code the way a firmware would (-Os, Thumb-2, one
// section per function) into a Linux-ABI executable qemu-arm runs: no C
// library start-up, output and exit by system calls (harness_host.c).
var m4Flags = []string{"-mcpu=cortex-m4", "-mthumb", "-Os", "-ffunction-sections", "-fdata-sections", "-DHOST_ARM_LINUX",
	"-nostartfiles", "-static", "--specs=nano.specs", "-Wl,--gc-sections", "-Wl,-Ttext-segment=0x10000", "-Wl,-Map=image.map"}

// buildCortexM4 builds and runs k once per test binary.
func buildCortexM4(t *testing.T, k Kernel) cortexM4 {
	t.Helper()
	m4Toolset.once.Do(func() {
		m4Toolset.gcc, _ = exec.LookPath("arm-none-eabi-gcc")
		m4Toolset.qemu, _ = exec.LookPath("qemu-arm")
	})
	if m4Toolset.gcc == "" {
		testtier.RequireTool(t, "arm-none-eabi-gcc", "gcc-arm-none-eabi and libnewlib-arm-none-eabi")
	}
	if m4Toolset.qemu == "" {
		testtier.RequireTool(t, "qemu-arm", "qemu-user")
	}
	v, _ := m4Once.LoadOrStore(k.Name, &m4Result{})
	r := v.(*m4Result)
	r.once.Do(func() {
		exe, dir := hostProgram(t, k, m4Toolset.gcc, m4Flags...)
		out := runProgram(t, k, m4Toolset.qemu, exe)
		h, err := parseHostOutput(out)
		if err != nil {
			r.err = err
			return
		}
		h.check(t, k, out)
		r.res.stack = map[string]int{}
		for _, op := range h.ops {
			r.res.stack[op.name] = max(r.res.stack[op.name], op.stack)
		}
		f, err := os.Open(filepath.Join(dir, "image.map"))
		if err != nil {
			r.err = err
			return
		}
		defer f.Close()
		m, err := ParseLinkMap(f)
		if err != nil {
			r.err = err
			return
		}
		var objs []string
		for _, s := range k.Sources {
			objs = append(objs, s+".o")
		}
		own := m.Attribute(objs)
		r.res.rom = m.Sum(".text", own) + m.Sum(".data", own)
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.res
}

// TestPQKernelsOnCortexM4 (full tier: cross-compiler and qemu-arm): the
// kernels build unchanged for a 32-bit Cortex-M4 and pass every known
// answer there; the lean kernels use a fraction of the straightforward
// ones' stack, and ML-DSA-44 signs in less than 4 KiB of stack.
func TestPQKernelsOnCortexM4(t *testing.T) {
	testtier.Slow(t, "cross-compiles and runs qemu-arm")
	results := map[string]cortexM4{}
	var mu sync.Mutex
	t.Run("build", func(t *testing.T) {
		for _, name := range pqKernelNames {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				r := buildCortexM4(t, pqKernel(t, name))
				if r.rom <= 1000 {
					t.Errorf("%s: ROM %d B from the map", name, r.rom)
				}
				mu.Lock()
				results[name] = r
				mu.Unlock()
				t.Logf("%s on Cortex-M4 (-Os): ROM %d B, stack %v", name, r.rom, r.stack)
			})
		}
	})
	for _, name := range []string{"mlkem512", "mlkem768", "mldsa44"} {
		full, lean := results[name], results[name+"-lean"]
		for op, s := range full.stack {
			if lean.stack[op] <= 0 || lean.stack[op]*2 > s {
				t.Errorf("%s %s: lean stack %d B is not under half the straightforward %d B", name, op, lean.stack[op], s)
			}
		}
	}
	if s := results["mldsa44-lean"].stack["sign"]; s <= 0 || s > 4096 {
		t.Errorf("mldsa44-lean signs in %d B of stack, want under 4 KiB", s)
	}
}

// pqSims caches simulations, so the tests that need one run share it.
var pqSims sync.Map // target/kernel/opt → *pqSim

type pqSim struct {
	once sync.Once
	run  *result.Run
}

// simulatePQ runs k on tg at opt, one input per operation (MaxInputs 1:
// the test tier's single timed run; the eight-input sweeps run from the
// CLI), once per test binary, and returns its results, failing the test
// on an error result or a warning.
func simulatePQ(t *testing.T, tg Target, k Kernel, opt string) []result.Result {
	t.Helper()
	v, _ := pqSims.LoadOrStore(tg.Name+"/"+k.Name+"/"+opt, &pqSim{})
	s := v.(*pqSim)
	s.once.Do(func() {
		simulator(t)
		s.run = runPlan(t, &Plan{Targets: []Target{tg}, Kernels: []Kernel{k}, Opts: []string{opt}, MaxInputs: 1}, 10*time.Minute)
	})
	if s.run == nil {
		t.Fatalf("%s on %s: the simulation failed in another test", k.Name, tg.Name)
	}
	run := s.run
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Complete || len(run.Results) == 0 {
		t.Fatalf("%s on %s: status %s, errors %v", k.Name, tg.Name, run.Status, run.Errors)
	}
	for _, r := range run.Results {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Subject.Name, r.Error)
		}
		for _, w := range r.Warnings {
			t.Errorf("%s: %s", r.Subject.Name, w)
		}
	}
	return run.Results
}

// TestPQKernelsInSimulator (full tier: avr-gcc and simavr): on the
// ATmega328P's 2 KiB no post-quantum kernel fits, and each says so with
// its sizes; on the ATmega2560's 8 KiB the lean kernels pass their known
// answers in the simulator and are timed (one input per operation), while
// the straightforward ML-DSA-44 is refused for its 51 KB stack.
func TestPQKernelsInSimulator(t *testing.T) {
	testtier.Slow(t, "avr-gcc and simavr")
	uno, mega := atmega328p(t), target(t, "atmega2560")
	tc := toolchain(t, uno)
	t.Run("atmega328p", func(t *testing.T) {
		for _, name := range pqKernelNames {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				k := pqKernel(t, name)
				_, err := tc.Build(context.Background(), testCache, uno, k, "Os", 1)
				var fit *DoesNotFitError
				if !errors.As(err, &fit) || !strings.Contains(err.Error(), "the atmega328p has") || fit.SRAMMax != 2048 {
					t.Errorf("%s: Build = %v, want does not fit with the sizes", name, err)
				}
			})
		}
	})
	t.Run("atmega2560", func(t *testing.T) {
		for _, name := range []string{"mlkem512-lean", "mlkem768-lean", "mldsa44-lean"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				k := pqKernel(t, name)
				ops := map[string]bool{}
				for _, r := range simulatePQ(t, mega, k, "Os") {
					ops[r.Subject.Operation] = true
					if ram := r.Metric("ram").Summary.Median; ram > float64(mega.SRAMBytes()) || r.Metric("cycles").Summary.Median <= 0 {
						t.Errorf("%s: RAM %g B, cycles %g", r.Subject.Name, ram, r.Metric("cycles").Summary.Median)
					}
					if !strings.Contains(r.Provenance.Verified, "known-answer tests passed in the simulator") {
						t.Errorf("%s: provenance %+v", r.Subject.Name, r.Provenance)
					}
				}
				if len(ops) != 3 {
					t.Errorf("%s: operations %v", name, ops)
				}
			})
		}
		t.Run("mldsa44", func(t *testing.T) {
			_, err := toolchain(t, mega).Build(context.Background(), testCache, mega, pqKernel(t, "mldsa44"), "Os", 1)
			var fit *DoesNotFitError
			if !errors.As(err, &fit) || fit.StackNeed < 40000 || !strings.Contains(err.Error(), "B of stack") {
				t.Errorf("Build = %v, want does not fit for its stack", err)
			}
		})
	})
}

// TestPQStackNeeds (full tier): each kernel's MinStack is its deepest
// operation's stack, measured by painting — in simavr at -Os on the
// ATmega2560 for the lean kernels (the runs of TestPQKernelsInSimulator),
// under qemu-arm for the straightforward ones, which no 8 KiB part can run
// — so the fit check refuses what would overflow and little more. A
// registry value below the measurement or more than 5 % above it fails.
func TestPQStackNeeds(t *testing.T) {
	testtier.Slow(t, "avr-gcc, simavr and qemu-arm")
	where := map[string]string{"mlkem512": "cortex-m4", "mlkem768": "cortex-m4", "mldsa44": "cortex-m4",
		"mlkem512-lean": "atmega2560", "mlkem768-lean": "atmega2560", "mldsa44-lean": "atmega2560"}
	for _, name := range pqKernelNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k := pqKernel(t, name)
			deepest := 0
			if where[name] == "cortex-m4" {
				for _, s := range buildCortexM4(t, k).stack {
					deepest = max(deepest, s)
				}
			} else {
				for _, r := range simulatePQ(t, target(t, where[name]), k, "Os") {
					deepest = max(deepest, int(r.Metric("stack").Summary.Median))
				}
			}
			if k.MinStack < deepest || float64(k.MinStack) > 1.05*float64(deepest) {
				t.Errorf("%s: MinStack is %d B; its deepest operation measured %d B on the %s", name, k.MinStack, deepest, where[name])
			}
		})
	}
}

// TestStackOverflowIsDoesNotFit (fast tier): checks that fail beside a
// stack that ran into .bss are reported as the image not fitting, not as a
// failed known answer: the overflow overwrote the data they check.
func TestStackOverflowIsDoesNotFit(t *testing.T) {
	k := pqKernel(t, "mlkem768-lean")
	img := &Image{Kernel: k, Target: target(t, "atmega2560"), Opt: "Os", Hash: strings.Repeat("0", 64)}
	out := &Output{Calib: &Calibration{Empty: 12, ISRWith: 1058, ISRWithout: 1000}, KATs: []KATResult{{"acvp-keygen", true}}, Ended: true,
		Ops: []Op{{Name: "decaps", Inputs: 8, RerunStack: -1, RerunFull: true, Runs: []OpRun{{Input: 0, Count: 1e7, ISRRuns: 150, Stack: -1, Free: 12000, Check: "fail"}}}}}
	_, err := Results(img, out, time.Second)
	var fit *DoesNotFitError
	if !errors.As(err, &fit) || !strings.Contains(err.Error(), "its stack used all 12000 B") {
		t.Errorf("Results = %v, want does not fit for the stack", err)
	}
	out.Ops[0].RerunFull = false
	out.Ops[0].RerunStack = 900
	if _, err := Results(img, out, time.Second); err == nil || errors.As(err, &fit) || !strings.Contains(err.Error(), "known-answer test failed") {
		t.Errorf("a failed check without an overflow: %v", err)
	}
}
