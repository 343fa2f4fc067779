package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/spf13/cobra"

	// The scenarios register themselves.
	_ "github.com/cryptocost/cryptocost/scenario/remotesign"
	_ "github.com/cryptocost/cryptocost/scenario/sensor"
	_ "github.com/cryptocost/cryptocost/scenario/timesync"
)

func init() { commands = append(commands, newScenarioCmd) }

func newScenarioCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "scenario NAME",
		Short:   "Run the seed systems as real workloads: remote signer, secure time sync, signed sensor readings",
		Long:    helpLong("scenario"),
		Example: helpExamples("scenario"),
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "list",
		Short:   "List the scenarios",
		Example: "  cryptocost scenario list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tWHAT")
			for _, s := range scenario.All() {
				fmt.Fprintf(tw, "%s\t%s\n", s.Name(), s.Summary())
			}
			return tw.Flush()
		},
	})
	for _, s := range scenario.All() {
		cmd.AddCommand(newScenarioRunCmd(s))
	}
	return cmd
}

// scenarioFlags are the common flags of `cryptocost scenario NAME`.
type scenarioFlags struct {
	s        scenario.Scenario
	linkName string
	ef       energyFlags
	quick    bool
	r        runner
	env      scenario.Env
}

// newScenarioRunCmd is `cryptocost scenario NAME`: the scenario's own flags
// plus the common ones.
func newScenarioRunCmd(s scenario.Scenario) *cobra.Command {
	f := &scenarioFlags{s: s}
	cmd := &cobra.Command{
		Use:     s.Name(),
		Short:   s.Summary(),
		Args:    cobra.NoArgs,
		Example: scenarioExamples(s),
		RunE:    func(cmd *cobra.Command, _ []string) error { return f.execute(cmd) },
	}
	f.register(cmd)
	return cmd
}

// scenarioExamples is a scenario's own examples, or a --quick run.
func scenarioExamples(s scenario.Scenario) string {
	if e, ok := s.(scenario.Exampler); ok {
		return e.Examples()
	}
	return "  cryptocost scenario " + s.Name() + " --quick"
}

// register declares the scenario's own flags and the common ones.
func (f *scenarioFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	f.s.Flags(fl)
	fl.StringVar(&f.linkName, "link", "", "emulated link between the parties: "+fmt.Sprint(link.Names())+" (default: loopback, no emulation)")
	f.ef.registerScenario(cmd)
	fl.BoolVar(&f.quick, "quick", false, "a run of seconds: fewer repetitions")
	fl.BoolVarP(&f.r.quiet, "quiet", "q", false, "no progress notes on stderr")
	f.r.register(cmd)
}

// execute runs the scenario through the runner, with its own table if it
// has one.
func (f *scenarioFlags) execute(cmd *cobra.Command) error {
	var table result.Format
	if tw, ok := f.s.(scenario.TableWriter); ok {
		table = scenarioTable{tw}
	}
	return f.r.execute(cmd, job{
		check: func() (err error) {
			f.env, err = scenarioEnv(cmd, f.s, &f.ef, f.linkName, f.quick, f.r.quiet)
			return err
		},
		energy: &f.ef,
		run:    func(ctx context.Context) (*result.Run, error) { return f.s.Run(ctx, f.env) },
		table:  table,
		failed: "scenario " + f.s.Name() + " failed",
	})
}

// scenarioEnv checks a scenario's flags and sets up its environment: the
// log, progress events, the link; and what the scenario's own flags say
// about pricing (its default device, an assumed speed, --on-device).
func scenarioEnv(cmd *cobra.Command, s scenario.Scenario, ef *energyFlags, linkName string, quick, quiet bool) (scenario.Env, error) {
	env := scenario.Env{Quick: quick, Log: cmd.ErrOrStderr()}
	if err := s.Validate(); err != nil {
		return env, err
	}
	if quiet {
		env.Log = io.Discard
	}
	env.Progress = progress.Events("scenario " + s.Name()) // notes on stderr: no bar
	if ev := progress.EventLog(); ev != nil {
		env.Log = io.MultiWriter(env.Log, ev) // notes are events too
	}
	if linkName != "" {
		p, err := link.Lookup(linkName)
		if err != nil {
			return env, fmt.Errorf("--link: %w", err)
		}
		env.Link = &p
	}
	if pr, ok := s.(scenario.Priced); ok {
		ef.fromScenario(pr.Pricing())
	}
	ef.link = env.Link
	return env, nil
}

// scenarioTable is the table format of a scenario with its own table.
type scenarioTable struct{ tw scenario.TableWriter }

func (scenarioTable) Name() string        { return "table" }
func (scenarioTable) Description() string { return "the scenario's own table" }
func (t scenarioTable) Write(w io.Writer, runs ...*result.Run) error {
	for i, run := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := t.tw.WriteTable(w, run); err != nil {
			return err
		}
	}
	return nil
}
