package main

import (
	"io"

	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newExportCmd) }

func newExportCmd() *cobra.Command {
	var (
		db      dbFlag
		outputs outputFlags
	)
	cmd := &cobra.Command{
		Use:   "export RUN...",
		Short: "Write stored runs as JSON, CSV, the Go benchmark format or a table",
		Long: `Write runs from the results store in any output format: json (the full model
with raw samples, what cryptocost import reads), csv (long format), gobench
(for benchstat) or table. RUN is a run ID, a unique prefix or "latest".`,
		Example: `  cryptocost export latest --format json -o run.json
  cryptocost export 20261201T1000 --format csv -o run.csv
  cryptocost export 20261201T1000 20261202T0900 --format gobench > both.txt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := outputs.resolve(cmd)
			if err != nil {
				return err
			}
			loaded, err := loadRuns(cmd.Context(), &db, args, false)
			if err != nil {
				return err
			}
			runs := make([]*result.Run, len(loaded))
			for i, l := range loaded {
				runs[i] = l.run
			}
			if outputs.out == "" {
				return f.Write(cmd.OutOrStdout(), runs...)
			}
			return writeFileAtomic(outputs.out, func(w io.Writer) error { return f.Write(w, runs...) })
		},
	}
	outputs.register(cmd)
	db.register(cmd)
	return cmd
}
