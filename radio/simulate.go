package radio

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
)

// This file holds radio simulate's request: its flag values checked, the
// radios, traces and what-ifs read, every case priced, and the plot and
// timeline files written. The command only declares the flags.

// Simulation is one radio simulate request, its fields the flag values.
type Simulation struct {
	Radios, RadioFile, TracePath, Transfer string
	DeviceAddr, Subject                    string
	Until                                  time.Duration
	Associate                              bool
	After                                  time.Duration
	Then                                   string
	Batch                                  int
	Every                                  time.Duration
	Handshake                              int
	Resumed                                string
	ResumedPackets                         int
	// AfterSet, BatchSet and HandshakeSet say the flag was given.
	AfterSet, BatchSet, HandshakeSet bool

	// Filled by Prepare and Price.
	Profiles   []*Profile
	Inputs     []Input
	Cases      []Case
	Breakdowns []*Breakdown
	Titles     []string
}

// Prepare checks the request and reads the radios, the traces and the
// what-ifs' files: everything before anything is priced.
func (s *Simulation) Prepare() error {
	if (s.TracePath == "") == (s.Transfer == "") {
		return fmt.Errorf("give the traffic to price: --trace FILE (a run, a trace JSON or a capture) or --transfer up=1k,down=50k,rate=1Mbit/s")
	}
	if s.Radios == "" && s.RadioFile == "" {
		return fmt.Errorf("give the radio: --radio lte (or 3g, wifi, ble, 802.15.4; `cryptocost radio list`) or --radio-file FILE")
	}
	if err := s.checkValues(); err != nil {
		return err
	}
	var err error
	if s.Profiles, err = Profiles(s.Radios, s.RadioFile); err != nil {
		return err
	}
	if s.Inputs, err = s.readInputs(); err != nil {
		return err
	}
	whatIfs, err := s.whatIfs()
	if err != nil {
		return err
	}
	s.Cases, err = whatIfs.Cases(s.Inputs)
	return err
}

// Price prices every case on every radio into run, writing the inputs'
// notes and the results' warnings to log (nil: none).
func (s *Simulation) Price(run *result.Run, log io.Writer) error {
	if log != nil {
		for _, in := range s.Inputs {
			for _, n := range in.Notes {
				fmt.Fprintf(log, "%s: %s\n", in.Source, n)
			}
		}
	}
	for _, p := range s.Profiles {
		for _, c := range s.Cases {
			r, b, err := c.Price(p, Options{Until: s.Until, Associate: s.Associate})
			if err != nil {
				return err
			}
			if log != nil {
				for _, n := range r.Warnings {
					fmt.Fprintf(log, "%s: %s\n", r.Subject.Name, n)
				}
			}
			run.Results = append(run.Results, r)
			s.Breakdowns = append(s.Breakdowns, b)
			s.Titles = append(s.Titles, r.Subject.Name)
		}
	}
	return nil
}

// WriteFiles writes the --plot and --timeline files (either may be
// empty), one per breakdown, naming them on log (nil: not).
func (s *Simulation) WriteFiles(log io.Writer, plot, timeline string) error {
	if plot != "" {
		pf, err := PlotFormat(plot)
		if err != nil {
			return err
		}
		if err := s.writeEach(log, plot, func(w io.Writer, b *Breakdown, title string) error { return Plot(w, b, title, pf) }); err != nil {
			return err
		}
	}
	if timeline != "" {
		return s.writeEach(log, timeline, func(w io.Writer, b *Breakdown, _ string) error { return WriteTimeline(w, b) })
	}
	return nil
}

// writeEach writes one file per breakdown: file itself for one, and
// file-1, file-2, ... (before the extension) for several, saying which is
// which on log. Each file is written whole or not at all.
func (s *Simulation) writeEach(log io.Writer, file string, write func(io.Writer, *Breakdown, string) error) error {
	ext := filepath.Ext(file)
	for i, b := range s.Breakdowns {
		name := file
		if len(s.Breakdowns) > 1 {
			name = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(file, ext), i+1, ext)
		}
		if err := atomicfile.Write(name, func(w io.Writer) error { return write(w, b, s.Titles[i]) }); err != nil {
			return err
		}
		if len(s.Breakdowns) > 1 && log != nil {
			fmt.Fprintf(log, "%s: %s\n", name, s.Titles[i])
		}
	}
	return nil
}

// Profiles looks up the comma-separated --radio names and loads the
// --radio-file (either may be empty).
func Profiles(links, file string) ([]*Profile, error) {
	var out []*Profile
	for _, name := range strings.Split(links, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		p, err := Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("--radio: %w", err)
		}
		out = append(out, p)
	}
	if file != "" {
		p, err := LoadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--radio-file: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

func (s *Simulation) readInputs() ([]Input, error) {
	if s.Transfer != "" {
		t, desc, err := ParseTransfer(s.Transfer)
		if err != nil {
			return nil, err
		}
		return []Input{{Name: "transfer", Source: "synthetic: " + desc, Trace: t}}, nil
	}
	return ReadFile(s.TracePath, ReadOptions{DeviceAddr: s.DeviceAddr, Subject: s.Subject})
}

// whatIfs are the what-ifs the request asks for, their files read.
func (s *Simulation) whatIfs() (WhatIfs, error) {
	w := WhatIfs{After: s.After, HasAfter: s.AfterSet, ThenName: s.Then, ResumedName: s.Resumed, Handshake: s.Handshake, Every: s.Every}
	if s.BatchSet {
		w.Batch = s.Batch
	}
	var err error
	ro := ReadOptions{DeviceAddr: s.DeviceAddr}
	if s.Then != "" {
		if w.Then, err = ReadOne("--then", s.Then, ro); err != nil {
			return w, err
		}
	}
	if s.Resumed != "" {
		if w.Resumed, err = ReadOne("--resumed", s.Resumed, ro); err != nil {
			return w, err
		}
		if s.ResumedPackets > 0 {
			if s.ResumedPackets > len(w.Resumed.Packets) {
				return w, fmt.Errorf("--resumed-packets %d: %s has %d packets", s.ResumedPackets, s.Resumed, len(w.Resumed.Packets))
			}
			r := w.Resumed
			w.Resumed = &result.Trace{Link: r.Link, HeaderModel: r.HeaderModel, Transport: r.Transport, Packets: r.Packets[:s.ResumedPackets]}
		}
	}
	return w, nil
}

// checkValues refuses what-if values that lack their partner or are out
// of range.
func (s *Simulation) checkValues() error {
	switch {
	case s.Then != "" && !s.AfterSet:
		return fmt.Errorf("--then needs --after: how long after the first connection the second starts")
	case s.AfterSet && s.After < 0:
		return fmt.Errorf("--after %v is negative: the second connection starts after the first ends", s.After)
	case s.BatchSet && (s.Batch < 1 || s.Every <= 0):
		return fmt.Errorf("--batch %d --every %v: want at least one reading and a positive interval, such as --batch 6 --every 10m", s.Batch, s.Every)
	case !s.BatchSet && s.Every != 0:
		return fmt.Errorf("--every needs --batch N: how many readings")
	case s.Resumed != "" && s.Handshake < 1:
		return fmt.Errorf("--resumed needs --handshake-packets K: how many packets of the trace the resumed handshake replaces")
	case s.ResumedPackets != 0 && s.Resumed == "":
		return fmt.Errorf("--resumed-packets needs --resumed FILE")
	case s.HandshakeSet && s.Handshake < 0, s.ResumedPackets < 0:
		return fmt.Errorf("packet counts cannot be negative")
	case s.Until < 0:
		return fmt.Errorf("--until %v is negative", s.Until)
	}
	return nil
}

// ParseTransfer reads --transfer up=1k,down=50k,rate=1Mbit/s[,mss=1460]
// into a synthetic trace and a description of it.
func ParseTransfer(spec string) (*result.Trace, string, error) {
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
			up, err = catalog.ParseSize(v)
		case "down":
			down, err = catalog.ParseSize(v)
		case "mss":
			mss, err = strconv.Atoi(v)
		case "rate":
			rate, err = ParseBitrate(v)
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
	t, err := SyntheticTransfer(up, down, rate, mss)
	if err != nil {
		return nil, "", fmt.Errorf("--transfer: %w", err)
	}
	return t, t.HeaderModel + fmt.Sprintf("; %d B up, %d B down", up, down), nil
}

// ParseBitrate reads "1Mbit/s", "384 kbit/s", "2Mbps" into bit/s.
func ParseBitrate(s string) (float64, error) {
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

// WriteList writes radio list's table: the built-in profiles, then a
// line on how to see one.
func WriteList(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTECHNOLOGY\tALIASES\tPARAMETERS\tDESCRIPTION")
	for _, p := range All() {
		checked := "verified"
		if p.Unverified() {
			checked = "some unverified"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Technology, strings.Join(p.Aliases, ","), checked, p.Description)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\n`cryptocost radio show NAME` lists a profile's parameters and sources; --data prints its file to copy and edit for --radio-file.")
	return err
}
