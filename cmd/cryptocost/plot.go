package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"

	"github.com/cryptocost/cryptocost/report"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPlotCmd) }

func newPlotCmd() *cobra.Command {
	var (
		db                 dbFlag
		chart, out, format string
		list               bool
	)
	cmd := &cobra.Command{
		Use:     "plot RUN... --chart CHART -o FILE.svg|FILE.png",
		Short:   "Write a report's chart as SVG or PNG, for papers",
		Long:    helpLong("plot"),
		Example: helpExamples("plot"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return plotCharts(cmd, args, &db, chart, out, format, list)
		},
	}
	cmd.Flags().StringVar(&chart, "chart", "", "the chart ID or builder name (see --list)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the image `FILE` (or directory, for several charts)")
	cmd.Flags().StringVar(&format, "format", "", "svg or png (default: from the file extension, else svg)")
	cmd.Flags().BoolVar(&list, "list", false, "list the charts these runs hold data for")
	db.register(cmd)
	return cmd
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir() || strings.HasSuffix(p, string(os.PathSeparator))
}

func writeChart(cmd *cobra.Command, c *report.Chart, path, format string) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return c.Render(w, format) }); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s (%s)\n", path, c.ID)
	return nil
}

// plotCharts is plot: the runs' charts listed, or the chosen ones written.
func plotCharts(cmd *cobra.Command, args []string, db *dbFlag, chart, out, format string, list bool) error {
	if !list {
		if chart == "" {
			return fmt.Errorf("name a chart with --chart (cryptocost plot RUN --list shows them)")
		}
		if out == "" {
			return fmt.Errorf("give the output with -o, such as -o %s.svg", chart)
		}
	}
	format, err := report.ImageFormat(format, out)
	if err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), db, args, false)
	if err != nil {
		return err
	}
	runs := make([]*result.Run, len(loaded))
	for i, l := range loaded {
		runs[i] = l.run
	}
	charts, absent, err := report.BuildAll(report.NewInput(runs...))
	if err != nil {
		return err
	}
	if list {
		return report.WriteChartList(cmd.OutOrStdout(), charts, absent)
	}
	return writeCharts(cmd, charts, chart, out, format)
}

// writeCharts writes the charts chart names: one to the file out, several
// into the directory out.
func writeCharts(cmd *cobra.Command, charts []*report.Chart, chart, out, format string) error {
	picked, err := report.Pick(charts, chart)
	if err != nil {
		return err
	}
	if len(picked) == 1 && !isDir(out) {
		return writeChart(cmd, picked[0], out, format)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("%q names %d charts, so -o must be a directory: %w", chart, len(picked), err)
	}
	for _, c := range picked {
		if err := writeChart(cmd, c, filepath.Join(out, c.ID+"."+format), format); err != nil {
			return err
		}
	}
	return nil
}
