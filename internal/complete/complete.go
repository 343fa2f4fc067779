// Package complete holds the generic shell completers of cryptocost's
// commands (cobra's __complete calls them) and the walk that registers
// them over the command tree from a table: values from a list of names
// (each comma-separated value of a flag taking a list), values read
// through another flag (run IDs in the store --db names), arguments by
// the command's path. It is the one package outside cmd/ that imports
// cobra; the table, binding flags to each plug-in kind's registry, is
// cmd/cryptocost/complete.go.
package complete

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
)

// Func completes a flag's value or a command's argument.
type Func = cobra.CompletionFunc

// Fixed completes from a list of names.
func Fixed(names func() []string) Func {
	return func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, n := range names() {
			if strings.HasPrefix(strings.ToLower(n), strings.ToLower(prefix)) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// List completes comma-separated values (--algo a,b,…): the part after
// the last comma, each candidate keeping what comes before.
func List(names func() []string) Func {
	one := Fixed(names)
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		head, last := "", prefix
		if i := strings.LastIndexByte(prefix, ','); i >= 0 {
			head, last = prefix[:i+1], prefix[i+1:]
		}
		vals, dir := one(cmd, args, last)
		for i := range vals {
			vals[i] = head + vals[i]
		}
		return vals, dir | cobra.ShellCompDirectiveNoSpace
	}
}

// OnlyFirst completes the first argument (runs tag RUN TAG...: then tags).
func OnlyFirst(c Func) Func {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return c(cmd, args, prefix)
	}
}

// WithFiles lets the argument be a file too (a model's YAML file).
func WithFiles(c Func) Func {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		vals, _ := c(cmd, args, prefix)
		return vals, cobra.ShellCompDirectiveDefault
	}
}

// Through completes from what Values finds for the value of the
// command's flag Flag ("" when the command has none) and the prefix: the
// run IDs or kinds stored in the store --db names. Directive is the
// completion's directive.
type Through struct {
	Flag      string
	Values    func(ctx context.Context, flag, prefix string) []string
	Directive cobra.ShellCompDirective
}

// Complete is the completer.
func (t Through) Complete(cmd *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	value := ""
	if f := cmd.Flags().Lookup(t.Flag); f != nil {
		value = f.Value.String()
	}
	return t.Values(context.Background(), value, prefix), t.Directive
}

// Table binds flags and arguments to completers.
type Table struct {
	// Values complete a flag, by its name, from the names the command
	// chooses (energy measure's --meter and energy trace's differ); a
	// flag that takes a list completes each comma-separated value.
	Values map[string]func(*cobra.Command) func() []string
	// Through complete a flag, by its name, on the commands that also
	// have the flag it reads (runs --kind: the kinds in the store --db
	// names).
	Through map[string]Through
	// Args complete a command's arguments, by its path ("cryptocost
	// show"), unless the command completes them itself.
	Args map[string]Func
}

// Register walks the tree from cmd and registers t's completers on each
// command.
func (t Table) Register(cmd *cobra.Command) {
	for name, names := range t.Values {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			continue
		}
		complete := Fixed(names(cmd))
		if strings.HasSuffix(f.Value.Type(), "Slice") || strings.HasSuffix(f.Value.Type(), "Array") {
			complete = List(names(cmd))
		}
		_ = cmd.RegisterFlagCompletionFunc(name, complete)
	}
	for name, th := range t.Through {
		if cmd.Flags().Lookup(name) != nil && cmd.Flags().Lookup(th.Flag) != nil {
			_ = cmd.RegisterFlagCompletionFunc(name, th.Complete)
		}
	}
	if a, ok := t.Args[cmd.CommandPath()]; ok && cmd.ValidArgsFunction == nil {
		cmd.ValidArgsFunction = a
	}
	for _, sub := range cmd.Commands() {
		t.Register(sub)
	}
}
