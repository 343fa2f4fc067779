package mcu

import (
	"fmt"
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
	Ended    bool // the "end" line arrived
	Lines    int  // lines of harness output read
	Last     string
}

// Calibration is the harness's measurement of itself.
type Calibration struct {
	EmptyCycles uint64 // an empty call through the timed path
	ISRCycles   uint64 // what one Timer1 overflow interrupt adds
	Stack       int    // the empty call's stack: its return address
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
	Runs         []OpRun
	// RerunStack is the stack of the interrupt-free rerun, -1 if none;
	// Probe says the rerun used the op's shorter probe.
	RerunStack int
	RerunFull  bool
	Probe      bool
}

// OpRun is one timed run on one input.
type OpRun struct {
	Input   int
	Cycles  uint64 // raw: overhead and interrupts included
	ISRRuns uint64
	Stack   int  // -1: not measured (interrupted)
	Full    bool // the stack reached the end of .bss
	Free    int
	Check   string // "pass", "fail", "none"
}

// NetCycles are the operation's own cycles: the raw count minus the empty
// call's and the interrupts' cycles.
func (o *Output) NetCycles(r OpRun) (uint64, error) {
	if o.Calib == nil {
		return 0, fmt.Errorf("no calibration line")
	}
	over := o.Calib.EmptyCycles + r.ISRRuns*o.Calib.ISRCycles
	if r.Cycles < over {
		return 0, fmt.Errorf("measured %d cycles, less than the harness's own %d", r.Cycles, over)
	}
	return r.Cycles - over, nil
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

// Line parses one line of simavr's stderr. Lines that are not the
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
	case "cryptocost-mcu", "calib", "kat", "op", "stack", "end":
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
		if len(f) < 2 || f[1] != "1" {
			return bad("unknown harness version, want 1")
		}
		o.Kernel = kv["kernel"]
		n, err := strconv.Atoi(kv["sram-free"])
		if err != nil {
			return bad("sram-free: %v", err)
		}
		o.SRAMFree = n
	case "calib":
		empty, err1 := strconv.ParseUint(kv["empty"], 0, 64)
		isr, err2 := strconv.ParseUint(kv["isr"], 0, 64)
		stack, err3 := strconv.Atoi(kv["stack"])
		if err1 != nil || err2 != nil || err3 != nil {
			return bad("want empty=, isr= and stack= numbers")
		}
		o.Calib = &Calibration{EmptyCycles: empty, ISRCycles: isr, Stack: stack}
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
		nums := map[string]*int{"input": &r.Input, "free": &r.Free}
		var bytes, state int
		nums["bytes"], nums["state"] = &bytes, &state
		for k, dst := range nums {
			if *dst, err = strconv.Atoi(kv[k]); err != nil {
				return bad("%s: %v", k, err)
			}
		}
		if r.Cycles, err = strconv.ParseUint(kv["cycles"], 0, 64); err != nil {
			return bad("cycles: %v", err)
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
			o.Ops = append(o.Ops, Op{Name: f[1], Bytes: bytes, State: state, RerunStack: -1})
		}
		if len(o.Ops) == 0 {
			return bad("a run on input %d without one on input 0", r.Input)
		}
		op := &o.Ops[len(o.Ops)-1]
		if op.Name != f[1] || op.Bytes != bytes || r.Input != len(op.Runs) {
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
