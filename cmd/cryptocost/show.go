package main

import (
	"fmt"
	"io"
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

// run is show: the run's header (for a table), then its results.
func (sf *showFlags) run(cmd *cobra.Command, args []string) error {
	f, err := result.FormatByName(sf.format)
	if err != nil {
		return err
	}
	st, err := sf.db.openExisting(cmd.Context())
	if err != nil {
		return err
	}
	defer st.Close()
	got, err := st.Get(cmd.Context(), args[0])
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.Name() == "table" {
		writeShowHeader(out, got)
	}
	return f.Write(out, got.Run)
}

// writeShowHeader writes where a stored run came from, above its table.
func writeShowHeader(out io.Writer, got *store.Stored) {
	origin := "made here"
	if got.Origin.Kind == store.Imported {
		origin = got.Origin.String()
	}
	fmt.Fprintf(out, "run %s · %s · %s · started %s · %s", got.ID, got.Kind, got.Status,
		got.Started.UTC().Format("2006-01-02 15:04:05Z"), origin)
	if len(got.Tags) > 0 {
		fmt.Fprintf(out, " · tags %s", strings.Join(got.Tags, ","))
	}
	fmt.Fprintln(out)
	if len(got.Run.Command) > 0 {
		fmt.Fprintf(out, "command: %s\n", strings.Join(got.Run.Command, " "))
	}
}
