package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

// dbFlag is --db, on every command that reads or writes the results store.
type dbFlag struct{ path string }

func (d *dbFlag) register(cmd *cobra.Command) {
	def := "$" + store.EnvDB + ", else " + defaultDBHelp()
	cmd.Flags().StringVar(&d.path, "db", "", "results store: an SQLite `FILE`, or postgres://USER@HOST/DB for a shared one (default "+def+")")
}

func defaultDBHelp() string {
	if p, err := store.DefaultPath(); err == nil {
		return p
	}
	return "$XDG_DATA_HOME/cryptocost/results.db"
}

// open opens the store to write to it, creating it if it does not exist
// (import, and saving a run).
func (d *dbFlag) open(ctx context.Context) (*store.Store, error) { return store.Open(ctx, d.path) }

// openExisting opens the store for a command that only reads it or
// changes what it holds: one that does not exist is a
// *store.NoStoreError, never created (store.OpenExisting).
func (d *dbFlag) openExisting(ctx context.Context) (*store.Store, error) {
	return store.OpenExisting(ctx, d.path)
}

// saveFlags are --db, --no-save and --tag for commands that make runs:
// every run is saved in the results store unless --no-save is given.
//
// A runner's command wires them with two lines:
//
//	var saves saveFlags
//	saves.register(cmd)                 // where the flags are declared
//	saves.save(cmd, run, quiet)         // after the run is written
type saveFlags struct {
	dbFlag
	noSave bool
	tags   []string
}

func (s *saveFlags) register(cmd *cobra.Command) {
	s.dbFlag.register(cmd)
	cmd.Flags().BoolVar(&s.noSave, "no-save", false, "do not save the run in the results store")
	cmd.Flags().StringSliceVar(&s.tags, "tag", nil, "tag the saved run (cryptocost runs --tag finds it)")
}

// save saves run (tags added) unless --no-save, and says where on stderr.
// A run that could not be saved is still written to the output: the
// failure is reported as a warning, never by losing the measurement, and
// does not change the exit status.
func (s *saveFlags) save(cmd *cobra.Command, run *result.Run, quiet bool) {
	if s.noSave || run == nil {
		return
	}
	for _, t := range s.tags {
		if !containsString(run.Tags, t) {
			run.Tags = append(run.Tags, t)
		}
	}
	path := s.path
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "cryptocost: warning: run %s not saved: %v (or --no-save)\n", run.ID, err)
			return
		}
	}
	if kept, err := store.SaveOrKeep(cmd.Context(), path, run); err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "cryptocost: warning: run %s not saved: %v (--db PATH to choose another store, --no-save to skip)\n", run.ID, err)
		if kept != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "cryptocost: the run is kept in %s: cryptocost push --db %s %s when the store is back\n", kept, store.Redact(path), kept)
		}
		return
	}
	if !quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "saved run %s in %s\n", run.ID, store.Redact(path))
	}
}

// validate checks --tag values, and that a shared (PostgreSQL) store
// answers, before any work starts: a run that cannot be saved is kept in
// a file, but a user who named a server should learn at once that it is
// unreachable, not after the measurement.
func (s *saveFlags) validate() error {
	for _, t := range s.tags {
		if t == "" || strings.ContainsAny(t, " \t\n") {
			return fmt.Errorf("bad --tag %q: use a word without spaces, such as baseline or pi-zero", t)
		}
	}
	if s.noSave {
		return nil
	}
	return store.Check(context.Background(), s.path)
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// loadedRun is a run named on the command line, from a file or the store.
type loadedRun struct {
	run     *result.Run
	origin  string // for headers: "file run.json", the store's origin
	pattern string // compare's RUN:PATTERN subject filter
}

// loadRuns resolves each argument, a run JSON file or a run in the
// store (store.Load).
func loadRuns(ctx context.Context, db *dbFlag, args []string, patterns bool) ([]loadedRun, error) {
	got, err := store.Load(ctx, db.path, args, patterns)
	if err != nil {
		return nil, err
	}
	out := make([]loadedRun, len(got))
	for i, l := range got {
		out[i] = loadedRun{run: l.Run, origin: l.Origin, pattern: l.Pattern}
	}
	return out, nil
}

// loadedRuns are the runs of loaded, in order.
func loadedRuns(loaded []loadedRun) []*result.Run {
	runs := make([]*result.Run, len(loaded))
	for i, l := range loaded {
		runs[i] = l.run
	}
	return runs
}
