package bench

import (
	"context"
	"fmt"
	"io"

	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/result"
)

// Request is `cryptocost bench` as its command line gives it: the
// selection, the sizes as strings (--sizes, --doc-sizes) and the
// measurement. Check plans it before any work (Prepare); Run measures the
// plan with a progress bar.
type Request struct {
	Options Options
	Config  RunConfig
	// Sizes and DocSizes are --sizes and --doc-sizes ("16", "1k").
	Sizes, DocSizes []string
	// Quiet: no progress bar and no notes.
	Quiet bool

	plan *Plan
}

// Check parses the sizes, validates the settings and plans the run.
func (r *Request) Check() (err error) {
	r.plan, err = Prepare(&r.Options, &r.Config, r.Sizes, r.DocSizes)
	return err
}

// Run measures the checked plan.
func (r *Request) Run(ctx context.Context) (*result.Run, error) {
	return Run(ctx, r.plan, r.Config, progress.New("bench", r.Quiet)), nil
}

// NoteSkipped says on w how many schemes or operations the plan left out
// (legacy or slow) and how to add them, unless Quiet or there are none.
func (r *Request) NoteSkipped(w io.Writer) {
	if !r.Quiet && r.plan != nil && len(r.plan.Skipped) > 0 {
		fmt.Fprintf(w, "%d schemes or operations left out (legacy or slow): --legacy and --slow add them\n", len(r.plan.Skipped))
	}
}
