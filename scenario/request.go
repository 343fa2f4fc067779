package scenario

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// Request is `cryptocost scenario NAME` as its common flags give it: the
// scenario (its own flags already parsed), the link, --quick and
// --quiet. Check validates it and sets up Env before any work; Run runs
// the scenario in it.
type Request struct {
	Scenario Scenario
	// Link names the emulated link between the parties (link.Lookup);
	// empty: loopback, no emulation.
	Link string
	// Quick asks for a run of seconds; Quiet for no progress notes.
	Quick, Quiet bool
	// Log receives the progress notes (stderr) unless Quiet.
	Log io.Writer
	// Env is the environment Check set up.
	Env Env
}

// Check validates the scenario's own flags and sets up its environment:
// the log, progress events (notes on stderr, no bar; the event log hears
// the notes too), the link.
func (r *Request) Check() error {
	r.Env = Env{Quick: r.Quick, Log: r.Log}
	if err := r.Scenario.Validate(); err != nil {
		return err
	}
	if r.Quiet || r.Env.Log == nil {
		r.Env.Log = io.Discard
	}
	r.Env.Progress = progress.Events("scenario " + r.Scenario.Name()) // notes on stderr: no bar
	if ev := progress.EventLog(); ev != nil {
		r.Env.Log = io.MultiWriter(r.Env.Log, ev) // notes are events too
	}
	if r.Link != "" {
		p, err := link.Lookup(r.Link)
		if err != nil {
			return fmt.Errorf("--link: %w", err)
		}
		r.Env.Link = &p
	}
	return nil
}

// Run runs the scenario in the environment Check set up.
func (r *Request) Run(ctx context.Context) (*result.Run, error) { return r.Scenario.Run(ctx, r.Env) }

// Examples is a scenario's own examples (Exampler), or a --quick run.
func Examples(s Scenario) string {
	if e, ok := s.(Exampler); ok {
		return e.Examples()
	}
	return "  cryptocost scenario " + s.Name() + " --quick"
}

// WriteList writes the scenarios, a line each: name and summary
// (`cryptocost scenario list`).
func WriteList(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tWHAT")
	for _, s := range All() {
		fmt.Fprintf(tw, "%s\t%s\n", s.Name(), s.Summary())
	}
	return tw.Flush()
}

// TableFormat is the table format of a scenario with its own table
// (TableWriter), or nil: the result package's table.
func TableFormat(s Scenario) result.Format {
	if tw, ok := s.(TableWriter); ok {
		return tableFormat{tw}
	}
	return nil
}

// tableFormat writes runs with a scenario's own table, a blank line
// between them.
type tableFormat struct{ tw TableWriter }

func (tableFormat) Name() string        { return "table" }
func (tableFormat) Description() string { return "the scenario's own table" }
func (t tableFormat) Write(w io.Writer, runs ...*result.Run) error {
	for i, run := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := t.tw.WriteTable(w, run); err != nil {
			return err
		}
	}
	return nil
}
