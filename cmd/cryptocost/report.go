package main

import (
	"github.com/cryptocost/cryptocost/report"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newReportCmd) }

// reportFlags are report's flags: the request's values and the store the
// runs (and the fleet matrix) are read from.
type reportFlags struct {
	db  dbFlag
	req report.Request
}

func newReportCmd() *cobra.Command {
	var r reportFlags
	cmd := &cobra.Command{
		Use:     "report RUN...",
		Short:   "Write one self-contained HTML report with figures and tables",
		Long:    helpLong("report"),
		Example: helpExamples("report"),
		RunE:    r.run,
	}
	cmd.Flags().StringVarP(&r.req.Output, "output", "o", "", "the HTML `FILE` to write (required)")
	cmd.Flags().StringVar(&r.req.Title, "title", "", "the report's title")
	cmd.Flags().BoolVar(&r.req.Fleet, "fleet", false, "add the store's device × algorithm × operation matrix")
	cmd.Flags().StringVar(&r.req.Since, "since", "", "with --fleet: only runs started at or after this date, time or age (7d)")
	r.db.register(cmd)
	return cmd
}

// run is report: the runs (and --fleet's matrix) as one HTML file.
func (r *reportFlags) run(cmd *cobra.Command, args []string) error {
	r.req.Runs, r.req.Tool = args, tool().Version
	if err := r.req.Check(); err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), &r.db, args, false)
	if err != nil {
		return err
	}
	origins := make([]string, len(loaded))
	for i, l := range loaded {
		origins[i] = l.origin
	}
	var fleet *report.Fleet
	if r.req.Fleet {
		if fleet, err = fleetMatrix(cmd, &r.db, r.req.Since); err != nil {
			return err
		}
	}
	return r.req.Write(cmd.ErrOrStderr(), loadedRuns(loaded), origins, fleet)
}

// fleetMatrix reads the store's fleet matrix for the report.
func fleetMatrix(cmd *cobra.Command, db *dbFlag, since string) (*report.Fleet, error) {
	cells, source, err := store.ReadMatrix(cmd.Context(), db.path, since)
	if err != nil {
		return nil, err
	}
	f := &report.Fleet{Source: source}
	for _, c := range cells {
		f.Cells = append(f.Cells, report.FleetCell(c))
	}
	return f, nil
}
