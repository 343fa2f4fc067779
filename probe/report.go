package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// ReportSchema identifies the JSON shape of a Report (docs/probe.md); bump
// on incompatible change.
const ReportSchema = "cryptocost/probe/v1"

// Report is everything a probe found about one TLS service, each finding
// with the evidence that established it, and the measured handshake costs
// as a cryptocost run (so costing, the store and reports work on them).
type Report struct {
	Schema  string `json:"schema"`
	Target  string `json:"target"`  // HOST:PORT as given
	Address string `json:"address"` // the address connected to
	SNI     string `json:"sni,omitempty"`
	// Status is complete, interrupted (Ctrl-C or the time limit: findings
	// so far kept) or failed (the service could not be reached).
	Status   result.Status `json:"status"`
	Started  time.Time     `json:"started"`
	Finished time.Time     `json:"finished"`
	Settings Settings      `json:"settings"`

	Versions    []VersionFinding    `json:"versions"`
	Suites      []SuiteList         `json:"suites"`
	Clients     []ClientPick        `json:"clients"`
	KeyExchange KeyExchangeFindings `json:"key_exchange"`
	Chains      []Chain             `json:"certificate_chains"`
	Resumption  []Resumption        `json:"resumption"`
	// Connections is how many connections the probe opened, and
	// MostBytesRead the most it read from any one (bounded by
	// Settings.MaxConnBytes).
	Connections   int `json:"connections"`
	MostBytesRead int `json:"most_bytes_read"`
	// Errors are what could not be established, and why.
	Errors []string `json:"errors,omitempty"`
	// Run holds the measured costs: one result per handshake kind with
	// bytes, round trips, time and the packet trace.
	Run *result.Run `json:"run"`
}

// Settings are the knobs the probe ran with.
type Settings struct {
	Tries        int      `json:"tries"`
	TimeoutNs    int64    `json:"timeout_ns"`
	TimeLimitNs  int64    `json:"time_limit_ns"`
	Concurrency  int      `json:"concurrency"`
	MaxConnBytes int      `json:"max_conn_bytes"`
	Suites       []string `json:"suites,omitempty"`   // the suites offered, when restricted
	Versions     []string `json:"versions,omitempty"` // the versions tested, when restricted
}

// VersionFinding says whether the server accepts a protocol version.
type VersionFinding struct {
	Version  Version `json:"version"`
	Accepted bool    `json:"accepted"`
	// Tested is false when the version was left out (--versions).
	Tested   bool     `json:"tested"`
	Note     string   `json:"note,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// SuiteList is the cipher suites a server accepts in one version.
type SuiteList struct {
	Version Version `json:"version"`
	// Suites in the server's order of preference when Order is "server";
	// in the order the probe offered them otherwise.
	Suites []SuiteFinding `json:"suites"`
	// Order is "server" (the server picks by its own preference), "client"
	// (it honours the client's order), "one suite" or "unknown".
	Order         string     `json:"order"`
	OrderEvidence []Evidence `json:"order_evidence,omitempty"`
	// Offered is how many suites the probe could offer in this version.
	Offered int    `json:"offered"`
	Error   string `json:"error,omitempty"`
}

// SuiteFinding is one accepted suite.
type SuiteFinding struct {
	ID          string      `json:"id"` // "0xc02f"
	Name        string      `json:"name"`
	KeyExchange KeyExchange `json:"key_exchange"`
	Ephemeral   bool        `json:"ephemeral"`
	Evidence    Evidence    `json:"evidence"`
}

// ClientPick is what the server negotiates with a typical client.
type ClientPick struct {
	Client      string  `json:"client"` // "go-default", "s000-era"
	Description string  `json:"description"`
	Version     Version `json:"version,omitempty"`
	Suite       string  `json:"suite,omitempty"`
	KeyExchange string  `json:"key_exchange,omitempty"`
	// ServerBytes is what the server sent in answer to this client's
	// hello up to its ServerHelloDone (S000-era client; TLS ≤ 1.2).
	ServerBytes int      `json:"server_bytes,omitempty"`
	Error       string   `json:"error,omitempty"`
	Evidence    Evidence `json:"evidence"`
}

// KeyExchangeFindings is what the server's key exchange offers: TLS 1.3 groups,
// TLS 1.2 curves and DHE parameters.
type KeyExchangeFindings struct {
	// TLS13Groups in the order the server chose them (its preference,
	// unless it follows the client's).
	TLS13Groups []GroupFinding `json:"tls13_groups"`
	// TLS12Curves: named curves for ECDHE suites in TLS ≤ 1.2.
	TLS12Curves []GroupFinding `json:"tls12_curves"`
	// DHE: the finite-field parameters of DHE suites in TLS ≤ 1.2.
	DHE []DHEParams `json:"dhe,omitempty"`
	// FFDHE: RFC 7919 groups the server negotiated when a TLS ≤ 1.2 client
	// offered only that group in supported_groups.
	FFDHE     []GroupFinding `json:"ffdhe_rfc7919,omitempty"`
	FFDHENote string         `json:"ffdhe_note,omitempty"`
	// RSAExport: the key of an RSA_EXPORT suite the server accepted (the
	// FREAK attack's precondition, CVE-2015-0204).
	RSAExport *RSAExportKey `json:"rsa_export,omitempty"`
	// Ephemeral says whether the server accepts any ephemeral (forward
	// secret) key exchange.
	Ephemeral bool     `json:"ephemeral"`
	Errors    []string `json:"errors,omitempty"`
}

// GroupFinding is one accepted named group.
type GroupFinding struct {
	ID   string    `json:"id"`
	Name string    `json:"name"`
	Kind GroupKind `json:"kind"`
	// ShareUp and ShareDown are the key share bytes each way when the
	// probe sent a real share and the server answered with its own.
	ShareUp   int        `json:"share_up,omitempty"`
	ShareDown int        `json:"share_down,omitempty"`
	Evidence  []Evidence `json:"evidence"`
}

// DHEParams are a server's DHE parameters.
type DHEParams struct {
	Version   Version `json:"version"`
	Suite     string  `json:"suite"`
	PrimeBits int     `json:"prime_bits"`
	Generator string  `json:"generator"`
	// Group names a well-known prime, or says the server generated its own.
	Group       string   `json:"group"`
	PublicBytes int      `json:"public_bytes"`
	Evidence    Evidence `json:"evidence"`
}

// RSAExportKey is the RSA key an RSA_EXPORT suite exchanged keys with: a
// temporary key from the ServerKeyExchange (RFC 2246 §7.4.3: sent when
// the certificate's key is longer than 512 bits), or, without one, the
// certificate's own.
type RSAExportKey struct {
	Version     Version `json:"version"`
	Suite       string  `json:"suite"`
	ModulusBits int     `json:"modulus_bits"`
	Exponent    string  `json:"exponent,omitempty"`
	// Temporary: the key came in a ServerKeyExchange.
	Temporary bool     `json:"temporary"`
	Evidence  Evidence `json:"evidence"`
}

// Resumption is how often the server resumed sessions of one kind.
type Resumption struct {
	// Mechanism: "session ID" (RFC 5246 §7.3), "session ticket"
	// (RFC 5077) or "TLS 1.3 PSK" (RFC 8446 §2.2).
	Mechanism string  `json:"mechanism"`
	Version   Version `json:"version"`
	Client    string  `json:"client"`
	Tries     int     `json:"tries"`
	Resumed   int     `json:"resumed"`
	Rate      float64 `json:"rate"`
	// Issued is how many full handshakes got a ticket or session ID.
	Issued int `json:"issued"`
	// LifetimeSeconds is the ticket lifetime hint (TLS 1.2, RFC 5077
	// §3.3) or ticket_lifetime (TLS 1.3, RFC 8446 §4.6.1), as last seen.
	LifetimeSeconds *uint32 `json:"lifetime_s,omitempty"`
	// TicketsPerHandshake: TLS 1.3 servers may send several.
	TicketsPerHandshake int        `json:"tickets_per_handshake,omitempty"`
	Error               string     `json:"error,omitempty"`
	Evidence            []Evidence `json:"evidence"`
}

// WriteJSON writes the report (schema cryptocost/probe/v1). The run is
// written by the result package's json format, so it reads as every other
// cryptocost run (unbounded confidence limits become 0, as
// docs/result-schema.md says).
func WriteJSON(w io.Writer, reports ...*Report) error {
	type plain Report
	type withRun struct {
		*plain
		Run json.RawMessage `json:"run"`
	}
	format, err := result.FormatByName("json")
	if err != nil {
		return err
	}
	out := make([]withRun, len(reports))
	for i, r := range reports {
		out[i].plain = (*plain)(r)
		if r.Run == nil {
			out[i].Run = json.RawMessage("null")
			continue
		}
		var buf bytes.Buffer
		if err := format.Write(&buf, r.Run); err != nil {
			return fmt.Errorf("report %s: %w", r.Target, err)
		}
		out[i].Run = buf.Bytes()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if len(out) == 1 {
		return enc.Encode(out[0])
	}
	return enc.Encode(out)
}

// ReadJSON reads what WriteJSON wrote: one report or an array of them.
func ReadJSON(r io.Reader) ([]*Report, error) {
	var raw json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("not probe JSON: %w", err)
	}
	var reports []*Report
	if len(raw) > 0 && raw[0] == '[' {
		if err := json.Unmarshal(raw, &reports); err != nil {
			return nil, fmt.Errorf("not a probe report array: %w", err)
		}
	} else {
		var rep Report
		if err := json.Unmarshal(raw, &rep); err != nil {
			return nil, fmt.Errorf("not a probe report: %w", err)
		}
		reports = []*Report{&rep}
	}
	for i, rep := range reports {
		if rep.Schema != ReportSchema {
			return nil, fmt.Errorf("report %d: schema %q, want %q", i, rep.Schema, ReportSchema)
		}
		if rep.Run != nil {
			if err := rep.Run.Validate(); err != nil {
				return nil, fmt.Errorf("report %d: %w", i, err)
			}
		}
	}
	return reports, nil
}
