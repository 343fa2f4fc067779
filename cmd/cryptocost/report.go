package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/report"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newReportCmd) }

func newReportCmd() *cobra.Command {
	var (
		db         dbFlag
		out, title string
	)
	cmd := &cobra.Command{
		Use:   "report RUN...",
		Short: "Write one self-contained HTML report with figures and tables",
		Long: `Write one HTML file that opens offline (no script, no network: figures are
inline SVG, the font is embedded) with the figures the runs hold data for —
throughput per algorithm and input size, signature cost by security level, key
generation distributions, handshake bytes by message, energy per connection by
component, overhead and throughput against transfer size, model sweeps, battery
life by algorithm and device — each with its caption and the provenance of its
numbers, then every result in a table with its label and method, and each run's
environment and method. docs/store-and-reports.md lists the data each figure needs.

Each RUN is a stored run ID, a unique prefix or "latest", or a run JSON file.`,
		Example: `  cryptocost report latest -o report.html
  cryptocost report 20261201T1000 board.json -o laptop-vs-board.html`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
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
			if err := writeFileAtomic(out, func(w io.Writer) error { return report.WriteHTML(w, runs, opt) }); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the HTML `FILE` to write (required)")
	cmd.Flags().StringVar(&title, "title", "", "the report's title")
	db.register(cmd)
	return cmd
}
