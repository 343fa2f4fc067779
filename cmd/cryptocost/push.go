package main

import (
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPushCmd) }

// newPushCmd is push: each file's runs imported into the store, tagged
// (store.ImportRequest.Push).
func newPushCmd() *cobra.Command {
	var db dbFlag
	req := store.ImportRequest{Open: db.open}
	cmd := &cobra.Command{
		Use:     "push --db postgres://USER@HOST/DB FILE...|DIR...",
		Short:   "Send runs written to files (-o) to a results store, typically a lab's shared one",
		Long:    helpLong("push"),
		Example: helpExamples("push"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return req.Push(cmd.Context(), args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringSliceVar(&req.Tags, "tag", nil, "tag the pushed runs")
	db.register(cmd)
	return cmd
}
