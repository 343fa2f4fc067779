package main

import (
	"io"

	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newExportCmd) }

// exportFlags are export's flags.
type exportFlags struct {
	db      dbFlag
	outputs outputFlags
	sel     store.Selection
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
	cmd.Flags().BoolVar(&e.sel.All, "all", false, "export every stored run")
	cmd.Flags().StringVar(&e.sel.Since, "since", "", "export the runs started at or after this date, time or age (7d)")
	e.db.register(cmd)
	return cmd
}

// run is export: the runs named, or those --all/--since select
// (store.Selection), written in the chosen format.
func (e *exportFlags) run(cmd *cobra.Command, args []string) error {
	f, err := e.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	if args, err = e.sel.Refs(cmd.Context(), e.db.path, args); err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), &e.db, args, false)
	if err != nil {
		return err
	}
	runs := loadedRuns(loaded)
	return writeOut(cmd, e.outputs.out, func(w io.Writer) error { return f.Write(w, runs...) })
}
