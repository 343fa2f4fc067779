package mcu

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Output is what a firmware image printed over the simulated UART: the
// harness's line format (kernels/harness.c), parsed.
type Output struct {
	Kernel   string // the firmware's own name for its kernel
	SRAMFree int    // bytes between .bss and the stack at start
	Calib    *Calibration
	KATs     []KATResult
	Ops      []Op
	Ended    bool   // the "end" line arrived
	Failed   int    // the end line's count of failed tests
	Fault    string // the platform's fault handler ran: what it said
	Lines    int    // lines of harness output read
	Last     string
	// Windows are the instruction profiler's counts, one per measurement
	// (by seq), for a target with a cycle estimate.
	Windows []*Window
}

// Calibration is the harness's measurement of itself, in raw counts.
type Calibration struct {
	Empty uint64 // an empty call through the timed path
	// ISRWith and ISRWithout are a fixed loop across one counter overflow
	// with the overflow interrupt enabled and disabled: their difference
	// is what one interrupt adds.
	ISRWith, ISRWithout uint64
	Stack               int // the empty call's stack: its return address on the AVR
}

// KATResult is one known-answer test's verdict.
type KATResult struct {
	Name string
	Pass bool
}

// Op is one timed operation: its runs on each input and its stack.
type Op struct {
	Name         string
	Bytes, State int
	// Inputs is how many inputs the bench file declares; Runs may be
	// fewer when the image was built to time fewer (MCU_MAX_INPUTS).
	Inputs int
	Runs   []OpRun
	// RerunStack is the stack of the interrupt-free rerun, -1 if none;
	// Probe says the rerun used the op's shorter probe.
	RerunStack int
	RerunFull  bool
	Probe      bool
}

// OpRun is one timed run on one input.
type OpRun struct {
	Input   int
	Count   uint64 // raw: overhead and interrupts included
	ISRRuns uint64
	Stack   int  // -1: not measured (interrupted)
	Full    bool // the stack reached the end of .bss
	Free    int
	Seq     int    // the measurement's number (the profiler's window)
	Check   string // "pass", "fail", "none"
}

// Units converts a raw count to cycles or instructions: count ÷ ticks per
// unit, rounded. Each counter reading is off by less than one tick, so
// with more than two ticks per unit the rounding gives the exact count.
func Units(count uint64, ticksPerUnit float64) uint64 {
	if ticksPerUnit == 1 {
		return count
	}
	return uint64(math.Round(float64(count) / ticksPerUnit))
}

// ISRUnits is what one counter-overflow interrupt adds, in units.
func (c *Calibration) ISRUnits(tpu float64) (uint64, error) {
	with, without := Units(c.ISRWith, tpu), Units(c.ISRWithout, tpu)
	if with < without {
		return 0, fmt.Errorf("the calibration loop took %d with its interrupt and %d without", with, without)
	}
	return with - without, nil
}

// Net is a run's own count in units (cycles or instructions): the raw count
// converted, minus the empty call's and the interrupts'.
func (o *Output) Net(r OpRun, tpu float64) (uint64, error) {
	if o.Calib == nil {
		return 0, fmt.Errorf("no calibration line")
	}
	isr, err := o.Calib.ISRUnits(tpu)
	if err != nil {
		return 0, err
	}
	raw := Units(r.Count, tpu)
	over := Units(o.Calib.Empty, tpu) + r.ISRRuns*isr
	if raw < over {
		return 0, fmt.Errorf("measured %d, less than the harness's own %d", raw, over)
	}
	return raw - over, nil
}

// Stack is the op's stack high-water mark over its clean runs and rerun,
// and whether it reached the end of .bss.
func (op *Op) Stack() (bytes int, full, ok bool) {
	bytes = -1
	for _, r := range op.Runs {
		full = full || r.Full
		bytes = max(bytes, r.Stack)
	}
	full = full || op.RerunFull
	bytes = max(bytes, op.RerunStack)
	return bytes, full, bytes >= 0 || full
}

// ansi matches the terminal colour codes simavr wraps UART lines in.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// OutputParser reads the harness's lines one at a time, so a run that is
// killed keeps what it printed.
type OutputParser struct {
	out *Output
}

// NewOutputParser starts an empty Output.
func NewOutputParser() *OutputParser { return &OutputParser{out: &Output{}} }

// Output returns what has been parsed so far.
func (p *OutputParser) Output() *Output { return p.out }

// errRestart says the firmware printed its header twice: it was reset or
// jumped to address 0, which a crash does.
var errRestart = fmt.Errorf("the firmware restarted (a reset, or a crash that jumped to address 0)")

// HarnessVersion is the line format's version (kernels/harness.c).
const HarnessVersion = "2"

// Line parses one line of the simulator's output. Lines that are not the
// harness's (simavr's own messages) are ignored.
func (p *OutputParser) Line(raw string) error {
	s := strings.TrimSpace(ansi.ReplaceAllString(raw, ""))
	// simavr prints a UART line with its newline shown as "."
	s = strings.TrimSuffix(s, ".")
	if i := strings.Index(s, "cryptocost-mcu "); i > 0 {
		s = s[i:]
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil
	}
	o := p.out
	switch f[0] {
	case "cryptocost-mcu", "calib", "kat", "op", "stack", "end", "fault":
	default:
		return nil
	}
	o.Lines++
	o.Last = s
	kv := map[string]string{}
	for _, field := range f[1:] {
		if k, v, ok := strings.Cut(field, "="); ok {
			kv[k] = v
		}
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("firmware output line %d %q: %s", o.Lines, s, fmt.Sprintf(format, args...))
	}
	switch f[0] {
	case "cryptocost-mcu":
		if o.Kernel != "" || o.Lines > 1 {
			return errRestart
		}
		if len(f) < 2 || f[1] != HarnessVersion {
			return bad("unknown harness version, want %s", HarnessVersion)
		}
		o.Kernel = kv["kernel"]
		n, err := strconv.Atoi(kv["sram-free"])
		if err != nil {
			return bad("sram-free: %v", err)
		}
		o.SRAMFree = n
	case "calib":
		empty, err1 := strconv.ParseUint(kv["empty"], 0, 64)
		with, err2 := strconv.ParseUint(kv["isr-with"], 0, 64)
		without, err3 := strconv.ParseUint(kv["isr-without"], 0, 64)
		stack, err4 := strconv.Atoi(kv["stack"])
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return bad("want empty=, isr-with=, isr-without= and stack= numbers")
		}
		o.Calib = &Calibration{Empty: empty, ISRWith: with, ISRWithout: without, Stack: stack}
	case "kat":
		if len(f) != 3 || (f[2] != "pass" && f[2] != "fail") {
			return bad("want kat NAME pass|fail")
		}
		o.KATs = append(o.KATs, KATResult{Name: f[1], Pass: f[2] == "pass"})
	case "op":
		if len(f) < 2 {
			return bad("no operation name")
		}
		var r OpRun
		var err error
		var bytes, state, inputs int
		nums := map[string]*int{"input": &r.Input, "free": &r.Free, "seq": &r.Seq, "bytes": &bytes, "state": &state, "inputs": &inputs}
		for k, dst := range nums {
			if *dst, err = strconv.Atoi(kv[k]); err != nil {
				return bad("%s: %v", k, err)
			}
		}
		if r.Count, err = strconv.ParseUint(kv["count"], 0, 64); err != nil {
			return bad("count: %v", err)
		}
		if r.ISRRuns, err = strconv.ParseUint(kv["isr"], 10, 64); err != nil {
			return bad("isr: %v", err)
		}
		if r.Stack, r.Full, err = parseStack(kv["stack"]); err != nil {
			return bad("stack: %v", err)
		}
		switch r.Check = kv["check"]; r.Check {
		case "pass", "fail", "none":
		default:
			return bad("check %q, want pass, fail or none", r.Check)
		}
		if r.Input == 0 {
			o.Ops = append(o.Ops, Op{Name: f[1], Bytes: bytes, State: state, Inputs: inputs, RerunStack: -1})
		}
		if len(o.Ops) == 0 {
			return bad("a run on input %d without one on input 0", r.Input)
		}
		op := &o.Ops[len(o.Ops)-1]
		if op.Name != f[1] || op.Bytes != bytes || r.Input != len(op.Runs) || r.Input >= inputs {
			return bad("input %d of %s/%d out of order", r.Input, f[1], bytes)
		}
		op.Runs = append(op.Runs, r)
	case "stack":
		if len(f) < 3 || len(o.Ops) == 0 || o.Ops[len(o.Ops)-1].Name != f[1] {
			return bad("a stack line for an operation that did not run just before")
		}
		op := &o.Ops[len(o.Ops)-1]
		n, full, err := parseStack(f[2])
		if err != nil || n < 0 && !full {
			return bad("stack: want a number or full")
		}
		op.RerunStack, op.RerunFull = n, full
		op.Probe = len(f) > 3 && f[3] == "probe"
	case "end":
		o.Ended = true
		o.Failed, _ = strconv.Atoi(kv["failed"])
	case "fault":
		o.Fault = strings.TrimSpace(strings.TrimPrefix(s, "fault"))
	}
	return nil
}

func parseStack(v string) (int, bool, error) {
	switch v {
	case "-":
		return -1, false, nil
	case "full":
		return -1, true, nil
	}
	n, err := strconv.Atoi(v)
	return n, false, err
}
