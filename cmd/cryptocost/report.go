package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/atomicfile"

	"github.com/cryptocost/cryptocost/report"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newReportCmd) }

// reportFlags are report's flags.
type reportFlags struct {
	db         dbFlag
	out, title string
	fleet      bool
	since      string
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
	cmd.Flags().StringVarP(&r.out, "output", "o", "", "the HTML `FILE` to write (required)")
	cmd.Flags().StringVar(&r.title, "title", "", "the report's title")
	cmd.Flags().BoolVar(&r.fleet, "fleet", false, "add the store's device × algorithm × operation matrix")
	cmd.Flags().StringVar(&r.since, "since", "", "with --fleet: only runs started at or after this date, time or age (7d)")
	r.db.register(cmd)
	return cmd
}

// check refuses a report without runs or without an HTML file to write.
func (r *reportFlags) check(args []string) error {
	if len(args) == 0 && !r.fleet {
		return fmt.Errorf("give the runs to report (RUN..., latest or run JSON files), or --fleet")
	}
	if r.out == "" {
		return fmt.Errorf("give the report file with -o, such as -o report.html")
	}
	if !strings.HasSuffix(strings.ToLower(r.out), ".html") && !strings.HasSuffix(strings.ToLower(r.out), ".htm") {
		return fmt.Errorf("-o %s: the report is HTML; name the file .html", r.out)
	}
	return nil
}

// run is report: the runs (and --fleet's matrix) as one HTML file.
func (r *reportFlags) run(cmd *cobra.Command, args []string) error {
	if err := r.check(args); err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), &r.db, args, false)
	if err != nil {
		return err
	}
	origins := map[string]string{}
	for _, l := range loaded {
		if l.origin != "" {
			origins[l.run.ID] = l.origin
		}
	}
	opt := report.Options{Title: r.title, Origins: origins, Tool: tool().Version}
	if r.fleet {
		if opt.Fleet, err = fleetMatrix(cmd, &r.db, r.since); err != nil {
			return err
		}
	}
	runs := loadedRuns(loaded)
	if err := atomicfile.Write(r.out, func(w io.Writer) error { return report.WriteHTML(w, runs, opt) }); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", r.out)
	return nil
}

// fleetMatrix reads the store's fleet matrix for the report.
func fleetMatrix(cmd *cobra.Command, db *dbFlag, since string) (*report.Fleet, error) {
	t, err := store.ParseWhen(since, time.Now(), false)
	if err != nil {
		return nil, fmt.Errorf("--since: %w", err)
	}
	st, err := db.openExisting(cmd.Context())
	if err != nil {
		return nil, err
	}
	defer st.Close()
	cells, err := st.Matrix(cmd.Context(), store.Filter{Since: t})
	if err != nil {
		return nil, err
	}
	f := &report.Fleet{Source: st.Path()}
	if since != "" {
		f.Source += ", runs since " + since
	}
	for _, c := range cells {
		f.Cells = append(f.Cells, report.FleetCell(c))
	}
	return f, nil
}
