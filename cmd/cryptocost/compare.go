package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
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

// parsePercent reads "5%", "5" or "0.5%" as a fraction (0.05), refusing
// negative values.
func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a percentage of 0 or more, such as 5%%")
	}
	return v / 100, nil
}

// compareRuns is compare: the runs (or one run's providers) subject by subject, with --fail-on-regression's exit status.
func compareRuns(cmd *cobra.Command, args []string, db *dbFlag, format, out string, metrics []string, alpha float64, ignoreProvider, byProvider, failOnRegr bool, threshold string) error {
	f, err := compare.FormatByName((&outputFlags{format: format, out: out}).name(cmd))
	if err != nil {
		return err
	}
	if alpha <= 0 || alpha >= 1 {
		return fmt.Errorf("--alpha %v: want a level between 0 and 1, such as 0.05", alpha)
	}
	limit, err := parsePercent(threshold)
	if err != nil {
		return fmt.Errorf("--threshold %q: %v", threshold, err)
	}
	if cmd.Flags().Changed("threshold") && !failOnRegr {
		return fmt.Errorf("--threshold needs --fail-on-regression: it is the change a regression must exceed")
	}
	loaded, err := loadRuns(cmd.Context(), db, args, true)
	if err != nil {
		return err
	}
	inputs := make([]compare.Input, len(loaded))
	for i, l := range loaded {
		inputs[i] = compare.Input{Run: l.run, Subjects: l.pattern, Origin: l.origin}
	}
	if byProvider {
		if inputs, err = compare.ByProvider(loaded[0].run, loaded[0].origin, bench.IsBaseline); err != nil {
			return err
		}
		ignoreProvider = true
	}
	c, err := compare.Compare(inputs, compare.Options{Alpha: alpha, Metrics: metrics, IgnoreProvider: ignoreProvider})
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
	if !failOnRegr {
		return nil
	}
	return regressions(c, limit, threshold, alpha)
}

// regressions is --fail-on-regression's exit status: 3 when a change for
// the worse is significant and beyond the threshold, each one listed.
func regressions(c *compare.Comparison, limit float64, threshold string, alpha float64) error {
	regs := c.Regressions(limit)
	if len(regs) == 0 {
		return nil
	}
	var lines []string
	for _, r := range regs {
		lines = append(lines, r.String())
	}
	return &statusError{exitRegression, fmt.Errorf("%d regressions beyond %s (p < %g):\n  %s", len(regs), threshold, alpha, strings.Join(lines, "\n  "))}
}
