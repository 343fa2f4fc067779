package mcu

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

func parseAll(t testing.TB, text string) (*Output, error) {
	t.Helper()
	p := NewOutputParser()
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if err := p.Line(sc.Text()); err != nil {
			return p.Output(), err
		}
	}
	return p.Output(), nil
}

// TestParseRealOutput reads simavr's stderr from a real run of the AES
// image (colour codes, newlines shown as ".", all as simavr prints them).
// Tier: fast.
func TestParseRealOutput(t *testing.T) {
	data, err := os.ReadFile("testdata/output-aes128-Os.txt")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseAll(t, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if o.Kernel != "aes128" || !o.Ended || o.Calib == nil || o.Calib.Empty != 12 || o.Calib.ISRWith-o.Calib.ISRWithout != 58 {
		t.Fatalf("header, calibration or end wrong: %+v %+v", o, o.Calib)
	}
	if len(o.KATs) != 4 {
		t.Errorf("%d KATs, want 4", len(o.KATs))
	}
	for _, k := range o.KATs {
		if !k.Pass {
			t.Errorf("KAT %s failed", k.Name)
		}
	}
	if len(o.Ops) != 6 {
		t.Fatalf("%d operations, want 6", len(o.Ops))
	}
	enc := o.Ops[1]
	if enc.Name != "encrypt" || enc.Bytes != 16 || len(enc.Runs) != 8 || enc.Inputs != 8 || enc.Runs[0].Stack != 22 || enc.Runs[7].Seq != 18 {
		t.Errorf("encrypt parsed as %+v", enc)
	}
	if n, _ := o.Net(enc.Runs[0], 1); n != 0x2511-12 {
		t.Errorf("encrypt net cycles %d, want %d", n, 0x2511-12)
	}
	cbc := o.Ops[3] // interrupted by an overflow: stack from the rerun
	if s, full, ok := cbc.Stack(); cbc.Runs[0].Stack != -1 || cbc.RerunStack != 34 || s != 34 || full || !ok {
		t.Errorf("cbc-encrypt stack: runs %+v rerun %d", cbc.Runs, cbc.RerunStack)
	}
	if n, _ := o.Net(cbc.Runs[0], 1); n != 77570 {
		t.Errorf("cbc-encrypt net cycles %d, want 77570 (one interrupt of 58 cycles subtracted)", n)
	}
}

// TestParseQEMUOutput reads QEMU's serial output of a Cortex-M4 image and
// the profiler's windows of the same run, and converts SysTick ticks (3.2
// per instruction) to instructions. Tier: fast.
func TestParseQEMUOutput(t *testing.T) {
	data, err := os.ReadFile("testdata/output-speck-cortex-m4-Os.txt")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseAll(t, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if o.Kernel != "speck64-128" || !o.Ended || o.Failed != 0 || len(o.Ops) != 4 {
		t.Fatalf("%+v", o)
	}
	isr, err := o.Calib.ISRUnits(3.2)
	if err != nil || isr != 5 {
		t.Errorf("SysTick handler: %d instructions, %v; want 5 (load, add, store, and the return)", isr, err)
	}
	ws, err := readWindows("testdata/profile-speck-cortex-m4-Os.txt")
	if err != nil {
		t.Fatal(err)
	}
	last := o.Ops[len(o.Ops)-1].Runs
	if len(ws) <= last[len(last)-1].Seq {
		t.Fatalf("%d windows for %d measurements", len(ws), last[len(last)-1].Seq+1)
	}
	for _, op := range o.Ops {
		for _, r := range op.Runs {
			n, err := o.Net(r, 3.2)
			if err != nil {
				t.Fatal(err)
			}
			// the two counts agree: what the board timer counted, and
			// the profiler's blocks (each minus the empty call)
			if p := ws[r.Seq].Instructions() - ws[0].Instructions(); p != n {
				t.Errorf("%s input %d: the timer says %d instructions, the profiler %d", op.Name, r.Input, n, p)
			}
		}
	}
}

// Tier: fast.
func TestParseOutputErrors(t *testing.T) {
	head := "cryptocost-mcu 2 kernel=k sram-free=100\ncalib empty=0xc isr-with=0x100 isr-without=0xc6 stack=2\n"
	op := "op e input=0 inputs=1 bytes=0 state=0 count=0x1 isr=0 stack=2 free=9 seq=3 check=none\n"
	for _, c := range []struct{ name, text, want string }{
		{"restart", head + head, "restarted"},
		{"version", "cryptocost-mcu 1 kernel=k sram-free=1\n", "harness version"},
		{"calibration", "cryptocost-mcu 2 kernel=k sram-free=1\ncalib empty=0xc isr=58 stack=2\n", "isr-with="},
		{"kat verdict", head + "kat x maybe\n", "pass|fail"},
		{"count", head + strings.Replace(op, "count=0x1", "count=zz", 1), "count"},
		{"check", head + strings.Replace(op, "check=none", "check=ok", 1), "check"},
		{"order", head + strings.Replace(op, "input=0", "input=1", 1), "without one on input 0"},
		{"beyond inputs", head + op + strings.Replace(op, "input=0", "input=1", 1), "out of order"},
		{"orphan stack", head + "stack e 12\n", "did not run just before"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseAll(t, c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	o, err := parseAll(t, head+"fault the processor took a fault exception\n")
	if err != nil || o.Fault != "the processor took a fault exception" {
		t.Errorf("fault line: %q, %v", o.Fault, err)
	}
}

// Tier: fast.
func TestNetRefusesLessThanOverhead(t *testing.T) {
	o := &Output{Calib: &Calibration{Empty: 12, ISRWith: 100, ISRWithout: 42}}
	if _, err := o.Net(OpRun{Count: 60, ISRRuns: 1}, 1); err == nil {
		t.Error("60 raw cycles with one interrupt (70 of overhead) accepted")
	}
	if n, err := o.Net(OpRun{Count: 100, ISRRuns: 1}, 1); err != nil || n != 30 {
		t.Errorf("Net = %d, %v; want 30", n, err)
	}
	// 3.2 ticks per instruction: 3201 ticks are 1000 instructions
	o = &Output{Calib: &Calibration{Empty: 32, ISRWith: 320, ISRWithout: 320}}
	if n, err := o.Net(OpRun{Count: 3201}, 3.2); err != nil || n != 990 {
		t.Errorf("Net = %d, %v; want 990", n, err)
	}
}

// Tier: fast.
func TestReadWindowsErrors(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"no window", "b 10 2 3 1\n"},
		{"out of order", "window 1\nend 1\n"},
		{"short block", "window 0\nb 10 2 3\nend 0\n"},
		{"bad hex", "window 0\nb zz 2 3 1\nend 0\n"},
		{"junk", "window 0\nx\n"},
	} {
		f := t.TempDir() + "/w.txt"
		if err := os.WriteFile(f, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readWindows(f); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	f := t.TempDir() + "/w.txt"
	os.WriteFile(f, []byte("window 0\nb 10 2 3 1\ns 20 4 1\nend 0\nwindow 1\nb 10"), 0o644)
	ws, err := readWindows(f)
	if err != nil || len(ws) != 1 || ws[0].Instructions() != 6 || len(ws[0].Skipped) != 1 {
		t.Errorf("a complete window and a cut-off one: %+v, %v", ws, err)
	}
}

// FuzzParseOutput: no input may panic the parser, and what it accepts is
// consistent (runs numbered from 0 in order, stacks known or not).
func FuzzParseOutput(f *testing.F) {
	for _, file := range []string{"testdata/output-aes128-Os.txt", "testdata/output-speck-cortex-m4-Os.txt"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("cryptocost-mcu 2 kernel=k sram-free=100\nop e input=0 inputs=2 bytes=0 state=0 count=0x1 isr=0 stack=- free=9 seq=1 check=none\nstack e full probe\nend\n")
	f.Add("\x1b[32mkat a pass.\n\x1b[0m")
	f.Fuzz(func(t *testing.T, text string) {
		o, _ := parseAll(t, text)
		for _, op := range o.Ops {
			for i, r := range op.Runs {
				if r.Input != i || r.Input >= op.Inputs {
					t.Fatalf("run %d has input %d of %d", i, r.Input, op.Inputs)
				}
			}
			op.Stack()
		}
	})
}
