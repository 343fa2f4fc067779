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
func TestParseRealOutput(t *testing.T) {
	data, err := os.ReadFile("testdata/output-aes128-Os.txt")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseAll(t, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if o.Kernel != "aes128" || !o.Ended || o.Calib == nil || o.Calib.EmptyCycles != 12 || o.Calib.ISRCycles != 58 {
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
	if enc.Name != "encrypt" || enc.Bytes != 16 || len(enc.Runs) != 2 || enc.Runs[0].Stack != 22 {
		t.Errorf("encrypt parsed as %+v", enc)
	}
	if n, _ := o.NetCycles(enc.Runs[0]); n != 0x2511-12 {
		t.Errorf("encrypt net cycles %d, want %d", n, 0x2511-12)
	}
	cbc := o.Ops[3] // interrupted by an overflow: stack from the rerun
	if s, full, ok := cbc.Stack(); cbc.Runs[0].Stack != -1 || cbc.RerunStack != 34 || s != 34 || full || !ok {
		t.Errorf("cbc-encrypt stack: runs %+v rerun %d", cbc.Runs, cbc.RerunStack)
	}
	if n, _ := o.NetCycles(cbc.Runs[0]); n != 0x12f48-12-58 {
		t.Errorf("cbc-encrypt net cycles %d, want %d (one interrupt of 58 cycles)", n, 0x12f48-12-58)
	}
}

func TestParseOutputErrors(t *testing.T) {
	head := "cryptocost-mcu 1 kernel=k sram-free=100\ncalib empty=0xc isr=58 stack=2\n"
	for _, c := range []struct{ name, text, want string }{
		{"restart", head + head, "restarted"},
		{"version", "cryptocost-mcu 2 kernel=k sram-free=1\n", "harness version"},
		{"kat verdict", head + "kat x maybe\n", "pass|fail"},
		{"cycles", head + "op e input=0 bytes=0 state=0 cycles=zz isr=0 stack=2 free=9 check=none\n", "cycles"},
		{"check", head + "op e input=0 bytes=0 state=0 cycles=0x1 isr=0 stack=2 free=9 check=ok\n", "check"},
		{"order", head + "op e input=1 bytes=0 state=0 cycles=0x1 isr=0 stack=2 free=9 check=none\n", "without one on input 0"},
		{"orphan stack", head + "stack e 12\n", "did not run just before"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseAll(t, c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestNetCyclesRefusesLessThanOverhead(t *testing.T) {
	o := &Output{Calib: &Calibration{EmptyCycles: 12, ISRCycles: 58}}
	if _, err := o.NetCycles(OpRun{Cycles: 60, ISRRuns: 1}); err == nil {
		t.Error("60 raw cycles with one interrupt (70 of overhead) accepted")
	}
	if n, err := o.NetCycles(OpRun{Cycles: 100, ISRRuns: 1}); err != nil || n != 30 {
		t.Errorf("NetCycles = %d, %v; want 30", n, err)
	}
}

// FuzzParseOutput: no input may panic the parser, and what it accepts is
// consistent (runs numbered from 0 in order, stacks known or not).
func FuzzParseOutput(f *testing.F) {
	data, err := os.ReadFile("testdata/output-aes128-Os.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("cryptocost-mcu 1 kernel=k sram-free=100\nop e input=0 bytes=0 state=0 cycles=0x1 isr=0 stack=- free=9 check=none\nstack e full probe\nend\n")
	f.Add("\x1b[32mkat a pass.\n\x1b[0m")
	f.Fuzz(func(t *testing.T, text string) {
		o, _ := parseAll(t, text)
		for _, op := range o.Ops {
			for i, r := range op.Runs {
				if r.Input != i {
					t.Fatalf("run %d has input %d", i, r.Input)
				}
			}
			op.Stack()
		}
	})
}
