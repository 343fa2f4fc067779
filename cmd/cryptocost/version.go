package main

import (
	"fmt"
	"runtime"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

// version is the release; the commit comes from the build or the checkout.
const version = "v0.1.0-dev"

const module = "github.com/cryptocost/cryptocost"

func tool() result.Tool {
	return result.Tool{Name: "cryptocost", Version: version, Commit: measure.GitCommit(module)}
}

func init() { commands = append(commands, newVersionCmd) }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print cryptocost's version, commit and Go toolchain",
		Example: "  cryptocost version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return nil
		},
	}
}

// versionLine is what `cryptocost version` and `cryptocost --version` print.
func versionLine() string {
	t := tool()
	commit := t.Commit
	if commit == "" {
		commit = "unknown commit"
	}
	return fmt.Sprintf("cryptocost %s (%s) %s %s/%s", t.Version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
