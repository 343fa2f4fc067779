package mcu

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBenchRequestResolve applies --quick and --reference to the plan but
// where the levels or kernels are given. Tier: fast (no tools).
func TestBenchRequestResolve(t *testing.T) {
	r := BenchRequest{Quick: true}
	if err := r.Resolve(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Plan.Opts, []string{"Os"}) || len(r.Plan.Kernels) != len(QuickKernels()) {
		t.Errorf("--quick: opts %v, %d kernels", r.Plan.Opts, len(r.Plan.Kernels))
	}
	r = BenchRequest{Quick: true, OptsGiven: true, KernelsGiven: true, Options: Options{Opts: []string{"O2"}, Kernels: []string{"aes128"}}}
	if err := r.Resolve(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Plan.Opts, []string{"O2"}) || len(r.Plan.Kernels) != 1 {
		t.Errorf("--quick --opt --kernel: opts %v, %d kernels", r.Plan.Opts, len(r.Plan.Kernels))
	}
	name := ReferenceNames()[0]
	r = BenchRequest{Reference: name}
	if err := r.Resolve(); err != nil {
		t.Fatal(err)
	}
	ref, _ := ReferenceByName(name)
	if r.Ref == nil || len(r.Plan.Kernels) != len(ref.FastKernels()) {
		t.Errorf("--reference %s: %d kernels, want %d", name, len(r.Plan.Kernels), len(ref.FastKernels()))
	}
	if got := r.Plan.TargetNames(); !slices.Equal(got, []string{DefaultTarget}) {
		t.Errorf("TargetNames %v", got)
	}
	for _, c := range []struct {
		r    BenchRequest
		want string
	}{
		{BenchRequest{Reference: "nosuch"}, "--reference: "},
		{BenchRequest{Options: Options{Opts: []string{"O9"}}}, `unknown --opt "O9": want gcc levels from Os, O1, O2, O3`},
	} {
		if err := c.r.Resolve(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Resolve %+v: %v, want %q", c.r, err, c.want)
		}
	}
}

// TestBenchRequestCheck refuses a timeout or jobs that cannot run before
// looking for a toolchain. Tier: fast (no tools).
func TestBenchRequestCheck(t *testing.T) {
	for _, c := range []struct {
		timeout time.Duration
		jobs    int
		want    string
	}{
		{0, 1, "--timeout 0s: want a positive duration such as 10m"},
		{-time.Second, 1, "--timeout -1s: want a positive duration such as 10m"},
		{time.Minute, 0, "--jobs 0: want at least 1"},
	} {
		r := BenchRequest{Timeout: c.timeout, Jobs: c.jobs}
		if err := r.Resolve(); err != nil {
			t.Fatal(err)
		}
		if err := r.Check(context.Background()); err == nil || err.Error() != c.want {
			t.Errorf("Check(%s, %d): %v, want %q", c.timeout, c.jobs, err, c.want)
		}
	}
}

// TestWriteComparisonsWithoutReference writes nothing. Tier: fast.
func TestWriteComparisonsWithoutReference(t *testing.T) {
	r := BenchRequest{}
	if err := r.Resolve(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteComparisons(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("WriteComparisons: %v, %q", err, b.String())
	}
}

// TestCompareRequest checks the study, the target and the format before
// any run is read, and writes a table or JSON. Tier: fast.
func TestCompareRequest(t *testing.T) {
	study := ReferenceNames()[0]
	for _, c := range []struct {
		req  CompareRequest
		want string
	}{
		{CompareRequest{Study: "nosuch", Target: DefaultTarget, Format: "table"}, "nosuch"},
		{CompareRequest{Study: study, Target: "atmega2561", Format: "table"}, `--target: unknown target "atmega2561"`},
		{CompareRequest{Study: study, Target: DefaultTarget, Format: "csv"}, `--format "csv": want table or json`},
	} {
		if err := c.req.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check %+v: %v, want %q", c.req, err, c.want)
		}
	}
	for _, format := range []string{"table", "json"} {
		req := CompareRequest{Study: study, Target: DefaultTarget, Format: format}
		if err := req.Check(); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := req.Write(&b); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v, %d bytes", format, err, b.Len())
		}
		if format == "json" && !json.Valid(b.Bytes()) {
			t.Errorf("json: not JSON:\n%s", b.String())
		}
	}
}

// TestWriteList writes both tables, or the targets only. Tier: fast.
func TestWriteList(t *testing.T) {
	var all, targets bytes.Buffer
	if err := WriteList(&all, false); err != nil {
		t.Fatal(err)
	}
	if err := WriteList(&targets, true); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(all.String(), targets.String()+"\nKERNEL") || strings.Contains(targets.String(), "KERNEL") {
		t.Errorf("list:\n%s\ntargets:\n%s", all.String(), targets.String())
	}
}
