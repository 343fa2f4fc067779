package main

import (
	"errors"
	"strings"

	"github.com/cryptocost/cryptocost/bench"
	"github.com/cryptocost/cryptocost/compare"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newCompareCmd) }

// compareFlags are compare's flags: the request's values, --format and
// -o, and the store the runs are read from.
type compareFlags struct {
	db     dbFlag
	output outputFlags
	req    compare.Request
}

func newCompareCmd() *cobra.Command {
	c := compareFlags{req: compare.Request{Baseline: bench.IsBaseline}}
	cmd := &cobra.Command{
		Use:     "compare RUN_A RUN_B [RUN...] | compare --by-provider RUN",
		Short:   "Compare runs subject by subject, like benchstat",
		Long:    helpLong("compare"),
		Example: helpExamples("compare"),
		Args: func(cmd *cobra.Command, args []string) error {
			if c.req.ByProvider {
				return cobra.ExactArgs(1)(cmd, args)
			}
			return cobra.MinimumNArgs(2)(cmd, args)
		},
		RunE: c.run,
	}
	fl := cmd.Flags()
	fl.StringVar(&c.output.format, "format", "table", "output format: "+strings.Join(compare.FormatNames(), ", "))
	fl.StringVarP(&c.output.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
	fl.StringSliceVar(&c.req.Metrics, "metric", nil, "compare only these metrics (time, throughput, cycles, energy, …)")
	fl.Float64Var(&c.req.Alpha, "alpha", 0.05, "significance level of the Mann–Whitney test; the change's interval is at 1 − alpha")
	fl.BoolVar(&c.req.IgnoreProvider, "ignore-provider", false, "match subjects without their provider (AES@go/… with AES@circl/…)")
	fl.BoolVar(&c.req.ByProvider, "by-provider", false, "one RUN, one column per provider: each algorithm's Go implementation, then every other provider relative to it")
	fl.BoolVar(&c.req.FailOnRegression, "fail-on-regression", false, "exit with status 3 when a metric is significantly worse than in the first run (for CI)")
	fl.StringVar(&c.req.Threshold, "threshold", "0%", "with --fail-on-regression: the change a regression must exceed, such as 5%")
	c.db.register(cmd)
	return cmd
}

// run is compare: the runs (or one run's providers) subject by subject,
// with --fail-on-regression's exit status.
func (c *compareFlags) run(cmd *cobra.Command, args []string) error {
	c.req.Format, c.req.Output = c.output.name(cmd), c.output.out
	c.req.ThresholdGiven = cmd.Flags().Changed("threshold")
	if err := c.req.Check(); err != nil {
		return err
	}
	loaded, err := loadRuns(cmd.Context(), &c.db, args, true)
	if err != nil {
		return err
	}
	inputs := make([]compare.Input, len(loaded))
	for i, l := range loaded {
		inputs[i] = compare.Input{Run: l.run, Subjects: l.pattern, Origin: l.origin}
	}
	err = c.req.Run(cmd.OutOrStdout(), cmd.ErrOrStderr(), inputs)
	var regressed *compare.RegressionFailure
	if errors.As(err, &regressed) {
		return &statusError{exitRegression, err}
	}
	return err
}
