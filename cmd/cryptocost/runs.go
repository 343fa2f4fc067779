package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newRunsCmd) }

// listRuns is runs: the stored runs (or the fleet's devices, --by
// device) as a table or JSON; no store yet is an empty list.
func listRuns(cmd *cobra.Command, db *dbFlag, f store.Filter, format, by string) error {
	st, err := db.openExisting(cmd.Context())
	var none *noStoreError
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
	if len(devs) == 0 {
		fmt.Fprintf(out, "no runs match in %s\n", st.Path())
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tRUNS\tMACHINES\tHOSTS\tKINDS\tPLATFORMS\tFIRST\tLAST")
	for _, d := range devs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", d.Device, d.Runs, d.Machines, strings.Join(d.Hosts, ","),
			strings.Join(d.Kinds, ","), strings.Join(d.Platforms, ","), d.First.UTC().Format("2006-01-02 15:04Z"),
			d.Last.UTC().Format("2006-01-02 15:04Z"))
	}
	return tw.Flush()
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

// parseWhen reads a date, an RFC 3339 time or an age ("7d", "36h")
// before now. A bare date used as an upper bound means the end of that
// day.
func parseWhen(s string, now time.Time, endOfDay bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if endOfDay {
			t = t.Add(24 * time.Hour)
		}
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	age := s
	days := 0.0
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if _, err := fmt.Sscanf(n, "%g", &days); err == nil && days >= 0 {
			return now.Add(-time.Duration(days * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(age); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2026-12-01), a time (2026-12-01T10:00:00Z) or an age (36h, 7d)", s)
}

// checkRunsFlags reads runs' filter flags into f, before the store is
// opened.
func checkRunsFlags(f *store.Filter, since, until, format, by string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("unknown format %q for runs: want table or json", format)
	}
	var err error
	now := time.Now()
	if f.Since, err = parseWhen(since, now, false); err != nil {
		return fmt.Errorf("--since: %w", err)
	}
	if f.Until, err = parseWhen(until, now, true); err != nil {
		return fmt.Errorf("--until: %w", err)
	}
	switch f.Origin {
	case "", store.Local, store.Imported:
	default:
		return fmt.Errorf("--origin %q: want local or imported", f.Origin)
	}
	if f.Limit < 0 {
		return fmt.Errorf("--limit %d: want a number of runs, or 0 for all", f.Limit)
	}
	if by != "" && by != "device" {
		return fmt.Errorf("--by %q: want device", by)
	}
	return nil
}

// writeRunsTable lists the runs, one line each.
func writeRunsTable(cmd *cobra.Command, path string, runs []store.Summary, limit int) error {
	out := cmd.OutOrStdout()
	if len(runs) == 0 {
		fmt.Fprintf(out, "no runs match in %s\n", path)
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tKIND\tSTATUS\tSTARTED\tHOST\tDEVICE\tPLATFORM\tRESULTS\tORIGIN\tTAGS")
	for _, r := range runs {
		// The words --origin filters on: local (made by this
		// cryptocost's commands) or imported.
		origin := store.Local
		if r.Origin.Kind == store.Imported {
			origin = store.Imported
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s/%s\t%d\t%s\t%s\n", r.ID, r.Kind, r.Status,
			r.Started.UTC().Format("2006-01-02 15:04Z"), r.Hostname, r.Device, r.GOOS, r.GOARCH, r.Results,
			origin, strings.Join(r.Tags, ","))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if limit > 0 && len(runs) == limit {
		fmt.Fprintf(cmd.ErrOrStderr(), "showing the %d most recent: --limit 0 for all\n", limit)
	}
	return nil
}
