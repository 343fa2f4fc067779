package mcu

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// MethodName is the provenance method of every mcu result.
func MethodName(t Target) string { return "simulated: simavr " + t.Name }

// Options select what a run measures.
type Options struct {
	Target  string   // default "atmega328p"
	Kernels []string // names or globs; none: every kernel that is not slow
	Opts    []string // optimisation levels; none: DefaultOpts
}

// Plan is a run's images, validated before any work.
type Plan struct {
	Target  Target
	Kernels []Kernel
	Opts    []string
}

// NewPlan resolves the options, with errors that say what would work.
func NewPlan(o Options) (*Plan, error) {
	if o.Target == "" {
		o.Target = "atmega328p"
	}
	t, err := TargetByName(o.Target)
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
			return nil, fmt.Errorf("unknown --opt %q: want avr-gcc levels from %s, such as Os,O2", opt, strings.Join(Opts, ", "))
		}
		if !slices.Contains(clean, opt) {
			clean = append(clean, opt)
		}
	}
	return &Plan{Target: t, Kernels: ks, Opts: clean}, nil
}

// Images is the number of images the plan builds and runs.
func (p *Plan) Images() int { return len(p.Kernels) * len(p.Opts) }

// RunConfig is how a run builds and simulates.
type RunConfig struct {
	Toolchain *Toolchain
	CacheDir  string
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
	tc := cfg.Toolchain
	env.Notes = append(env.Notes, fmt.Sprintf("measured on a simulated %s in %s; firmware built with %s; the host only runs the simulator",
		plan.Target.Describe(), tc.SimavrVersion, tc.GCCVersion))
	var id [4]byte
	rand.Read(id[:])
	run := &result.Run{
		Schema:      result.Schema,
		ID:          time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(id[:]),
		Kind:        "mcu",
		Started:     time.Now().UTC(),
		Status:      result.Complete,
		Environment: env,
	}
	type job struct {
		k   Kernel
		opt string
	}
	var jobs []job
	for _, k := range plan.Kernels {
		for _, opt := range plan.Opts {
			jobs = append(jobs, job{k, opt})
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
			out[i] = measureImage(ctx, plan.Target, j.k, j.opt, cfg)
			mu.Lock()
			done++
			if progress != nil {
				progress.Step(done, j.k.Name+" -"+j.opt)
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
func measureImage(ctx context.Context, t Target, k Kernel, opt string, cfg RunConfig) imageResults {
	var ir imageResults
	tc := cfg.Toolchain
	img, err := tc.Build(ctx, cfg.CacheDir, t, k, opt)
	if err != nil && ctx.Err() != nil {
		return ir // interrupted while building: nothing measured, nothing wrong
	}
	var fit *DoesNotFitError
	switch {
	case errors.As(err, &fit):
		ir.results = append(ir.results, imageError(t, k, opt, img, err))
		return ir
	case err != nil:
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
		msg := fmt.Sprintf("%s -%s: %s", k.Name, opt, strings.Join(msgs, "; "))
		ir.results = append(ir.results, imageError(t, k, opt, img, errors.New(msg)))
		ir.errors = append(ir.errors, msg)
		ir.failed = true
	}
	return ir
}

// Results converts a firmware's output into results, one per operation and
// input size. Nothing is reported unless every known-answer test and
// every checked run passed; an operation whose stack reached .bss gets a
// "does not fit" result with the sizes. Operations completed before a
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
			"target": t.Name, "board": t.Board, "clock_hz": strconv.FormatFloat(t.ClockHz(), 'f', 0, 64),
			"opt": "-" + opt, "security_bits": strconv.Itoa(k.SecurityBits),
			"comparable_rsa_bits": strconv.Itoa(k.ComparableRSABits()),
		}}
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
		Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: MethodName(t), Stop: "fixed"}}}
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
	var cycles []float64
	for _, r := range op.Runs {
		n, err := o.NetCycles(r)
		if err != nil {
			return res, fmt.Errorf("%s input %d: %w", op.Name, r.Input, err)
		}
		cycles = append(cycles, float64(n))
	}
	hz := t.ClockHz()
	ns := make([]float64, len(cycles))
	for i, c := range cycles {
		ns[i] = c / hz * 1e9
	}
	sz := img.Sizes
	own := strings.Join(sz.KernelFiles, ", ")
	cal := o.Calib
	// per-input values keep their samples (one per input: the simulation
	// is deterministic, so a single run is the whole distribution); sizes
	// are single exact values
	// Cycles, times and the painted stack are counted in the simulator
	// (labelled simulated: exact for simavr's model of the part); ROM and
	// static RAM are read from the image's linker map (measured).
	sampled := func(name, unit string, v []float64, method string) result.Metric {
		met := result.NewSampled(name, unit, result.Lower, result.Simulated, v)
		met.Method = method
		return met
	}
	m := func(name, unit string, v []float64, method string) result.Metric {
		met := result.NewScalar(name, unit, result.Lower, result.Measured, v[0])
		met.Method = method
		return met
	}
	simulated := func(met result.Metric) result.Metric { met.Label = result.Simulated; return met }
	stackMethod := "stack painting: the deepest byte written below the caller's stack pointer, return address included"
	if op.Probe {
		stackMethod += "; measured with interrupts off on a shorter run of the same code path (" + k.Name + " probe)"
	} else if op.RerunStack >= 0 {
		stackMethod += "; measured in a rerun with interrupts off"
	}
	res.Metrics = []result.Metric{
		sampled("cycles", "cycles/op", cycles, fmt.Sprintf("Timer1 at clk/1 extended by its overflow interrupt, minus the harness's empty call (%d cycles) and %d cycles per overflow interrupt; cycle-accurate simulation, one run per input",
			cal.EmptyCycles, cal.ISRCycles)),
		sampled("time", "ns/op", ns, fmt.Sprintf("cycles ÷ %s (the simulated clock; %s)", plain(t.Clock), t.Clock.Source)),
	}
	if res.Subject.Params["input"] == "bulk" { // not for a signed message: its cost is not per byte
		cpb := make([]float64, len(cycles))
		for i, c := range cycles {
			cpb[i] = c / float64(op.Bytes)
		}
		res.Metrics = append(res.Metrics, sampled("cycles-per-byte", "cycles/B", cpb, "cycles ÷ input bytes"))
	}
	static := sz.KernelRAM()
	res.Metrics = append(res.Metrics,
		simulated(m("stack", "B", []float64{float64(stack)}, stackMethod)),
		m("static-ram", "B", []float64{float64(static)}, ".data + .bss of "+own+" (linker map)"),
		m("state", "B", []float64{float64(op.State)}, "sizeof the caller's key, context and buffers the operation uses ("+k.Bench+")"),
		m("ram", "B", []float64{float64(stack + static + op.State)}, "stack + static-ram + state"),
		m("rom", "B", []float64{float64(sz.KernelROM())}, ".text + .data of "+own+" (linker map; the image's totals agree with avr-size)"),
	)
	res.Provenance = result.Provenance{
		Label: result.Simulated,
		Method: result.Method{Name: MethodName(t), Timer: "Timer1 at clk/1, 48-bit with overflow count (simulated, cycle-accurate)",
			Samples: len(cycles), Stop: "fixed", ElapsedNs: float64(elapsed.Nanoseconds())},
		Source:   fmt.Sprintf("%s; %s -%s; image sha256 %s", img.SimavrVersion, img.GCCVersion, opt, img.Hash[:16]),
		Verified: "known-answer tests passed in the simulator: " + k.Verified,
	}
	res.Subject.Params["image"] = img.Hash[:16]
	res.Subject.Params["inputs"] = strconv.Itoa(len(cycles))
	if k.constantTime(op.Name) && len(cycles) > 1 && slices.Min(cycles) != slices.Max(cycles) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("not constant time: cycles differ between inputs: %.0f to %.0f", slices.Min(cycles), slices.Max(cycles)))
	}
	return res, nil
}
