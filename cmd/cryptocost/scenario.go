package main

import (
	"fmt"

	"github.com/cryptocost/cryptocost/link"
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
		RunE:    func(cmd *cobra.Command, _ []string) error { return scenario.WriteList(cmd.OutOrStdout()) },
	})
	for _, s := range scenario.All() {
		cmd.AddCommand(newScenarioRunCmd(s))
	}
	return cmd
}

// scenarioFlags are the common flags of `cryptocost scenario NAME`.
type scenarioFlags struct {
	req scenario.Request
	ef  energyFlags
	r   runner
}

// newScenarioRunCmd is `cryptocost scenario NAME`: the scenario's own flags
// plus the common ones.
func newScenarioRunCmd(s scenario.Scenario) *cobra.Command {
	f := &scenarioFlags{req: scenario.Request{Scenario: s}}
	cmd := &cobra.Command{
		Use:     s.Name(),
		Short:   s.Summary(),
		Args:    cobra.NoArgs,
		Example: scenario.Examples(s),
		RunE:    func(cmd *cobra.Command, _ []string) error { return f.execute(cmd) },
	}
	f.register(cmd)
	return cmd
}

// register declares the scenario's own flags and the common ones.
func (f *scenarioFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	f.req.Scenario.Flags(fl)
	fl.StringVar(&f.req.Link, "link", "", "emulated link between the parties: "+fmt.Sprint(link.Names())+" (default: loopback, no emulation)")
	f.ef.registerScenario(cmd)
	fl.BoolVar(&f.req.Quick, "quick", false, "a run of seconds: fewer repetitions")
	fl.BoolVarP(&f.r.quiet, "quiet", "q", false, "no progress notes on stderr")
	f.r.register(cmd)
}

// execute runs the scenario through the runner, with its own table if it
// has one.
func (f *scenarioFlags) execute(cmd *cobra.Command) error {
	return f.r.execute(cmd, job{
		check:  func() error { return f.check(cmd) },
		energy: &f.ef,
		run:    f.req.Run,
		table:  scenario.TableFormat(f.req.Scenario),
		failed: "scenario " + f.req.Scenario.Name() + " failed",
	})
}

// check sets up the scenario's environment (scenario.Request.Check) and
// takes what its own flags say about pricing (its default device, an
// assumed speed, --on-device) and its link.
func (f *scenarioFlags) check(cmd *cobra.Command) error {
	f.req.Log = cmd.ErrOrStderr()
	f.req.Quiet = f.r.quiet
	if err := f.req.Check(); err != nil {
		return err
	}
	if pr, ok := f.req.Scenario.(scenario.Priced); ok {
		f.ef.fromScenario(pr.Pricing())
	}
	f.ef.sel.Link = f.req.Env.Link
	return nil
}
