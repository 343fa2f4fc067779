package main

import (
	"errors"
	"io"
	"time"

	"github.com/cryptocost/cryptocost/probe"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newProbeCmd) }

func newProbeCmd() *cobra.Command {
	var p probeFlags
	cmd := &cobra.Command{
		Use:     "probe HOST:PORT",
		Short:   "Profile a TLS service as a battery-powered client sees it",
		Long:    helpLong("probe"),
		Example: helpExamples("probe"),
		Args:    func(_ *cobra.Command, args []string) error { return probe.CheckTargets(args, p.req.Compare) },
		RunE:    func(cmd *cobra.Command, args []string) error { return p.run(cmd, args) },
	}
	p.register(cmd)
	return cmd
}

// probeFlags are probe's flags.
type probeFlags struct {
	req   probe.Request
	out   string
	ef    energyFlags
	saves saveFlags
}

// run is probe: the targets probed, their handshakes priced, the reports
// written and their runs saved; a server that could not be probed is an
// error, the time limit a note (probe.Outcome.Status).
func (p *probeFlags) run(cmd *cobra.Command, args []string) error {
	p.req.Targets = args
	if err := p.check(cmd); err != nil {
		return err
	}
	reports, err := p.req.Run(cmd.Context())
	if err != nil {
		return err
	}
	for _, r := range reports {
		stamp(r.Run)
		if err := p.ef.apply(r.Run); err != nil {
			return err
		}
	}
	if err := writeOut(cmd, p.out, func(w io.Writer) error { return p.req.Write(w, reports) }); err != nil {
		return err
	}
	for _, r := range reports {
		p.saves.save(cmd, r.Run, false)
	}
	// The outcome's exit status: Ctrl-C is 130 (what was found is written).
	err = probe.OutcomeOf(reports).Status(cmd.Context(), cmd.ErrOrStderr())
	if errors.Is(err, probe.ErrInterrupted) {
		return &statusError{exitInterrupted, err}
	}
	return err
}

func (p *probeFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	p.ef.dev().register(cmd)
	f.StringVar(&p.ef.sel.Radio, "radio", "", "price each measured handshake's packet trace on this radio profile (lte, 3g, wifi, ble, 802.15.4: cryptocost radio list; with --device, one of its radios)")
	retireLink(cmd, "probe measures the real network path to the server")
	f.StringVar(&p.req.Options.SNI, "sni", "", "server name to send (default: the host, unless it is an IP address)")
	f.IntVar(&p.req.Options.Tries, "tries", 5, "resumption tries per mechanism, each a full and a resumed handshake (sslyze's default: 5)")
	f.DurationVar(&p.req.Timeout, "timeout", probe.DefaultLimits().Timeout, "time limit of each connection")
	f.DurationVar(&p.req.Options.TimeLimit, "time-limit", 2*time.Minute, "time limit of the whole probe; what was found by then is kept")
	f.IntVar(&p.req.Options.Concurrency, "concurrency", 5, "connections open at once, at most")
	f.StringSliceVar(&p.req.Suites, "suites", nil, "offer only these cipher suites (IANA names or code points such as 0xc02f)")
	f.StringSliceVar(&p.req.Versions, "versions", nil, "test only these versions: ssl3, 1.0, 1.1, 1.2, 1.3")
	f.DurationVar(&p.req.Options.TicketWait, "ticket-wait", time.Second, "how long to wait for a TLS 1.3 server's session tickets after a handshake")
	f.BoolVar(&p.req.Compare, "compare", false, "probe every target given and put them side by side (S000's service table)")
	f.StringVar(&p.req.Format, "format", "table", "output: table (readable), json (the probe report, docs/probe.md), run (the measured handshakes as a cryptocost run, for radio simulate --trace and the store), csv, gobench")
	p.saves.register(cmd)
	f.StringVarP(&p.out, "output", "o", "", "write to `FILE` instead of stdout (a .json name means --format json, .csv csv)")
}

// check checks the store flags, the request and what prices its traffic
// before any work: --radio alone (the traffic only), or --device with
// --radio, one of the device's radios.
func (p *probeFlags) check(cmd *cobra.Command) error {
	p.req.Format = (&outputFlags{format: p.req.Format, out: p.out}).name(cmd) // .json: the probe report
	if err := p.saves.validate(); err != nil {
		return err
	}
	if err := p.req.Check(); err != nil {
		return err
	}
	if err := p.ef.check(); err != nil {
		return err
	}
	if d := p.ef.sel.Resolved; d != nil {
		return probe.CheckRadio(d.Name, d.Radios, p.ef.sel.Radio)
	}
	return nil
}
