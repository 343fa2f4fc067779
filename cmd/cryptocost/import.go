package main

import (
	"fmt"
	"os"

	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newImportCmd) }

func newImportCmd() *cobra.Command {
	var (
		db   dbFlag
		tags []string
	)
	cmd := &cobra.Command{
		Use:     "import FILE...",
		Short:   "Add runs made elsewhere (another machine, a board) to the results store",
		Long:    helpLong("import"),
		Example: helpExamples("import"),
		Args:    cobra.MinimumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return importRuns(cmd, args, &db, tags) },
	}
	cmd.Flags().StringSliceVar(&tags, "tag", nil, "tag the imported runs")
	db.register(cmd)
	return cmd
}

// importRuns is import: each file's runs added to the store, tagged.
func importRuns(cmd *cobra.Command, args []string, db *dbFlag, tags []string) error {
	if err := store.CheckImports(args, tags); err != nil {
		return err
	}
	st, err := db.open(cmd.Context())
	if err != nil {
		return err
	}
	defer st.Close()
	out := cmd.OutOrStdout()
	for _, a := range args {
		f, err := os.Open(a)
		if err != nil {
			return err
		}
		outcomes, err := st.Import(cmd.Context(), f, a)
		f.Close()
		if err != nil {
			return err
		}
		for _, o := range outcomes {
			if len(tags) > 0 {
				if _, err := st.Tag(cmd.Context(), o.ID, tags...); err != nil {
					return err
				}
			}
			if o.AlreadyStored {
				fmt.Fprintf(out, "%s: run %s is already in the store\n", a, o.ID)
			} else {
				fmt.Fprintf(out, "%s: imported run %s (%d results)\n", a, o.ID, o.Results)
			}
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "store: %s\n", st.Path())
	return nil
}
