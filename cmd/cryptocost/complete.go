package main

import (
	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/energy/meter"
	"github.com/cryptocost/cryptocost/internal/complete"
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
// command's own file only declares its flags; the completers are
// internal/complete's.

// runIDs completes stored run IDs (and "latest") from the store --db
// names, without creating one; files complete too, since every RUN may
// be a run JSON file.
var runIDs = complete.Through{Flag: "db", Values: store.CompleteIDs, Directive: cobra.ShellCompDirectiveDefault}.Complete

// runKinds completes --kind from the kinds of the runs stored (bench,
// tls, scenario, ...).
var runKinds = complete.Through{Flag: "db", Values: store.CompleteKinds, Directive: cobra.ShellCompDirectiveNoFileComp}

// meterNames: energy measure's --meter is a live meter, energy trace's a
// trace export layout.
func meterNames(cmd *cobra.Command) func() []string {
	if cmd.CommandPath() == "cryptocost energy measure" {
		return meter.Names
	}
	return meter.TraceFormatNames
}

// completions are the registries each value flag completes from, by flag
// name (the names come from the plug-in kind's own package), and each
// command's arguments, by its path.
var completions = complete.Table{
	Values: map[string]func(*cobra.Command) func() []string{
		"algo":   registryNames(scheme.Names),
		"device": registryNames(device.Names),
		"radio":  registryNames(radio.Names),
		"link":   registryNames(link.Names),
		"costs":  registryNames(model.CostTableNames),
		"kernel": registryNames(mcu.KernelNames),
		"preset": registryNames(tlslab.PresetNames),
		"meter":  meterNames,
	},
	Through: map[string]complete.Through{"kind": runKinds},
	Args: map[string]complete.Func{
		"cryptocost show":          runIDs,
		"cryptocost export":        runIDs,
		"cryptocost compare":       runIDs,
		"cryptocost report":        runIDs,
		"cryptocost plot":          runIDs,
		"cryptocost runs tag":      complete.OnlyFirst(runIDs),
		"cryptocost runs untag":    complete.OnlyFirst(runIDs),
		"cryptocost runs delete":   runIDs,
		"cryptocost model show":    complete.WithFiles(complete.Fixed(modelAndCostNames)),
		"cryptocost model eval":    complete.WithFiles(complete.Fixed(model.BuiltinNames)),
		"cryptocost model sweep":   complete.WithFiles(complete.Fixed(model.BuiltinNames)),
		"cryptocost model compare": complete.WithFiles(complete.Fixed(model.BuiltinNames)),
		"cryptocost devices show":  complete.Fixed(device.Names),
		"cryptocost radio show":    complete.Fixed(radio.Names),
	},
}

func registryNames(names func() []string) func(*cobra.Command) func() []string {
	return func(*cobra.Command) func() []string { return names }
}

// modelAndCostNames are model show's arguments: a model or a cost table.
func modelAndCostNames() []string { return append(model.BuiltinNames(), model.CostTableNames()...) }

// registerCompletions registers the completers over the tree: a flag's
// values by its name (a flag that takes a list completes each
// comma-separated value), a command's arguments by its path.
func registerCompletions(cmd *cobra.Command) { completions.Register(cmd) }
