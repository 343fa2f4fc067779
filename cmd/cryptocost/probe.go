package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
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
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return errors.New("no target: want HOST:PORT, such as example.com:443")
			case len(args) > 1 && !p.compare:
				return fmt.Errorf("%d targets: give one target, or --compare A B C to put several side by side", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return p.run(cmd, args) },
	}
	p.register(cmd)
	return cmd
}

// probeFlags are probe's flags.
type probeFlags struct {
	opts     probe.Options
	timeout  time.Duration
	compare  bool
	suites   []string
	versions []string
	format   string
	out      string
	ef       energyFlags
	saves    saveFlags
}

// run is probe: the targets probed, their handshakes priced, the reports
// written and their runs saved.
func (p *probeFlags) run(cmd *cobra.Command, args []string) error {
	p.format = (&outputFlags{format: p.format, out: p.out}).name(cmd) // .json: the probe report
	if err := p.saves.validate(); err != nil {
		return err
	}
	write, err := probe.WriterFor(p.format, p.compare)
	if err != nil {
		return err
	}
	if err := p.opts.Configure(args, p.suites, p.versions, p.timeout); err != nil {
		return err
	}
	if err := probeRadio(&p.ef); err != nil {
		return err
	}
	reports, err := probe.ProbeAll(cmd.Context(), args, p.opts)
	if err != nil {
		return err
	}
	for _, r := range reports {
		stamp(r.Run)
		if err := p.ef.apply(r.Run); err != nil {
			return err
		}
	}
	if err := writeOut(cmd, p.out, func(w io.Writer) error { return write(w, reports) }); err != nil {
		return err
	}
	for _, r := range reports {
		p.saves.save(cmd, r.Run, false)
	}
	return probeStatus(cmd, reports)
}

func (p *probeFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	p.ef.dev.register(cmd)
	f.StringVar(&p.ef.radio, "radio", "", "price each measured handshake's packet trace on this radio profile (lte, 3g, wifi, ble, 802.15.4: cryptocost radio list; with --device, one of its radios)")
	retireLink(cmd, "probe measures the real network path to the server")
	f.StringVar(&p.opts.SNI, "sni", "", "server name to send (default: the host, unless it is an IP address)")
	f.IntVar(&p.opts.Tries, "tries", 5, "resumption tries per mechanism, each a full and a resumed handshake (sslyze's default: 5)")
	f.DurationVar(&p.timeout, "timeout", probe.DefaultLimits().Timeout, "time limit of each connection")
	f.DurationVar(&p.opts.TimeLimit, "time-limit", 2*time.Minute, "time limit of the whole probe; what was found by then is kept")
	f.IntVar(&p.opts.Concurrency, "concurrency", 5, "connections open at once, at most")
	f.StringSliceVar(&p.suites, "suites", nil, "offer only these cipher suites (IANA names or code points such as 0xc02f)")
	f.StringSliceVar(&p.versions, "versions", nil, "test only these versions: ssl3, 1.0, 1.1, 1.2, 1.3")
	f.DurationVar(&p.opts.TicketWait, "ticket-wait", time.Second, "how long to wait for a TLS 1.3 server's session tickets after a handshake")
	f.BoolVar(&p.compare, "compare", false, "probe every target given and put them side by side (S000's service table)")
	f.StringVar(&p.format, "format", "table", "output: table (readable), json (the probe report, docs/probe.md), run (the measured handshakes as a cryptocost run, for radio simulate --trace and the store), csv, gobench")
	p.saves.register(cmd)
	f.StringVarP(&p.out, "output", "o", "", "write to `FILE` instead of stdout (a .json name means --format json, .csv csv)")
}

// probeRadio checks what prices a probe's traffic before any work: --radio
// alone (the traffic only), or --device with --radio, one of the device's
// radios; a device without --radio says which radios it has.
func probeRadio(ef *energyFlags) error {
	if err := ef.check(); err != nil {
		return err
	}
	switch {
	case ef.device != nil && ef.radio == "":
		return fmt.Errorf("--device prices a connection's radio energy: add --radio, one of %s's radios (%s; cryptocost radio list)", ef.device.Name, strings.Join(ef.device.Radios, ", "))
	}
	return nil
}

// probeStatus turns the reports' outcome into the exit status: a server
// that could not be probed is an error; Ctrl-C is 130 (what was found is
// written); the time limit is a note.
func probeStatus(cmd *cobra.Command, reports []*probe.Report) error {
	o := probe.OutcomeOf(reports)
	if len(o.Stopped) > 0 && cmd.Context().Err() != nil {
		return &statusError{exitInterrupted, errors.New("interrupted: wrote what was found so far")}
	}
	for _, target := range o.Stopped {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: stopped at the --time-limit; the report has what was found by then\n", target)
	}
	return o.Failed
}
