package main

import (
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/tlslab"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newTLSCmd) }

// tlsFlags are tls's flags: the request they bind, and the command's own.
type tlsFlags struct {
	req            tlslab.Request
	list, messages bool
	ef             energyFlags
	r              runner
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
				return tlslab.WriteList(cmd.OutOrStdout())
			}
			return t.r.execute(cmd, job{
				check:  func() error { return t.check(cmd) },
				energy: &t.ef,
				run:    t.req.Run,
				table:  tlslab.TableFormat{Options: tlslab.TableOptions{Messages: t.messages}},
				noun:   "cells measured",
			})
		},
	}
	t.register(cmd)
	return cmd
}

// register declares tls's flags.
func (t *tlsFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&t.req.Preset, "preset", "", "a named matrix: "+strings.Join(tlslab.PresetNames(), ", ")+" (other flags override its dimensions)")
	f.StringSliceVar(&t.req.Versions, "version", nil, "TLS versions: 1.0, 1.2, 1.3 (default 1.3)")
	f.StringSliceVar(&t.req.KeyExchanges, "kex", nil, "key exchange: rsa, dhe, ecdhe-p256, x25519, x25519mlkem768 (default x25519)")
	f.StringSliceVar(&t.req.Bulks, "bulk", nil, "bulk cipher: aes128-cbc-sha, aes256-cbc-sha, aes128-gcm, aes256-gcm, chacha20-poly1305 (default aes128-gcm)")
	f.StringSliceVar(&t.req.Certs, "cert", nil, "server certificate key: rsa1024, rsa2048, rsa3072, rsa4096, ecdsa-p256, ecdsa-p384, ed25519 (default ecdsa-p256)")
	f.IntSliceVar(&t.req.Chains, "chain", nil, "certificates the server sends, 1 to 3 (default 2)")
	f.StringSliceVar(&t.req.ClientAuth, "client-auth", nil, "client authentication: off, on, or off,on (default off)")
	f.StringSliceVar(&t.req.Resumptions, "resumption", nil, "none, session-id, ticket (TLS ≤ 1.2), psk, psk-ke (TLS 1.3; psk-ke: --server openssl) (default none)")
	f.StringSliceVar(&t.req.Transfers, "transfer", nil, "application data after the handshake, e.g. 1k,10k,50k,100k,500k,1m,5m (k = 1024; default none)")
	f.StringVar(&t.req.Direction, "direction", "down", "transfer direction: down (server → client) or up")
	f.BoolVar(&t.req.Plain, "plain", false, "also run each transfer over plain TCP (the baseline)")
	f.StringVar(&t.req.Server, "server", "go", "server implementation: go or openssl")
	f.StringVar(&t.req.Client, "client", "go", "client implementation: go or openssl")
	f.StringVar(&t.req.Link, "link", "none", "emulated link: none, "+strings.Join(link.Names(), ", ")+", or latency=..,rate=..,loss=..,mtu=..")
	f.IntVar(&t.req.Options.Repeat, "repeat", 3, "measured connections per cell")
	f.BoolVar(&t.req.Quick, "quick", false, "one connection per cell (unless --repeat)")
	f.DurationVar(&t.req.Options.Timeout, "timeout", 2*time.Minute, "bound on each connection (plus what a transfer needs at the link's rate)")
	f.Uint64Var(&t.req.Options.Seed, "seed", 1, "seed of the link's loss pattern")
	f.BoolVar(&t.req.Options.NoTap, "no-tap", false, "timing only: no wire tap (no bytes, packets, message times or radio energy; CPU and the client's handshake time stay)")
	f.StringVar(&t.req.Pcap, "pcap", "", "save every measured connection as pcapng in `DIR`")
	t.ef.register(cmd)
	t.ef.registerRadio(cmd)
	f.BoolVar(&t.messages, "messages", false, "print every cell's message-by-message table (default: runs of up to 4 cells)")
	f.BoolVar(&t.req.SkipImpossible, "skip-impossible", false, "run the possible cells of a matrix and skip the others")
	f.BoolVar(&t.list, "list", false, "list presets, links and peers, then exit")
	f.BoolVarP(&t.r.quiet, "quiet", "q", false, "no progress bar or notes on stderr")
	t.r.register(cmd)
}

// check resolves the request before any work; the link it names is the
// one the run is priced on.
func (t *tlsFlags) check(cmd *cobra.Command) error {
	t.req.Given = cmd.Flags().Changed
	t.req.Priced = t.ef.enabled()
	t.req.Quiet = t.r.quiet
	t.req.Log = cmd.ErrOrStderr()
	if err := t.req.Check(); err != nil {
		return err
	}
	t.ef.sel.Link = t.req.Options.Link
	return nil
}
