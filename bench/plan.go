// Package bench runs cryptocost's primitive benchmarks: it turns the user's
// filters into a plan of points (scheme × operation × size), verifies each
// scheme against its known answers, times each point with the measure
// engine and returns results in the common result model.
package bench

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// Default input sizes: the seed002 study's bulk sizes, and a 32-byte
// document (a digest-sized input, as that study signed 256-bit data).
var (
	DefaultBulkSizes    = []int{1 << 10, 10 << 10, 400 << 10}
	QuickBulkSizes      = []int{1 << 10}
	DefaultMessageSizes = []int{32}
	DefaultCountSizes   = []int{100}
)

// Options select and tune a benchmark run. The zero value measures every
// non-legacy, non-slow operation at the default sizes.
type Options struct {
	Families  []string // family names (see scheme.Families)
	Algos     []string // names, aliases or globs
	Ops       []string // operation names or globs ("keygen", "*-cbc")
	Providers []string // provider names or globs; C-library providers are measured only when these name them
	Security  string   // "128", "112+", "80-128"
	Legacy    bool     // include legacy schemes (explicitly named ones always are)
	Slow      bool     // include Slow operations
	Sizes     []int    // override the sizes of bulk operations (bytes processed)
	DocSizes  []int    // override the document sizes of message operations (sign, verify)
	Quick     bool     // seconds, not minutes: one size, short samples
}

// Point is one thing to time.
type Point struct {
	Scheme scheme.Scheme
	Op     scheme.Operation
	Size   int
}

// Name is the point's stable subject name: "AES-128@go/encrypt-cbc/1k".
func (p Point) Name() string {
	n := p.Scheme.Info().ID() + "/" + p.Op.Name
	switch p.Op.Input {
	case scheme.InputBulk, scheme.InputMessage:
		n += "/" + scheme.FormatSize(p.Size)
	case scheme.InputCount:
		n += "/" + strconv.Itoa(p.Size)
	}
	return n
}

// Plan is the ordered list of points of a run.
type Plan struct {
	Points []Point
	// Schemes in plan order, each once.
	Schemes []scheme.Scheme
	// Skipped explains filtered-out candidates the user might have
	// expected ("RSA-15360 sign: slow, add --slow").
	Skipped []string
}

// NewPlan validates opts and builds the plan. Every error is found here,
// before any work: unknown names (with the closest matches), impossible
// sizes (a CBC size not a multiple of the block), empty selections.
func NewPlan(opts Options) (*Plan, error) {
	fams := map[scheme.Family]bool{}
	for _, f := range opts.Families {
		fam, err := scheme.ParseFamily(f)
		if err != nil {
			if strings.EqualFold(f, "keygen") {
				return nil, errors.New(`"keygen" is an operation, not a family: use --op keygen`)
			}
			return nil, err
		}
		fams[fam] = true
	}
	sec, err := ParseSecurity(opts.Security)
	if err != nil {
		return nil, err
	}
	for _, p := range append(slices.Clone(opts.Ops), opts.Providers...) {
		if err := registry.CheckGlob(p); err != nil {
			return nil, err
		}
	}
	// A provider named outright must exist and be here: a C library that
	// was not compiled in or did not load says why and what brings it.
	for _, p := range opts.Providers {
		if !strings.ContainsAny(p, "*?[") {
			if _, err := scheme.LookupProvider(p); err != nil {
				return nil, err
			}
		}
	}

	// Candidates: every scheme, or those the --algo names select.
	candidates := scheme.All()
	named := map[string]bool{} // schemes named exactly (not by a glob)
	if len(opts.Algos) > 0 {
		candidates = nil
		seen := map[string]bool{}
		for _, a := range opts.Algos {
			ss, err := scheme.Match(a)
			if err != nil {
				return nil, err
			}
			for _, s := range ss {
				id := s.Info().ID()
				if !strings.ContainsAny(a, "*?[") {
					named[id] = true
				}
				if !seen[id] {
					seen[id] = true
					candidates = append(candidates, s)
				}
			}
		}
	}

	plan := &Plan{}
	for _, s := range candidates {
		info := s.Info()
		if len(fams) > 0 && !fams[info.Family] {
			continue
		}
		if !sec.Contains(info.Security.Bits) {
			continue
		}
		if len(opts.Providers) > 0 && !matchAny(opts.Providers, string(info.Provider)) {
			continue
		}
		// C libraries are measured when --provider asks for them; a run
		// without it measures the Go implementations, as it always has.
		if len(opts.Providers) == 0 && scheme.IsCProvider(info.Provider) {
			continue
		}
		if err := scheme.Available(s); err != nil {
			if named[info.ID()] {
				return nil, fmt.Errorf("%s: %w", info.ID(), err)
			}
			plan.Skipped = append(plan.Skipped, info.ID()+": "+err.Error())
			continue
		}
		if info.Legacy != "" && !opts.Legacy && !named[info.ID()] {
			plan.Skipped = append(plan.Skipped, info.ID()+": legacy ("+info.Legacy+"); add --legacy")
			continue
		}
		added := false
		for _, op := range s.Operations() {
			if len(opts.Ops) > 0 && !matchAny(opts.Ops, op.Name) {
				continue
			}
			if op.Slow && !opts.Slow {
				plan.Skipped = append(plan.Skipped, info.ID()+" "+op.Name+": slow; add --slow")
				continue
			}
			sizes, err := sizesFor(op, opts)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", info.Name, op.Name, err)
			}
			for _, size := range sizes {
				plan.Points = append(plan.Points, Point{Scheme: s, Op: op, Size: size})
				added = true
			}
		}
		if added {
			plan.Schemes = append(plan.Schemes, s)
		}
	}
	if len(plan.Points) == 0 {
		msg := "nothing to measure: no operation matches the filters"
		if len(plan.Skipped) > 0 {
			msg += fmt.Sprintf(" (%d left out, e.g. %s)", len(plan.Skipped), plan.Skipped[0])
		}
		return nil, errors.New(msg + "; see 'cryptocost list'")
	}
	return plan, nil
}

// sizesFor returns the sizes op is measured at, checking user sizes.
func sizesFor(op scheme.Operation, opts Options) ([]int, error) {
	var sizes []int
	switch {
	case op.Input == scheme.InputNone:
		return []int{0}, nil
	case len(opts.Sizes) > 0 && op.Input == scheme.InputBulk:
		return checkSizes(op, opts.Sizes)
	case len(opts.DocSizes) > 0 && op.Input == scheme.InputMessage:
		return checkSizes(op, opts.DocSizes)
	case op.DefaultSizes != nil:
		sizes = op.DefaultSizes
	case op.Input == scheme.InputBulk && opts.Quick:
		sizes = QuickBulkSizes
	case op.Input == scheme.InputBulk:
		sizes = DefaultBulkSizes
	case op.Input == scheme.InputMessage:
		sizes = DefaultMessageSizes
	default:
		sizes = DefaultCountSizes
	}
	// Defaults adapt to the operation's limits rather than fail.
	var out []int
	for _, sz := range sizes {
		if op.Multiple > 1 {
			sz = sz / op.Multiple * op.Multiple
		}
		if op.MaxSize > 0 {
			sz = min(sz, op.MaxSize)
		}
		sz = max(sz, op.MinSize)
		if !slices.Contains(out, sz) {
			out = append(out, sz)
		}
	}
	return out, nil
}

// checkSizes accepts user sizes only if op can take every one of them.
func checkSizes(op scheme.Operation, sizes []int) ([]int, error) {
	for _, sz := range sizes {
		if err := op.CheckSize(sz); err != nil {
			return nil, fmt.Errorf("%w (or leave %s out with --op)", err, op.Name)
		}
	}
	return sizes, nil
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if registry.Glob(p, name) {
			return true
		}
	}
	return false
}

// Security selects schemes by security strength in bits.
type Security struct{ Min, Max int }

// Contains reports whether bits is in range.
func (s Security) Contains(bits int) bool { return bits >= s.Min && bits <= s.Max }

// ParseSecurity parses "" (any), "128" (exactly), "112+" (at least) and
// "80-128" (a range).
func ParseSecurity(s string) (Security, error) {
	s = strings.TrimSpace(s)
	bad := func() (Security, error) {
		return Security{}, fmt.Errorf("bad --security %q: want bits such as 128, 112+ (at least) or 80-128 (a range)", s)
	}
	atoi := func(t string) (int, bool) {
		n, err := strconv.Atoi(strings.TrimSpace(t))
		return n, err == nil && n >= 0
	}
	switch {
	case s == "":
		return Security{0, 1 << 30}, nil
	case strings.HasSuffix(s, "+"):
		n, ok := atoi(strings.TrimSuffix(s, "+"))
		if !ok {
			return bad()
		}
		return Security{n, 1 << 30}, nil
	case strings.Contains(s, "-"):
		lo, hi, _ := strings.Cut(s, "-")
		a, ok1 := atoi(lo)
		b, ok2 := atoi(hi)
		if !ok1 || !ok2 || a > b {
			return bad()
		}
		return Security{a, b}, nil
	}
	n, ok := atoi(s)
	if !ok {
		return bad()
	}
	return Security{n, n}, nil
}

// engineDefaults are the sample length, warm-up and per-point budget of a
// default and a --quick run.
func engineDefaults(quick bool) (minSample, warmup, pointBudget time.Duration) {
	if quick {
		return 500 * time.Microsecond, 2 * time.Millisecond, 25 * time.Millisecond
	}
	return 2 * time.Millisecond, 10 * time.Millisecond, time.Second
}

// visitDefaults gives the length of one visit to a point in a round.
func visitDefaults(quick bool) time.Duration {
	if quick {
		return 2 * time.Millisecond
	}
	return 8 * time.Millisecond
}

// IsBaseline reports whether s is the baseline implementation of its
// algorithm: the one a name without a provider resolves to (the Go
// implementation). compare --by-provider puts these in its first column.
func IsBaseline(s result.Subject) bool {
	ref, err := scheme.Lookup(s.Scheme)
	return err == nil && string(ref.Info().Provider) == s.Provider
}
