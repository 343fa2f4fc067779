package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// The runs command and its subcommands (tag, untag, delete), and the
// values the shell completes from the store: each opens the store with
// OpenExisting, so reading a mistyped --db never creates one.

// ListRequest is the runs command: the stored runs Filter selects (or
// the fleet's devices they come from, By "device") as a table or JSON.
type ListRequest struct {
	Filter Filter
	// Since and Until are --since and --until as given (a date, a time
	// or an age); Check reads them into Filter.
	Since, Until string
	Format       string // table or json
	By           string // "", or device
}

// Check validates the request and reads its dates into Filter, before
// the store is opened.
func (r *ListRequest) Check() error {
	if r.Format != "table" && r.Format != "json" {
		return fmt.Errorf("unknown format %q for runs: want table or json", r.Format)
	}
	var err error
	now := time.Now()
	if r.Filter.Since, err = ParseWhen(r.Since, now, false); err != nil {
		return fmt.Errorf("--since: %w", err)
	}
	if r.Filter.Until, err = ParseWhen(r.Until, now, true); err != nil {
		return fmt.Errorf("--until: %w", err)
	}
	if err := r.Filter.Check(); err != nil {
		return err
	}
	if r.By != "" && r.By != "device" {
		return fmt.Errorf("--by %q: want device", r.By)
	}
	return nil
}

// Write lists the runs (or the devices) of the store at db on out; no
// store yet is an empty list. A table cut by the limit says so on errOut.
func (r *ListRequest) Write(ctx context.Context, db string, out, errOut io.Writer) error {
	st, err := OpenExisting(ctx, db)
	var none *NoStoreError
	if errors.As(err, &none) {
		if r.Format == "json" {
			fmt.Fprintln(out, "[]")
			return nil
		}
		fmt.Fprintln(out, none.Error())
		return nil
	}
	if err != nil {
		return err
	}
	defer st.Close()
	if r.By == "device" {
		return r.writeDevices(ctx, st, out)
	}
	runs, err := st.List(ctx, r.Filter)
	if err != nil {
		return err
	}
	if r.Format == "json" {
		return writeJSON(out, runs, []Summary{})
	}
	if err := WriteSummaries(out, st.Path(), runs); err != nil {
		return err
	}
	if limit := r.Filter.Limit; limit > 0 && len(runs) == limit {
		fmt.Fprintf(errOut, "showing the %d most recent: --limit 0 for all\n", limit)
	}
	return nil
}

// writeDevices writes runs --by device.
func (r *ListRequest) writeDevices(ctx context.Context, st *Store, out io.Writer) error {
	devs, err := st.ByDevice(ctx, r.Filter)
	if err != nil {
		return err
	}
	if r.Format == "json" {
		return writeJSON(out, devs, []DeviceSummary{})
	}
	return WriteDevices(out, st.Path(), devs)
}

// writeJSON writes list as indented JSON, none ([]) when it is nil.
func writeJSON[T any](w io.Writer, list, none []T) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if list == nil {
		list = none
	}
	return enc.Encode(list)
}

// Retag is runs tag (runs untag, with remove): tags added to, or taken
// from, the run ref names in the store at db, said on w.
func Retag(ctx context.Context, db string, remove bool, ref string, tags []string, w io.Writer) error {
	return withExisting(ctx, db, func(st *Store) error {
		op, verb := st.Tag, "tagged"
		if remove {
			op, verb = st.Untag, "untagged"
		}
		id, err := op(ctx, ref, tags...)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s %s: %s\n", verb, id, strings.Join(tags, ", "))
		return nil
	})
}

// DeleteRuns is runs delete: each run refs names (a full ID or a unique
// prefix) deleted from the store at db, in order, each said on w; the
// first that cannot be stops.
func DeleteRuns(ctx context.Context, db string, refs []string, w io.Writer) error {
	return withExisting(ctx, db, func(st *Store) error {
		for _, ref := range refs {
			id, err := st.Delete(ctx, ref)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "deleted %s\n", id)
		}
		return nil
	})
}

// withExisting runs fn on the store at db opened with OpenExisting, and
// closes it.
func withExisting(ctx context.Context, db string, fn func(*Store) error) error {
	st, err := OpenExisting(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st)
}

// CompleteIDs are what the shell completes a RUN from: "latest" and the
// IDs of the 200 most recent runs in the store at db, those starting
// with prefix; a store that does not exist (never created) or cannot be
// read gives "latest" alone.
func CompleteIDs(ctx context.Context, db, prefix string) []string {
	out := []string{}
	if strings.HasPrefix("latest", prefix) {
		out = append(out, "latest")
	}
	_ = withExisting(ctx, db, func(st *Store) error {
		runs, err := st.List(ctx, Filter{Limit: 200})
		for _, r := range runs {
			if strings.HasPrefix(r.ID, prefix) {
				out = append(out, r.ID)
			}
		}
		return err
	})
	return out
}

// CompleteKinds are the kinds of the runs in the store at db (bench,
// tls, scenario, ...) starting with prefix, each once, for the shell to
// complete runs --kind from.
func CompleteKinds(ctx context.Context, db, prefix string) []string {
	var kinds []string
	_ = withExisting(ctx, db, func(st *Store) error {
		runs, err := st.List(ctx, Filter{})
		seen := map[string]bool{}
		for _, r := range runs {
			if strings.HasPrefix(r.Kind, prefix) && !seen[r.Kind] {
				seen[r.Kind] = true
				kinds = append(kinds, r.Kind)
			}
		}
		return err
	})
	return kinds
}
