package main

import (
	"fmt"

	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPushCmd) }

// pushFlags are push's flags.
type pushFlags struct {
	db   dbFlag
	tags []string
}

func newPushCmd() *cobra.Command {
	var p pushFlags
	cmd := &cobra.Command{
		Use:     "push --db postgres://USER@HOST/DB FILE...|DIR...",
		Short:   "Send runs written to files (-o) to a results store, typically a lab's shared one",
		Long:    helpLong("push"),
		Example: helpExamples("push"),
		Args:    cobra.MinimumNArgs(1),
		RunE:    p.run,
	}
	cmd.Flags().StringSliceVar(&p.tags, "tag", nil, "tag the pushed runs")
	p.db.register(cmd)
	return cmd
}

// run is push: each file's runs imported into the store, tagged.
func (p *pushFlags) run(cmd *cobra.Command, args []string) error {
	files, err := store.RunFiles(args)
	if err != nil {
		return err
	}
	st, err := p.db.open(cmd.Context())
	if err != nil {
		return err
	}
	defer st.Close()
	out, pushed, stored := cmd.OutOrStdout(), 0, 0
	failed := st.ImportFiles(cmd.Context(), files, p.tags, func(o store.FileOutcome) {
		if o.Err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "cryptocost: %v\n", o.Err)
			return
		}
		for _, r := range o.Runs {
			if r.AlreadyStored {
				stored++
				fmt.Fprintf(out, "%s: run %s is already in the store\n", o.File, r.ID)
			} else {
				pushed++
				fmt.Fprintf(out, "%s: pushed run %s (%d results)\n", o.File, r.ID, r.Results)
			}
		}
	})
	fmt.Fprintf(cmd.ErrOrStderr(), "pushed %d runs to %s (%d already there)\n", pushed, st.Path(), stored)
	if failed > 0 {
		return fmt.Errorf("%d of %d files not pushed (above)", failed, len(files))
	}
	return nil
}
