package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Fast tier: the command tree, without running anything.

// walk calls fn on every command of the tree but cobra's own (help,
// completion).
func walk(c *cobra.Command, fn func(*cobra.Command)) {
	for _, sub := range c.Commands() {
		if sub.Name() == "help" || sub.Name() == "completion" || sub.Hidden {
			continue
		}
		fn(sub)
		walk(sub, fn)
	}
}

// TestEveryCommandHasExamples: every command's help shows how to use it.
func TestEveryCommandHasExamples(t *testing.T) {
	walk(newRoot(), func(c *cobra.Command) {
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no Examples section", c.CommandPath())
		}
	})
}

// TestEveryGroupRejectsUnknownCommands: a group (a command with
// subcommands) given a subcommand it does not have fails, in every group.
func TestEveryGroupRejectsUnknownCommands(t *testing.T) {
	groups := 0
	walk(newRoot(), func(c *cobra.Command) {
		if !c.HasSubCommands() {
			return
		}
		groups++
		root := newRoot()
		var out strings.Builder
		root.SetOut(&out)
		root.SetErr(&out)
		args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "cryptocost ")), "nosuch")
		root.SetArgs(args)
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), `unknown command "nosuch" for "`+c.CommandPath()+`"`) {
			t.Errorf("%s nosuch: %v, want an unknown-command error", c.CommandPath(), err)
		}
	})
	if groups < 5 {
		t.Errorf("only %d groups found", groups)
	}
}
