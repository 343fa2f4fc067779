// Package result is cryptocost's one record shape for every measurement:
// a primitive's time per operation, a TLS handshake's bytes, a model's
// energy per node. A Run holds the Results of one invocation with the
// environment they were obtained in; each Result holds a Subject (what was
// measured), Metrics (values with units, samples and a summary, each
// labelled with how it was obtained) and its Provenance. Everything
// downstream — output formats, the results store, comparisons, reports —
// works on this model alone.
package result

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/stats"
)

// Schema identifies the JSON shape; bump on incompatible change
// (docs/result-schema.md).
const Schema = "cryptocost/run/v2"

// Label says how a number was obtained. Principle 1: never print an
// estimate that looks like a measurement.
type Label string

const (
	// Measured here: by a timer, counter or meter during this run.
	Measured Label = "measured"
	// Imported: measured elsewhere (another machine, a paper) and read in.
	Imported Label = "imported"
	// Modelled: computed by a model from inputs (a device profile, a
	// radio state machine, a protocol model).
	Modelled Label = "modelled"
	// Estimated: derived from a measurement by an assumption (cycles from
	// the nominal clock, a time scaled from another device).
	Estimated Label = "estimated"
	// Simulated: counted by running the code on a model of a device the
	// run does not have — a cycle-accurate simulator (simavr: cycles) or
	// an instruction-counting emulator (QEMU with -icount: instructions):
	// exact for the model, not a measurement of the silicon.
	Simulated Label = "simulated"
)

// Status of a run.
type Status string

const (
	Complete    Status = "complete"
	Interrupted Status = "interrupted" // stopped by the user; results so far kept
	Failed      Status = "failed"      // some subject failed (e.g. a KAT)
)

// Run is one invocation of cryptocost: its results and where they came from.
type Run struct {
	Schema      string      `json:"schema"`
	ID          string      `json:"id"`
	Kind        string      `json:"kind"` // "bench", "tls", "model", ...
	Tool        Tool        `json:"tool"`
	Command     []string    `json:"command,omitempty"`
	Started     time.Time   `json:"started"`
	Finished    time.Time   `json:"finished"`
	Status      Status      `json:"status"`
	Environment Environment `json:"environment"`
	Results     []Result    `json:"results"`
	Errors      []string    `json:"errors,omitempty"`
	Tags        []string    `json:"tags,omitempty"`
	// Inputs are the data files the run's figures were computed from (a
	// device profile, a calibration), carried whole so the run prices the
	// same wherever it is read later (input.go).
	Inputs []Input `json:"inputs,omitempty"`
}

// Tool identifies the cryptocost build that made a run.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
}

// Environment is the machine and software a run measured on.
type Environment struct {
	Hostname   string            `json:"hostname,omitempty"`
	MachineID  string            `json:"machine_id,omitempty"` // tells apart machines that share a host name
	OS         string            `json:"goos"`
	Arch       string            `json:"goarch"`
	GOARM      string            `json:"goarm,omitempty"`
	GoVersion  string            `json:"go_version"`
	Kernel     string            `json:"kernel,omitempty"`
	CPUModel   string            `json:"cpu_model,omitempty"`
	CPUs       int               `json:"cpus"`       // logical CPUs
	GOMAXPROCS int               `json:"gomaxprocs"` //
	CPUMHz     float64           `json:"cpu_mhz,omitempty"`
	CPUMHzFrom string            `json:"cpu_mhz_source,omitempty"` // which file the clock came from
	Governor   string            `json:"governor,omitempty"`
	Virtual    string            `json:"virtualization,omitempty"` // hypervisor, when /proc/cpuinfo says so
	Device     string            `json:"device,omitempty"`         // the device profile, if one was named
	Deps       map[string]string `json:"dependencies,omitempty"`   // module path -> version
	// Libraries are the C libraries the run measured through cgo
	// providers: provider -> the version the loaded library reports.
	Libraries map[string]string `json:"c_libraries,omitempty"`
	// Tools are the programs outside cryptocost that produced or shaped
	// the results: program -> the version it reports ("avr-gcc" ->
	// "avr-gcc (GCC) 5.4.0", "simavr" -> "1.6+dfsg-3", "openssl" ->
	// "OpenSSL 3.0.22 25 Aug 2026" for an OpenSSL peer). compare warns
	// when two runs differ in them.
	Tools map[string]string `json:"tools,omitempty"`
	// CgoCallNs is what one empty Go-to-C call cost on this machine, the
	// median of timed batches, when the run measured C providers. Their
	// timed loops cross into C once per batch of calls, not per call.
	CgoCallNs float64 `json:"cgo_call_ns,omitempty"`
	// Load is what the run saw of other work on the machine while it
	// measured, and which results that work affected.
	Load  *Load    `json:"load,omitempty"`
	Notes []string `json:"notes,omitempty"` // what could not be read, and why
}

// Load describes how busy the machine was while a run measured: the
// system's own counters over the run, what the run's samples showed, and
// the verdict. A busy machine inflates wall times (a thread waiting for a
// core accrues wall time, not CPU time) and makes them vary.
type Load struct {
	// CPUs is the number of logical CPUs the load is shared by.
	CPUs int `json:"cpus"`
	// LoadStart, LoadEnd and LoadMax are the 1-minute load average
	// (runnable and uninterruptible tasks, /proc/loadavg) when the run
	// started, ended, and its highest reading in between; above CPUs, some
	// runnable task waited for a core. Absent where not readable.
	LoadStart float64 `json:"load_start,omitempty"`
	LoadEnd   float64 `json:"load_end,omitempty"`
	LoadMax   float64 `json:"load_max,omitempty"`
	// CPUPressure is the share of the run's wall time during which some
	// task waited for a CPU (Linux pressure stall information,
	// /proc/pressure/cpu "some" total); -1 where not readable.
	CPUPressure float64 `json:"cpu_pressure"`
	// Steal is the share of the machine's CPU time a hypervisor gave to
	// other guests over the run (/proc/stat steal); -1 where not readable.
	Steal float64 `json:"steal"`
	// CPUWallRatio is the median, over the run's points, of each point's
	// median thread CPU time over its median wall time: 1 when the
	// measuring thread never waited, 0.5 when it waited as long as it ran
	// (0: not measured).
	CPUWallRatio float64 `json:"cpu_wall_ratio,omitempty"`
	// ReferenceDrift is the largest relative difference between the
	// reference workload's median during a point and over the whole run,
	// on the run's clock (provenance.method.reference_ratio − 1).
	ReferenceDrift float64 `json:"reference_drift,omitempty"`
	// Busy says the machine was busy enough to matter, for the Reasons.
	Busy    bool     `json:"busy"`
	Reasons []string `json:"reasons,omitempty"`
	// Affected names the subjects whose reported statistic the load
	// affected (each also carries a warning saying how).
	Affected []string `json:"affected,omitempty"`
	// Advice says what would give steadier numbers.
	Advice string `json:"advice,omitempty"`
}

// Summary is one line for a table's header when the machine was busy:
// why, how many of the run's results it affected, and the advice; "" when
// it was not busy.
func (l *Load) Summary(results int) string {
	if l == nil || !l.Busy {
		return ""
	}
	msg := "machine busy (" + strings.Join(l.Reasons, "; ") + ")"
	if len(l.Affected) > 0 {
		msg += fmt.Sprintf(": %d of %d results affected", len(l.Affected), results)
	}
	if l.Advice != "" {
		msg += "; " + l.Advice
	}
	return msg
}

// AddTool records the version of a program that produced the run's
// results (Environment.Tools); an empty version is recorded as unknown.
func (e *Environment) AddTool(program, version string) {
	if e.Tools == nil {
		e.Tools = map[string]string{}
	}
	if version == "" {
		version = "unknown"
	}
	e.Tools[program] = version
}

// Result is one measured (or modelled) subject.
type Result struct {
	Subject    Subject    `json:"subject"`
	Metrics    []Metric   `json:"metrics"`
	Provenance Provenance `json:"provenance"`
	Warnings   []string   `json:"warnings,omitempty"`
	// Trace is the packet trace of subjects that moved bytes over a link.
	Trace *Trace `json:"trace,omitempty"`
	// Work is the CPU work the subject did, in terms the costing stage
	// prices on any device: which operations of which schemes ran how
	// often on what input (and how long they took here).
	Work []Work `json:"work,omitempty"`
	// TraceParts are the parts of the subject's traffic the costing stage
	// prices apart (one reading's exchange, a session's handshake), when
	// the runner split them; Trace is then the whole, not priced again.
	TraceParts []TracePart `json:"trace_parts,omitempty"`
	// Model is the analytic model the runner's system matches, evaluated
	// at the run's own point by the costing stage on the same device.
	Model *ModelPoint `json:"model,omitempty"`
	// Error is set when the subject could not be measured (a failed KAT):
	// then Metrics is empty. Never a number without a method.
	Error string `json:"error,omitempty"`
}

// Subject is what was measured.
type Subject struct {
	// Kind is the runner that produced it: "primitive", "tls", "model"...
	Kind string `json:"kind"`
	// Name is unique within a run and stable across runs, so runs can be
	// compared subject by subject: "AES-128-GCM@go/seal/1k".
	Name string `json:"name"`
	// Fields for primitives; other kinds use Params.
	Scheme    string `json:"scheme,omitempty"`
	Provider  string `json:"provider,omitempty"`
	Family    string `json:"family,omitempty"`
	Operation string `json:"operation,omitempty"`
	// InputBytes is the input size for sized operations (bytes, or a
	// count for count-sized ones; see Params["input"]).
	InputBytes int               `json:"input_bytes,omitempty"`
	Params     map[string]string `json:"params,omitempty"`
}

// Work is one kind of CPU work a runner recorded: Count runs of a
// registry scheme's Operation on InputBytes, per subject (or per Per), by
// one Party, as part of a Component of the subject's cost. HostNs are the
// times one operation took on the machine that ran it, when measured.
// Runners record work; package costing turns it into a device's time and
// energy (a runner never knows which device will be priced).
type Work struct {
	// Component is the share of the cost it belongs to: "asymmetric",
	// "symmetric+mac", "hashing", "io" (S000's split), or "" for the
	// subject's one operation.
	Component string `json:"component,omitempty"`
	// Party is who ran it: "client", "sensor", "signer", "node".
	Party string `json:"party,omitempty"`
	// Scheme and Operation name a registry scheme's operation
	// ("ECDSA-P256-SHA256", "sign"); Provider the implementation that ran
	// it ("go", "openssl").
	Scheme     string `json:"scheme"`
	Provider   string `json:"provider,omitempty"`
	Operation  string `json:"operation"`
	InputBytes int    `json:"input_bytes,omitempty"`
	// Count is how many times per subject (or per Per: "session",
	// "reading"); CountLabel and CountMethod say how it is known
	// (measured: counted in the run; modelled: from the protocol).
	Count       float64 `json:"count"`
	Per         string  `json:"per,omitempty"`
	CountLabel  Label   `json:"count_label,omitempty"`
	CountMethod string  `json:"count_method,omitempty"`
	// HostNs are nanoseconds per operation on the machine that ran the
	// run, when it timed them; HostLabel and HostMethod say how.
	HostNs     []float64 `json:"host_ns,omitempty"`
	HostLabel  Label     `json:"host_label,omitempty"`
	HostMethod string    `json:"host_method,omitempty"`
}

// TracePart is a part of a subject's packets whose radio energy is priced
// apart: each trace alone (the radio settles between them: a sensor
// sleeps between readings), then averaged over the traces for a part per
// subject (Per ""), summed for a part per session or registration.
type TracePart struct {
	// Per is "" (per subject: one reading, one request) or the scope
	// ("session", "registration").
	Per    string   `json:"per,omitempty"`
	Traces []*Trace `json:"traces"`
	// Minus are traces whose energy is subtracted pairwise: the share of a
	// datagram another scope owns (EDHOC's message_3 riding with the
	// registration); nil where nothing is subtracted from Traces[i].
	Minus []*Trace `json:"minus,omitempty"`
	// Spans is how many subjects one trace covers (a node's whole run of
	// Spans intervals); 0 means 1.
	Spans  float64 `json:"spans,omitempty"`
	Method string  `json:"method,omitempty"`
}

// ModelPoint names an analytic model (package model) and the point the
// run measured: the variant and the parameters set from the run.
type ModelPoint struct {
	Name    string             `json:"name"`
	Variant string             `json:"variant,omitempty"`
	Set     map[string]float64 `json:"set,omitempty"`
	// Metric names the model's energy metric ("model/energy/reading");
	// TimeMetric, when set, its time ("model/time").
	Metric     string `json:"metric,omitempty"`
	TimeMetric string `json:"time_metric,omitempty"`
}

// Better says which direction of a metric is an improvement.
type Better string

const (
	Lower  Better = "lower"
	Higher Better = "higher"
)

// Metric is one quantity of a subject, with its samples and summary.
type Metric struct {
	// Name is the quantity: "time", "cpu-time", "throughput", "cycles",
	// "cycles-per-byte", "alloc-bytes", "allocs", "peak-rss", "energy"...
	Name string `json:"name"`
	// Unit is a Go benchmark unit where one exists ("ns/op", "MB/s",
	// "B/op", "allocs/op"), so gobench output is benchstat-ready.
	Unit   string `json:"unit"`
	Better Better `json:"better,omitempty"`
	// Label says how the values were obtained; Method says exactly how
	// when the result's provenance does not already say it.
	Label  Label  `json:"label"`
	Method string `json:"method,omitempty"`
	// Source names where the value came from when it is not this run's
	// measurement: a device profile's literature figure ("ECDSA secp192k1
	// sign (TinyECC 0.2)"), a simulation ("atmega328p, kernel x25519 -Os"),
	// a calibration. The costing stage sets it on every figure it prices.
	Source  string        `json:"source,omitempty"`
	Samples []float64     `json:"samples,omitempty"`
	Summary stats.Summary `json:"summary"`
	// Bounds is the range the value's inputs allow — a profile's
	// 2.6–2.7 V, a time's confidence interval, the answers of two
	// estimation rules — carried to the value by interval arithmetic
	// (package costing); nil when the value is exact or a statistic of
	// its own samples.
	Bounds *Bounds `json:"bounds,omitempty"`
}

// Bounds are a value's low and high bounds, in the metric's unit, and how
// they were obtained. A one-sided bound has Lo −Inf or Hi +Inf (a host
// time that is only a lower bound on the device's); JSON writes those as
// null.
type Bounds struct {
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Method string  `json:"method,omitempty"`
}

type boundsJSON struct {
	Lo     *float64 `json:"lo"`
	Hi     *float64 `json:"hi"`
	Method string   `json:"method,omitempty"`
}

// MarshalJSON writes an unbounded side as null.
func (b Bounds) MarshalJSON() ([]byte, error) {
	side := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	return json.Marshal(boundsJSON{Lo: side(b.Lo), Hi: side(b.Hi), Method: b.Method})
}

// UnmarshalJSON reads a null side as unbounded.
func (b *Bounds) UnmarshalJSON(data []byte) error {
	var j boundsJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*b = Bounds{Lo: math.Inf(-1), Hi: math.Inf(1), Method: j.Method}
	if j.Lo != nil {
		b.Lo = *j.Lo
	}
	if j.Hi != nil {
		b.Hi = *j.Hi
	}
	return nil
}

// Provenance records how a result was obtained.
type Provenance struct {
	Label  Label  `json:"label"`
	Method Method `json:"method"`
	// Source names the origin of imported or modelled results (a file, a
	// paper, a device profile).
	Source string `json:"source,omitempty"`
	// Verified names the known-answer test the subject passed before it
	// was timed.
	Verified string `json:"verified,omitempty"`
}

// Method is how a measurement was taken.
type Method struct {
	// Name is the engine's method: "adaptive" (calibrated batches until
	// the median's CI is tight or the budget is spent) or "seed002"
	// (K distinct keys/inputs × R repetitions).
	Name string `json:"name"`
	// Timer is the clock used and its measured resolution.
	Timer             string  `json:"timer,omitempty"`
	TimerResolutionNs float64 `json:"timer_resolution_ns,omitempty"`
	CallOverheadNs    float64 `json:"call_overhead_ns,omitempty"`
	// Batch is the number of operations per sample.
	Batch     int     `json:"batch,omitempty"`
	WarmupOps int     `json:"warmup_ops,omitempty"`
	WarmupNs  float64 `json:"warmup_ns,omitempty"`
	Samples   int     `json:"samples"`
	// Visits is the number of separate time windows (rounds) the samples
	// were taken in.
	Visits      int     `json:"visits,omitempty"`
	TargetRelCI float64 `json:"target_rel_ci,omitempty"`
	BudgetNs    float64 `json:"budget_ns,omitempty"`
	ElapsedNs   float64 `json:"elapsed_ns,omitempty"`
	// Clock is the statistic the samples were summarised and stopped by:
	// "wall" (the time metric) or "cpu" (the cpu-time metric, bench
	// --clock cpu); empty in runs that predate it (wall).
	Clock string `json:"clock,omitempty"`
	// ReferenceRatio is the median time of a fixed reference workload
	// probed at each visit to this point, over its median for the whole
	// run, on the run's clock: 1.3 means the machine ran 30 % slower while
	// this point was measured (0: not probed).
	ReferenceRatio float64 `json:"reference_ratio,omitempty"`
	Keys           int     `json:"keys,omitempty"`        // seed002: K
	Repetitions    int     `json:"repetitions,omitempty"` // seed002: R
	// Stop says why sampling ended: "converged" (CI within target),
	// "budget" (time budget spent first), "max-samples", "fixed" (a fixed
	// design such as seed002), "interrupted".
	Stop string `json:"stop"`
}

// Metric returns the metric named name, or nil.
func (r *Result) Metric(name string) *Metric {
	for i := range r.Metrics {
		if r.Metrics[i].Name == name {
			return &r.Metrics[i]
		}
	}
	return nil
}

// NewSampled builds a metric from samples, summarising them. The samples
// may be in any unit of the metric's dimension ("ns" for a time): they
// are converted to the vocabulary's base unit (vocabulary.go), and the
// direction that is better comes from the vocabulary too.
func NewSampled(name, unit string, better Better, label Label, samples []float64) Metric {
	m := Metric{Name: name, Unit: unit, Better: better, Label: label,
		Samples: samples, Summary: stats.Summarize(samples)}
	normalize(&m)
	return m
}

// NewScalar builds a metric holding one exact value, in any unit of its
// dimension (converted to the base unit, as NewSampled).
func NewScalar(name, unit string, better Better, label Label, v float64) Metric {
	m := Metric{Name: name, Unit: unit, Better: better, Label: label, Summary: stats.Scalar(v)}
	normalize(&m)
	return m
}

// Validate checks the invariants every writer and the store rely on.
func (r *Run) Validate() error {
	if r.Schema != Schema {
		return fmt.Errorf("run schema %q, want %q", r.Schema, Schema)
	}
	seen := map[string]bool{}
	for i, res := range r.Results {
		if res.Subject.Name == "" {
			return fmt.Errorf("result %d: subject has no name", i)
		}
		if seen[res.Subject.Name] {
			return fmt.Errorf("result %d: subject %q appears twice", i, res.Subject.Name)
		}
		seen[res.Subject.Name] = true
		if res.Error == "" && len(res.Metrics) == 0 {
			return fmt.Errorf("result %q: no metrics and no error", res.Subject.Name)
		}
		for _, m := range res.Metrics {
			if m.Label == "" || m.Unit == "" {
				return fmt.Errorf("result %q: metric %q has no label or unit", res.Subject.Name, m.Name)
			}
			if err := checkVocabulary(m); err != nil {
				return fmt.Errorf("result %q: %w", res.Subject.Name, err)
			}
		}
	}
	return nil
}

// Method returns the result's measurement method.
func (r *Result) Method() Method { return r.Provenance.Method }
