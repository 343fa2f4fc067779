package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/bench"
	"github.com/cryptocost/cryptocost/compare"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newCompareCmd) }

func newCompareCmd() *cobra.Command {
	var (
		db             dbFlag
		format, out    string
		metrics        []string
		alpha          float64
		ignoreProvider bool
		byProvider     bool
		failOnRegr     bool
		threshold      string
	)
	cmd := &cobra.Command{
		Use:     "compare RUN_A RUN_B [RUN...] | compare --by-provider RUN",
		Short:   "Compare runs subject by subject, like benchstat",
		Long:    helpLong("compare"),
		Example: helpExamples("compare"),
		Args: func(cmd *cobra.Command, args []string) error {
			if byProvider {
				return cobra.ExactArgs(1)(cmd, args)
			}
			return cobra.MinimumNArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return compareRuns(cmd, args, &db, format, out, metrics, alpha, ignoreProvider, byProvider, failOnRegr, threshold)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "table", "output format: "+strings.Join(compare.FormatNames(), ", "))
	fl.StringVarP(&out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
	fl.StringSliceVar(&metrics, "metric", nil, "compare only these metrics (time, throughput, cycles, energy, …)")
	fl.Float64Var(&alpha, "alpha", 0.05, "significance level of the Mann–Whitney test; the change's interval is at 1 − alpha")
	fl.BoolVar(&ignoreProvider, "ignore-provider", false, "match subjects without their provider (AES@go/… with AES@circl/…)")
	fl.BoolVar(&byProvider, "by-provider", false, "one RUN, one column per provider: each algorithm's Go implementation, then every other provider relative to it")
	fl.BoolVar(&failOnRegr, "fail-on-regression", false, "exit with status 3 when a metric is significantly worse than in the first run (for CI)")
	fl.StringVar(&threshold, "threshold", "0%", "with --fail-on-regression: the change a regression must exceed, such as 5%")
	db.register(cmd)
	return cmd
}

// compareRuns is compare: the runs (or one run's providers) subject by subject, with --fail-on-regression's exit status.
func compareRuns(cmd *cobra.Command, args []string, db *dbFlag, format, out string, metrics []string, alpha float64, ignoreProvider, byProvider, failOnRegr bool, threshold string) error {
	f, err := compare.FormatByName((&outputFlags{format: format, out: out}).name(cmd))
	if err != nil {
		return err
	}
	if err := compare.CheckAlpha(alpha); err != nil {
		return err
	}
	limit, err := compare.ParseThreshold(threshold)
	if err != nil {
		return err
	}
	if cmd.Flags().Changed("threshold") && !failOnRegr {
		return fmt.Errorf("--threshold needs --fail-on-regression: it is the change a regression must exceed")
	}
	inputs, err := compareInputs(cmd, db, args, byProvider)
	if err != nil {
		return err
	}
	c, err := compare.Compare(inputs, compare.Options{Alpha: alpha, Metrics: metrics, IgnoreProvider: ignoreProvider || byProvider})
	if err != nil {
		return err
	}
	if err := writeOut(cmd, out, func(w io.Writer) error { return f.Write(w, c) }); err != nil {
		return err
	}
	if out != "" || f.Name() != "table" {
		// The table prints them; other outputs may not be read by eye.
		for _, w := range c.Warnings {
			fmt.Fprintln(cmd.ErrOrStderr(), "cryptocost: warning:", w)
		}
	}
	if err := c.RegressionError(limit, threshold, alpha); failOnRegr && err != nil {
		return &statusError{exitRegression, err}
	}
	return nil
}

// compareInputs loads the runs compared, or one run's providers
// (--by-provider, each beside its Go baseline).
func compareInputs(cmd *cobra.Command, db *dbFlag, args []string, byProvider bool) ([]compare.Input, error) {
	loaded, err := loadRuns(cmd.Context(), db, args, true)
	if err != nil {
		return nil, err
	}
	if byProvider {
		return compare.ByProvider(loaded[0].run, loaded[0].origin, bench.IsBaseline)
	}
	inputs := make([]compare.Input, len(loaded))
	for i, l := range loaded {
		inputs[i] = compare.Input{Run: l.run, Subjects: l.pattern, Origin: l.origin}
	}
	return inputs, nil
}
