package probe

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// WriteTable writes a readable report of each probe.
func WriteTable(w io.Writer, reports ...*Report) error {
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := writeOne(w, r); err != nil {
			return err
		}
	}
	return nil
}

func writeOne(w io.Writer, r *Report) error {
	sni := ""
	if r.SNI != "" {
		sni = ", SNI " + r.SNI
	}
	fmt.Fprintf(w, "cryptocost probe %s (%s%s) · %s · %d connections · %s\n", r.Target, cmp.Or(r.Address, "-"), sni,
		r.Started.Format(time.RFC3339), r.Connections, r.Status)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	section := func(title string) {
		tw.Flush()
		fmt.Fprintf(w, "\n%s\n", title)
	}

	section("PROTOCOL VERSIONS")
	for _, v := range r.Versions {
		state := "no"
		switch {
		case !v.Tested:
			state = "-"
		case v.Accepted:
			state = "yes"
		}
		detail := v.Note
		if !v.Accepted && v.Tested {
			detail = joinNonEmpty("; ", shortResponse(v.Evidence.Response), v.Note)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Version, state, detail)
	}

	for _, l := range r.Suites {
		order := map[string]string{"server": "server's order of preference", "client": "the server follows the client's order; listed as offered",
			"one suite": "one suite", "unknown": "order unknown"}[l.Order]
		section(fmt.Sprintf("CIPHER SUITES %s (%d of %d offered accepted; %s)", l.Version, len(l.Suites), l.Offered, order))
		for i, s := range l.Suites {
			fs := ""
			if s.Ephemeral {
				fs = "forward secret"
			}
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", i+1, s.Name, s.KeyExchange, fs)
		}
		if l.Error != "" {
			fmt.Fprintf(tw, "  !\t%s\n", l.Error)
		}
	}

	if len(r.Clients) > 0 {
		section("TYPICAL MOBILE CLIENTS")
		for _, c := range r.Clients {
			if c.Error != "" {
				fmt.Fprintf(tw, "  %s\t%s\n", c.Client, shortResponse(c.Error))
				continue
			}
			extra := ""
			if c.ServerBytes > 0 {
				extra = fmt.Sprintf("server's first flight %d B", c.ServerBytes)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", c.Client, c.Version, c.Suite, c.KeyExchange, extra)
		}
	}

	kx := r.KeyExchange
	section("KEY EXCHANGE")
	if len(kx.TLS13Groups) > 0 {
		fmt.Fprintf(tw, "  TLS 1.3 groups\t%s\n", groupList(kx.TLS13Groups))
	}
	if len(kx.TLS12Curves) > 0 {
		fmt.Fprintf(tw, "  TLS 1.2 curves\t%s\n", groupList(kx.TLS12Curves))
	}
	for _, d := range kx.DHE {
		fmt.Fprintf(tw, "  DHE (%s)\t%d-bit prime, g = %s, %s\n", d.Version, d.PrimeBits, d.Generator, d.Group)
	}
	if len(kx.FFDHE) > 0 {
		fmt.Fprintf(tw, "  RFC 7919 groups in TLS ≤ 1.2\t%s\n", groupList(kx.FFDHE))
	} else if kx.FFDHENote != "" {
		fmt.Fprintf(tw, "  RFC 7919 in TLS ≤ 1.2\t%s\n", kx.FFDHENote)
	}
	if e := kx.RSAExport; e != nil {
		key := "the certificate's key (no ServerKeyExchange)"
		if e.Temporary {
			key = "a temporary key in the ServerKeyExchange, e = " + e.Exponent
		}
		fmt.Fprintf(tw, "  RSA export (%s)\t%d-bit RSA, %s — breakable (FREAK, CVE-2015-0204)\n", e.Version, e.ModulusBits, key)
	}
	fmt.Fprintf(tw, "  ephemeral key exchange\t%s\n", yesNo(kx.Ephemeral))
	for _, e := range kx.Errors {
		fmt.Fprintf(tw, "  !\t%s\n", e)
	}

	for _, c := range r.Chains {
		section(fmt.Sprintf("CERTIFICATE CHAIN (%s)", c.Source))
		fmt.Fprintf(tw, "  %d certificates, %d B Certificate message (%d B DER); OCSP stapled: %s; handshake signature: %s\n",
			c.Count, c.MessageBytes, c.DERBytes, stapled(c), cmp.Or(c.HandshakeSignature, "-"))
		fmt.Fprintf(tw, "  %s\n", c.Verified)
		tw.Flush()
		fmt.Fprintln(tw, "  #\tSUBJECT\tKEY\tSIGNED WITH\tVALID FROM\tUNTIL\tBYTES")
		for i, ci := range c.Certificates {
			if ci.Error != "" {
				fmt.Fprintf(tw, "  %d\t(unparsable: %s)\t\t\t\t\t%d\n", i, ci.Error, ci.DERBytes)
				continue
			}
			fmt.Fprintf(tw, "  %d\t%s\t%s %d\t%s\t%s\t%s\t%d\n", i, truncate(ci.Subject, 40), ci.KeyType, ci.KeyBits,
				ci.SignatureAlgorithm, ci.NotBefore.Format("2006-01-02"), ci.NotAfter.Format("2006-01-02"), ci.DERBytes)
		}
	}

	if len(r.Resumption) > 0 {
		section(fmt.Sprintf("SESSION RESUMPTION (%d tries each: a fresh full handshake, then an attempt to resume it)", r.Settings.Tries))
		for _, s := range r.Resumption {
			detail := ""
			switch {
			case s.LifetimeSeconds != nil && *s.LifetimeSeconds == 0:
				detail = "lifetime hint 0 (unspecified, RFC 5077 §3.3)"
			case s.LifetimeSeconds != nil:
				detail = fmt.Sprintf("lifetime %d s", *s.LifetimeSeconds)
			}
			if s.TicketsPerHandshake > 1 {
				detail += fmt.Sprintf(", %d tickets per handshake", s.TicketsPerHandshake)
			}
			if s.Error != "" {
				detail = joinNonEmpty("; ", detail, shortResponse(s.Error))
			} else if s.Issued < s.Tries {
				detail = joinNonEmpty("; ", detail, fmt.Sprintf("issued in %d of %d full handshakes", s.Issued, s.Tries))
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d/%d\t%.0f%%\t%s\n", s.Mechanism, cmp.Or(versionOrEmpty(s.Version), "-"), s.Resumed, s.Tries, 100*s.Rate, detail)
		}
	}

	if r.Run != nil && len(r.Run.Results) > 0 {
		section("HANDSHAKE COST (measured here; packets modelled, marked *)")
		energies := energyMetrics(r.Run.Results)
		head := "  HANDSHAKE\tVERSION\tSUITE\tKEY EXCHANGE\tBYTES UP\tBYTES DOWN\tROUND TRIPS\tTIME\tPACKETS UP/DOWN*"
		for _, name := range energies {
			head += "\t" + strings.ToUpper(strings.ReplaceAll(name, "/", " ")) + " (J)†"
		}
		fmt.Fprintln(tw, head)
		for _, res := range r.Run.Results {
			name := strings.TrimPrefix(res.Subject.Name, r.Target+"/")
			up := median(res.Metric("bytes-up"))
			if m := res.Metric("bytes-up"); m != nil && m.Label == result.Estimated {
				up += "*"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%s", name, res.Subject.Params["version"],
				res.Subject.Params["suite"], cmp.Or(res.Subject.Params["key_exchange"], "-"), up, median(res.Metric("bytes-down")),
				median(res.Metric("round-trips")), durationMedian(res.Metric("handshake-time")),
				median(res.Metric("packets-up")), median(res.Metric("packets-down")))
			for _, e := range energies {
				fmt.Fprintf(tw, "\t%s", joules(res.Metric(e)))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		fmt.Fprintf(w, "  medians of %d tries; TLS bytes, without TCP/IP headers. * %s\n", r.Settings.Tries, HeaderModel)
		for _, e := range energies {
			fmt.Fprintf(w, "  † %s: %s\n", e, energyMethod(r.Run.Results, e))
		}
	}
	tw.Flush()
	if len(r.Errors) > 0 {
		fmt.Fprintln(w, "\nNOT ESTABLISHED")
		for _, e := range r.Errors {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	fmt.Fprintln(w, "\nEvery finding's evidence (the ClientHello sent, the answer) is in --format json.")
	return nil
}

func groupList(gs []GroupFinding) string {
	var parts []string
	for _, g := range gs {
		s := g.Name
		switch {
		case g.ShareUp > 0 && g.ShareDown > 0:
			s += fmt.Sprintf(" (%s, shares %d/%d B)", g.Kind, g.ShareUp, g.ShareDown)
		case g.Kind == GroupHybrid || g.Kind == GroupPQ:
			s += fmt.Sprintf(" (%s)", g.Kind)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func stapled(c Chain) string {
	if c.OCSPStapled {
		return fmt.Sprintf("yes (%d B)", c.OCSPBytes)
	}
	return "no"
}

func median(m *result.Metric) string {
	if m == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f", m.Summary.Median)
}

// energyMetrics are the joule metrics the costing stage added to the
// handshakes (energy/radio from --link), in the order first seen.
func energyMetrics(rs []result.Result) []string {
	var names []string
	for _, r := range rs {
		for _, m := range r.Metrics {
			if strings.HasPrefix(m.Name, "energy/") && m.Unit == "J" && !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
			}
		}
	}
	return names
}

// energyMethod is how the first result that has it priced metric name,
// with its label (modelled, estimated).
func energyMethod(rs []result.Result, name string) string {
	for _, r := range rs {
		if m := r.Metric(name); m != nil {
			return fmt.Sprintf("%s, %s", m.Label, m.Method)
		}
	}
	return ""
}

func joules(m *result.Metric) string {
	if m == nil {
		return "-"
	}
	return fmt.Sprintf("%.4g", m.Summary.Median)
}

func durationMedian(m *result.Metric) string {
	if m == nil {
		return "-"
	}
	return time.Duration(m.Summary.Median * 1e9).Round(10 * time.Microsecond).String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func versionOrEmpty(v Version) string {
	if v == 0 {
		return ""
	}
	return v.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// shortResponse keeps the gist of an evidence response for a table cell.
func shortResponse(s string) string {
	return truncate(s, 90)
}

// WriteCompare writes probes side by side, one column per service, in the
// layout of S000's service table (protocol versions, server software,
// default suite, accepted suites, certificate bytes, server key bits,
// session resumption, ephemeral DH), followed by the measured costs.
func WriteCompare(w io.Writer, reports ...*Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(label string, f func(r *Report) string) {
		cells := []string{label}
		for _, r := range reports {
			cells = append(cells, f(r))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	row("", func(r *Report) string { return r.Target })
	row("protocol versions", func(r *Report) string {
		var vs []string
		for _, v := range r.Versions {
			if v.Accepted {
				vs = append(vs, strings.TrimPrefix(v.Version.String(), "TLS "))
			}
		}
		return cmp.Or(strings.Join(vs, ", "), "-")
	})
	row("server software", func(*Report) string { return "not visible in TLS" })
	row("default suite (Go client)", func(r *Report) string { return pickSuite(r, "go-default") })
	row("S000-era client suite", func(r *Report) string { return pickSuite(r, "s000-era") })
	row("accepted suites", func(r *Report) string {
		var parts []string
		for _, l := range r.Suites {
			parts = append(parts, fmt.Sprintf("%d in %s", len(l.Suites), strings.TrimPrefix(l.Version.String(), "TLS ")))
		}
		return cmp.Or(strings.Join(parts, ", "), "-")
	})
	row("certificate bytes", func(r *Report) string {
		if len(r.Chains) == 0 {
			return "-"
		}
		c := r.Chains[0]
		if c.Count == 1 {
			return fmt.Sprintf("%d (1 certificate)", c.MessageBytes)
		}
		return fmt.Sprintf("%d (%d certificates)", c.MessageBytes, c.Count)
	})
	row("server key bits", func(r *Report) string {
		if len(r.Chains) == 0 || len(r.Chains[0].Certificates) == 0 {
			return "-"
		}
		ci := r.Chains[0].Certificates[0]
		return fmt.Sprintf("%s %d", ci.KeyType, ci.KeyBits)
	})
	row("session resumption", func(r *Report) string {
		var parts []string
		any := false
		for _, s := range r.Resumption {
			parts = append(parts, fmt.Sprintf("%s %d/%d", shortMech(s.Mechanism), s.Resumed, s.Tries))
			any = any || s.Resumed > 0
		}
		if len(parts) == 0 {
			return "-"
		}
		return yesNo(any) + " (" + strings.Join(parts, ", ") + ")"
	})
	row("ephemeral DH", func(r *Report) string {
		kx := r.KeyExchange
		var parts []string
		if len(kx.TLS13Groups) > 0 {
			parts = append(parts, kx.TLS13Groups[0].Name)
		}
		if len(kx.TLS12Curves) > 0 {
			parts = append(parts, "ECDHE "+kx.TLS12Curves[0].Name)
		}
		for _, d := range kx.DHE {
			parts = append(parts, fmt.Sprintf("DHE %d", d.PrimeBits))
		}
		if len(parts) == 0 {
			return yesNo(kx.Ephemeral)
		}
		return yesNo(kx.Ephemeral) + " (" + strings.Join(parts, ", ") + ")"
	})
	for _, kind := range []string{"full", "resumed"} {
		row(kind+" handshake B up/down", func(r *Report) string {
			res := firstResult(r, kind)
			if res == nil {
				return "-"
			}
			return median(res.Metric("bytes-up")) + "/" + median(res.Metric("bytes-down"))
		})
		row(kind+" round trips, time", func(r *Report) string {
			res := firstResult(r, kind)
			if res == nil {
				return "-"
			}
			return median(res.Metric("round-trips")) + ", " + durationMedian(res.Metric("handshake-time"))
		})
	}
	row("status", func(r *Report) string { return string(r.Status) })
	return tw.Flush()
}

func pickSuite(r *Report, client string) string {
	for _, c := range r.Clients {
		if c.Client == client {
			if c.Error != "" {
				return "refused"
			}
			return fmt.Sprintf("%s %s", strings.TrimPrefix(c.Version.String(), "TLS "), c.Suite)
		}
	}
	return "-"
}

func shortMech(m string) string {
	switch m {
	case MechTLS13PSK:
		return "PSK"
	case MechTicket:
		return "ticket"
	}
	return "ID"
}

// firstResult is the handshake of a kind a default client would make: the
// highest version, and of resumptions the measured kinds (PSK, ticket)
// before the session ID's partly estimated one.
func firstResult(r *Report, kind string) *result.Result {
	if r.Run == nil {
		return nil
	}
	rank := func(res *result.Result) int {
		mech := []string{"tls12-session-id", "tls12-ticket", "tls12", "tls13-psk", "tls13"}
		return slices.Index(mech, res.Subject.Params["mechanism"])
	}
	var best *result.Result
	for i := range r.Run.Results {
		res := &r.Run.Results[i]
		if res.Subject.Params["handshake"] != kind {
			continue
		}
		if best == nil || rank(res) > rank(best) {
			best = res
		}
	}
	return best
}
