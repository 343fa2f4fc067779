package main

import (
	"fmt"
	"io"
	"time"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newExportCmd) }

// exportFlags are export's flags.
type exportFlags struct {
	db      dbFlag
	outputs outputFlags
	all     bool
	since   string
}

func newExportCmd() *cobra.Command {
	var e exportFlags
	cmd := &cobra.Command{
		Use:     "export RUN...|--all|--since WHEN",
		Short:   "Write stored runs as JSON, CSV, the Go benchmark format or a table",
		Long:    helpLong("export"),
		Example: helpExamples("export"),
		RunE:    e.run,
	}
	e.outputs.register(cmd)
	cmd.Flags().BoolVar(&e.all, "all", false, "export every stored run")
	cmd.Flags().StringVar(&e.since, "since", "", "export the runs started at or after this date, time or age (7d)")
	e.db.register(cmd)
	return cmd
}

// run is export: the runs named, or those --all/--since select, written
// in the chosen format.
func (e *exportFlags) run(cmd *cobra.Command, args []string) error {
	f, err := e.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	selecting := e.all || e.since != ""
	if selecting == (len(args) > 0) {
		return fmt.Errorf("give the runs to export (RUN..., or latest), or --all, or --since DATE|AGE: one of them")
	}
	if selecting {
		if args, err = e.storedIDs(cmd); err != nil {
			return err
		}
	}
	loaded, err := loadRuns(cmd.Context(), &e.db, args, false)
	if err != nil {
		return err
	}
	runs := loadedRuns(loaded)
	if e.outputs.out == "" {
		return f.Write(cmd.OutOrStdout(), runs...)
	}
	return atomicfile.Write(e.outputs.out, func(w io.Writer) error { return f.Write(w, runs...) })
}

// storedIDs lists the IDs of the stored runs --all or --since selects,
// oldest first; none is an error.
func (e *exportFlags) storedIDs(cmd *cobra.Command) ([]string, error) {
	t, err := store.ParseWhen(e.since, time.Now(), false)
	if err != nil {
		return nil, fmt.Errorf("--since: %w", err)
	}
	st, err := e.db.openExisting(cmd.Context())
	if err != nil {
		return nil, err
	}
	defer st.Close()
	ids, err := st.IDs(cmd.Context(), store.Filter{Since: t})
	if err == nil && len(ids) == 0 {
		err = fmt.Errorf("no runs to export: the store has none%s", map[bool]string{true: " since " + e.since}[e.since != ""])
	}
	return ids, err
}
