package main

import (
	"fmt"
	"io"

	"github.com/cryptocost/cryptocost/bench"
	"github.com/cryptocost/cryptocost/internal/listing"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newListCmd) }

func newListCmd() *cobra.Command {
	var (
		families         []string
		security, format string
		providers        []string
		listProviders    bool
		noLegacy         bool
		wide             bool
	)
	cmd := &cobra.Command{
		Use:     "list [NAME-OR-GLOB...]",
		Short:   "List algorithms, parameters, security levels and providers",
		Long:    helpLong("list"),
		Example: helpExamples("list"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if listProviders {
				return listing.WriteProviders(cmd.OutOrStdout(), format)
			}
			f, err := listFilter(args, families, security, providers, noLegacy)
			if err != nil {
				return err
			}
			ss, err := listing.Select(f)
			if err != nil {
				return err
			}
			if len(ss) == 0 {
				return fmt.Errorf("no algorithm matches these filters")
			}
			return writeListing(cmd.OutOrStdout(), format, ss, wide)
		},
	}
	cmd.Flags().StringSliceVar(&families, "family", nil, "only these families: hash, mac, block, stream, aead, pke, sign, kex, rng")
	cmd.Flags().StringVar(&security, "security", "", "security bits: 128 (exactly), 112+ (at least), 80-128 (range)")
	cmd.Flags().StringSliceVar(&providers, "provider", nil, "only these providers (names or globs): go, x/crypto, circl, openssl, sodium, mbedtls, wolfssl, gcrypt, '*' (default: the Go providers)")
	cmd.Flags().BoolVar(&listProviders, "providers", false, "list the providers instead: which C libraries are compiled in and loaded, and why others are not")
	cmd.Flags().BoolVar(&noLegacy, "no-legacy", false, "leave out legacy (broken or deprecated) schemes")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	cmd.Flags().BoolVar(&wide, "wide", false, "add the wide columns: parameters, sizes, operations and why a scheme is legacy")
	return cmd
}

// listFilter is list's selection: the globs (each must match a scheme),
// families, security range, providers and --no-legacy.
func listFilter(args, families []string, security string, providers []string, noLegacy bool) (listing.Filter, error) {
	f := listing.Filter{Globs: args, Providers: providers, NoLegacy: noLegacy}
	for _, name := range families {
		fam, err := scheme.ParseFamily(name)
		if err != nil {
			return f, err
		}
		f.Families = append(f.Families, fam)
	}
	sec, err := bench.ParseSecurity(security)
	if err != nil {
		return f, err
	}
	f.MinBits, f.MaxBits = sec.Min, sec.Max
	for _, a := range args {
		if _, err := scheme.Match(a); err != nil {
			return f, err
		}
	}
	return f, nil
}

// writeListing writes the schemes listed as a table or JSON.
func writeListing(w io.Writer, format string, ss []scheme.Scheme, wide bool) error {
	switch format {
	case "table":
		return listing.WriteTable(w, ss, wide)
	case "json":
		return listing.WriteJSON(w, ss)
	}
	return fmt.Errorf("unknown format %q for list: want table or json", format)
}
