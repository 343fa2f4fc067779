package mcu

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// goldenRun is a run built from synthetic firmware outputs through the
// same conversion as a real one — an AVR image, a Cortex-M4 image with its
// profiler windows over a small disassembly — with an image that does not
// fit and one that hung.
func goldenRun(t *testing.T) *result.Run {
	tg := atmega328p(t)
	aes, _ := KernelByName("aes128")
	img := &Image{Kernel: aes, Target: tg, Opt: "Os", Hash: strings.Repeat("ab", 32), GCCVersion: "avr-gcc (GCC) 5.4.0", SimVersion: "simavr 1.6",
		Sizes: Sizes{Text: 5662, BSS: 340, KernelText: 2314, KernelFiles: []string{"aes.c.o"}}}
	out := &Output{Calib: &Calibration{Empty: 12, ISRWith: 4071, ISRWithout: 4013}, KATs: []KATResult{{"fips197-c1", true}}, Ops: []Op{
		{Name: "encrypt", Bytes: 16, State: 192, Inputs: 8, RerunStack: -1, Runs: []OpRun{{Input: 0, Count: 9489, Stack: 22, Check: "none"}, {Input: 1, Count: 9489, Stack: 22, Check: "none"}}},
		{Name: "cbc-encrypt", Bytes: 128, State: 320, Inputs: 8, RerunStack: 34, Runs: []OpRun{{Input: 0, Count: 77640, ISRRuns: 1, Stack: -1, Check: "none"}, {Input: 1, Count: 77650, ISRRuns: 1, Stack: -1, Check: "none"}}},
	}}
	results, err := Results(img, out, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	crt, _ := KernelByName("rsa2048-crt")
	big := &Image{Kernel: crt, Target: tg, Opt: "Os", Hash: strings.Repeat("cd", 32), Sizes: Sizes{Text: 7000, BSS: 2333}}
	results = append(results, imageError(tg, crt, "Os", big, &DoesNotFitError{Image: big, Flash: 7000, FlashMax: 32768, StaticRAM: 2333, SRAMMax: 2048}))
	x, _ := KernelByName("x25519")
	results = append(results, imageError(tg, x, "O2", nil, errors.New("x25519@atmega328p -O2: the firmware did not finish within 1s and was killed")))

	m4 := target(t, "cortex-m4")
	sp, _ := KernelByName("speck64-128")
	code := parseObjdump([]byte(goldenObjdump))
	mimg := &Image{Kernel: sp, Target: m4, Opt: "Os", Hash: strings.Repeat("ef", 32), GCCVersion: "arm-none-eabi-gcc 12.2.1", SimVersion: "QEMU 7.2.22",
		Sizes: Sizes{Text: 2812, BSS: 272, KernelText: 324, KernelFiles: []string{"speck.c.o"}}, Code: code}
	// the empty call: 3 instructions; the operation: the loop ran 10
	// times (9 taken back-edges) between them
	empty := &Window{Seq: 0, Blocks: []BlockCount{{Start: 0x100, Insns: 1, Count: 1, Taken: 1}, {Start: 0x110, Insns: 2, Count: 1, Taken: 1}}}
	run := &Window{Seq: 3, Blocks: []BlockCount{{Start: 0x100, Insns: 1, Count: 1, Taken: 1}, {Start: 0x110, Insns: 2, Count: 1, Taken: 1},
		{Start: 0x120, Insns: 2, Count: 10, Taken: 9}}}
	mout := &Output{Calib: &Calibration{Empty: 3 * 32 / 10, ISRWith: 320, ISRWithout: 320}, KATs: []KATResult{{"eprint2013-404-appendix-c", true}},
		Windows: []*Window{empty, nil, nil, run}, Ops: []Op{
			{Name: "encrypt", Bytes: 8, State: 112, Inputs: 8, RerunStack: -1, Runs: []OpRun{{Input: 0, Count: 23 * 32 / 10, Stack: 24, Seq: 3, Check: "none"}}},
		}}
	mres, err := Results(mimg, mout, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	results = append(results, mres...)
	return &result.Run{Schema: result.Schema, ID: "20261201T000000Z-00000000", Kind: "mcu", Tool: result.Tool{Version: "v0.1.0-test"},
		Status: result.Failed, Errors: []string{"x25519@atmega328p -O2: the firmware did not finish within 1s and was killed"},
		Environment: result.Environment{Notes: []string{
			"measured on a simulated " + tg.Describe() + " in simavr 1.6; firmware built with avr-gcc (GCC) 5.4.0; the host only runs the simulator",
			"measured on a simulated " + m4.Describe() + " in QEMU 7.2.22; firmware built with arm-none-eabi-gcc 12.2.1; the host only runs the simulator"}},
		Results: results}
}

// goldenObjdump is a small disassembly: a call, a return, and a counted
// loop of SUBS and BNE.
const goldenObjdump = `
00000100 <a>:
 100:	4798      	blx	r3
00000110 <b>:
 110:	bf00      	nop
 112:	4770      	bx	lr
00000120 <loop>:
 120:	3801      	subs	r0, #1
 122:	d1fd      	bne.n	120 <loop>
`

// TestWriteTableGolden pins the S004-shaped tables: go test ./mcu -run
// TestWriteTableGolden -update rewrites testdata/table.golden. Tier: fast.
func TestWriteTableGolden(t *testing.T) {
	run := goldenRun(t)
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, run); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/table.golden", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("testdata/table.golden")
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("table differs from testdata/table.golden (go test ./mcu -run TestWriteTableGolden -update):\n%s", b.String())
	}
	for _, s := range []string{"does not fit [", "FAILED [", "not constant time: cycles differ between inputs", "INSTRUCTIONS", "≈CYCLES",
		"estimated: estimated from the executed instructions", "leaks 0.013 %, 2 secrets", "constant, 2 secrets"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("table lacks %q", s)
		}
	}
}
