package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newRunsCmd) }

// listRuns is runs: the stored runs (or the fleet's devices, --by
// device) as a table or JSON; no store yet is an empty list.
func listRuns(cmd *cobra.Command, db *dbFlag, f store.Filter, format, by string) error {
	st, err := db.openExisting(cmd.Context())
	var none *store.NoStoreError
	if errors.As(err, &none) {
		if format == "json" {
			fmt.Fprintln(cmd.OutOrStdout(), "[]")
			return nil
		}
		fmt.Fprintln(cmd.OutOrStdout(), none.Error())
		return nil
	}
	if err != nil {
		return err
	}
	defer st.Close()
	if by == "device" {
		return listByDevice(cmd, st, f, format)
	}
	runs, err := st.List(cmd.Context(), f)
	if err != nil {
		return err
	}
	if format == "json" {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		if runs == nil {
			runs = []store.Summary{}
		}
		return enc.Encode(runs)
	}
	return writeRunsTable(cmd, st.Path(), runs, f.Limit)
}

func newRunsCmd() *cobra.Command {
	var (
		db           dbFlag
		f            store.Filter
		since, until string
		format, by   string
	)
	cmd := &cobra.Command{
		Use:     "runs",
		Short:   "List the runs in the results store",
		Long:    helpLong("runs"),
		Example: helpExamples("runs"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkRunsFlags(&f, since, until, format, by); err != nil {
				return err
			}
			return listRuns(cmd, &db, f, format, by)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Kind, "kind", "", "only runs of this kind: bench, tls, model, …")
	fl.StringVar(&f.Device, "device", "", "only runs priced for this device profile")
	fl.StringVar(&f.Host, "host", "", "only runs made on this host name")
	fl.StringVar(&f.Status, "status", "", "only complete, interrupted or failed runs")
	fl.StringVar(&f.Origin, "origin", "", "only runs made here (local) or imported")
	fl.StringSliceVar(&f.Tags, "tag", nil, "only runs with all these tags")
	fl.StringVar(&since, "since", "", "only runs started at or after this date, time or age (7d)")
	fl.StringVar(&until, "until", "", "only runs started before the end of this date, or before this time")
	fl.IntVar(&f.Limit, "limit", 50, "at most this many runs, most recent first (0: all)")
	fl.StringVar(&format, "format", "table", "output format: table or json")
	fl.StringVar(&by, "by", "", "group the runs: device (the fleet's devices, machines and platforms)")
	db.register(cmd)
	cmd.AddCommand(newRunsTagCmd(false), newRunsTagCmd(true), newRunsDeleteCmd())
	return cmd
}

// listByDevice prints runs --by device.
func listByDevice(cmd *cobra.Command, st *store.Store, f store.Filter, format string) error {
	devs, err := st.ByDevice(cmd.Context(), f)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if format == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if devs == nil {
			devs = []store.DeviceSummary{}
		}
		return enc.Encode(devs)
	}
	return store.WriteDevices(out, st.Path(), devs)
}

func newRunsTagCmd(remove bool) *cobra.Command {
	var db dbFlag
	use, short, verb := "tag RUN TAG...", "Add tags to a stored run", "tagged"
	example := "  cryptocost runs tag latest baseline pi-zero\n  cryptocost runs tag 20261201T1000 before-fix"
	if remove {
		use, short, verb = "untag RUN TAG...", "Remove tags from a stored run", "untagged"
		example = "  cryptocost runs untag latest baseline"
	}
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args:    cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := db.openExisting(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			op := st.Tag
			if remove {
				op = st.Untag
			}
			id, err := op(cmd.Context(), args[0], args[1:]...)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %s\n", verb, id, strings.Join(args[1:], ", "))
			return nil
		},
	}
	db.register(cmd)
	return cmd
}

func newRunsDeleteCmd() *cobra.Command {
	var db dbFlag
	cmd := &cobra.Command{
		Use:     "delete RUN...",
		Short:   "Delete stored runs (give full IDs or unique prefixes)",
		Example: helpExamples("runs-delete"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := db.openExisting(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			for _, ref := range args {
				id, err := st.Delete(cmd.Context(), ref)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "deleted %s\n", id)
			}
			return nil
		},
	}
	db.register(cmd)
	return cmd
}

// checkRunsFlags reads runs' filter flags into f, before the store is
// opened.
func checkRunsFlags(f *store.Filter, since, until, format, by string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("unknown format %q for runs: want table or json", format)
	}
	var err error
	now := time.Now()
	if f.Since, err = store.ParseWhen(since, now, false); err != nil {
		return fmt.Errorf("--since: %w", err)
	}
	if f.Until, err = store.ParseWhen(until, now, true); err != nil {
		return fmt.Errorf("--until: %w", err)
	}
	if err := f.Check(); err != nil {
		return err
	}
	if by != "" && by != "device" {
		return fmt.Errorf("--by %q: want device", by)
	}
	return nil
}

// writeRunsTable lists the runs, one line each, and says on stderr when
// --limit cut the list.
func writeRunsTable(cmd *cobra.Command, path string, runs []store.Summary, limit int) error {
	if err := store.WriteSummaries(cmd.OutOrStdout(), path, runs); err != nil {
		return err
	}
	if limit > 0 && len(runs) == limit {
		fmt.Fprintf(cmd.ErrOrStderr(), "showing the %d most recent: --limit 0 for all\n", limit)
	}
	return nil
}
