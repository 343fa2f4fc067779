package mcu

import (
	"context"
	"debug/elf"
	"encoding/binary"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
)

// The simulator tests share one image cache, so each image is built once
// per test run, and a bound on simulations at once (the machine running
// the tests is shared: issue 13).
var (
	testCache string

	tcMu  sync.Mutex
	tcs   = map[string]*Toolchain{}
	tcErr = map[string]error{}

	simSlots = make(chan struct{}, 2)
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

// simulator marks a test that runs a simulator: full tier (skipped with
// -short, docs/testing.md), holding one of the simulation slots until it
// ends.
func simulator(t testing.TB) {
	t.Helper()
	testtier.Slow(t, "runs a simulator: simavr or QEMU")
	simSlots <- struct{}{}
	t.Cleanup(func() { <-simSlots })
}

// toolchain returns the target's toolchain or fails: scripts/test installs
// it from scripts/deps/mcu.txt, so in a full run its absence is an error
// naming the Debian packages (as testtier.RequireTool), not a skip. A test
// that asks for it cross-compiles: full tier, skipped with -short.
func toolchain(t testing.TB, tg Target) *Toolchain {
	t.Helper()
	testtier.Slow(t, "cross-compiles for "+tg.Name)
	tcMu.Lock()
	defer tcMu.Unlock()
	if _, ok := tcs[tg.Name]; !ok {
		if _, failed := tcErr[tg.Name]; !failed {
			tc, err := FindToolchain(context.Background(), tg)
			tcs[tg.Name], tcErr[tg.Name] = tc, err
		}
	}
	if err := tcErr[tg.Name]; err != nil {
		t.Fatalf("%v (./scripts/test installs them)", err)
	}
	return tcs[tg.Name]
}

func target(t testing.TB, name string) Target {
	t.Helper()
	tg, err := TargetByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func atmega328p(t testing.TB) Target { return target(t, "atmega328p") }

// buildAndRun builds k for tg at opt and simulates it.
func buildAndRun(t testing.TB, tg Target, k Kernel, opt string, maxInputs int, timeout time.Duration) (*Image, *Output, error) {
	t.Helper()
	tc := toolchain(t, tg)
	img, err := tc.Build(context.Background(), testCache, tg, k, opt, maxInputs)
	if err != nil {
		return img, nil, err
	}
	if tg.Simulator.CycleRule != "" {
		if img.Code, err = tc.Disassemble(context.Background(), img); err != nil {
			return img, nil, err
		}
	}
	out, _, err := tc.Simulate(context.Background(), img, timeout)
	return img, out, err
}

// fixtureKernel is a kernel from testdata/kernels built with the real
// harness.
func fixtureKernel(t testing.TB, name string) Kernel {
	t.Helper()
	files := fstest.MapFS{}
	err := fs.WalkDir(kernelSources, "kernels", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := strings.TrimPrefix(p, "kernels/")
		if strings.HasPrefix(base, "harness.") || strings.HasPrefix(base, "platform") || strings.HasPrefix(base, "compat/") || base == "link.ld" {
			data, err := kernelSources.ReadFile(p)
			if err != nil {
				return err
			}
			files[base] = &fstest.MapFile{Data: data}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
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
	Sources: []string{"calib.S"}, Bench: "calib_bench.c", Public: []string{"*"}}

// calibRuns are the calibration image's runs, one per target and level,
// shared by the tests that read it (each simulates up to 100 million
// instructions).
var calibRuns struct {
	sync.Mutex
	m map[string]*calibRun
}

type calibRun struct {
	once sync.Once
	img  *Image
	out  *Output
	err  error
}

// runCalibration builds and simulates the calibration image once per test
// binary for tg at opt.
func runCalibration(t testing.TB, tg Target, opt string) (*Image, *Output) {
	t.Helper()
	calibRuns.Lock()
	if calibRuns.m == nil {
		calibRuns.m = map[string]*calibRun{}
	}
	c := calibRuns.m[tg.Name+"/"+opt]
	if c == nil {
		c = &calibRun{}
		calibRuns.m[tg.Name+"/"+opt] = c
	}
	calibRuns.Unlock()
	c.once.Do(func() { c.img, c.out, c.err = buildAndRun(t, tg, calibration, opt, 0, 3*time.Minute) })
	switch {
	case c.err != nil:
		t.Fatal(c.err)
	case c.out == nil:
		t.Fatal("the calibration run failed in another test")
	}
	return c.img, c.out
}

// insn is one instruction of a function's disassembly: mnemonic, operands
// and the target address of branches.
type insn struct {
	addr     uint64
	mnemonic string
	ops      []string
	target   uint64 // branches: the address objdump resolves
}

// disassemble returns the instructions of function fn in the image, read
// from the toolchain's objdump here (not through cycles.go's parser).
func disassemble(t testing.TB, tc *Toolchain, img *Image, fn string) []insn {
	t.Helper()
	out, err := exec.Command(tc.Objdump, "-d", img.ELF).Output()
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
		// "  1a4:	3801      	subs	r0, #1"
		// "80000010:	fff50513          	addi	a0,a0,-1"
		parts := strings.Split(line, "\t")
		if len(parts) < 3 {
			continue
		}
		var ins insn
		ins.addr = parseHex(t, strings.TrimSuffix(strings.TrimSpace(parts[0]), ":"))
		ins.mnemonic = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(parts[2]), ".n"), ".w")
		if strings.HasPrefix(ins.mnemonic, ".") {
			continue // a literal pool word
		}
		if len(parts) > 3 {
			rest := strings.Join(parts[3:], "\t")
			operands, comment, _ := strings.Cut(rest, ";")
			operands, _, _ = strings.Cut(operands, " # ") // a RISC-V comment
			if i := strings.IndexAny(operands, "@<"); i >= 0 {
				if f := strings.Fields(operands[:i]); len(f) > 0 && ins.mnemonic[0] == 'b' {
					// ARM and RISC-V branches: "1a6 <calib_loop_10+0x2>"
					last := f[len(f)-1]
					last = last[strings.LastIndex(last, ",")+1:]
					if v, err := strconv.ParseUint(last, 16, 64); err == nil {
						ins.target = v
					}
				}
				operands = operands[:i]
			}
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
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "0x"), 16, 64)
	if err != nil {
		t.Fatalf("bad hex %q", s)
	}
	return v
}

func imm(t testing.TB, s string) int {
	t.Helper()
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		t.Fatalf("bad immediate %q", s)
	}
	return int(v)
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
// ret, from the AVR Instruction Set Manual (DS40002198A) for the AVRe+
// core: ldi 1, dec 1, sbiw 2, brne 1 (2 when taken).
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
			r[reg(t, ins.ops[0])] = uint8(parseHex(t, ins.ops[1]))
			cycles++
		case "dec":
			d := reg(t, ins.ops[0])
			r[d]--
			zero = r[d] == 0
			cycles++
		case "sbiw":
			d := reg(t, ins.ops[0])
			v := uint16(r[d]) | uint16(r[d+1])<<8
			v -= uint16(parseHex(t, ins.ops[1]))
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

// literal reads the 32-bit word a Thumb "ldr rX, [pc, #imm]" loads: at
// Align(PC + 4, 4) + imm (ARMv7-M ARM A7.7.43).
func literal(t testing.TB, img *Image, ins insn) uint32 {
	t.Helper()
	f, err := elf.Open(img.ELF)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// "ldr r0, [pc, #8]": the offset is the last operand
	addr := (ins.addr+4)&^3 + uint64(imm(t, strings.TrimSuffix(ins.ops[len(ins.ops)-1], "]")))
	for _, s := range f.Sections {
		if s.Addr <= addr && addr+4 <= s.Addr+s.Size && s.Type == elf.SHT_PROGBITS {
			b := make([]byte, 4)
			if _, err := s.ReadAt(b, int64(addr-s.Addr)); err != nil {
				t.Fatal(err)
			}
			return binary.LittleEndian.Uint32(b)
		}
	}
	t.Fatalf("literal at %#x not in the image", addr)
	return 0
}

// instructionsOf executes a Cortex-M or RISC-V calibration function's
// disassembly and counts its instructions up to (not including) its return
// (bx lr, ret): every instruction is one, whatever it costs. Each
// instruction is decoded once; the loops run up to 100 million times.
func instructionsOf(t testing.TB, img *Image, code []insn) uint64 {
	t.Helper()
	type decoded struct {
		op       string
		dst, src string
		imm      int64
		next     int // a branch's target index
	}
	at := map[uint64]int{}
	for i, ins := range code {
		at[ins.addr] = i
	}
	prog := make([]decoded, len(code))
	for i, ins := range code {
		d := decoded{op: ins.mnemonic, next: -1}
		if len(ins.ops) > 0 {
			d.dst = ins.ops[0]
		}
		switch ins.mnemonic {
		case "ldr": // ldr r0, [pc, #imm]
			d.imm = int64(literal(t, img, ins))
		case "mov", "movs", "movw", "li":
			d.imm = int64(imm(t, ins.ops[1]))
		case "lui":
			d.imm = int64(imm(t, ins.ops[1])) << 12
		case "subs": // subs r0, r0, #1 or subs r0, #1
			d.imm = int64(imm(t, ins.ops[len(ins.ops)-1]))
		case "addi", "add": // objdump prints RISC-V's addi as add with an immediate
			d.src, d.imm = ins.ops[1], int64(imm(t, ins.ops[2]))
		case "bne", "bnez":
			next, ok := at[ins.target]
			if !ok {
				t.Fatalf("branch to %#x outside the function", ins.target)
			}
			d.next = next
		case "bx", "ret":
		default:
			t.Fatalf("instruction %q at %#x: not in the calibration subset", ins.mnemonic, ins.addr)
		}
		prog[i] = d
	}
	regs := map[string]int64{}
	var n uint64
	var zero bool
	for pc := 0; pc < len(prog); {
		d := &prog[pc]
		n++
		pc++
		switch d.op {
		case "ldr", "mov", "movs", "movw", "li", "lui":
			regs[d.dst] = d.imm
		case "subs":
			regs[d.dst] -= d.imm
			zero = regs[d.dst] == 0
		case "addi", "add":
			regs[d.dst] = regs[d.src] + d.imm
		case "bne":
			if !zero {
				pc = d.next
			}
		case "bnez":
			if regs[d.dst] != 0 {
				pc = d.next
			}
		case "bx", "ret":
			return n - 1
		}
		if n > 1e9 {
			t.Fatal("runaway loop")
		}
	}
	t.Fatal("no return")
	return 0
}

// counterCases are the targets and levels whose counters are validated:
// both AVRs, each QEMU board (SysTick at 25 MHz on MPS2, at 16 MHz on the
// micro:bit, minstret on RISC-V).
var counterCases = []struct{ target, opt string }{
	{"atmega328p", "Os"}, {"atmega328p", "O2"}, {"atmega2560", "Os"},
	{"cortex-m0", "Os"}, {"cortex-m3", "Os"}, {"cortex-m4", "Os"}, {"cortex-m4", "O2"}, {"cortex-m7", "Os"},
	{"rv32imac", "Os"},
}

// TestCounterCountsKnownLoops validates each target's counter: loops of
// exactly known length, counted instruction by instruction from the
// disassembly (cycles on the AVR from the instruction set manual,
// instructions on the QEMU boards), measured by the harness. On the AVR the
// lengths straddle Timer1's first 16-bit overflow a few cycles apart; on
// the Cortex-M boards they straddle SysTick's first 24-bit wrap a few
// instructions apart (5 242 880 instructions on MPS2, 4 096 000 on the
// micro:bit) and go to about 20 wraps, where a race between reading the
// counter and counting its wraps, or a tick lost in the conversion of
// ticks to instructions, would show. Tier: simulators, full run only.
func TestCounterCountsKnownLoops(t *testing.T) {
	for _, c := range counterCases {
		t.Run(c.target+"/"+c.opt, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			tg := target(t, c.target)
			tc := toolchain(t, tg)
			img, out := runCalibration(t, tg, c.opt)
			wantStack := 0
			if tg.IsAVR() {
				wantStack = 2
				if tg.Name == "atmega2560" {
					wantStack = 3 // a 17-bit program counter
				}
			}
			if out.Calib.Stack != wantStack {
				t.Errorf("the empty call's stack is %d B, want %d (its return address on an AVR)", out.Calib.Stack, wantStack)
			}
			loops := 0
			for _, op := range out.Ops {
				if !strings.HasPrefix(op.Name, "calib_loop") {
					continue
				}
				loops++
				code := disassemble(t, tc, img, op.Name)
				var want uint64
				if tg.CountsCycles() {
					want = cyclesOf(t, code)
				} else {
					want = instructionsOf(t, img, code)
				}
				got, err := out.Net(op.Runs[0], tg.TicksPerUnit())
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: measured %d %s, the disassembly counts %d (%d overflow interrupts)", op.Name, got, tg.Unit(), want, op.Runs[0].ISRRuns)
				}
			}
			if loops < 4 {
				t.Errorf("%d calibration loops ran", loops)
			}
		})
	}
}

// TestStackPaintingMeasuresKnownFrames validates the stack measurement on
// functions whose frame is read from the disassembly: on the AVR the return
// address (2 bytes, 3 on the ATmega2560), one byte per push and the locals
// the subi/sbci pair takes from the frame pointer; on a Cortex-M 4 bytes
// per pushed register and the sub from sp; on RISC-V the addi to sp.
// Tier: simulators, full run only.
func TestStackPaintingMeasuresKnownFrames(t *testing.T) {
	for _, name := range []string{"atmega328p", "atmega2560", "cortex-m0", "cortex-m4", "rv32imac"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			tg := target(t, name)
			tc := toolchain(t, tg)
			img, out := runCalibration(t, tg, "Os")
			frames := 0
			for _, op := range out.Ops {
				if !strings.HasPrefix(op.Name, "calib_frame") {
					continue
				}
				frames++
				code := disassemble(t, tc, img, op.Name)
				want := frameBytes(t, tg, code)
				got, full, ok := op.Stack()
				if !ok || full || got != want {
					t.Errorf("%s: painting measured %d B, the disassembly says %d B", op.Name, got, want)
				}
			}
			if frames != 2 {
				t.Errorf("%d frame functions ran, want 2", frames)
			}
		})
	}
}

// frameBytes reads a calibration frame's size from its instructions.
func frameBytes(t testing.TB, tg Target, code []insn) int {
	t.Helper()
	switch {
	case tg.IsAVR():
		ret := 2
		if tg.Name == "atmega2560" {
			ret = 3
		}
		pushes, locals := 0, 0
		for i, ins := range code {
			switch ins.mnemonic {
			case "push":
				pushes++
			case "subi":
				if ins.ops[0] == "r28" && locals == 0 && code[i+1].mnemonic == "sbci" {
					locals = int(parseHex(t, ins.ops[1]) | parseHex(t, code[i+1].ops[1])<<8)
				}
			}
		}
		return ret + pushes + locals
	case tg.Build.Toolchain == "arm-none-eabi":
		n := 0
		for _, ins := range code {
			switch {
			case ins.mnemonic == "push":
				n += 4 * len(ins.ops)
			case ins.mnemonic == "sub" && ins.ops[0] == "sp":
				n += imm(t, ins.ops[len(ins.ops)-1])
			}
		}
		return n
	default:
		for _, ins := range code {
			if (ins.mnemonic == "addi" || ins.mnemonic == "add") && ins.ops[0] == "sp" {
				return -imm(t, ins.ops[2])
			}
		}
	}
	t.Fatal("no frame in the disassembly")
	return 0
}

// TestSizesAgreeWithNm counts the kernel's ROM a second way: the sizes nm
// gives the symbols the kernel's object defines, in the linked image,
// against what the linker map attributes to that object. One function or
// object per section (-ffunction-sections), so the two counts are equal;
// the kernel's ROM is that plus the library routines only it pulls in.
// Tier: cross-compilers, full run only.
func TestSizesAgreeWithNm(t *testing.T) {
	testtier.Slow(t, "cross-compiles for three targets")
	for _, name := range []string{"atmega328p", "cortex-m4", "rv32imac"} {
		t.Run(name, func(t *testing.T) {
			tg := target(t, name)
			tc := toolchain(t, tg)
			k, _ := KernelByName("aes128")
			img, err := tc.Build(context.Background(), testCache, tg, k, "Os", 1)
			if err != nil {
				t.Fatal(err)
			}
			nm := strings.TrimSuffix(tc.Size, "size") + "nm"
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
			f, err := os.Open(filepath.Join(img.Dir, "image.map"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := ParseLinkMap(f)
			if err != nil {
				t.Fatal(err)
			}
			obj := map[string]bool{"aes.c.o": true}
			mapped := m.Sum(".text", obj) + m.Sum(".data", obj)
			if sum != mapped || sum == 0 || img.Sizes.KernelROM() < sum {
				t.Errorf("nm: aes.c's symbols take %d B; the linker map gives aes.c.o %d B (the kernel's ROM, with its library routines %v, %d B)",
					sum, mapped, img.Sizes.KernelFiles, img.Sizes.KernelROM())
			}
		})
	}
}

// TestImageCache: a second build of the same kernel comes from the cache;
// a changed source makes another image. Tier: cross-compiler, full run.
func TestImageCache(t *testing.T) {
	testtier.Slow(t, "compiles firmware")
	tg := atmega328p(t)
	tc := toolchain(t, tg)
	k := fixtureKernel(t, "badkat")
	dir := t.TempDir()
	first, err := tc.Build(context.Background(), dir, tg, k, "Os", 0)
	if err != nil {
		t.Fatal(err)
	}
	again, err := tc.Build(context.Background(), dir, tg, k, "Os", 0)
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
	other, err := tc.Build(context.Background(), dir, tg, changed, "Os", 0)
	if err != nil {
		t.Fatal(err)
	}
	if other.Cached || other.Hash == first.Hash {
		t.Error("a changed source was served from the cache")
	}
}

// trmCycles are the cycles the cores' Technical Reference Manuals give the
// microbenchmarks of calib.S (Cortex-M0 TRM DDI 0432C Table 3-1; Cortex-M3
// TRM DDI 0337I and Cortex-M4 TRM DDI 0439B Table 3-1), counted by hand
// from those tables, each minus the BX LR the empty call cancels (M0: 3
// cycles; M3, M4: 1 + P). Where a TRM gives a range (the refill P of 1 to
// 3, early-terminating multiplies and divides) the low, middle and high
// ends are given.
var trmCycles = map[string]map[string]Cost{
	"cortex-m0": {
		"cyc_alu8":    fixed(8),
		"cyc_load4":   fixed(9),        // MOV 1 + 4 × LDR 2
		"cyc_loaddep": fixed(7),        // MOV 1 + STR 2 + LDR 2 + LDR 2
		"cyc_mul4":    Cost{6, 6, 130}, // 2 × MOVS + 4 × MULS (1 or 32)
		"cyc_pushpop": fixed(10),       // (1 + 4) + (1 + 4)
		"cyc_loop4":   fixed(15),       // 1 + 4 × SUBS + 3 × B<cond> taken 3 + 1
		"cyc_call":    fixed(15 - 3),   // PUSH 3 + BL 4 + BX 3 + POP {r4, pc} 4 + 1, minus BX 3
		// LDR 2 + 1000 × SUBS + 999 × BNE taken 3 + 1 not taken
		"calib_loop_1000": fixed(2 + 1000 + 999*3 + 1),
	},
	"cortex-m3": {
		"cyc_alu8":    fixed(8),
		"cyc_load4":   fixed(6),         // MOV 1 + LDR 2 + 3 × LDR pipelined 1
		"cyc_loaddep": fixed(7),         // nothing pipelines after STR; LDR through the loaded register
		"cyc_mul4":    fixed(6),         // MUL 1
		"cyc_pushpop": fixed(10),        // (1 + N) + (1 + N)
		"cyc_loop4":   Cost{12, 15, 18}, // 1 + 4 + 3 × (1 + P) + 1
		"cyc_call":    Cost{9, 11, 13},  // 3 + (1 + P) + (1 + P) + (3 + P) − (1 + P)
		"cyc_umull":   Cost{9, 16, 23},  // 1 + 2 × UMULL (3 to 5) + UDIV (2 to 12)
		// MOV.W 1 (the assembler encodes ldr r0, =1000 as MOV.W on
		// ARMv7-M) + 1000 × SUBS + 999 × BNE taken (1 + P) + 1 not taken
		"calib_loop_1000": {1 + 1000 + 999*2 + 1, 1 + 1000 + 999*3 + 1, 1 + 1000 + 999*4 + 1},
	},
	"cortex-m4": {
		"cyc_alu8":        fixed(8),
		"cyc_load4":       fixed(6),
		"cyc_loaddep":     fixed(7),
		"cyc_mul4":        fixed(6),
		"cyc_pushpop":     fixed(10),
		"cyc_loop4":       Cost{12, 15, 18},
		"cyc_call":        Cost{9, 11, 13},
		"cyc_umull":       Cost{5, 10, 15}, // 1 + 2 × UMULL 1 + UDIV (2 to 12)
		"calib_loop_1000": {1 + 1000 + 999*2 + 1, 1 + 1000 + 999*3 + 1, 1 + 1000 + 999*4 + 1},
	},
}

// TestCycleRuleOnTRMMicrobenchmarks validates the cycle estimate: on each
// core with a rule, the estimate of every microbenchmark (from QEMU's
// profile of the run and the image's disassembly) equals the cycles its
// TRM gives, at the low, middle and high ends. This checks that the rule
// implements the TRM tables it cites and that the profile attributes
// executions and branches right; it cannot check the TRM against silicon.
// Tier: simulators, full run only.
func TestCycleRuleOnTRMMicrobenchmarks(t *testing.T) {
	for core, want := range trmCycles {
		t.Run(core, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			tg := target(t, core)
			img, out := runCalibration(t, tg, "Os")
			seen := 0
			for i := range out.Ops {
				op := &out.Ops[i]
				c, ok := want[op.Name]
				if !ok {
					continue
				}
				seen++
				n, err := out.Net(op.Runs[0], tg.TicksPerUnit())
				if err != nil {
					t.Fatal(err)
				}
				est, err := estimates(img, out, op, []float64{float64(n)})
				if err != nil {
					t.Fatalf("%s: %v", op.Name, err)
				}
				if got := est[0].Cycles; got != c {
					t.Errorf("%s: estimated %v cycles (low, middle, high), the TRM gives %v", op.Name, got, c)
				}
			}
			if seen != len(want) {
				t.Errorf("%d of %d microbenchmarks ran", seen, len(want))
			}
		})
	}
}
