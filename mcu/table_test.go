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

// goldenRun is a run built from a synthetic firmware output through the
// same conversion as a real one, with an image that does not fit and one
// that hung.
func goldenRun(t *testing.T) *result.Run {
	tg := atmega328p(t)
	aes, _ := KernelByName("aes128")
	img := &Image{Kernel: aes, Target: tg, Opt: "Os", Hash: strings.Repeat("ab", 32), GCCVersion: "avr-gcc (GCC) 5.4.0", SimavrVersion: "simavr 1.6",
		Sizes: Sizes{Text: 5662, BSS: 340, KernelText: 2314, KernelFiles: []string{"aes.c.o"}}}
	out := &Output{Calib: &Calibration{EmptyCycles: 12, ISRCycles: 58}, KATs: []KATResult{{"fips197-c1", true}}, Ops: []Op{
		{Name: "encrypt", Bytes: 16, State: 192, RerunStack: -1, Runs: []OpRun{{Input: 0, Cycles: 9489, Stack: 22, Check: "none"}, {Input: 1, Cycles: 9489, Stack: 22, Check: "none"}}},
		{Name: "cbc-encrypt", Bytes: 128, State: 320, RerunStack: 34, Runs: []OpRun{{Input: 0, Cycles: 77640, ISRRuns: 1, Stack: -1, Check: "none"}, {Input: 1, Cycles: 77650, ISRRuns: 1, Stack: -1, Check: "none"}}},
	}}
	results, err := Results(img, out, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	crt, _ := KernelByName("rsa2048-crt")
	big := &Image{Kernel: crt, Target: tg, Opt: "Os", Hash: strings.Repeat("cd", 32), Sizes: Sizes{Text: 7000, BSS: 2333}}
	results = append(results, imageError(tg, crt, "Os", big, &DoesNotFitError{Image: big, Flash: 7000, FlashMax: 32768, StaticRAM: 2333, SRAMMax: 2048}))
	x, _ := KernelByName("x25519")
	results = append(results, imageError(tg, x, "O2", nil, errors.New("x25519 -O2: the firmware did not finish within 1s and was killed")))
	return &result.Run{Schema: result.Schema, ID: "20261201T000000Z-00000000", Kind: "mcu", Tool: result.Tool{Version: "v0.1.0-test"},
		Status: result.Failed, Errors: []string{"x25519 -O2: the firmware did not finish within 1s and was killed"},
		Environment: result.Environment{Notes: []string{"measured on a simulated " + tg.Describe() + " in simavr 1.6; firmware built with avr-gcc (GCC) 5.4.0; the host only runs the simulator"}},
		Results:     results}
}

// TestWriteTableGolden pins the S004-shaped table: go test ./mcu -run
// TestWriteTableGolden -update rewrites testdata/table.golden.
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
	for _, s := range []string{"does not fit [", "FAILED [", "not constant time: cycles differ between inputs"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("table lacks %q", s)
		}
	}
}
