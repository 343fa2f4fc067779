package main

import (
	"context"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/energy/meter"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/mcu"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/store"
	"github.com/cryptocost/cryptocost/tlslab"
	"github.com/spf13/cobra"
)

// Shell completion of the values people type most: algorithms, devices,
// links, radios, models, scenarios (the scenario group's subcommands,
// which cobra completes itself), run IDs and run kinds (`cryptocost completion bash|zsh|fish`
// installs the script; cobra's __complete does the work). Registered over
// the whole tree after it is built, by flag name and command, so a
// command's own file only declares its flags.

type completer func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective)

// fixed completes from a list of names.
func fixed(names func() []string) completer {
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

// list completes comma-separated values (--algo a,b,…): the part after
// the last comma, each candidate keeping what comes before.
func list(names func() []string) completer {
	one := fixed(names)
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

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// runIDs completes stored run IDs (and "latest") from the store --db
// names, without creating one; files complete too, since every RUN may
// be a run JSON file.
func runIDs(cmd *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	db := dbFlag{}
	if f := cmd.Flags().Lookup("db"); f != nil {
		db.path = f.Value.String()
	}
	out := []string{}
	if strings.HasPrefix("latest", prefix) {
		out = append(out, "latest")
	}
	st, err := db.openExisting(context.Background())
	if err != nil {
		return out, cobra.ShellCompDirectiveDefault
	}
	defer st.Close()
	runs, err := st.List(context.Background(), store.Filter{Limit: 200})
	if err != nil {
		return out, cobra.ShellCompDirectiveDefault
	}
	for _, r := range runs {
		if strings.HasPrefix(r.ID, prefix) {
			out = append(out, r.ID)
		}
	}
	return out, cobra.ShellCompDirectiveDefault
}

// runKinds completes --kind from the kinds of the runs stored (bench,
// tls, scenario, ...).
func runKinds(cmd *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	db := dbFlag{}
	if f := cmd.Flags().Lookup("db"); f != nil {
		db.path = f.Value.String()
	}
	st, err := db.openExisting(context.Background())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	defer st.Close()
	runs, err := st.List(context.Background(), store.Filter{})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var kinds []string
	for _, r := range runs {
		if strings.HasPrefix(r.Kind, prefix) {
			kinds = append(kinds, r.Kind)
		}
	}
	return dedupe(kinds), cobra.ShellCompDirectiveNoFileComp
}

// meterNames: energy measure's --meter is a live meter, energy trace's a
// trace export layout.
func meterNames(cmd *cobra.Command) func() []string {
	if cmd.CommandPath() == "cryptocost energy measure" {
		return meter.Names
	}
	return meter.TraceFormatNames
}

// flagValues are the registries each value flag completes from, by flag
// name: the names come from the plug-in kind's own package.
var flagValues = map[string]func(*cobra.Command) func() []string{
	"algo":   registryNames(scheme.Names),
	"device": registryNames(device.Names),
	"radio":  registryNames(radio.Names),
	"link":   registryNames(link.Names),
	"costs":  registryNames(model.CostTableNames),
	"kernel": registryNames(mcu.KernelNames),
	"preset": registryNames(tlslab.PresetNames),
	"meter":  meterNames,
}

func registryNames(names func() []string) func(*cobra.Command) func() []string {
	return func(*cobra.Command) func() []string { return names }
}

// argValues complete a command's arguments, by its path.
var argValues = map[string]completer{
	"cryptocost show":          runIDs,
	"cryptocost export":        runIDs,
	"cryptocost compare":       runIDs,
	"cryptocost report":        runIDs,
	"cryptocost plot":          runIDs,
	"cryptocost runs tag":      onlyFirst(runIDs),
	"cryptocost runs untag":    onlyFirst(runIDs),
	"cryptocost runs delete":   runIDs,
	"cryptocost model show":    withFiles(fixed(func() []string { return append(model.BuiltinNames(), model.CostTableNames()...) })),
	"cryptocost model eval":    withFiles(fixed(model.BuiltinNames)),
	"cryptocost model sweep":   withFiles(fixed(model.BuiltinNames)),
	"cryptocost model compare": withFiles(fixed(model.BuiltinNames)),
	"cryptocost devices show":  fixed(device.Names),
	"cryptocost radio show":    fixed(radio.Names),
}

// registerCompletions walks the tree and registers the completers: a
// flag's values by its name (a flag that takes a list completes each
// comma-separated value), a command's arguments by its path.
func registerCompletions(cmd *cobra.Command) {
	for name, names := range flagValues {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			continue
		}
		complete := fixed(names(cmd))
		if strings.HasSuffix(f.Value.Type(), "Slice") || strings.HasSuffix(f.Value.Type(), "Array") {
			complete = list(names(cmd))
		}
		_ = cmd.RegisterFlagCompletionFunc(name, complete)
	}
	if cmd.Flags().Lookup("kind") != nil && cmd.Flags().Lookup("db") != nil {
		_ = cmd.RegisterFlagCompletionFunc("kind", runKinds)
	}
	if a, ok := argValues[cmd.CommandPath()]; ok && cmd.ValidArgsFunction == nil {
		cmd.ValidArgsFunction = a
	}
	for _, sub := range cmd.Commands() {
		registerCompletions(sub)
	}
}

// onlyFirst completes the first argument (runs tag RUN TAG...: then tags).
func onlyFirst(c completer) completer {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return c(cmd, args, prefix)
	}
}

// withFiles lets a model argument be a YAML file too.
func withFiles(c completer) completer {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		vals, _ := c(cmd, args, prefix)
		return vals, cobra.ShellCompDirectiveDefault
	}
}
