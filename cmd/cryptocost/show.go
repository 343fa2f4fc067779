package main

import (
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newShowCmd) }

func newShowCmd() *cobra.Command {
	var (
		db     dbFlag
		format string
	)
	cmd := &cobra.Command{
		Use:     "show RUN",
		Short:   "Show a stored run: where it came from, then its results",
		Long:    helpLong("show"),
		Example: helpExamples("show"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := result.FormatByName(format)
			if err != nil {
				return err
			}
			st, err := db.openExisting(cmd.Context())
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
			return f.Write(out, got.Run)
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(result.FormatNames(), ", "))
	db.register(cmd)
	return cmd
}
