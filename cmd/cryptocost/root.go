package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

// Exit statuses.
const (
	exitOK          = 0
	exitError       = 1   // bad input, a failed check, an unmeasurable subject
	exitRegression  = 3   // compare --fail-on-regression found a change for the worse
	exitInterrupted = 130 // Ctrl-C: what was measured has been written
)

// exitError carries a specific exit status through cobra.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// Main runs the command line and returns the exit status.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first Ctrl-C, let a second one kill the process.
		<-ctx.Done()
		stop()
	}()
	root := newRoot()
	// Runs record os.Args; a password typed in --db postgres://… must not
	// reach them. Cobra parses the real arguments.
	root.SetArgs(os.Args[1:])
	os.Args = store.RedactArgs(os.Args)
	root.SetContext(ctx)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(os.Stderr, "cryptocost:", err)
	var se *statusError
	if errors.As(err, &se) {
		return se.status
	}
	return exitError
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "cryptocost",
		Short:         "What cryptography costs on constrained devices: time, cycles, memory, bytes, energy",
		Long:          helpLong("root"),
		Example:       helpExamples("root"),
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version, as `cryptocost version` prints it.
		Version: version,
	}
	root.SetVersionTemplate("{{versionLine}}\n")
	root.Flags().Bool("version", false, "print cryptocost's version, commit and Go toolchain (as cryptocost version)")
	for _, c := range commands {
		root.AddCommand(c())
	}
	rejectUnknownSubcommands(root)
	registerCompletions(root)
	return root
}

// rejectUnknownSubcommands makes every group (a command with subcommands
// and nothing to run itself) fail on a subcommand it does not have, as
// the root does, instead of printing its help and exiting 0; run bare, a
// group still prints its help.
func rejectUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		if sub.HasSubCommands() && sub.Run == nil && sub.RunE == nil {
			sub.Args = cobra.NoArgs
			sub.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
		rejectUnknownSubcommands(sub)
	}
}

func init() { cobra.AddTemplateFunc("versionLine", versionLine) }

// commands are the subcommands, each added by an init function in its own
// file (list.go, bench.go, ...), so adding a command is adding a file.
var commands []func() *cobra.Command
