package main

import (
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newImportCmd) }

// newImportCmd is import: each file's runs added to the store, tagged
// (store.ImportRequest.Import).
func newImportCmd() *cobra.Command {
	var db dbFlag
	req := store.ImportRequest{Open: db.open}
	cmd := &cobra.Command{
		Use:     "import FILE...",
		Short:   "Add runs made elsewhere (another machine, a board) to the results store",
		Long:    helpLong("import"),
		Example: helpExamples("import"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return req.Import(cmd.Context(), args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringSliceVar(&req.Tags, "tag", nil, "tag the imported runs")
	db.register(cmd)
	return cmd
}
