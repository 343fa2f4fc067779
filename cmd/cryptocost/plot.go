package main

import (
	"github.com/cryptocost/cryptocost/report"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPlotCmd) }

// plotFlags are plot's flags: the request's values and the store the runs
// are read from.
type plotFlags struct {
	db  dbFlag
	req report.PlotRequest
}

func newPlotCmd() *cobra.Command {
	var p plotFlags
	cmd := &cobra.Command{
		Use:     "plot RUN... --chart CHART -o FILE.svg|FILE.png",
		Short:   "Write a report's chart as SVG or PNG, for papers",
		Long:    helpLong("plot"),
		Example: helpExamples("plot"),
		Args:    cobra.MinimumNArgs(1),
		RunE:    p.run,
	}
	cmd.Flags().StringVar(&p.req.Chart, "chart", "", "the chart ID or builder name (see --list)")
	cmd.Flags().StringVarP(&p.req.Output, "output", "o", "", "the image `FILE` (or directory, for several charts)")
	cmd.Flags().StringVar(&p.req.Format, "format", "", "svg or png (default: from the file extension, else svg)")
	cmd.Flags().BoolVar(&p.req.List, "list", false, "list the charts these runs hold data for")
	p.db.register(cmd)
	return cmd
}

// run is plot: the runs' charts listed, or the chosen ones written.
func (p *plotFlags) run(cmd *cobra.Command, args []string) error {
	if err := p.req.Check(); err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), &p.db, args, false)
	if err != nil {
		return err
	}
	return p.req.Run(cmd.OutOrStdout(), cmd.ErrOrStderr(), loadedRuns(loaded))
}
