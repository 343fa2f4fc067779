package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/tlslab"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newTLSCmd) }

func newTLSCmd() *cobra.Command {
	var (
		preset, linkName, direction, pcapDir, server, client         string
		ef                                                           energyFlags
		versions, kexes, bulks, certs, auths, resumptions, transfers []string
		chains                                                       []int
		plain, quick, quiet, list, messages, skipImpossible          bool
		opts                                                         tlslab.Options
		outputs                                                      outputFlags
		saves                                                        saveFlags
	)
	cmd := &cobra.Command{
		Use:   "tls",
		Short: "What a TLS connection costs, message by message: bytes, packets, round trips, time, CPU",
		Long: `Run real TLS handshakes and transfers between a client and a server that
cryptocost starts itself, through an in-process link emulator with a wire tap,
and report every byte by record type and handshake message, the packets and
round trips, the time of each step as the client sees it, CPU time of both
sides, throughput with and without TLS, and the overhead.

Each flag takes a comma-separated list; the matrix is their product. Cells
that cannot exist (RSA key transport in TLS 1.3, DHE with Go's crypto/tls,
...) are an error that lists what would work, unless --skip-impossible.

Peers: Go crypto/tls in process (default) or OpenSSL s_server / s_client
(--server openssl, --client openssl), the implementation with finite-field
DHE, session-ID resumption and configurable TLS 1.3 suites. --resumption
psk-ke (a TLS 1.3 PSK without (EC)DHE) runs against --server openssl with
--client go: crypto/tls makes the full handshake and the lab's own client
resumes its ticket offering psk_ke alone.

Links (--link): none (loopback, the default), ` + strings.Join(link.Names(), ", ") + `,
or a custom "latency=20ms,rate=10Mbit/s,loss=0.01,mtu=1500". TCP/IPv4 headers,
packets and ACKs are modelled (docs/tls.md); TLS bytes are exact and checked
against the kernel's socket counters on every connection.

--pcap DIR saves each connection as pcapng (Wireshark opens it; TLS 1.3 keys
embedded). --no-tap measures time and CPU only: without a link the client
then dials the server with nothing in between. --device prices each
connection's client work on a device (cryptocost devices) by component
(asymmetric, symmetric+MAC, hashing, I/O, radio) through the costing stage
(docs/energy.md); a part the device cannot price says "not priced" and why.

Ctrl-C writes what was measured so far and exits with status 130.`,
		Example: helpExamples("tls"),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if list {
				return tlsList(cmd)
			}
			if err := saves.validate(); err != nil {
				return err
			}
			format, err := outputs.resolve(cmd)
			if err != nil {
				return err
			}
			dims := tlslab.Dimensions{
				Versions: []tlslab.Version{tlslab.TLS13}, KeyExchanges: []tlslab.KeyExchange{tlslab.KexX25519},
				Bulks: []tlslab.Bulk{tlslab.BulkAES128GCM}, Certs: []tlslab.CertKind{tlslab.CertECDSAP256},
				Chains: []int{2}, ClientAuth: []bool{false}, Resumptions: []tlslab.Resumption{tlslab.ResumeNone},
				Direction: tlslab.Down, Server: "go", Client: "go",
			}
			if preset != "" {
				p, err := tlslab.PresetByName(preset)
				if err != nil {
					return err
				}
				dims = p.Dimensions
			}
			f := cmd.Flags()
			if f.Changed("version") {
				dims.Versions = asValues[tlslab.Version](versions)
			}
			if f.Changed("kex") {
				dims.KeyExchanges = asValues[tlslab.KeyExchange](kexes)
			}
			if f.Changed("bulk") {
				dims.Bulks = asValues[tlslab.Bulk](bulks)
			}
			if f.Changed("cert") {
				dims.Certs = asValues[tlslab.CertKind](certs)
			}
			if f.Changed("chain") {
				dims.Chains = chains
			}
			if f.Changed("resumption") {
				dims.Resumptions = asValues[tlslab.Resumption](resumptions)
			}
			if f.Changed("client-auth") {
				dims.ClientAuth = nil
				for _, a := range auths {
					switch strings.ToLower(a) {
					case "off", "false", "no":
						dims.ClientAuth = append(dims.ClientAuth, false)
					case "on", "true", "yes":
						dims.ClientAuth = append(dims.ClientAuth, true)
					default:
						return fmt.Errorf("--client-auth %q: want off, on or off,on", a)
					}
				}
			}
			if f.Changed("transfer") {
				dims.Transfers = nil
				for _, t := range transfers {
					n, err := scheme.ParseSize(t)
					if err != nil {
						return fmt.Errorf("--transfer: %w", err)
					}
					dims.Transfers = append(dims.Transfers, n)
				}
			}
			if f.Changed("direction") {
				dims.Direction = tlslab.Direction(direction)
			}
			if f.Changed("server") {
				dims.Server = server
			}
			if f.Changed("client") {
				dims.Client = client
			}
			if f.Changed("plain") {
				dims.Plain = plain
			}
			if err := checkDims(dims); err != nil {
				return err
			}
			cells := dims.Cells()
			var problems []string
			var ok []tlslab.Cell
			for _, c := range cells {
				if err := c.Validate(); err != nil {
					problems = append(problems, err.Error())
					continue
				}
				ok = append(ok, c)
			}
			if len(problems) > 0 && (!skipImpossible || len(ok) == 0) {
				msg := fmt.Sprintf("%d of %d cells are impossible:\n  %s", len(problems), len(cells), strings.Join(problems, "\n  "))
				if len(ok) > 0 {
					msg += "\n(--skip-impossible runs the other " + fmt.Sprint(len(ok)) + ")"
				}
				return fmt.Errorf("%s", msg)
			}
			if len(problems) > 0 && !quiet {
				fmt.Fprintf(cmd.ErrOrStderr(), "skipping %d impossible cells (--skip-impossible)\n", len(problems))
			}
			if linkName != "" && !strings.EqualFold(linkName, "none") && !strings.EqualFold(linkName, "loopback") {
				p, err := link.Lookup(linkName)
				if err != nil {
					return fmt.Errorf("--link: %w", err)
				}
				opts.Link = &p
			}
			if opts.NoTap && pcapDir != "" {
				return fmt.Errorf("--pcap saves what the wire tap records, and --no-tap turns it off: drop one")
			}
			if opts.NoTap && ef.enabled() {
				return fmt.Errorf("--device prices the traffic and the handshake the wire tap records, and --no-tap turns it off: drop one")
			}
			if quick && !f.Changed("repeat") {
				opts.Repeat = 1
			}
			if opts.Repeat < 1 || opts.Repeat > 1000 {
				return fmt.Errorf("--repeat %d: want 1 to 1000 connections per cell", opts.Repeat)
			}
			ef.link = opts.Link
			if err := ef.check(); err != nil {
				return err
			}
			lab, err := tlslab.New(opts)
			if err != nil {
				return err
			}
			defer lab.Close()
			bar := progress.New("tls", quiet)
			bar.Begin(len(ok))
			run, runs := lab.RunMatrix(cmd.Context(), ok, func(done, total int, c tlslab.Cell) { bar.Step(done, c.Name()) })
			bar.End()
			run.Tool = tool()
			run.Command = os.Args
			// The costing stage: the client's work and the traces on the
			// device and its radio for the link.
			if err := ef.apply(run); err != nil {
				return err
			}
			ef.note(cmd, quiet)
			if pcapDir != "" {
				paths, err := tlslab.SavePcaps(pcapDir, runs, lab.LinkName())
				if err != nil {
					return err
				}
				if !quiet {
					fmt.Fprintf(cmd.ErrOrStderr(), "wrote %d pcapng files to %s\n", len(paths), pcapDir)
				}
			}
			if format.Name() == "table" {
				// The TLS lab's table is shaped like the S000 study's.
				format = tlsTables{tlslab.TableOptions{Messages: messages}}
			}
			if err := outputs.write(cmd, format, run); err != nil {
				return err
			}
			saves.save(cmd, run, quiet)
			switch run.Status {
			case result.Interrupted:
				return &statusError{exitInterrupted, fmt.Errorf("interrupted: wrote the %d cells measured so far", len(run.Results))}
			case result.Failed:
				return &statusError{exitError, fmt.Errorf("%s", strings.Join(run.Errors, "\n  "))}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&preset, "preset", "", "a named matrix: "+strings.Join(presetNames(), ", ")+" (other flags override its dimensions)")
	f.StringSliceVar(&versions, "version", nil, "TLS versions: 1.0, 1.2, 1.3 (default 1.3)")
	f.StringSliceVar(&kexes, "kex", nil, "key exchange: rsa, dhe, ecdhe-p256, x25519, x25519mlkem768 (default x25519)")
	f.StringSliceVar(&bulks, "bulk", nil, "bulk cipher: aes128-cbc-sha, aes256-cbc-sha, aes128-gcm, aes256-gcm, chacha20-poly1305 (default aes128-gcm)")
	f.StringSliceVar(&certs, "cert", nil, "server certificate key: rsa1024, rsa2048, rsa3072, rsa4096, ecdsa-p256, ecdsa-p384, ed25519 (default ecdsa-p256)")
	f.IntSliceVar(&chains, "chain", nil, "certificates the server sends, 1 to 3 (default 2)")
	f.StringSliceVar(&auths, "client-auth", nil, "client authentication: off, on, or off,on (default off)")
	f.StringSliceVar(&resumptions, "resumption", nil, "none, session-id, ticket (TLS ≤ 1.2), psk, psk-ke (TLS 1.3; psk-ke: --server openssl) (default none)")
	f.StringSliceVar(&transfers, "transfer", nil, "application data after the handshake, e.g. 1k,10k,50k,100k,500k,1m,5m (k = 1024; default none)")
	f.StringVar(&direction, "direction", "down", "transfer direction: down (server → client) or up")
	f.BoolVar(&plain, "plain", false, "also run each transfer over plain TCP (the baseline)")
	f.StringVar(&server, "server", "go", "server implementation: go or openssl")
	f.StringVar(&client, "client", "go", "client implementation: go or openssl")
	f.StringVar(&linkName, "link", "none", "emulated link: none, "+strings.Join(link.Names(), ", ")+", or latency=..,rate=..,loss=..,mtu=..")
	f.IntVar(&opts.Repeat, "repeat", 3, "measured connections per cell")
	f.BoolVar(&quick, "quick", false, "one connection per cell (unless --repeat)")
	f.DurationVar(&opts.Timeout, "timeout", 2*time.Minute, "bound on each connection (plus what a transfer needs at the link's rate)")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the link's loss pattern")
	f.BoolVar(&opts.NoTap, "no-tap", false, "timing only: no wire tap (no bytes, packets, message times or radio energy; CPU and the client's handshake time stay)")
	f.StringVar(&pcapDir, "pcap", "", "save every measured connection as pcapng in `DIR`")
	ef.register(cmd)
	ef.registerRadio(cmd)
	f.BoolVar(&messages, "messages", false, "print every cell's message-by-message table (default: runs of up to 4 cells)")
	f.BoolVar(&skipImpossible, "skip-impossible", false, "run the possible cells of a matrix and skip the others")
	f.BoolVar(&list, "list", false, "list presets, links and peers, then exit")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar or notes on stderr")
	outputs.register(cmd)
	saves.register(cmd)
	return cmd
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

// checkDims rejects unknown values before any cell is built, naming what
// is allowed.
func checkDims(d tlslab.Dimensions) error {
	check := func(flag string, got []string, allowed []string) error {
		for _, g := range got {
			found := false
			for _, a := range allowed {
				if g == a {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("--%s %q: want one of %s", flag, g, strings.Join(allowed, ", "))
			}
		}
		return nil
	}
	if err := check("version", strsOf(d.Versions), strsOf(tlslab.Versions)); err != nil {
		return err
	}
	if err := check("kex", strsOf(d.KeyExchanges), strsOf(tlslab.KeyExchanges)); err != nil {
		return err
	}
	if err := check("bulk", strsOf(d.Bulks), strsOf(tlslab.Bulks)); err != nil {
		return err
	}
	if err := check("cert", strsOf(d.Certs), strsOf(tlslab.CertKinds)); err != nil {
		return err
	}
	if err := check("resumption", strsOf(d.Resumptions), strsOf(tlslab.Resumptions)); err != nil {
		return err
	}
	if err := check("direction", []string{string(d.Direction)}, []string{"down", "up"}); err != nil {
		return err
	}
	for _, peer := range []struct{ flag, name string }{{"server", d.Server}, {"client", d.Client}} {
		if _, err := tlslab.PeerByName(peer.name); err != nil {
			return fmt.Errorf("--%s: %w", peer.flag, err)
		}
	}
	for _, c := range d.Chains {
		if c < 1 || c > 3 {
			return fmt.Errorf("--chain %d: want 1 to 3 certificates", c)
		}
	}
	for _, t := range d.Transfers {
		if t > tlslab.MaxTransfer {
			return fmt.Errorf("--transfer %d: at most %d MiB", t, tlslab.MaxTransfer>>20)
		}
	}
	if d.Plain && len(d.Transfers) == 0 {
		return fmt.Errorf("--plain compares transfers: give --transfer sizes too")
	}
	return nil
}

func presetNames() []string {
	var out []string
	for _, p := range tlslab.Presets {
		out = append(out, p.Name)
	}
	return out
}

func strsOf[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
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
