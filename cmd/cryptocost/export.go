package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/cryptocost/cryptocost/internal/atomicfile"

	"github.com/cryptocost/cryptocost/store"

	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newExportCmd) }

func newExportCmd() *cobra.Command {
	var (
		db      dbFlag
		outputs outputFlags
		all     bool
		since   string
	)
	cmd := &cobra.Command{
		Use:     "export RUN...|--all|--since WHEN",
		Short:   "Write stored runs as JSON, CSV, the Go benchmark format or a table",
		Long:    helpLong("export"),
		Example: helpExamples("export"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := outputs.resolve(cmd)
			if err != nil {
				return err
			}
			selecting := all || since != ""
			if selecting == (len(args) > 0) {
				return fmt.Errorf("give the runs to export (RUN..., or latest), or --all, or --since DATE|AGE: one of them")
			}
			if selecting {
				t, err := parseWhen(since, time.Now(), false)
				if err != nil {
					return fmt.Errorf("--since: %w", err)
				}
				if args, err = storedIDs(cmd.Context(), &db, store.Filter{Since: t}); err != nil {
					return err
				}
				if len(args) == 0 {
					return fmt.Errorf("no runs to export: the store has none%s", map[bool]string{true: " since " + since}[since != ""])
				}
			}
			loaded, err := loadRuns(cmd.Context(), &db, args, false)
			if err != nil {
				return err
			}
			runs := make([]*result.Run, len(loaded))
			for i, l := range loaded {
				runs[i] = l.run
			}
			if outputs.out == "" {
				return f.Write(cmd.OutOrStdout(), runs...)
			}
			return atomicfile.Write(outputs.out, func(w io.Writer) error { return f.Write(w, runs...) })
		},
	}
	outputs.register(cmd)
	cmd.Flags().BoolVar(&all, "all", false, "export every stored run")
	cmd.Flags().StringVar(&since, "since", "", "export the runs started at or after this date, time or age (7d)")
	db.register(cmd)
	return cmd
}

// storedIDs lists the IDs of the stored runs f selects, oldest first.
func storedIDs(ctx context.Context, db *dbFlag, f store.Filter) ([]string, error) {
	st, err := db.openExisting(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	runs, err := st.List(ctx, f)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	slices.Reverse(ids)
	return ids, nil
}
