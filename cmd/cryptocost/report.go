package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/atomicfile"

	"github.com/cryptocost/cryptocost/report"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newReportCmd) }

func newReportCmd() *cobra.Command {
	var (
		db         dbFlag
		out, title string
		fleet      bool
		since      string
	)
	cmd := &cobra.Command{
		Use:     "report RUN...",
		Short:   "Write one self-contained HTML report with figures and tables",
		Long:    helpLong("report"),
		Example: helpExamples("report"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && !fleet {
				return fmt.Errorf("give the runs to report (RUN..., latest or run JSON files), or --fleet")
			}
			if out == "" {
				return fmt.Errorf("give the report file with -o, such as -o report.html")
			}
			if !strings.HasSuffix(strings.ToLower(out), ".html") && !strings.HasSuffix(strings.ToLower(out), ".htm") {
				return fmt.Errorf("-o %s: the report is HTML; name the file .html", out)
			}
			loaded, err := loadRuns(cmd.Context(), &db, args, false)
			if err != nil {
				return err
			}
			runs := make([]*result.Run, len(loaded))
			origins := map[string]string{}
			for i, l := range loaded {
				runs[i] = l.run
				if l.origin != "" {
					origins[l.run.ID] = l.origin
				}
			}
			opt := report.Options{Title: title, Origins: origins, Tool: tool().Version}
			if fleet {
				if opt.Fleet, err = fleetMatrix(cmd, &db, since); err != nil {
					return err
				}
			}
			if err := atomicfile.Write(out, func(w io.Writer) error { return report.WriteHTML(w, runs, opt) }); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the HTML `FILE` to write (required)")
	cmd.Flags().StringVar(&title, "title", "", "the report's title")
	cmd.Flags().BoolVar(&fleet, "fleet", false, "add the store's device × algorithm × operation matrix")
	cmd.Flags().StringVar(&since, "since", "", "with --fleet: only runs started at or after this date, time or age (7d)")
	db.register(cmd)
	return cmd
}

// fleetMatrix reads the store's fleet matrix for the report.
func fleetMatrix(cmd *cobra.Command, db *dbFlag, since string) (*report.Fleet, error) {
	t, err := parseWhen(since, time.Now(), false)
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
