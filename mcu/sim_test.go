package mcu

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
)

// The simulator tests share one image cache, so each image is built once
// per test run.
var (
	testCache string

	tcOnce sync.Once
	tcErr  error
	testTC *Toolchain
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cryptocost-mcu-test-")
	if err != nil {
		panic(err)
	}
	testCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// toolchain returns the AVR toolchain or fails: scripts/test installs it
// from scripts/deps/mcu.txt, so its absence is an error, not a skip. A test
// that asks for it builds or simulates firmware: full tier (skipped with
// -short).
func toolchain(t testing.TB) *Toolchain {
	t.Helper()
	testtier.Slow(t, "builds and simulates AVR firmware")
	tcOnce.Do(func() { testTC, tcErr = FindToolchain(context.Background()) })
	if tcErr != nil {
		t.Fatalf("%v (./scripts/test installs them)", tcErr)
	}
	return testTC
}

func atmega328p(t testing.TB) Target {
	t.Helper()
	tg, err := TargetByName("atmega328p")
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// buildAndRun builds k at opt and simulates it.
func buildAndRun(t testing.TB, k Kernel, opt string, timeout time.Duration) (*Image, *Output, error) {
	t.Helper()
	tc := toolchain(t)
	img, err := tc.Build(context.Background(), testCache, atmega328p(t), k, opt)
	if err != nil {
		return img, nil, err
	}
	out, _, err := tc.Simulate(context.Background(), img, timeout)
	return img, out, err
}

// fixtureKernel is a kernel from testdata/kernels built with the real
// harness.
func fixtureKernel(t testing.TB, name string) Kernel {
	t.Helper()
	files := fstest.MapFS{}
	for _, f := range []string{"harness.c", "harness.h"} {
		data, err := kernelSources.ReadFile("kernels/" + f)
		if err != nil {
			t.Fatal(err)
		}
		files[f] = &fstest.MapFile{Data: data}
	}
	data, err := os.ReadFile(filepath.Join("testdata", "kernels", name+"_bench.c"))
	if err != nil {
		t.Fatal(err)
	}
	files[name+"_bench.c"] = &fstest.MapFile{Data: data}
	return Kernel{Name: name, Scheme: name, Algorithm: name, Label: name, Family: "test", Bench: name + "_bench.c",
		Verified: "a trivial test", sources: files}
}

var calibration = Kernel{Name: "calibration", Scheme: "calibration", Algorithm: "calibration", Label: "calibration",
	Sources: []string{"calib.S"}, Bench: "calib_bench.c"}

// disassemble returns the instructions of function fn in the image:
// mnemonic, operands and the target address of branches.
type insn struct {
	addr     uint64
	mnemonic string
	ops      []string
	target   uint64 // branches: the address objdump resolves
}

func disassemble(t testing.TB, img *Image, fn string) []insn {
	t.Helper()
	objdump := testtier.RequireTool(t, "avr-objdump", "binutils-avr")
	out, err := exec.Command(objdump, "-d", img.ELF).Output()
	if err != nil {
		t.Fatal(err)
	}
	var code []insn
	in := false
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasSuffix(line, "<"+fn+">:") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if strings.TrimSpace(line) == "" {
			break
		}
		// "  3a:	01 97       	sbiw	r24, 0x01	; 1"
		parts := strings.Split(line, "\t")
		if len(parts) < 3 {
			continue
		}
		var ins insn
		ins.addr = parseHex(t, strings.TrimSuffix(strings.TrimSpace(parts[0]), ":"))
		ins.mnemonic = strings.TrimSpace(parts[2])
		if len(parts) > 3 {
			operands, comment, _ := strings.Cut(strings.Join(parts[3:], "\t"), ";")
			for _, o := range strings.Split(operands, ",") {
				ins.ops = append(ins.ops, strings.TrimSpace(o))
			}
			if f := strings.Fields(comment); len(f) > 0 && strings.HasPrefix(f[0], "0x") {
				ins.target = parseHex(t, strings.TrimPrefix(f[0], "0x"))
			}
		}
		code = append(code, ins)
	}
	if len(code) == 0 {
		t.Fatalf("%s not found in the disassembly", fn)
	}
	return code
}

func parseHex(t testing.TB, s string) uint64 {
	t.Helper()
	var v uint64
	for _, c := range strings.ToLower(strings.TrimPrefix(strings.ToLower(s), "0x")) {
		d := strings.IndexRune("0123456789abcdef", c)
		if d < 0 {
			t.Fatalf("bad hex %q", s)
		}
		v = v*16 + uint64(d)
	}
	return v
}

func imm(t testing.TB, s string) int {
	t.Helper()
	return int(parseHex(t, s))
}

func reg(t testing.TB, s string) int {
	t.Helper()
	var r int
	for _, c := range strings.TrimPrefix(s, "r") {
		r = r*10 + int(c-'0')
	}
	return r
}

// cyclesOf executes a function's disassembly — only the instructions the
// calibration loops use — and counts its cycles up to (not including) its
// ret, from the AVR Instruction Set Manual (DS40002198A) for the
// ATmega328P's AVRe+ core: ldi 1, dec 1, sbiw 2, brne 1 (2 when taken).
func cyclesOf(t testing.TB, code []insn) uint64 {
	t.Helper()
	var (
		r      [32]uint8
		zero   bool
		cycles uint64
	)
	at := map[uint64]int{}
	for i, ins := range code {
		at[ins.addr] = i
	}
	for pc := 0; pc < len(code); {
		ins := code[pc]
		switch ins.mnemonic {
		case "ldi":
			r[reg(t, ins.ops[0])] = uint8(imm(t, ins.ops[1]))
			cycles++
		case "dec":
			d := reg(t, ins.ops[0])
			r[d]--
			zero = r[d] == 0
			cycles++
		case "sbiw":
			d := reg(t, ins.ops[0])
			v := uint16(r[d]) | uint16(r[d+1])<<8
			v -= uint16(imm(t, ins.ops[1]))
			r[d], r[d+1] = uint8(v), uint8(v>>8)
			zero = v == 0
			cycles += 2
		case "brne":
			if !zero {
				cycles += 2
				next, ok := at[ins.target]
				if !ok {
					t.Fatalf("brne to %#x outside the function", ins.target)
				}
				pc = next
				continue
			}
			cycles++
		case "ret":
			return cycles
		default:
			t.Fatalf("instruction %q at %#x: not in the calibration subset", ins.mnemonic, ins.addr)
		}
		pc++
		if cycles > 1e9 {
			t.Fatal("runaway loop")
		}
	}
	t.Fatal("no ret")
	return 0
}

// TestTimer1CountsKnownLoops validates the cycle counter: loops of exactly
// known cycle count, counted instruction by instruction from avr-objdump's
// disassembly, measured by the harness with Timer1 at prescaler 1. The
// lengths straddle the first 16-bit overflow (65 536 cycles) a few cycles
// apart, where a race between reading TCNT1 and counting overflows would
// show as 65 536 too many or too few, and go to 61 overflows.
func TestTimer1CountsKnownLoops(t *testing.T) {
	for _, opt := range []string{"Os", "O2"} {
		t.Run(opt, func(t *testing.T) {
			t.Parallel()
			img, out, err := buildAndRun(t, calibration, opt, 2*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if out.Calib.Stack != 2 {
				t.Errorf("the empty call's stack is %d B, want 2 (its return address)", out.Calib.Stack)
			}
			loops := 0
			for _, op := range out.Ops {
				if !strings.HasPrefix(op.Name, "calib_loop") {
					continue
				}
				loops++
				want := cyclesOf(t, disassemble(t, img, op.Name))
				got, err := out.NetCycles(op.Runs[0])
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: measured %d cycles, the disassembly counts %d (%d overflow interrupts)", op.Name, got, want, op.Runs[0].ISRRuns)
				}
			}
			if loops != 10 {
				t.Errorf("%d calibration loops ran, want 10", loops)
			}
		})
	}
}

// TestStackPaintingMeasuresKnownFrames validates the stack measurement on
// functions whose frame is read from the disassembly: the return address
// (2 bytes on a 16-bit-PC part), one byte per push, and the locals the
// subi/sbci pair takes from the frame pointer.
func TestStackPaintingMeasuresKnownFrames(t *testing.T) {
	img, out, err := buildAndRun(t, calibration, "Os", 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	for _, op := range out.Ops {
		if !strings.HasPrefix(op.Name, "calib_frame") {
			continue
		}
		frames++
		code := disassemble(t, img, op.Name)
		pushes, locals := 0, 0
		for i, ins := range code {
			switch ins.mnemonic {
			case "push":
				pushes++
			case "subi":
				if ins.ops[0] == "r28" && locals == 0 && code[i+1].mnemonic == "sbci" {
					locals = imm(t, ins.ops[1]) | imm(t, code[i+1].ops[1])<<8
				}
			}
		}
		want := 2 + pushes + locals
		got, full, ok := op.Stack()
		if !ok || full || got != want {
			t.Errorf("%s: painting measured %d B, the disassembly says 2 + %d pushes + %d locals = %d", op.Name, got, pushes, locals, want)
		}
	}
	if frames != 2 {
		t.Errorf("%d frame functions ran, want 2", frames)
	}
}

// TestSizesAgreeWithAvrNm counts the kernel's ROM a second way: the sizes
// avr-nm gives the symbols the kernel's object defines, in the linked
// image. One function or object per section (-ffunction-sections), so the
// two counts are equal.
func TestSizesAgreeWithAvrNm(t *testing.T) {
	tc := toolchain(t)
	k, _ := KernelByName("aes128")
	img, err := tc.Build(context.Background(), testCache, atmega328p(t), k, "Os")
	if err != nil {
		t.Fatal(err)
	}
	nm := testtier.RequireTool(t, "avr-nm", "binutils-avr")
	defined, err := exec.Command(nm, "--defined-only", filepath.Join(img.Dir, "aes.c.o")).Output()
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{}
	for _, line := range strings.Split(string(defined), "\n") {
		if f := strings.Fields(line); len(f) == 3 && strings.ContainsAny(f[1], "tTrRdD") {
			own[f[2]] = true
		}
	}
	sized, err := exec.Command(nm, "-S", "--defined-only", img.ELF).Output()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, line := range strings.Split(string(sized), "\n") {
		if f := strings.Fields(line); len(f) == 4 && own[f[3]] {
			sum += int(parseHex(t, f[1]))
		}
	}
	if sum != img.Sizes.KernelROM() {
		t.Errorf("avr-nm: aes.c's symbols take %d B; the linker map gives a ROM of %d B", sum, img.Sizes.KernelROM())
	}
}

// TestImageCache: a second build of the same kernel comes from the cache;
// a changed source makes another image.
func TestImageCache(t *testing.T) {
	tc := toolchain(t)
	k := fixtureKernel(t, "badkat")
	dir := t.TempDir()
	first, err := tc.Build(context.Background(), dir, atmega328p(t), k, "Os")
	if err != nil {
		t.Fatal(err)
	}
	again, err := tc.Build(context.Background(), dir, atmega328p(t), k, "Os")
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || !again.Cached || first.Hash != again.Hash || first.ELF != again.ELF {
		t.Errorf("first cached=%v, second cached=%v, hashes %s %s", first.Cached, again.Cached, first.Hash, again.Hash)
	}
	changed := k
	files := fstest.MapFS{}
	fs.WalkDir(k.sources, ".", func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			data, _ := fs.ReadFile(k.sources, p)
			files[p] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	files["badkat_bench.c"].Data = append(files["badkat_bench.c"].Data, []byte("\n/* changed */\n")...)
	changed.sources = files
	other, err := tc.Build(context.Background(), dir, atmega328p(t), changed, "Os")
	if err != nil {
		t.Fatal(err)
	}
	if other.Cached || other.Hash == first.Hash {
		t.Error("a changed source was served from the cache")
	}
}
