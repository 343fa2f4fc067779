package main

import (
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newRunsCmd) }

// newRunsCmd is runs: the stored runs (or the fleet's devices, --by
// device) as a table or JSON (store.ListRequest); no store yet is an
// empty list.
func newRunsCmd() *cobra.Command {
	var (
		db  dbFlag
		req store.ListRequest
	)
	cmd := &cobra.Command{
		Use:     "runs",
		Short:   "List the runs in the results store",
		Long:    helpLong("runs"),
		Example: helpExamples("runs"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := req.Check(); err != nil {
				return err
			}
			return req.Write(cmd.Context(), db.path, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl, f := cmd.Flags(), &req.Filter
	fl.StringVar(&f.Kind, "kind", "", "only runs of this kind: bench, tls, model, …")
	fl.StringVar(&f.Device, "device", "", "only runs priced for this device profile")
	fl.StringVar(&f.Host, "host", "", "only runs made on this host name")
	fl.StringVar(&f.Status, "status", "", "only complete, interrupted or failed runs")
	fl.StringVar(&f.Origin, "origin", "", "only runs made here (local) or imported")
	fl.StringSliceVar(&f.Tags, "tag", nil, "only runs with all these tags")
	fl.StringVar(&req.Since, "since", "", "only runs started at or after this date, time or age (7d)")
	fl.StringVar(&req.Until, "until", "", "only runs started before the end of this date, or before this time")
	fl.IntVar(&f.Limit, "limit", 50, "at most this many runs, most recent first (0: all)")
	fl.StringVar(&req.Format, "format", "table", "output format: table or json")
	fl.StringVar(&req.By, "by", "", "group the runs: device (the fleet's devices, machines and platforms)")
	db.register(cmd)
	cmd.AddCommand(newRunsTagCmd(false), newRunsTagCmd(true), newRunsDeleteCmd())
	return cmd
}

// newRunsTagCmd is runs tag (runs untag, with remove): store.Retag.
func newRunsTagCmd(remove bool) *cobra.Command {
	var db dbFlag
	use, short := "tag RUN TAG...", "Add tags to a stored run"
	example := "  cryptocost runs tag latest baseline pi-zero\n  cryptocost runs tag 20261201T1000 before-fix"
	if remove {
		use, short = "untag RUN TAG...", "Remove tags from a stored run"
		example = "  cryptocost runs untag latest baseline"
	}
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args:    cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return store.Retag(cmd.Context(), db.path, remove, args[0], args[1:], cmd.OutOrStdout())
		},
	}
	db.register(cmd)
	return cmd
}

// newRunsDeleteCmd is runs delete: store.DeleteRuns.
func newRunsDeleteCmd() *cobra.Command {
	var db dbFlag
	cmd := &cobra.Command{
		Use:     "delete RUN...",
		Short:   "Delete stored runs (give full IDs or unique prefixes)",
		Example: helpExamples("runs-delete"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return store.DeleteRuns(cmd.Context(), db.path, args, cmd.OutOrStdout())
		},
	}
	db.register(cmd)
	return cmd
}
