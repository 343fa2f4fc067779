package mcu

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// BenchRequest is mcu bench's request: what to measure (Options, Quick,
// Reference) and how (Timeout, Jobs, CacheDir). Resolve makes the plan and
// Check the rest before any work; Run does it.
type BenchRequest struct {
	Options
	// Quick measures in seconds, not minutes: -Os only and the
	// symmetric-key kernels (QuickKernels), unless the levels or the
	// kernels are given (OptsGiven, KernelsGiven).
	Quick bool
	// Reference names a study (ReferenceNames) whose table is printed
	// beside the run; its kernels that are not slow are measured unless
	// the kernels are given.
	Reference string
	// OptsGiven and KernelsGiven say the user chose Options.Opts and
	// Options.Kernels, which Quick and Reference then leave alone.
	OptsGiven, KernelsGiven bool
	// Timeout kills an image's simulation after this long on the host;
	// Jobs simulations run at once.
	Timeout time.Duration
	Jobs    int
	// CacheDir is where firmware images are kept ("": CacheDir()).
	CacheDir string

	// Plan, Ref and Config are what Resolve and Check make of the above.
	Plan   *Plan
	Ref    *Reference
	Config RunConfig
}

// Resolve applies Quick and Reference to the options and makes the plan,
// with errors that say what would work.
func (r *BenchRequest) Resolve() error {
	if r.Quick {
		if !r.OptsGiven {
			r.Opts = []string{"Os"}
		}
		if !r.KernelsGiven {
			r.Kernels = QuickKernels()
		}
	}
	var err error
	if r.Reference != "" {
		if r.Ref, err = ReferenceByName(r.Reference); err != nil {
			return fmt.Errorf("--reference: %w", err)
		}
		if !r.KernelsGiven {
			r.Kernels = r.Ref.FastKernels()
		}
	}
	r.Plan, err = NewPlan(r.Options)
	return err
}

// Check validates how the resolved plan runs, before any work: the
// timeout, the jobs, the targets' toolchains and the image cache.
func (r *BenchRequest) Check(ctx context.Context) error {
	switch {
	case r.Timeout <= 0:
		return fmt.Errorf("--timeout %s: want a positive duration such as 10m", r.Timeout)
	case r.Jobs < 1:
		return fmt.Errorf("--jobs %d: want at least 1", r.Jobs)
	}
	tcs, err := Toolchains(ctx, r.Plan.Targets)
	if err != nil {
		return err
	}
	if r.CacheDir == "" {
		if r.CacheDir, err = CacheDir(); err != nil {
			return err
		}
	}
	r.Config = RunConfig{Toolchains: tcs, CacheDir: r.CacheDir, Timeout: r.Timeout, Jobs: r.Jobs}
	return nil
}

// Run builds and simulates the checked plan (Run).
func (r *BenchRequest) Run(ctx context.Context, progress Progress) *result.Run {
	return Run(ctx, r.Plan, r.Config, progress)
}

// WriteComparisons writes the Reference's table beside run, per target
// (nothing without a Reference), each after a blank line.
func (r *BenchRequest) WriteComparisons(w io.Writer, run *result.Run) error {
	if r.Ref == nil {
		return nil
	}
	for _, t := range r.Plan.Targets {
		fmt.Fprintln(w)
		if err := WriteComparison(w, Compare(r.Ref, t, run)); err != nil {
			return err
		}
	}
	return nil
}

// TargetNames are the names of the plan's targets, for pricing.
func (p *Plan) TargetNames() []string {
	names := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		names[i] = t.Name
	}
	return names
}

// TableFormat is the result format that writes mcu runs as S004
// tabulated its figures (WriteTable), in place of the generic table.
type TableFormat struct{}

// Name is the format's name: it replaces the table.
func (TableFormat) Name() string { return "table" }

// Description says what the table is.
func (TableFormat) Description() string { return "a table shaped like S004's" }

// Write writes the runs' table.
func (TableFormat) Write(w io.Writer, runs ...*result.Run) error { return WriteTable(w, runs...) }

// CompareRequest is mcu compare's request: a study's published table
// beside the kernels measured on a target, as a table or JSON.
type CompareRequest struct {
	Study, Target, Format string

	ref    *Reference
	target Target
}

// Check resolves the study and the target and checks the format, before
// any run is read.
func (c *CompareRequest) Check() error {
	var err error
	if c.ref, err = ReferenceByName(c.Study); err != nil {
		return err
	}
	if c.target, err = TargetByName(c.Target); err != nil {
		return fmt.Errorf("--target: %w", err)
	}
	if c.Format != "table" && c.Format != "json" {
		return fmt.Errorf("--format %q: want table or json", c.Format)
	}
	return nil
}

// Write writes the checked study's table beside the runs' kernels.
func (c *CompareRequest) Write(w io.Writer, runs ...*result.Run) error {
	cmp := Compare(c.ref, c.target, runs...)
	if c.Format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(cmp)
	}
	return WriteComparison(w, cmp)
}

// WriteList writes mcu list: the targets table and, unless onlyTargets,
// the kernels table after a blank line.
func WriteList(w io.Writer, onlyTargets bool) error {
	if err := WriteTargets(w); err != nil || onlyTargets {
		return err
	}
	fmt.Fprintln(w)
	return WriteKernels(w)
}
