package main

import (
	"fmt"
	"io"
	"path/filepath"
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
	)
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B [RUN...] | compare --by-provider RUN",
		Short: "Compare runs subject by subject, like benchstat",
		Long: `Compare runs subject by subject (subjects match by name, which is stable across
runs, machines, devices and versions). For each metric: the median with its 95%
confidence interval in each run and, for each run after the first, its change
from the first — the relative difference of the medians, a distribution-free
95% confidence interval of that change (Hodges–Lehmann/Moses, the interval that
goes with the Mann–Whitney test) and the Mann–Whitney U test's p-value. "~"
means the difference is not significant at --alpha. Exact values (byte counts,
allocations, modelled figures) are compared exactly; non-measured values keep
their label in a footnote.

Each RUN is a stored run ID, a unique prefix or "latest", or a run JSON file.
RUN:PATTERN keeps only subjects matching the glob (* matches anything), so one
run can be compared with itself: with --ignore-provider, providers side by side.
--by-provider RUN does that for every provider in one run: the Go implementation
of each algorithm first, then one column per other provider (C libraries from
bench --provider go,openssl,...), each change its ratio to Go with a CI.`,
		Example: `  cryptocost compare 20261201T1000 latest
  cryptocost compare laptop.json board.json --metric time
  cryptocost compare latest:'*@go/*' latest:'*@circl/*' --ignore-provider
  cryptocost compare --by-provider latest
  cryptocost compare A B --format csv -o delta.csv
  cryptocost compare A B --format gobench > ab.txt   # benchstat -col cryptocost-run ab.txt`,
		Args: func(cmd *cobra.Command, args []string) error {
			if byProvider {
				return cobra.ExactArgs(1)(cmd, args)
			}
			return cobra.MinimumNArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			name := format
			if !cmd.Flags().Changed("format") && out != "" {
				switch strings.ToLower(filepath.Ext(out)) {
				case ".json":
					name = "json"
				case ".csv":
					name = "csv"
				}
			}
			f, err := compare.FormatByName(name)
			if err != nil {
				return err
			}
			if alpha <= 0 || alpha >= 1 {
				return fmt.Errorf("--alpha %v: want a level between 0 and 1, such as 0.05", alpha)
			}
			loaded, err := loadRuns(cmd.Context(), &db, args, true)
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
			if out == "" {
				return f.Write(cmd.OutOrStdout(), c)
			}
			return writeFileAtomic(out, func(w io.Writer) error { return f.Write(w, c) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "table", "output format: "+strings.Join(compare.FormatNames(), ", "))
	fl.StringVarP(&out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
	fl.StringSliceVar(&metrics, "metric", nil, "compare only these metrics (time, throughput, cycles, energy, …)")
	fl.Float64Var(&alpha, "alpha", 0.05, "significance level of the Mann–Whitney test; the change's interval is at 1 − alpha")
	fl.BoolVar(&ignoreProvider, "ignore-provider", false, "match subjects without their provider (AES@go/… with AES@circl/…)")
	fl.BoolVar(&byProvider, "by-provider", false, "one RUN, one column per provider: each algorithm's Go implementation, then every other provider relative to it")
	db.register(cmd)
	return cmd
}
