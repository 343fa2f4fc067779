package main

import (
	"github.com/cryptocost/cryptocost/internal/listing"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newListCmd) }

// newListCmd is list: the schemes its filters select, or the providers
// (listing.Request).
func newListCmd() *cobra.Command {
	var req listing.Request
	cmd := &cobra.Command{
		Use:     "list [NAME-OR-GLOB...]",
		Short:   "List algorithms, parameters, security levels and providers",
		Long:    helpLong("list"),
		Example: helpExamples("list"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Globs = args
			return req.Write(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringSliceVar(&req.Families, "family", nil, "only these families: hash, mac, block, stream, aead, pke, sign, kex, rng")
	cmd.Flags().StringVar(&req.Security, "security", "", "security bits: 128 (exactly), 112+ (at least), 80-128 (range)")
	cmd.Flags().StringSliceVar(&req.Providers, "provider", nil, "only these providers (names or globs): go, x/crypto, circl, openssl, sodium, mbedtls, wolfssl, gcrypt, '*' (default: the Go providers)")
	cmd.Flags().BoolVar(&req.ListProviders, "providers", false, "list the providers instead: which C libraries are compiled in and loaded, and why others are not")
	cmd.Flags().BoolVar(&req.NoLegacy, "no-legacy", false, "leave out legacy (broken or deprecated) schemes")
	cmd.Flags().StringVar(&req.Format, "format", "table", "output format: table or json")
	cmd.Flags().BoolVar(&req.Wide, "wide", false, "add the wide columns: parameters, sizes, operations and why a scheme is legacy")
	return cmd
}
