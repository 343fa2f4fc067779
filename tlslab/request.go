package tlslab

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/progress"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// Request is a `cryptocost tls` run as a command line gives it: the
// matrix (a preset or the default, each dimension a flag names
// replaced), the link, the lab's options and where to save the pcapng
// files. Check resolves it before any work; Run measures it.
type Request struct {
	// Preset names a matrix (Presets); empty: DefaultDimensions.
	Preset string
	// The dimensions' values as given (--version, --kex, --bulk, --cert,
	// --client-auth, --resumption, --transfer, --chain, --direction,
	// --server, --client, --plain), each replacing the preset's when
	// Given reports its flag.
	Versions, KeyExchanges, Bulks, Certs, ClientAuth, Resumptions, Transfers []string
	Chains                                                                   []int
	Direction, Server, Client                                                string
	Plain                                                                    bool
	// Given reports whether the flag of that name was given on the
	// command line; nil: none was.
	Given func(flag string) bool
	// Link names the emulated link: none (or loopback, or empty), a
	// profile, or latency=..,rate=..,loss=..,mtu=.. (link.Lookup).
	Link string
	// Pcap is the directory every measured connection is saved to as
	// pcapng; empty: none.
	Pcap string
	// Quick is one connection per cell, unless --repeat is given.
	Quick bool
	// SkipImpossible runs the possible cells of a matrix and skips the
	// others.
	SkipImpossible bool
	// Priced: a device prices the run (the traffic and the handshake the
	// wire tap records).
	Priced bool
	// Quiet: no progress bar and no notes on Log.
	Quiet bool
	// Log gets the notes (cells skipped, pcapng files written).
	Log io.Writer
	// Options are the lab's; Check sets Link and, with Quick, Repeat.
	Options Options

	cells []Cell
}

// given reports whether the flag was given.
func (r *Request) given(flag string) bool { return r.Given != nil && r.Given(flag) }

// Dimensions is the matrix the request gives: a preset or the default,
// each dimension a flag names replaced, checked (Dimensions.Check).
func (r *Request) Dimensions() (Dimensions, error) {
	dims := DefaultDimensions()
	if r.Preset != "" {
		p, err := PresetByName(r.Preset)
		if err != nil {
			return dims, err
		}
		dims = p.Dimensions
	}
	set := func(name string, apply func()) {
		if r.given(name) {
			apply()
		}
	}
	set("version", func() { dims.Versions = asValues[Version](r.Versions) })
	set("kex", func() { dims.KeyExchanges = asValues[KeyExchange](r.KeyExchanges) })
	set("bulk", func() { dims.Bulks = asValues[Bulk](r.Bulks) })
	set("cert", func() { dims.Certs = asValues[CertKind](r.Certs) })
	set("chain", func() { dims.Chains = r.Chains })
	set("resumption", func() { dims.Resumptions = asValues[Resumption](r.Resumptions) })
	set("direction", func() { dims.Direction = Direction(r.Direction) })
	set("server", func() { dims.Server = r.Server })
	set("client", func() { dims.Client = r.Client })
	set("plain", func() { dims.Plain = r.Plain })
	var err error
	if r.given("client-auth") {
		if dims.ClientAuth, err = ParseClientAuth(r.ClientAuth); err != nil {
			return dims, err
		}
	}
	if r.given("transfer") {
		if dims.Transfers, err = catalog.ParseSizes(r.Transfers); err != nil {
			return dims, fmt.Errorf("--transfer: %w", err)
		}
	}
	return dims, dims.Check()
}

// asValues reads a flag's strings as a dimension's values: trimmed and
// lower-cased.
func asValues[T ~string](in []string) []T {
	out := make([]T, len(in))
	for i, s := range in {
		out[i] = T(strings.ToLower(strings.TrimSpace(s)))
	}
	return out
}

// Check resolves the matrix, the link and the options before any work.
func (r *Request) Check() error {
	dims, err := r.Dimensions()
	if err != nil {
		return err
	}
	var skipped int
	if r.cells, skipped, err = dims.Possible(r.SkipImpossible); err != nil {
		return err
	}
	if skipped > 0 {
		r.note("skipping %d impossible cells (--skip-impossible)\n", skipped)
	}
	if r.Link != "" && !strings.EqualFold(r.Link, "none") && !strings.EqualFold(r.Link, "loopback") {
		p, err := link.Lookup(r.Link)
		if err != nil {
			return fmt.Errorf("--link: %w", err)
		}
		r.Options.Link = &p
	}
	switch {
	case r.Options.NoTap && r.Pcap != "":
		return fmt.Errorf("--pcap saves what the wire tap records, and --no-tap turns it off: drop one")
	case r.Options.NoTap && r.Priced:
		return fmt.Errorf("--device prices the traffic and the handshake the wire tap records, and --no-tap turns it off: drop one")
	}
	if r.Quick && !r.given("repeat") {
		r.Options.Repeat = 1
	}
	if r.Options.Repeat < 1 || r.Options.Repeat > 1000 {
		return fmt.Errorf("--repeat %d: want 1 to 1000 connections per cell", r.Options.Repeat)
	}
	return nil
}

// note writes a note on Log, unless Quiet.
func (r *Request) note(format string, args ...any) {
	if !r.Quiet && r.Log != nil {
		fmt.Fprintf(r.Log, format, args...)
	}
}

// Run measures the checked matrix, with a progress bar, and saves the
// pcapng files.
func (r *Request) Run(ctx context.Context) (*result.Run, error) {
	lab, err := New(r.Options)
	if err != nil {
		return nil, err
	}
	defer lab.Close()
	bar := progress.New("tls", r.Quiet)
	bar.Begin(len(r.cells))
	run, runs := lab.RunMatrix(ctx, r.cells, func(done, total int, c Cell) { bar.Step(done, c.Name()) })
	bar.End()
	if r.Pcap != "" {
		paths, err := SavePcaps(r.Pcap, runs, lab.LinkName())
		if err != nil {
			return run, err
		}
		r.note("wrote %d pcapng files to %s\n", len(paths), r.Pcap)
	}
	return run, nil
}
