package tlslab

import (
	"fmt"
	"slices"
	"strings"
)

// DefaultDimensions is the matrix of `cryptocost tls` with no flags: one
// TLS 1.3 X25519 AES-128-GCM handshake with an ECDSA P-256 chain of two,
// Go on both sides.
func DefaultDimensions() Dimensions {
	return Dimensions{
		Versions: []Version{TLS13}, KeyExchanges: []KeyExchange{KexX25519},
		Bulks: []Bulk{BulkAES128GCM}, Certs: []CertKind{CertECDSAP256},
		Chains: []int{2}, ClientAuth: []bool{false}, Resumptions: []Resumption{ResumeNone},
		Direction: Down, Server: "go", Client: "go",
	}
}

// ParseClientAuth reads --client-auth values: off, on (or false/true,
// no/yes).
func ParseClientAuth(vals []string) ([]bool, error) {
	var out []bool
	for _, a := range vals {
		switch strings.ToLower(a) {
		case "off", "false", "no":
			out = append(out, false)
		case "on", "true", "yes":
			out = append(out, true)
		default:
			return nil, fmt.Errorf("--client-auth %q: want off, on or off,on", a)
		}
	}
	return out, nil
}

// Check rejects unknown values before any cell is built, naming what is
// allowed (errors name the command line's flags).
func (d Dimensions) Check() error {
	for _, c := range []struct {
		flag         string
		got, allowed []string
	}{
		{"version", strs(d.Versions), strs(Versions)},
		{"kex", strs(d.KeyExchanges), strs(KeyExchanges)},
		{"bulk", strs(d.Bulks), strs(Bulks)},
		{"cert", strs(d.Certs), strs(CertKinds)},
		{"resumption", strs(d.Resumptions), strs(Resumptions)},
		{"direction", []string{string(d.Direction)}, []string{"down", "up"}},
	} {
		for _, g := range c.got {
			if !slices.Contains(c.allowed, g) {
				return fmt.Errorf("--%s %q: want one of %s", c.flag, g, strings.Join(c.allowed, ", "))
			}
		}
	}
	for _, peer := range []struct{ flag, name string }{{"server", d.Server}, {"client", d.Client}} {
		if _, err := PeerByName(peer.name); err != nil {
			return fmt.Errorf("--%s: %w", peer.flag, err)
		}
	}
	for _, c := range d.Chains {
		if c < 1 || c > 3 {
			return fmt.Errorf("--chain %d: want 1 to 3 certificates", c)
		}
	}
	for _, t := range d.Transfers {
		if t > MaxTransfer {
			return fmt.Errorf("--transfer %d: at most %d MiB", t, MaxTransfer>>20)
		}
	}
	if d.Plain && len(d.Transfers) == 0 {
		return fmt.Errorf("--plain compares transfers: give --transfer sizes too")
	}
	return nil
}

// Possible checks every cell of the matrix: the cells that can run, and
// an error listing those that cannot (RSA key transport in TLS 1.3, DHE
// with Go's crypto/tls, ...) unless skip is set and some can run.
// skipped counts the impossible cells left out.
func (d Dimensions) Possible(skip bool) (ok []Cell, skipped int, err error) {
	cells := d.Cells()
	var problems []string
	for _, c := range cells {
		if err := c.Validate(); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		ok = append(ok, c)
	}
	if len(problems) > 0 && (!skip || len(ok) == 0) {
		msg := fmt.Sprintf("%d of %d cells are impossible:\n  %s", len(problems), len(cells), strings.Join(problems, "\n  "))
		if len(ok) > 0 {
			msg += "\n(--skip-impossible runs the other " + fmt.Sprint(len(ok)) + ")"
		}
		return nil, 0, fmt.Errorf("%s", msg)
	}
	return ok, len(problems), nil
}

// PresetNames lists the presets' names, for help.
func PresetNames() []string {
	var out []string
	for _, p := range Presets {
		out = append(out, p.Name)
	}
	return out
}
