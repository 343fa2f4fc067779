package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newModelCmd) }

func newModelCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "model",
		Short:   "Analytic protocol cost models: evaluate, sweep, compare with crossovers",
		Long:    helpLong("model"),
		Example: helpExamples("model"),
	}
	cmd.AddCommand(newModelListCmd(), newModelShowCmd(), newModelEvalCmd(), newModelSweepCmd(), newModelCompareCmd())
	return cmd
}

// modelFlags are what every evaluating subcommand's shared flags bind
// beside its request's fields: the cost sources, and the runner's
// --format, -o and store flags.
type modelFlags struct {
	sources costing.ModelSources
	r       runner
}

// register declares the shared flags, bound to req, whose costs it opens
// from the cost sources.
func (f *modelFlags) register(cmd *cobra.Command, req *model.Request, vary bool, formats string) {
	fl := cmd.Flags()
	fl.StringSliceVar(&req.Set, "set", nil, "parameter values, NAME=VALUE[,NAME=VALUE...] (e.g. n=6,d=20)")
	if vary {
		fl.StringArrayVar(&req.Vary, "vary", nil, "sweep a parameter: NAME=LO..HI[:STEP], NAME=V1,V2,... or NAME (its study values); repeatable")
	}
	fl.StringSliceVar(&req.Variants, "variant", nil, "only these variants (default: all)")
	fl.StringVar(&f.sources.Costs, "costs", "", "cost table: a built-in name (telosb) or a YAML file (default: the model's)")
	fl.StringVar(&f.sources.Device, "device", "", "price operations on this device profile through the costing stage (cryptocost devices), as its runs are; the cost table only where it is the device's own")
	fl.StringVar(&f.sources.Radio, "radio", "", "price bits with a radio profile's per-bit costs (an 802.15.4 profile: cryptocost radio list) instead of the cost table's")
	fl.StringArrayVar(&f.sources.OpTimes, "op-times", nil, "price operations with the times of a bench run JSON (over the cost table); repeatable")
	fl.StringVar(&req.Inputs, "inputs", "", "read measured parameter values (TLS lab byte counts) from a run JSON")
	fl.StringVar(&f.r.outputs.format, "format", "table", "output format: "+formats)
	fl.StringVarP(&f.r.outputs.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
	f.r.saves.register(cmd)
	req.Costs = func(m *model.Model) (*model.Costs, error) { return costing.OpenModelCosts(m, f.sources) }
}

func newModelListCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the built-in models and cost tables",
		Example: "  cryptocost model list",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return model.WriteList(cmd.OutOrStdout()) },
	}
}

func newModelShowCmd() *cobra.Command {
	var yaml bool
	cmd := &cobra.Command{
		Use:     "show NAME|FILE",
		Short:   "Show a model or cost table: parameters, messages, operations, variants, sources",
		Example: helpExamples("model-show"),
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return model.Show(cmd.OutOrStdout(), args[0], yaml) },
	}
	cmd.Flags().BoolVar(&yaml, "yaml", false, "print the model's YAML source (a template for your own)")
	return cmd
}

func newModelEvalCmd() *cobra.Command {
	var (
		f modelFlags
		e model.EvalRequest
	)
	cmd := &cobra.Command{
		Use:     "eval NAME|FILE",
		Short:   "Evaluate a model at one point (each variant): bits, packets, time and energy per node",
		Example: helpExamples("model-eval"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e.Name, e.Log = args[0], cmd.ErrOrStderr()
			return f.r.execute(cmd, job{
				check: e.Check,
				run:   e.Run,
				table: e.Table(cmd.Context()),
				noun:  "points computed",
			})
		},
	}
	f.register(cmd, &e.Request, false, model.FormatHelp(""))
	cmd.Flags().BoolVar(&e.Detail, "detail", false, "show parameters, messages and operations of every variant (JSON: per-message and per-operation metrics)")
	cmd.Flags().BoolVar(&e.Breakdown, "breakdown", false, "JSON/CSV: add per-message and per-operation metrics")
	return cmd
}

func newModelSweepCmd() *cobra.Command {
	var (
		f modelFlags
		s model.SweepRequest
	)
	cmd := &cobra.Command{
		Use:     "sweep NAME|FILE --vary NAME=VALUES...",
		Short:   "Evaluate a model over a grid of parameter values",
		Long:    helpLong("model-sweep"),
		Example: helpExamples("model-sweep"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s.Name, s.Log = args[0], cmd.ErrOrStderr()
			return modelSweep(cmd, &f, &s)
		},
	}
	f.register(cmd, &s.Request, true, model.FormatHelp("wide-csv (one row per point, streamed)"))
	cmd.Flags().StringArrayVar(&s.Plots, "plot", nil, "plot an output against the first --vary: OUTPUT=FILE.png|.svg (e.g. energy=e.svg); repeatable")
	cmd.Flags().BoolVarP(&f.r.quiet, "quiet", "q", false, "no timing note on stderr")
	return cmd
}

func newModelCompareCmd() *cobra.Command {
	var (
		f modelFlags
		c model.CompareRequest
	)
	cmd := &cobra.Command{
		Use:     "compare A [B...] [--vary NAME=VALUES] [--measured RUN.json]",
		Short:   "Compare models along a parameter (crossovers in words, plots) or with measurements",
		Long:    helpLong("model-compare"),
		Example: helpExamples("model-compare"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c.Names, c.Log = args, cmd.ErrOrStderr()
			return f.r.execute(cmd, job{check: c.Check, run: c.Run, table: c.Table(), noun: "points computed"})
		},
	}
	f.register(cmd, &c.Request, true, model.FormatHelp(""))
	cmd.Flags().StringSliceVar(&c.Metrics, "metrics", []string{"energy", "time"}, "outputs to compare: "+strings.Join(model.OutputNames(), ", "))
	cmd.Flags().StringArrayVar(&c.Plots, "plot", nil, "plot an output against the first --vary: OUTPUT=FILE.png|.svg; repeatable")
	cmd.Flags().StringVar(&c.Measured, "measured", "", "compare with the measurements of a run JSON (or the built-in reference run s003)")
	return cmd
}

// modelSweep is model sweep: one model over the --vary grid, streamed to
// a table or a wide CSV, or held as a run through the runner.
func modelSweep(cmd *cobra.Command, f *modelFlags, s *model.SweepRequest) error {
	f.r.outputs.own = []result.Format{model.WideCSV{}}
	format, err := f.r.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	check := func() error { return s.Check(cmd.Context()) }
	timing := model.SweepTiming(cmd.ErrOrStderr(), f.r.quiet || f.r.outputs.out == "")
	if name := format.Name(); name == "table" || name == "wide-csv" {
		return streamSweep(cmd, f, s, name, check, timing)
	}
	return f.r.execute(cmd, job{
		check: check,
		run:   s.Run,
		files: func(_ *cobra.Command, run *result.Run) error {
			if run.Status != result.Interrupted {
				timing(s.Points())
			}
			return nil
		},
		noun: "points computed",
	})
}

// streamSweep streams a sweep's table or wide CSV, point by point, and
// saves the run it is saved as (SweepRequest.StreamedRun); a cancelled
// stream is exit status 130.
func streamSweep(cmd *cobra.Command, f *modelFlags, s *model.SweepRequest, format string, check func() error, timing func(int)) error {
	if err := f.r.saves.validate(); err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	err := writeOut(cmd, f.r.outputs.out, func(w io.Writer) error { return s.Stream(cmd.Context(), w, format) })
	if errors.Is(err, context.Canceled) {
		return &statusError{exitInterrupted, errors.New("interrupted: wrote the points computed so far")}
	} else if err != nil {
		return err
	}
	if !f.r.saves.noSave {
		if run := s.StreamedRun(cmd.Context(), format, f.r.quiet); run != nil {
			stamp(run)
			f.r.saves.save(cmd, run, f.r.quiet)
		}
	}
	timing(s.Written())
	return nil
}
