package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/internal/atomicfile"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newRadioCmd) }

func newRadioCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "radio",
		Short:   "What bytes on the air cost: radio state machines priced from packet traces",
		Long:    helpLong("radio"),
		Example: helpExamples("radio"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newRadioListCmd(), newRadioShowCmd(), newRadioSimulateCmd())
	return cmd
}

func newRadioListCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the built-in radio profiles",
		Example: "  cryptocost radio list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tTECHNOLOGY\tALIASES\tPARAMETERS\tDESCRIPTION")
			for _, p := range radio.All() {
				checked := "verified"
				if p.Unverified() {
					checked = "some unverified"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Technology, strings.Join(p.Aliases, ","), checked, p.Description)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "\n`cryptocost radio show NAME` lists a profile's parameters and sources; --data prints its file to copy and edit for --radio-file.")
			return nil
		},
	}
}

func newRadioShowCmd() *cobra.Command {
	var file string
	var data bool
	cmd := &cobra.Command{
		Use:     "show NAME",
		Short:   "Show a radio profile's parameters, each with its source",
		Example: helpExamples("radio-show"),
		Args:    cobra.MaximumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return radioShow(cmd, args, file, data) },
	}
	cmd.Flags().StringVar(&file, "radio-file", "", "show the profile in `FILE` instead of a built-in one")
	cmd.Flags().BoolVar(&data, "data", false, "print the profile's data file (a template for --radio-file)")
	return cmd
}

// radioSimFlags are radio simulate's flags.
type radioSimFlags struct {
	radios, radioFile, tracePath, transfer string
	device, subject                        string
	until                                  time.Duration
	associate                              bool
	plot, timeline                         string
	after                                  time.Duration
	then                                   string
	batch                                  int
	every                                  time.Duration
	handshake                              int
	resumed                                string
	resumedPackets                         int
	afterSet, batchSet, handshakeSet       bool
	r                                      runner
	profiles                               []*radio.Profile
	inputs                                 []radio.Input
	cases                                  []radio.Case
	plotted                                []*radio.Breakdown
	titles                                 []string
}

func newRadioSimulateCmd() *cobra.Command {
	var f radioSimFlags
	cmd := &cobra.Command{
		Use:     "simulate",
		Short:   "Price a packet trace on radio profiles: energy by phase and state, timeline, what-ifs",
		Long:    helpLong("radio-simulate"),
		Example: helpExamples("radio-simulate"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl := cmd.Flags()
			f.afterSet, f.batchSet, f.handshakeSet = fl.Changed("after"), fl.Changed("batch"), fl.Changed("handshake-packets")
			return f.r.execute(cmd, job{
				check: func() error { return f.check(cmd) },
				run:   func(context.Context) (*result.Run, error) { return f.run(cmd) },
				files: f.files,
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.radios, "radio", "", "radio profiles, comma-separated `NAMES`: lte, 3g, wifi, ble, 802.15.4, ... (cryptocost radio list)")
	retireLink(cmd, "radio simulate prices the trace on radio profiles")
	fl.StringVar(&f.radioFile, "radio-file", "", "a radio profile `FILE` of your own (YAML or JSON; `cryptocost radio show NAME --data` gives a template)")
	fl.StringVar(&f.tracePath, "trace", "", "the trace: a cryptocost run (JSON), a trace JSON, or a pcap/pcapng `FILE`")
	fl.StringVar(&f.transfer, "transfer", "", "price a synthetic transfer instead: up=1k,down=50k,rate=1Mbit/s[,mss=1460]")
	fl.StringVar(&f.device, "device-addr", "", "the device's IP `address` in a capture (default: the host that opened the first TCP connection)")
	fl.StringVar(&f.subject, "subject", "", "only the run's results whose subject matches `PATTERN` (* matches anything)")
	fl.DurationVar(&f.until, "until", 0, "simulate at least this long from the first packet, idle after the tail (compare traces over the same window; never cuts a tail short)")
	fl.BoolVar(&f.associate, "associate", false, "WiFi: add the profile's scan and association cost before the first packet")
	fl.StringVar(&f.plot, "plot", "", "write the timeline, power over time by phase, to `FILE` (.svg, .png or .pdf)")
	fl.StringVar(&f.timeline, "timeline", "", "write the timeline's segments as CSV to `FILE`")
	fl.DurationVar(&f.after, "after", 0, "what-if: a second connection this long after the first ends")
	fl.StringVar(&f.then, "then", "", "with --after: the second connection's trace `FILE` (default: the same trace)")
	fl.IntVar(&f.batch, "batch", 0, "what-if: N readings sent separately (every --every) against all in one connection")
	fl.DurationVar(&f.every, "every", 0, "with --batch: the interval between separate readings")
	fl.IntVar(&f.handshake, "handshake-packets", 0, "the first K packets of the trace are the handshake (for --batch and --resumed)")
	fl.StringVar(&f.resumed, "resumed", "", "what-if: replace the handshake with the trace in `FILE` (a resumed handshake)")
	fl.IntVar(&f.resumedPackets, "resumed-packets", 0, "with --resumed: take only FILE's first M packets (default: all)")
	fl.BoolVarP(&f.r.quiet, "quiet", "q", false, "no notes on stderr")
	f.r.register(cmd)
	return cmd
}

// check reads radio simulate's flags, the radios, the traces and the
// what-ifs' files: everything before anything is priced.
func (f *radioSimFlags) check(cmd *cobra.Command) error {
	fl := cmd.Flags()
	f.afterSet, f.batchSet, f.handshakeSet = fl.Changed("after"), fl.Changed("batch"), fl.Changed("handshake-packets")
	if f.plot != "" {
		if _, err := radio.PlotFormat(f.plot); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	if (f.tracePath == "") == (f.transfer == "") {
		return fmt.Errorf("give the traffic to price: --trace FILE (a run, a trace JSON or a capture) or --transfer up=1k,down=50k,rate=1Mbit/s")
	}
	if f.radios == "" && f.radioFile == "" {
		return fmt.Errorf("give the radio: --radio lte (or 3g, wifi, ble, 802.15.4; `cryptocost radio list`) or --radio-file FILE")
	}
	if err := f.checkValues(); err != nil {
		return err
	}
	var err error
	if f.profiles, err = radioProfiles(f.radios, f.radioFile); err != nil {
		return err
	}
	if f.inputs, err = radioInputs(f); err != nil {
		return err
	}
	whatIfs, err := radioWhatIfs(f)
	if err != nil {
		return err
	}
	f.cases, err = whatIfs.Cases(f.inputs)
	return err
}

// run prices every case on every radio.
func (f *radioSimFlags) run(cmd *cobra.Command) (*result.Run, error) {
	stderr := cmd.ErrOrStderr()
	if !f.r.quiet {
		for _, in := range f.inputs {
			for _, n := range in.Notes {
				fmt.Fprintf(stderr, "%s: %s\n", in.Source, n)
			}
		}
	}
	run := newRun("radio")
	for _, p := range f.profiles {
		for _, c := range f.cases {
			r, b, err := c.Price(p, radio.Options{Until: f.until, Associate: f.associate})
			if err != nil {
				return nil, err
			}
			if !f.r.quiet {
				for _, n := range r.Warnings {
					fmt.Fprintf(stderr, "%s: %s\n", r.Subject.Name, n)
				}
			}
			run.Results = append(run.Results, r)
			f.plotted = append(f.plotted, b)
			f.titles = append(f.titles, r.Subject.Name)
		}
	}
	run.Finished = time.Now().UTC()
	if err := run.Validate(); err != nil {
		return nil, err // a bug: never written or saved
	}
	return run, nil
}

// files writes the --plot and --timeline files, one per breakdown.
func (f *radioSimFlags) files(cmd *cobra.Command, _ *result.Run) error {
	stderr := cmd.ErrOrStderr()
	if f.plot != "" {
		if err := radioFiles(stderr, f.plot, f.titles, f.plotted, f.r.quiet, func(w io.Writer, b *radio.Breakdown, title string) error {
			pf, _ := radio.PlotFormat(f.plot)
			return radio.Plot(w, b, title, pf)
		}); err != nil {
			return err
		}
	}
	if f.timeline != "" {
		return radioFiles(stderr, f.timeline, f.titles, f.plotted, f.r.quiet, func(w io.Writer, b *radio.Breakdown, _ string) error {
			return radio.WriteTimeline(w, b)
		})
	}
	return nil
}

func radioProfiles(links, file string) ([]*radio.Profile, error) {
	var out []*radio.Profile
	for _, name := range strings.Split(links, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		p, err := radio.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--radio: %w", err)
		}
		out = append(out, p)
	}
	if file != "" {
		p, err := radio.LoadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--radio-file: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

func radioInputs(f *radioSimFlags) ([]radio.Input, error) {
	if f.transfer != "" {
		t, desc, err := parseRadioTransfer(f.transfer)
		if err != nil {
			return nil, err
		}
		return []radio.Input{{Name: "transfer", Source: "synthetic: " + desc, Trace: t}}, nil
	}
	return radio.ReadFile(f.tracePath, radio.ReadOptions{DeviceAddr: f.device, Subject: f.subject})
}

// radioWhatIfs are the what-ifs the flags ask for, their files read.
func radioWhatIfs(f *radioSimFlags) (radio.WhatIfs, error) {
	w := radio.WhatIfs{After: f.after, HasAfter: f.afterSet, ThenName: f.then, ResumedName: f.resumed, Handshake: f.handshake, Every: f.every}
	if f.batchSet {
		w.Batch = f.batch
	}
	var err error
	ro := radio.ReadOptions{DeviceAddr: f.device}
	if f.then != "" {
		if w.Then, err = radio.ReadOne("--then", f.then, ro); err != nil {
			return w, err
		}
	}
	if f.resumed != "" {
		if w.Resumed, err = radio.ReadOne("--resumed", f.resumed, ro); err != nil {
			return w, err
		}
		if f.resumedPackets > 0 {
			if f.resumedPackets > len(w.Resumed.Packets) {
				return w, fmt.Errorf("--resumed-packets %d: %s has %d packets", f.resumedPackets, f.resumed, len(w.Resumed.Packets))
			}
			r := w.Resumed
			w.Resumed = &result.Trace{Link: r.Link, HeaderModel: r.HeaderModel, Transport: r.Transport, Packets: r.Packets[:f.resumedPackets]}
		}
	}
	return w, nil
}

// parseRadioTransfer reads --transfer up=1k,down=50k,rate=1Mbit/s[,mss=1460].
func parseRadioTransfer(spec string) (*result.Trace, string, error) {
	up, down, mss := 0, 0, 1460 // MSS: a 1500-byte Ethernet MTU less 40 B of IPv4/TCP headers
	rate := 0.0
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, "", fmt.Errorf("--transfer %q: want key=value pairs: up=1k,down=50k,rate=1Mbit/s[,mss=1460]", spec)
		}
		var err error
		switch k {
		case "up":
			up, err = scheme.ParseSize(v)
		case "down":
			down, err = scheme.ParseSize(v)
		case "mss":
			mss, err = strconv.Atoi(v)
		case "rate":
			rate, err = parseBitrate(v)
		default:
			err = fmt.Errorf("unknown key %q: want up, down, rate or mss", k)
		}
		if err != nil {
			return nil, "", fmt.Errorf("--transfer: %w", err)
		}
	}
	if rate == 0 {
		return nil, "", fmt.Errorf("--transfer %q: give the rate, such as rate=1Mbit/s", spec)
	}
	t, err := radio.SyntheticTransfer(up, down, rate, mss)
	if err != nil {
		return nil, "", fmt.Errorf("--transfer: %w", err)
	}
	return t, t.HeaderModel + fmt.Sprintf("; %d B up, %d B down", up, down), nil
}

// parseBitrate reads "1Mbit/s", "384 kbit/s", "2Mbps".
func parseBitrate(s string) (float64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i <= 0 {
		return 0, fmt.Errorf("rate %q: want a number and a unit, such as 1Mbit/s or 384kbit/s", s)
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("rate %q: %w", s, err)
	}
	bps, err := catalog.Q(v, strings.TrimSpace(s[i:]), "--transfer").In("bit/s")
	if err != nil || !(bps > 0) {
		return 0, fmt.Errorf("rate %q: want a positive bit rate, such as 1Mbit/s or 384kbit/s", s)
	}
	return bps, nil
}

// radioFiles writes one file per breakdown: file itself for one, and
// file-1, file-2, ... (before the extension) for several, saying which is
// which on stderr. Each file is written whole or not at all.
func radioFiles(stderr io.Writer, file string, titles []string, bs []*radio.Breakdown, quiet bool,
	write func(io.Writer, *radio.Breakdown, string) error) error {
	ext := filepath.Ext(file)
	for i, b := range bs {
		name := file
		if len(bs) > 1 {
			name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(file, ext), i+1, ext)
		}
		if err := atomicfile.Write(name, func(w io.Writer) error { return write(w, b, titles[i]) }); err != nil {
			return err
		}
		if len(bs) > 1 && !quiet {
			fmt.Fprintf(stderr, "%s: %s\n", name, titles[i])
		}
	}
	return nil
}

// newRun starts a run of kind made by this command line.
func newRun(kind string) *result.Run {
	run := measure.NewRun(kind)
	run.Tool, run.Command = tool(), os.Args
	return run
}

// radioShow is radio show: a profile's parameters with their sources, or its data file.
func radioShow(cmd *cobra.Command, args []string, file string, data bool) error {
	var p *radio.Profile
	var err error
	switch {
	case file != "" && len(args) == 0:
		p, err = radio.LoadFile(file)
	case file == "" && len(args) == 1:
		p, err = radio.Lookup(args[0])
	default:
		return fmt.Errorf("give a profile NAME or --radio-file FILE (`cryptocost radio list` names them)")
	}
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if data {
		_, err := w.Write(p.Data)
		return err
	}
	return radio.WriteProfile(w, p)
}

// checkValues refuses what-if flags that lack their partner or are out
// of range.
func (f *radioSimFlags) checkValues() error {
	switch {
	case f.then != "" && !f.afterSet:
		return fmt.Errorf("--then needs --after: how long after the first connection the second starts")
	case f.afterSet && f.after < 0:
		return fmt.Errorf("--after %v is negative: the second connection starts after the first ends", f.after)
	case f.batchSet && (f.batch < 1 || f.every <= 0):
		return fmt.Errorf("--batch %d --every %v: want at least one reading and a positive interval, such as --batch 6 --every 10m", f.batch, f.every)
	case !f.batchSet && f.every != 0:
		return fmt.Errorf("--every needs --batch N: how many readings")
	case f.resumed != "" && f.handshake < 1:
		return fmt.Errorf("--resumed needs --handshake-packets K: how many packets of the trace the resumed handshake replaces")
	case f.resumedPackets != 0 && f.resumed == "":
		return fmt.Errorf("--resumed-packets needs --resumed FILE")
	case f.handshakeSet && f.handshake < 0, f.resumedPackets < 0:
		return fmt.Errorf("packet counts cannot be negative")
	case f.until < 0:
		return fmt.Errorf("--until %v is negative", f.until)
	}
	return nil
}
