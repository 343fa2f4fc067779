package listing

import (
	"fmt"
	"io"

	"github.com/cryptocost/cryptocost/bench"
	"github.com/cryptocost/cryptocost/scheme"
)

// Request is `cryptocost list` as typed: the names or globs (each must
// match a scheme), families, security range, providers and --no-legacy
// select the schemes; ListProviders lists the providers instead.
type Request struct {
	Globs         []string
	Families      []string // family names: hash, mac, …
	Security      string   // 128, 112+, 80-128
	Providers     []string
	NoLegacy      bool
	ListProviders bool
	Format        string // table or json
	Wide          bool   // the table's wide columns
}

// Filter reads the request's selection: its families, security range
// and globs checked.
func (r Request) Filter() (Filter, error) {
	f := Filter{Globs: r.Globs, Providers: r.Providers, NoLegacy: r.NoLegacy}
	for _, name := range r.Families {
		fam, err := scheme.ParseFamily(name)
		if err != nil {
			return f, err
		}
		f.Families = append(f.Families, fam)
	}
	sec, err := bench.ParseSecurity(r.Security)
	if err != nil {
		return f, err
	}
	f.MinBits, f.MaxBits = sec.Min, sec.Max
	for _, a := range r.Globs {
		if _, err := scheme.Match(a); err != nil {
			return f, err
		}
	}
	return f, nil
}

// Write writes what the request lists to w: the providers, or the
// schemes it selects (none is an error) as a table or JSON.
func (r Request) Write(w io.Writer) error {
	if r.ListProviders {
		return WriteProviders(w, r.Format)
	}
	f, err := r.Filter()
	if err != nil {
		return err
	}
	ss, err := Select(f)
	if err != nil {
		return err
	}
	if len(ss) == 0 {
		return fmt.Errorf("no algorithm matches these filters")
	}
	switch r.Format {
	case "table":
		return WriteTable(w, ss, r.Wide)
	case "json":
		return WriteJSON(w, ss)
	}
	return fmt.Errorf("unknown format %q for list: want table or json", r.Format)
}
