package main

import (
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newShowCmd) }

// showFlags are show's flags.
type showFlags struct {
	db     dbFlag
	format string
}

func newShowCmd() *cobra.Command {
	var sf showFlags
	cmd := &cobra.Command{
		Use:     "show RUN",
		Short:   "Show a stored run: where it came from, then its results",
		Long:    helpLong("show"),
		Example: helpExamples("show"),
		Args:    cobra.ExactArgs(1),
		RunE:    sf.run,
	}
	cmd.Flags().StringVar(&sf.format, "format", "table", "output format: "+strings.Join(result.FormatNames(), ", "))
	sf.db.register(cmd)
	return cmd
}

// run is show: the run's header (for a table), then its results
// (store.Show).
func (sf *showFlags) run(cmd *cobra.Command, args []string) error {
	f, err := result.FormatByName(sf.format)
	if err != nil {
		return err
	}
	return store.Show(cmd.Context(), sf.db.path, args[0], f, cmd.OutOrStdout())
}
