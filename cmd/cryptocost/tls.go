package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/tlslab"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newTLSCmd) }

// tlsFlags are tls's flags.
type tlsFlags struct {
	preset, linkName, direction, pcapDir, server, client         string
	versions, kexes, bulks, certs, auths, resumptions, transfers []string
	chains                                                       []int
	plain, quick, list, messages, skipImpossible                 bool
	opts                                                         tlslab.Options
	ef                                                           energyFlags
	r                                                            runner
	cells                                                        []tlslab.Cell
}

func newTLSCmd() *cobra.Command {
	var t tlsFlags
	cmd := &cobra.Command{
		Use:     "tls",
		Short:   "What a TLS connection costs, message by message: bytes, packets, round trips, time, CPU",
		Long:    strings.Replace(helpLong("tls"), "{links}", strings.Join(link.Names(), ", "), 1),
		Example: helpExamples("tls"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if t.list {
				return tlsList(cmd)
			}
			return t.r.execute(cmd, job{
				check:  func() error { return t.check(cmd) },
				energy: &t.ef,
				run:    func(ctx context.Context) (*result.Run, error) { return t.run(ctx, cmd) },
				table:  tlsTables{tlslab.TableOptions{Messages: t.messages}},
				noun:   "cells measured",
			})
		},
	}
	t.register(cmd)
	return cmd
}

// dims is the matrix the flags give: a preset or the default, each
// dimension a flag names replaced.
// register declares tls's flags.
func (t *tlsFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&t.preset, "preset", "", "a named matrix: "+strings.Join(tlslab.PresetNames(), ", ")+" (other flags override its dimensions)")
	f.StringSliceVar(&t.versions, "version", nil, "TLS versions: 1.0, 1.2, 1.3 (default 1.3)")
	f.StringSliceVar(&t.kexes, "kex", nil, "key exchange: rsa, dhe, ecdhe-p256, x25519, x25519mlkem768 (default x25519)")
	f.StringSliceVar(&t.bulks, "bulk", nil, "bulk cipher: aes128-cbc-sha, aes256-cbc-sha, aes128-gcm, aes256-gcm, chacha20-poly1305 (default aes128-gcm)")
	f.StringSliceVar(&t.certs, "cert", nil, "server certificate key: rsa1024, rsa2048, rsa3072, rsa4096, ecdsa-p256, ecdsa-p384, ed25519 (default ecdsa-p256)")
	f.IntSliceVar(&t.chains, "chain", nil, "certificates the server sends, 1 to 3 (default 2)")
	f.StringSliceVar(&t.auths, "client-auth", nil, "client authentication: off, on, or off,on (default off)")
	f.StringSliceVar(&t.resumptions, "resumption", nil, "none, session-id, ticket (TLS ≤ 1.2), psk, psk-ke (TLS 1.3; psk-ke: --server openssl) (default none)")
	f.StringSliceVar(&t.transfers, "transfer", nil, "application data after the handshake, e.g. 1k,10k,50k,100k,500k,1m,5m (k = 1024; default none)")
	f.StringVar(&t.direction, "direction", "down", "transfer direction: down (server → client) or up")
	f.BoolVar(&t.plain, "plain", false, "also run each transfer over plain TCP (the baseline)")
	f.StringVar(&t.server, "server", "go", "server implementation: go or openssl")
	f.StringVar(&t.client, "client", "go", "client implementation: go or openssl")
	f.StringVar(&t.linkName, "link", "none", "emulated link: none, "+strings.Join(link.Names(), ", ")+", or latency=..,rate=..,loss=..,mtu=..")
	f.IntVar(&t.opts.Repeat, "repeat", 3, "measured connections per cell")
	f.BoolVar(&t.quick, "quick", false, "one connection per cell (unless --repeat)")
	f.DurationVar(&t.opts.Timeout, "timeout", 2*time.Minute, "bound on each connection (plus what a transfer needs at the link's rate)")
	f.Uint64Var(&t.opts.Seed, "seed", 1, "seed of the link's loss pattern")
	f.BoolVar(&t.opts.NoTap, "no-tap", false, "timing only: no wire tap (no bytes, packets, message times or radio energy; CPU and the client's handshake time stay)")
	f.StringVar(&t.pcapDir, "pcap", "", "save every measured connection as pcapng in `DIR`")
	t.ef.register(cmd)
	t.ef.registerRadio(cmd)
	f.BoolVar(&t.messages, "messages", false, "print every cell's message-by-message table (default: runs of up to 4 cells)")
	f.BoolVar(&t.skipImpossible, "skip-impossible", false, "run the possible cells of a matrix and skip the others")
	f.BoolVar(&t.list, "list", false, "list presets, links and peers, then exit")
	f.BoolVarP(&t.r.quiet, "quiet", "q", false, "no progress bar or notes on stderr")
	t.r.register(cmd)
}

func (t *tlsFlags) dims(cmd *cobra.Command) (tlslab.Dimensions, error) {
	dims := tlslab.DefaultDimensions()
	if t.preset != "" {
		p, err := tlslab.PresetByName(t.preset)
		if err != nil {
			return dims, err
		}
		dims = p.Dimensions
	}
	f := cmd.Flags()
	set := func(name string, apply func()) {
		if f.Changed(name) {
			apply()
		}
	}
	set("version", func() { dims.Versions = asValues[tlslab.Version](t.versions) })
	set("kex", func() { dims.KeyExchanges = asValues[tlslab.KeyExchange](t.kexes) })
	set("bulk", func() { dims.Bulks = asValues[tlslab.Bulk](t.bulks) })
	set("cert", func() { dims.Certs = asValues[tlslab.CertKind](t.certs) })
	set("chain", func() { dims.Chains = t.chains })
	set("resumption", func() { dims.Resumptions = asValues[tlslab.Resumption](t.resumptions) })
	set("direction", func() { dims.Direction = tlslab.Direction(t.direction) })
	set("server", func() { dims.Server = t.server })
	set("client", func() { dims.Client = t.client })
	set("plain", func() { dims.Plain = t.plain })
	var err error
	if f.Changed("client-auth") {
		if dims.ClientAuth, err = tlslab.ParseClientAuth(t.auths); err != nil {
			return dims, err
		}
	}
	if f.Changed("transfer") {
		if dims.Transfers, err = catalog.ParseSizes(t.transfers); err != nil {
			return dims, fmt.Errorf("--transfer: %w", err)
		}
	}
	return dims, dims.Check()
}

// check resolves the matrix, the link and the options before any work.
func (t *tlsFlags) check(cmd *cobra.Command) error {
	dims, err := t.dims(cmd)
	if err != nil {
		return err
	}
	var skipped int
	if t.cells, skipped, err = dims.Possible(t.skipImpossible); err != nil {
		return err
	}
	if skipped > 0 && !t.r.quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "skipping %d impossible cells (--skip-impossible)\n", skipped)
	}
	if t.linkName != "" && !strings.EqualFold(t.linkName, "none") && !strings.EqualFold(t.linkName, "loopback") {
		p, err := link.Lookup(t.linkName)
		if err != nil {
			return fmt.Errorf("--link: %w", err)
		}
		t.opts.Link = &p
	}
	switch {
	case t.opts.NoTap && t.pcapDir != "":
		return fmt.Errorf("--pcap saves what the wire tap records, and --no-tap turns it off: drop one")
	case t.opts.NoTap && t.ef.enabled():
		return fmt.Errorf("--device prices the traffic and the handshake the wire tap records, and --no-tap turns it off: drop one")
	}
	if t.quick && !cmd.Flags().Changed("repeat") {
		t.opts.Repeat = 1
	}
	if t.opts.Repeat < 1 || t.opts.Repeat > 1000 {
		return fmt.Errorf("--repeat %d: want 1 to 1000 connections per cell", t.opts.Repeat)
	}
	t.ef.link = t.opts.Link
	return nil
}

// run measures the matrix and saves the pcapng files.
func (t *tlsFlags) run(ctx context.Context, cmd *cobra.Command) (*result.Run, error) {
	lab, err := tlslab.New(t.opts)
	if err != nil {
		return nil, err
	}
	defer lab.Close()
	bar := progress.New("tls", t.r.quiet)
	bar.Begin(len(t.cells))
	run, runs := lab.RunMatrix(ctx, t.cells, func(done, total int, c tlslab.Cell) { bar.Step(done, c.Name()) })
	bar.End()
	if t.pcapDir != "" {
		paths, err := tlslab.SavePcaps(t.pcapDir, runs, lab.LinkName())
		if err != nil {
			return run, err
		}
		if !t.r.quiet {
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %d pcapng files to %s\n", len(paths), t.pcapDir)
		}
	}
	return run, nil
}

// tlsTables writes a TLS run as the lab's study-shaped tables.
type tlsTables struct{ opt tlslab.TableOptions }

func (tlsTables) Name() string        { return "table" }
func (tlsTables) Description() string { return "the TLS lab's tables" }
func (t tlsTables) Write(w io.Writer, runs ...*result.Run) error {
	for _, r := range runs {
		if err := tlslab.WriteTables(w, r, t.opt); err != nil {
			return err
		}
	}
	return nil
}

func asValues[T ~string](in []string) []T {
	out := make([]T, len(in))
	for i, s := range in {
		out[i] = T(strings.ToLower(strings.TrimSpace(s)))
	}
	return out
}

func tlsList(cmd *cobra.Command) error {
	w := cmd.OutOrStdout()
	fmt.Fprintln(w, "Presets:")
	for _, p := range tlslab.Presets {
		fmt.Fprintf(w, "  %-18s %d cells: %s\n", p.Name, len(p.Dimensions.Cells()), p.Description)
	}
	fmt.Fprintln(w, "\nLinks (--link):")
	fmt.Fprintln(w, "  none               loopback, no emulation (the default)")
	for _, p := range link.Profiles() {
		fmt.Fprintf(w, "  %-18s %s\n", p.Name, p.Description)
		for _, s := range p.Sources() {
			fmt.Fprintf(w, "  %-18s   %s\n", "", s)
		}
	}
	fmt.Fprintln(w, "\nPeers (--server, --client):")
	for _, p := range tlslab.Peers() {
		fmt.Fprintf(w, "  %-18s %s\n", p.Name(), p.Description())
	}
	return nil
}
