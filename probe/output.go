package probe

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Writer writes a probe's reports in one output format.
type Writer func(w io.Writer, reports []*Report) error

// WriterFor returns the writer for a --format name: the readable table
// (or, when compare is set, the side-by-side comparison), the probe report
// as JSON (schema cryptocost/probe/v1, docs/probe.md), or the measured
// runs in a result format ("run" is the result package's json; csv,
// gobench).
func WriterFor(format string, compare bool) (Writer, error) {
	switch strings.ToLower(format) {
	case "table":
		if compare {
			return func(w io.Writer, rs []*Report) error { return WriteCompare(w, rs...) }, nil
		}
		return func(w io.Writer, rs []*Report) error { return WriteTable(w, rs...) }, nil
	case "json":
		return func(w io.Writer, rs []*Report) error { return WriteJSON(w, rs...) }, nil
	case "run":
		format = "json"
	case "csv", "gobench":
	default:
		return nil, fmt.Errorf("unknown format %q: want table, json, run, csv or gobench", format)
	}
	f, err := result.FormatByName(format)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer, rs []*Report) error {
		runs := make([]*result.Run, len(rs))
		for i, r := range rs {
			runs[i] = r.Run
		}
		return f.Write(w, runs...)
	}, nil
}

// Outcome sums up how a set of probes ended, for the exit status.
type Outcome struct {
	// Failed joins the errors of the services that could not be probed
	// (nil if none).
	Failed error
	// Stopped lists the targets whose probe was interrupted (Ctrl-C or the
	// time limit), in report order: their findings so far are kept.
	Stopped []string
}

// OutcomeOf returns the outcome of reports.
func OutcomeOf(reports []*Report) Outcome {
	var o Outcome
	var failed []string
	for _, r := range reports {
		switch r.Status {
		case result.Failed:
			failed = append(failed, strings.Join(r.Errors, "; "))
		case result.Interrupted:
			o.Stopped = append(o.Stopped, r.Target)
		}
	}
	if len(failed) > 0 {
		o.Failed = errors.New(strings.Join(failed, "\n  "))
	}
	return o
}
