package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

// dbFlag is --db, on every command that reads or writes the results store.
type dbFlag struct{ path string }

func (d *dbFlag) register(cmd *cobra.Command) {
	def := "$" + store.EnvDB + ", else " + store.DefaultPathHelp()
	cmd.Flags().StringVar(&d.path, "db", "", "results store: an SQLite `FILE`, or postgres://USER@HOST/DB for a shared one (default "+def+")")
}

// open opens the store to write to it, creating it if it does not exist
// (import, and saving a run).
func (d *dbFlag) open(ctx context.Context) (*store.Store, error) { return store.Open(ctx, d.path) }

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
// does not change the exit status (store.SaveTagged).
func (s *saveFlags) save(cmd *cobra.Command, run *result.Run, quiet bool) {
	if s.noSave || run == nil {
		return
	}
	saved, err := store.SaveTagged(cmd.Context(), s.path, run, s.tags)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "cryptocost: warning: %v\n", err)
	} else if !quiet {
		fmt.Fprintln(cmd.ErrOrStderr(), saved)
	}
}

// validate checks --tag values, and that a shared (PostgreSQL) store
// answers, before any work starts: a run that cannot be saved is kept in
// a file, but a user who named a server should learn at once that it is
// unreachable, not after the measurement.
func (s *saveFlags) validate() error {
	if err := store.CheckTags(s.tags); err != nil || s.noSave {
		return err
	}
	return store.Check(context.Background(), s.path)
}

func containsString(list []string, s string) bool { return slices.Contains(list, s) }

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
