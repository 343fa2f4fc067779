package mcu

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// MethodName is the provenance method of every mcu result:
// "simulated: simavr atmega328p", "simulated: qemu-system-arm mps2-an386".
func MethodName(t Target) string {
	return "simulated: " + t.Simulator.Name + " " + t.Simulator.Machine
}

// DefaultTarget is the target of a run that names none: S004's Uno.
const DefaultTarget = "atmega328p"

// Options select what a run measures.
type Options struct {
	Targets []string // names or "all"; none: DefaultTarget
	Kernels []string // names or globs; none: every kernel that is not slow
	Opts    []string // optimisation levels; none: DefaultOpts
	// MaxInputs caps the inputs each operation is timed on (0: all the
	// bench file declares, MCU_SECRETS for an operation on a secret).
	MaxInputs int
}

// Plan is a run's images, validated before any work.
type Plan struct {
	Targets   []Target
	Kernels   []Kernel
	Opts      []string
	MaxInputs int
}

// NewPlan resolves the options, with errors that say what would work.
func NewPlan(o Options) (*Plan, error) {
	if len(o.Targets) == 0 {
		o.Targets = []string{DefaultTarget}
	}
	ts, err := SelectTargets(o.Targets)
	if err != nil {
		return nil, err
	}
	ks, err := SelectKernels(o.Kernels)
	if err != nil {
		return nil, err
	}
	opts := o.Opts
	if len(opts) == 0 {
		opts = DefaultOpts
	}
	var clean []string
	for _, opt := range opts {
		opt = strings.TrimPrefix(strings.TrimSpace(opt), "-")
		if !slices.Contains(Opts, opt) {
			return nil, fmt.Errorf("unknown --opt %q: want gcc levels from %s, such as Os,O2", opt, strings.Join(Opts, ", "))
		}
		if !slices.Contains(clean, opt) {
			clean = append(clean, opt)
		}
	}
	if o.MaxInputs < 0 {
		return nil, fmt.Errorf("--inputs %d: want 0 (every input) or a positive number", o.MaxInputs)
	}
	return &Plan{Targets: ts, Kernels: ks, Opts: clean, MaxInputs: o.MaxInputs}, nil
}

// Images is the number of images the plan builds and runs.
func (p *Plan) Images() int { return len(p.Targets) * len(p.Kernels) * len(p.Opts) }

// RunConfig is how a run builds and simulates.
type RunConfig struct {
	// Toolchains are the targets' toolchains, by target name (Toolchains).
	Toolchains map[string]*Toolchain
	CacheDir   string
	// Timeout is each image's simulation limit on the host.
	Timeout time.Duration
	// Jobs is how many simulations run at once (default 1).
	Jobs int
}

// Progress receives the run's progress (internal/progress.Bar fits).
type Progress interface {
	Begin(total int)
	Step(done int, current string)
	End()
}

// Run builds and simulates every image of the plan and returns the results:
// always a run, with what was measured before an interruption (ctx
// cancelled: Status Interrupted), and an error result (never a number) for
// an image that failed a known-answer test or hung (Status Failed) or does
// not fit the target (reported with its sizes; the run is not failed).
func Run(ctx context.Context, plan *Plan, cfg RunConfig, progress Progress) *result.Run {
	env := measure.CaptureEnvironment()
	for _, t := range plan.Targets {
		if tc := cfg.Toolchains[t.Name]; tc != nil {
			env.Notes = append(env.Notes, fmt.Sprintf("measured on a simulated %s in %s; firmware built with %s; the host only runs the simulator",
				t.Describe(), tc.SimVersion, tc.GCCVersion))
			// the programs that made the numbers, for compare's
			// provenance check: "avr-gcc", "simavr", "qemu-system-arm"
			env.AddTool(filepath.Base(tc.GCC), tc.GCCVersion)
			env.AddTool(filepath.Base(tc.Sim), tc.SimVersion)
		}
	}
	run := result.NewRun("mcu", env)
	type job struct {
		t   Target
		k   Kernel
		opt string
	}
	var jobs []job
	for _, t := range plan.Targets {
		for _, k := range plan.Kernels {
			for _, opt := range plan.Opts {
				jobs = append(jobs, job{t, k, opt})
			}
		}
	}
	if progress != nil {
		progress.Begin(len(jobs))
		defer progress.End()
	}
	out := make([]imageResults, len(jobs))
	sem := make(chan struct{}, max(cfg.Jobs, 1))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			out[i] = measureImage(ctx, j.t, j.k, j.opt, plan.MaxInputs, cfg)
			mu.Lock()
			done++
			if progress != nil {
				progress.Step(done, j.k.Name+"@"+j.t.Name+" -"+j.opt)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, r := range out {
		run.Results = append(run.Results, r.results...)
		run.Errors = append(run.Errors, r.errors...)
		if r.failed {
			run.Status = result.Failed
		}
	}
	if ctx.Err() != nil {
		run.Status = result.Interrupted
	}
	run.Finished = time.Now().UTC()
	return run
}

type imageResults struct {
	results []result.Result
	errors  []string
	failed  bool
}

// measureImage builds, checks the fit, simulates and converts one image.
func measureImage(ctx context.Context, t Target, k Kernel, opt string, maxInputs int, cfg RunConfig) imageResults {
	var ir imageResults
	tc := cfg.Toolchains[t.Name]
	if tc == nil {
		err := fmt.Errorf("no toolchain for %s", t.Name)
		ir.results = append(ir.results, imageError(t, k, opt, nil, err))
		ir.errors = append(ir.errors, err.Error())
		ir.failed = true
		return ir
	}
	img, err := tc.Build(ctx, cfg.CacheDir, t, k, opt, maxInputs)
	if err != nil && ctx.Err() != nil {
		return ir // interrupted while building: nothing measured, nothing wrong
	}
	var fit *DoesNotFitError
	switch {
	case errors.As(err, &fit):
		ir.results = append(ir.results, imageError(t, k, opt, img, err))
		return ir
	case err == nil && t.Simulator.CycleRule != "":
		if img.Code, err = tc.Disassemble(ctx, img); err != nil {
			err = fmt.Errorf("kernel %s for %s: %w", k.Name, t.Name, err)
		}
	}
	if err != nil {
		ir.results = append(ir.results, imageError(t, k, opt, nil, err))
		ir.errors = append(ir.errors, err.Error())
		ir.failed = ctx.Err() == nil
		return ir
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	output, elapsed, simErr := tc.Simulate(ctx, img, timeout)
	results, convErr := Results(img, output, elapsed)
	if errors.As(convErr, &fit) {
		ir.results = append(results, imageError(t, k, opt, img, convErr))
		return ir
	}
	ir.results = results
	// One error result per image, whatever went wrong (a hang after a
	// failed known-answer test is both).
	var msgs []string
	for _, e := range []error{convErr, simErr} {
		if e != nil && !errors.Is(e, context.Canceled) {
			msgs = append(msgs, e.Error())
		}
	}
	if len(msgs) > 0 {
		msg := fmt.Sprintf("%s@%s -%s: %s", k.Name, t.Name, opt, strings.Join(msgs, "; "))
		ir.results = append(ir.results, imageError(t, k, opt, img, errors.New(msg)))
		ir.errors = append(ir.errors, msg)
		ir.failed = true
	}
	return ir
}

// Results converts a firmware's output into results, one per operation and
// input size. Nothing is reported unless every known-answer test and
// every checked run passed; an operation whose stack reached .bss gets a
// "does not fit" result with the sizes — and when checks failed beside a
// stack that reached it, the image gives a *DoesNotFitError (the overflow
// overwrote their data). Operations completed before a
// failure or an interruption are kept.
func Results(img *Image, o *Output, elapsed time.Duration) ([]result.Result, error) {
	k := img.Kernel
	var failed []string
	for _, kat := range o.KATs {
		if !kat.Pass {
			failed = append(failed, kat.Name)
		}
	}
	checked := len(o.KATs) > 0
	for _, op := range o.Ops {
		for _, r := range op.Runs {
			switch r.Check {
			case "fail":
				failed = append(failed, fmt.Sprintf("%s/%d on input %d", op.Name, op.Bytes, r.Input))
			case "pass":
				checked = true
			}
		}
	}
	if len(failed) > 0 {
		// A stack that ran into .bss overwrote data: checks that fail
		// beside it are the overflow's, not the kernel's.
		for _, op := range o.Ops {
			if _, full, _ := op.Stack(); full && len(op.Runs) > 0 {
				t := img.Target
				return nil, &DoesNotFitError{Image: img, Flash: img.Sizes.Flash(), FlashMax: t.FlashBytes(),
					StaticRAM: img.Sizes.StaticRAM(), SRAMMax: t.SRAMBytes(), StackReached: 1, SRAMFree: op.Runs[0].Free}
			}
		}
		return nil, fmt.Errorf("known-answer test failed in the simulator: %s (%s); no number is reported for this image", strings.Join(failed, ", "), k.Verified)
	}
	if !checked && len(o.Ops) > 0 {
		return nil, fmt.Errorf("no known-answer test ran before the timings; no number is reported for this image")
	}
	if o.Calib == nil {
		return nil, nil
	}
	var out []result.Result
	for i := range o.Ops {
		if _, _, ok := o.Ops[i].Stack(); !ok && !o.Ended && i == len(o.Ops)-1 {
			break // cut off (Ctrl-C, timeout) before its stack was measured
		}
		r, err := opResult(img, o, &o.Ops[i], elapsed)
		var fit *DoesNotFitError
		if errors.As(err, &fit) {
			r = imageError(img.Target, k, img.Opt, img, err)
			r.Subject = subject(img.Target, k, img.Opt, o.Ops[i].Name, o.Ops[i].Bytes)
			r.Subject.Params["fit"] = "no"
			r.Subject.Params["sram_free_bytes"] = strconv.Itoa(fit.SRAMFree)
		} else if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// subject is a result's subject; its params are what a costing stage needs
// to price it: the target, its part, core and clock, what was counted.
func subject(t Target, k Kernel, opt, op string, bytes int) result.Subject {
	name := fmt.Sprintf("%s@%s-%s", k.Scheme, t.Name, opt)
	if op != "" {
		name += "/" + op
	}
	if bytes > 0 {
		name += "/" + strconv.Itoa(bytes)
	}
	s := result.Subject{Kind: "mcu", Name: name, Scheme: k.Scheme, Provider: "cryptocost-c", Family: k.Family,
		Operation: op, InputBytes: bytes, Params: map[string]string{
			"algorithm": k.Algorithm, "kernel": k.Name, "label": k.Label,
			"target": t.Name, "part": t.Part, "board": t.Board, "core": t.Core,
			"clock_hz":  strconv.FormatFloat(t.ClockHz(), 'f', 0, 64),
			"simulator": t.Simulator.Name + " " + t.Simulator.Machine, "counts": t.Unit(),
			"opt": "-" + opt, "security_bits": strconv.Itoa(k.SecurityBits),
			"comparable_rsa_bits": strconv.Itoa(k.ComparableRSABits()),
		}}
	if t.Device != "" {
		s.Params["device"] = t.Device
	}
	if t.Proxy != "" {
		s.Params["proxy"] = t.Proxy
	}
	if bytes > 0 {
		s.Params["input"] = "bulk"
		if k.Family == "sign" {
			s.Params["input"] = "message"
		}
	}
	return s
}

// imageError is the result of an image that gave no numbers.
func imageError(t Target, k Kernel, opt string, img *Image, err error) result.Result {
	r := result.Result{Subject: subject(t, k, opt, "", 0), Error: err.Error(),
		Provenance: result.Provenance{Label: result.Simulated, Method: result.Method{Name: MethodName(t), Stop: "fixed"}}}
	if img != nil {
		s := img.Sizes
		r.Subject.Params["image"] = img.Hash[:16]
		r.Subject.Params["flash_bytes"] = strconv.Itoa(s.Flash())
		r.Subject.Params["static_ram_bytes"] = strconv.Itoa(s.StaticRAM())
		r.Subject.Params["kernel_rom_bytes"] = strconv.Itoa(s.KernelROM())
	}
	if fit := (*DoesNotFitError)(nil); errors.As(err, &fit) {
		r.Subject.Params["fit"] = "no"
		if fit.StackReached > 0 {
			r.Subject.Params["sram_free_bytes"] = strconv.Itoa(fit.SRAMFree)
		}
	}
	return r
}

func opResult(img *Image, o *Output, op *Op, elapsed time.Duration) (result.Result, error) {
	t, k, opt := img.Target, img.Kernel, img.Opt
	res := result.Result{Subject: subject(t, k, opt, op.Name, op.Bytes)}
	stack, full, ok := op.Stack()
	if full {
		return res, &DoesNotFitError{Image: img, Flash: img.Sizes.Flash(), FlashMax: t.FlashBytes(),
			StaticRAM: img.Sizes.StaticRAM(), SRAMMax: t.SRAMBytes(), StackReached: 1, SRAMFree: op.Runs[0].Free}
	}
	if !ok {
		return res, fmt.Errorf("%s: no stack measurement", op.Name)
	}
	var counts []float64
	for _, r := range op.Runs {
		n, err := o.Net(r, t.TicksPerUnit())
		if err != nil {
			return res, fmt.Errorf("%s input %d: %w", op.Name, r.Input, err)
		}
		counts = append(counts, float64(n))
	}
	var est []Estimate
	if t.Simulator.CycleRule != "" {
		var err error
		if est, err = estimates(img, o, op, counts); err != nil {
			return res, fmt.Errorf("%s: %w", op.Name, err)
		}
	}
	bulk := res.Subject.Params["input"] == "bulk" // not for a signed message: its cost is not per byte
	res.Metrics = countMetrics(img, o.Calib, op, counts, est, bulk)
	res.Metrics = append(res.Metrics, sizeMetrics(img, op, stack)...)
	leak := timingVerdict(k, op, t.Unit(), counts, est)
	res.Metrics = append(res.Metrics, leak.metrics...)
	p := res.Subject.Params
	p["timing"] = leak.text
	p["timing_inputs"] = strconv.Itoa(len(counts))
	p["declared_inputs"] = strconv.Itoa(op.Inputs)
	p["secret"] = strconv.FormatBool(!k.public(op.Name))
	p["image"] = img.Hash[:16]
	p["inputs"] = strconv.Itoa(len(counts))
	res.Provenance = result.Provenance{
		Label: result.Simulated,
		Method: result.Method{Name: MethodName(t), Timer: t.Simulator.Counter + " (simulated)",
			Samples: len(counts), Stop: "fixed", ElapsedNs: float64(elapsed.Nanoseconds())},
		Source:   fmt.Sprintf("%s; %s -%s; image sha256 %s", img.SimVersion, img.GCCVersion, opt, img.Hash[:16]),
		Verified: "known-answer tests passed in the simulator: " + k.Verified,
	}
	if k.constantTime(op.Name) && len(counts) > 1 && slices.Min(counts) != slices.Max(counts) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("not constant time: %s differ between inputs: %.0f to %.0f", t.Unit(), slices.Min(counts), slices.Max(counts)))
	}
	return res, nil
}

// sampled is a per-input metric: one sample per input (the simulation is
// deterministic, so a single run is the whole distribution).
func sampled(name, unit string, label result.Label, v []float64, method string) result.Metric {
	m := result.NewSampled(name, unit, result.Lower, label, v)
	m.Method = method
	return m
}

// scalar is a single exact value.
func scalar(name, unit string, label result.Label, v float64, method string) result.Metric {
	m := result.NewScalar(name, unit, result.Lower, label, v)
	m.Method = method
	return m
}

// countMetrics are an operation's counts: on an AVR its cycles and time,
// simulated; on a QEMU target its instructions, simulated, and with a cycle
// rule its cycles and time, estimated (the middle of the TRM's ranges, with
// the low and high ends).
func countMetrics(img *Image, cal *Calibration, op *Op, counts []float64, est []Estimate, bulk bool) []result.Metric {
	t := img.Target
	tpu := t.TicksPerUnit()
	isr, _ := cal.ISRUnits(tpu)
	// each value divided, not multiplied by a reciprocal, so that time is
	// exactly cycles ÷ clock
	per := func(v []float64, d float64) []float64 {
		out := make([]float64, len(v))
		for i, c := range v {
			out[i] = c / d
		}
		return out
	}
	seconds := func(v []float64) []float64 { return per(v, t.ClockHz()) }
	var ms []result.Metric
	if t.CountsCycles() {
		ms = append(ms,
			sampled("cycles", "cycles", result.Simulated, counts, fmt.Sprintf("%s, minus the harness's empty call (%d cycles) and %d cycles per overflow interrupt; cycle-accurate simulation (%s), one run per input",
				t.Simulator.Counter, cal.Empty, isr, img.SimVersion)),
			sampled("time", "s", result.Simulated, seconds(counts), fmt.Sprintf("cycles ÷ %s (the simulated clock; %s)", plain(t.Clock), t.Clock.Source)))
		if bulk {
			ms = append(ms, sampled("cycles-per-byte", "cycles/B", result.Simulated, per(counts, float64(op.Bytes)), "cycles ÷ input bytes"))
		}
		return ms
	}
	how := fmt.Sprintf("%s in %s (%s), %s; minus the harness's empty call (%d) and %d per overflow interrupt; exact, one run per input",
		t.Simulator.Counter, img.SimVersion, t.Simulator.Machine, ticksHow(t), Units(cal.Empty, tpu), isr)
	if t.Proxy != "" {
		how += "; " + t.Proxy
	}
	ms = append(ms, sampled("instructions", "instructions", result.Simulated, counts, how))
	if bulk {
		ms = append(ms, sampled("instructions-per-byte", "instructions/B", result.Simulated, per(counts, float64(op.Bytes)), "instructions ÷ input bytes"))
	}
	if est == nil {
		return ms
	}
	rule := cycleRules[t.Simulator.CycleRule]
	mid, lo, hi := make([]float64, len(est)), make([]float64, len(est)), make([]float64, len(est))
	for i, e := range est {
		mid[i], lo[i], hi[i] = e.Cycles.Mid, e.Cycles.Lo, e.Cycles.Hi
	}
	estHow := fmt.Sprintf("estimated from the executed instructions (QEMU profiler: each block's executions and taken branches) by the %s; range %s to %s",
		rule.summary(t.Simulator.CycleRule), countString(slices.Min(lo)), countString(slices.Max(hi)))
	ms = append(ms,
		sampled("cycles", "cycles", result.Estimated, mid, estHow),
		sampled("cycles-min", "cycles", result.Estimated, lo, "the low end of the cycle rule's ranges"),
		sampled("cycles-max", "cycles", result.Estimated, hi, "the high end of the cycle rule's ranges"),
		sampled("time", "s", result.Estimated, seconds(mid), fmt.Sprintf("estimated cycles ÷ %s (the %s's clock; %s)", plain(t.Clock), t.Part, t.Clock.Source)))
	if bulk {
		ms = append(ms, sampled("cycles-per-byte", "cycles/B", result.Estimated, per(mid, float64(op.Bytes)), "estimated cycles ÷ input bytes"))
	}
	return ms
}

// sizeMetrics are an operation's memory: its stack (painted in the
// simulator), the kernel's static RAM and ROM (the linker map), the
// caller's state (sizeof), and RAM, their sum.
func sizeMetrics(img *Image, op *Op, stack int) []result.Metric {
	t, k, sz := img.Target, img.Kernel, img.Sizes
	own := strings.Join(sz.KernelFiles, ", ")
	stackMethod := "stack painting in the simulator: the deepest byte written below the caller's stack pointer"
	if t.IsAVR() {
		stackMethod += ", return address included"
	}
	if op.Probe {
		stackMethod += "; measured with interrupts off on a shorter run of the same code path (" + k.Name + " probe)"
	} else if op.RerunStack >= 0 {
		stackMethod += "; measured in a rerun with interrupts off"
	}
	sizer := "size -A"
	if t.IsAVR() {
		sizer = "avr-size"
	}
	static := sz.KernelRAM()
	return []result.Metric{
		scalar("stack", "B", result.Simulated, float64(stack), stackMethod),
		scalar("static-ram", "B", result.Measured, float64(static), ".data + .bss of "+own+" (linker map)"),
		scalar("state", "B", result.Measured, float64(op.State), "sizeof the caller's key, context and buffers the operation uses ("+k.Bench+")"),
		scalar("ram", "B", result.Simulated, float64(stack+static+op.State), "stack + static-ram + state"),
		scalar("rom", "B", result.Measured, float64(sz.KernelROM()), ".text + .data of "+own+" (linker map; the image's totals agree with "+sizer+")"),
	}
}

// ticksHow says how a board timer's ticks became instructions.
func ticksHow(t Target) string {
	if t.TicksPerUnit() == 1 {
		return "one count per instruction"
	}
	return fmt.Sprintf("-icount shift=%d: %d ns per instruction, %s ticks per instruction at %s, rounded",
		t.Simulator.IcountShift, 1<<t.Simulator.IcountShift, strconv.FormatFloat(t.TicksPerUnit(), 'g', -1, 64), plain(t.Simulator.Tick))
}

// estimates are an operation's estimated cycles per run: the run's window
// minus the empty call's, each checked against the board timer's count.
func estimates(img *Image, o *Output, op *Op, counts []float64) ([]Estimate, error) {
	rule := cycleRules[img.Target.Simulator.CycleRule]
	if img.Code == nil {
		return nil, fmt.Errorf("no disassembly for the cycle estimate")
	}
	window := func(seq int) (*Window, error) {
		if seq < 0 || seq >= len(o.Windows) || o.Windows[seq] == nil {
			return nil, fmt.Errorf("the instruction profiler has no window %d (it recorded %d)", seq, len(o.Windows))
		}
		return o.Windows[seq], nil
	}
	w0, err := window(0)
	if err != nil {
		return nil, err
	}
	empty, err := rule.Estimate(img.Code, w0)
	if err != nil {
		return nil, err
	}
	var out []Estimate
	for i, r := range op.Runs {
		w, err := window(r.Seq)
		if err != nil {
			return nil, err
		}
		e, err := rule.Estimate(img.Code, w)
		if err != nil {
			return nil, err
		}
		e = e.sub(empty)
		// Two independent counts of the same instructions: the board
		// timer's, and the profiler's blocks.
		if float64(e.Instructions) != counts[i] {
			return nil, fmt.Errorf("input %d: the board timer counted %.0f instructions, the profiler %d", r.Input, counts[i], e.Instructions)
		}
		out = append(out, e)
	}
	return out, nil
}

// leakReport is an operation's timing verdict over its inputs.
type leakReport struct {
	text    string
	metrics []result.Metric
}

// timingVerdict says whether an operation's count depends on its inputs:
// over the secrets of an operation on a secret (the bench file's setup(i)
// loads secret i), "constant time (0 cycles spread over 8 secrets)" or
// "leaks: 1.2 M cycles spread (3 %) over 8 secrets"; for an operation on
// public data only, how much it varies with that data. On a core without a
// cache, equal counts on every secret is constant time; on QEMU targets the
// counts are instructions, and equal instruction counts with different
// estimated cycles (branches going different ways) are reported too.
func timingVerdict(k Kernel, op *Op, unit string, counts []float64, est []Estimate) leakReport {
	n := len(counts)
	lo, hi := slices.Min(counts), slices.Max(counts)
	spread := hi - lo
	var r leakReport
	// The counted spread is named for what was counted (one name, one unit
	// in the vocabulary): cycles-spread on the AVRs, instructions-spread on
	// QEMU, where an estimated cycles-spread follows.
	m := result.NewScalar(unit+"-spread", unit, result.Lower, result.Simulated, spread)
	m.Method = fmt.Sprintf("largest minus smallest %s over the %d inputs", unit, n)
	r.metrics = append(r.metrics, m)
	var cycleSpread float64
	if est != nil {
		mids := make([]float64, len(est))
		for i, e := range est {
			mids[i] = e.Cycles.Mid
		}
		cycleSpread = slices.Max(mids) - slices.Min(mids)
		cm := result.NewScalar("cycles-spread", "cycles", result.Lower, result.Estimated, cycleSpread)
		cm.Method = fmt.Sprintf("largest minus smallest estimated cycles over the %d inputs", n)
		r.metrics = append(r.metrics, cm)
	}
	what, inputs := "secrets", "secret"
	if k.public(op.Name) {
		what, inputs = "inputs", "input"
	}
	switch {
	case n == 1:
		r.text = fmt.Sprintf("not checked: timed on 1 %s", inputs)
		if op.Inputs > 1 {
			r.text += fmt.Sprintf(" of %d", op.Inputs)
		}
	case k.public(op.Name) && spread == 0:
		r.text = fmt.Sprintf("0 %s spread over %d inputs (public data)", unit, n)
	case k.public(op.Name):
		r.text = fmt.Sprintf("varies with public data: %s %s spread (%s) over %d inputs", countString(spread), unit, percent(spread, lo), n)
	case spread == 0 && cycleSpread == 0:
		r.text = fmt.Sprintf("constant time (0 %s spread over %d %s)", unit, n, what)
	case spread == 0:
		r.text = fmt.Sprintf("leaks: the same instructions over %d %s, but %s estimated cycles spread (branches taken differently)", n, what, countString(cycleSpread))
	default:
		r.text = fmt.Sprintf("leaks: %s %s spread (%s) over %d %s", countString(spread), unit, percent(spread, lo), n, what)
	}
	return r
}

// countString prints a count with an SI-like suffix: "950", "12.3 k",
// "1.2 M", "13.7 G".
func countString(v float64) string {
	for _, s := range []struct {
		scale  float64
		suffix string
	}{{1e9, " G"}, {1e6, " M"}, {1e3, " k"}} {
		if v >= s.scale {
			return strconv.FormatFloat(v/s.scale, 'g', 3, 64) + s.suffix
		}
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// percent is a spread relative to the smallest count: "3 %".
func percent(spread, lo float64) string {
	if lo <= 0 {
		return "n/a %"
	}
	p := spread / lo * 100
	if p >= 10 {
		return strconv.FormatFloat(p, 'f', 0, 64) + " %"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + " %"
}
