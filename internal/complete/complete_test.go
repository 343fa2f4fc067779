package complete

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func names() []string { return []string{"SHA-256", "SHA-512", "Ed25519"} }

// TestFixedAndList complete a value from names, ignoring case, and each
// comma-separated value of a list. Tier: fast.
func TestFixedAndList(t *testing.T) {
	for _, c := range []struct {
		f      Func
		prefix string
		want   string
		dir    cobra.ShellCompDirective
	}{
		{Fixed(names), "sha", "SHA-256,SHA-512", cobra.ShellCompDirectiveNoFileComp},
		{Fixed(names), "x", "", cobra.ShellCompDirectiveNoFileComp},
		{List(names), "SHA-256,ed", "SHA-256,Ed25519", cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{OnlyFirst(Fixed(names)), "E", "Ed25519", cobra.ShellCompDirectiveNoFileComp},
		{WithFiles(Fixed(names)), "E", "Ed25519", cobra.ShellCompDirectiveDefault},
	} {
		got, dir := c.f(&cobra.Command{}, nil, c.prefix)
		if strings.Join(got, ",") != c.want || dir != c.dir {
			t.Errorf("%q: %q, %v; want %q, %v", c.prefix, got, dir, c.want, c.dir)
		}
	}
	if got, dir := OnlyFirst(Fixed(names))(&cobra.Command{}, []string{"RUN"}, ""); got != nil || dir != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("a second argument: %q, %v", got, dir)
	}
}

// TestRegister registers values by flag name (a list flag per value),
// Through completers only where the flag they read is, and arguments by
// the command's path. Tier: fast.
func TestRegister(t *testing.T) {
	root := &cobra.Command{Use: "tool"}
	runs := &cobra.Command{Use: "runs", Run: func(*cobra.Command, []string) {}}
	runs.Flags().String("kind", "", "")
	runs.Flags().String("db", "here.db", "")
	runs.Flags().StringSlice("algo", nil, "")
	bench := &cobra.Command{Use: "bench", Run: func(*cobra.Command, []string) {}}
	bench.Flags().String("kind", "", "")
	bench.Flags().String("algo", "", "")
	root.AddCommand(runs, bench)
	read := ""
	Table{
		Values: map[string]func(*cobra.Command) func() []string{"algo": func(*cobra.Command) func() []string { return names }},
		Through: map[string]Through{"kind": {Flag: "db", Directive: cobra.ShellCompDirectiveNoFileComp,
			Values: func(_ context.Context, db, prefix string) []string { read = db; return []string{prefix + "ench"} }}},
		Args: map[string]Func{"tool bench": Fixed(names)},
	}.Register(root)
	for _, c := range []struct {
		cmd                *cobra.Command
		flag, prefix, want string
	}{
		{runs, "algo", "SHA-256,SHA-", "SHA-256,SHA-256,SHA-256,SHA-512"},
		{bench, "algo", "SHA-", "SHA-256,SHA-512"},
		{runs, "kind", "b", "bench"},
	} {
		f, ok := c.cmd.GetFlagCompletionFunc(c.flag)
		if !ok {
			t.Errorf("%s --%s: no completion", c.cmd.Name(), c.flag)
			continue
		}
		if got, _ := f(c.cmd, nil, c.prefix); strings.Join(got, ",") != c.want {
			t.Errorf("%s --%s %q: %q, want %q", c.cmd.Name(), c.flag, c.prefix, got, c.want)
		}
	}
	if read != "here.db" {
		t.Errorf("Through read --db %q, want here.db", read)
	}
	if _, ok := bench.GetFlagCompletionFunc("kind"); ok {
		t.Error("bench --kind completes though bench has no --db")
	}
	if bench.ValidArgsFunction == nil || runs.ValidArgsFunction != nil {
		t.Error("arguments completed on the wrong command")
	}
}
