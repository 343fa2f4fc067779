package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// SaveTagged is how a runner saves the run it made: tags are added to
// run (those it lacks), and it is saved in the store at path ("" for
// DefaultPath) or, if that fails, kept in a file (SaveOrKeep). It returns
// what to tell the user: "saved run ID in PATH" (the password redacted),
// or an error that says why the run was not saved, what to do, and where
// it is kept ("cryptocost push" it when the store is back). A command
// reports the error as a warning: the run is written to its output
// whatever happens here.
func SaveTagged(ctx context.Context, path string, run *result.Run, tags []string) (string, error) {
	for _, t := range tags {
		if !slices.Contains(run.Tags, t) {
			run.Tags = append(run.Tags, t)
		}
	}
	if path == "" {
		var err error
		if path, err = DefaultPath(); err != nil {
			return "", fmt.Errorf("run %s not saved: %v (or --no-save)", run.ID, err)
		}
	}
	kept, err := SaveOrKeep(ctx, path, run)
	if err != nil {
		err = fmt.Errorf("run %s not saved: %v (--db PATH to choose another store, --no-save to skip)", run.ID, err)
		if kept != "" {
			err = fmt.Errorf("%w\ncryptocost: the run is kept in %s: cryptocost push --db %s %s when the store is back", err, kept, Redact(path), kept)
		}
		return "", err
	}
	return fmt.Sprintf("saved run %s in %s", run.ID, Redact(path)), nil
}

// CheckTags refuses, before any work, a --tag that is empty or holds a
// space.
func CheckTags(tags []string) error {
	for _, t := range tags {
		if t == "" || strings.ContainsAny(t, " \t\n") {
			return fmt.Errorf("bad --tag %q: use a word without spaces, such as baseline or pi-zero", t)
		}
	}
	return nil
}

// DefaultPathHelp is DefaultPath for --db's help: the XDG default's
// form where this machine has no data directory.
func DefaultPathHelp() string {
	if p, err := DefaultPath(); err == nil {
		return p
	}
	return "$XDG_DATA_HOME/cryptocost/results.db"
}
