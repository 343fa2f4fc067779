package tlslab

import (
	"fmt"
	"slices"
	"strings"
)

// The matrix's dimensions. Each value is the string the CLI flag takes.
type (
	Version     string
	KeyExchange string
	Bulk        string
	CertKind    string
	Resumption  string
	Direction   string
)

const (
	TLS10 Version = "1.0"
	TLS12 Version = "1.2"
	TLS13 Version = "1.3"
)

const (
	KexRSA            KeyExchange = "rsa"            // RSA key transport (TLS ≤ 1.2)
	KexDHE            KeyExchange = "dhe"            // finite-field DHE: DHE-RSA suites (≤ 1.2), ffdhe2048 (1.3)
	KexP256           KeyExchange = "ecdhe-p256"     // ECDHE over P-256
	KexX25519         KeyExchange = "x25519"         // ECDHE over Curve25519
	KexX25519MLKEM768 KeyExchange = "x25519mlkem768" // hybrid, draft-ietf-tls-ecdhe-mlkem (TLS 1.3)
)

const (
	BulkAES128CBC Bulk = "aes128-cbc-sha"
	BulkAES256CBC Bulk = "aes256-cbc-sha"
	BulkAES128GCM Bulk = "aes128-gcm"
	BulkAES256GCM Bulk = "aes256-gcm"
	BulkChaCha20  Bulk = "chacha20-poly1305"
)

const (
	CertRSA1024   CertKind = "rsa1024"
	CertRSA2048   CertKind = "rsa2048"
	CertRSA3072   CertKind = "rsa3072"
	CertRSA4096   CertKind = "rsa4096"
	CertECDSAP256 CertKind = "ecdsa-p256"
	CertECDSAP384 CertKind = "ecdsa-p384"
	CertEd25519   CertKind = "ed25519"
)

const (
	ResumeNone      Resumption = "none"
	ResumeSessionID Resumption = "session-id" // TLS ≤ 1.2, server-side session cache (RFC 5246 §7.3)
	ResumeTicket    Resumption = "ticket"     // TLS ≤ 1.2, RFC 5077 tickets
	ResumePSK       Resumption = "psk"        // TLS 1.3 PSK with (EC)DHE (psk_dhe_ke, RFC 8446 §4.2.9)
	ResumePSKOnly   Resumption = "psk-ke"     // TLS 1.3 PSK without (EC)DHE (psk_ke, RFC 8446 §4.2.9)
)

const (
	Up   Direction = "up"   // client → server
	Down Direction = "down" // server → client
)

// The values each dimension can take, in the order help and errors list them.
var (
	Versions     = []Version{TLS10, TLS12, TLS13}
	KeyExchanges = []KeyExchange{KexRSA, KexDHE, KexP256, KexX25519, KexX25519MLKEM768}
	Bulks        = []Bulk{BulkAES128CBC, BulkAES256CBC, BulkAES128GCM, BulkAES256GCM, BulkChaCha20}
	CertKinds    = []CertKind{CertRSA1024, CertRSA2048, CertRSA3072, CertRSA4096, CertECDSAP256, CertECDSAP384, CertEd25519}
	Resumptions  = []Resumption{ResumeNone, ResumeSessionID, ResumeTicket, ResumePSK, ResumePSKOnly}
)

// MaxTransfer bounds a cell's transfer (the lab holds the streams in
// memory for the tap and the pcapng).
const MaxTransfer = 64 << 20

// Cell is one point of the matrix: one configuration of a connection.
type Cell struct {
	Version     Version
	KeyExchange KeyExchange
	Bulk        Bulk
	Cert        CertKind
	// Chain is the number of certificates the server sends (leaf and
	// intermediates; the root is never sent), 1 to 3.
	Chain      int
	ClientAuth bool
	Resumption Resumption
	// Transfer is the application payload after the handshake, in
	// Direction; 0 for a handshake only.
	Transfer  int
	Direction Direction
	// Server and Client name the peer implementations ("go", "openssl").
	Server, Client string
	// Plain is the baseline: the same transfer over plain TCP, no TLS.
	Plain bool
}

// Name is the cell's stable, unique name, used as the result's subject:
// "tls1.3/x25519/aes128-gcm/ecdsa-p256x2/auth/psk/down-10240/go-go",
// "tcp/down-10240".
func (c Cell) Name() string {
	if c.Plain {
		return fmt.Sprintf("tcp/%s-%d", c.Direction, c.Transfer)
	}
	auth := "noauth"
	if c.ClientAuth {
		auth = "auth"
	}
	xfer := "handshake"
	if c.Transfer > 0 {
		xfer = fmt.Sprintf("%s-%d", c.Direction, c.Transfer)
	}
	return fmt.Sprintf("tls%s/%s/%s/%sx%d/%s/%s/%s/%s-%s", c.Version, c.KeyExchange, c.Bulk, c.Cert, c.Chain, auth,
		c.Resumption, xfer, c.Server, c.Client)
}

// Params is the cell as result subject parameters.
func (c Cell) Params() map[string]string {
	if c.Plain {
		return map[string]string{"protocol": "tcp", "transfer": fmt.Sprint(c.Transfer), "direction": string(c.Direction)}
	}
	p := map[string]string{
		"protocol": "tls" + string(c.Version), "version": string(c.Version), "kex": string(c.KeyExchange),
		"bulk": string(c.Bulk), "cert": string(c.Cert), "chain": fmt.Sprint(c.Chain),
		"client_auth": fmt.Sprint(c.ClientAuth), "resumption": string(c.Resumption),
		"transfer": fmt.Sprint(c.Transfer), "direction": string(c.Direction),
		"server": c.Server, "client": c.Client,
	}
	if s, err := c.Suite(); err == nil {
		p["suite"] = s.Name
	}
	if c.Resumption == ResumePSKOnly && c.Client == "go" {
		p["resumption_client"] = "the lab's psk_ke client (tlslab/pskke.go) resumes the ticket of a crypto/tls full handshake"
	}
	return p
}

// wire is the version's code point.
func (v Version) wire() uint16 {
	switch v {
	case TLS10:
		return VersionTLS10
	case TLS12:
		return VersionTLS12
	case TLS13:
		return VersionTLS13
	}
	return 0
}

// certAuth is the suite authentication a certificate kind gives in
// TLS ≤ 1.2 (Ed25519 uses the ECDSA suites, RFC 8422 §5.1.1).
func (k CertKind) certAuth() string {
	if strings.HasPrefix(string(k), "rsa") {
		return "rsa"
	}
	return "ecdsa"
}

// Suite resolves the cell's cipher suite, or says why none exists.
func (c Cell) Suite() (Suite, error) {
	v := c.Version.wire()
	for _, s := range suites {
		if s.Bulk != c.Bulk {
			continue
		}
		if v == VersionTLS13 {
			if s.TLS13 {
				return s, nil
			}
			continue
		}
		kex := string(c.KeyExchange)
		if c.KeyExchange == KexP256 || c.KeyExchange == KexX25519 {
			kex = "ecdhe"
		}
		if !s.TLS13 && s.KeyExchange == kex && s.Auth == c.Cert.certAuth() && v >= s.MinVersion {
			return s, nil
		}
	}
	return Suite{}, fmt.Errorf("no TLS %s cipher suite with %s key exchange, %s certificate and %s", c.Version, c.KeyExchange, c.Cert, c.Bulk)
}

// Check reports why the cell is impossible in itself (whatever the peers).
func (c Cell) Check() error {
	if c.Plain {
		if c.Transfer <= 0 || c.Transfer > MaxTransfer {
			return fmt.Errorf("plain TCP needs a transfer of 1 B to %d MiB", MaxTransfer>>20)
		}
		return nil
	}
	if !slices.Contains(Versions, c.Version) {
		return fmt.Errorf("unknown TLS version %q", c.Version)
	}
	if !slices.Contains(KeyExchanges, c.KeyExchange) {
		return fmt.Errorf("unknown key exchange %q", c.KeyExchange)
	}
	if !slices.Contains(Bulks, c.Bulk) {
		return fmt.Errorf("unknown bulk cipher %q", c.Bulk)
	}
	if !slices.Contains(CertKinds, c.Cert) {
		return fmt.Errorf("unknown certificate %q", c.Cert)
	}
	if !slices.Contains(Resumptions, c.Resumption) {
		return fmt.Errorf("unknown resumption %q", c.Resumption)
	}
	if c.Chain < 1 || c.Chain > 3 {
		return fmt.Errorf("chain length %d: the lab's PKI makes chains of 1 to 3 certificates", c.Chain)
	}
	if c.Transfer < 0 || c.Transfer > MaxTransfer {
		return fmt.Errorf("transfer of %d bytes: want 0 to %d MiB", c.Transfer, MaxTransfer>>20)
	}
	if c.Direction != Up && c.Direction != Down {
		return fmt.Errorf("direction %q: want up or down", c.Direction)
	}
	tls13 := c.Version == TLS13
	switch {
	case c.KeyExchange == KexRSA && tls13:
		return fmt.Errorf("RSA key transport does not exist in TLS 1.3 (RFC 8446 §1.2)")
	case c.KeyExchange == KexX25519MLKEM768 && !tls13:
		return fmt.Errorf("X25519MLKEM768 is a TLS 1.3 key share (draft-ietf-tls-ecdhe-mlkem)")
	case c.Cert == CertEd25519 && c.Version == TLS10:
		return fmt.Errorf("Ed25519 certificates need TLS 1.2 or later (RFC 8422 §5.1.1)")
	case (c.Resumption == ResumePSK || c.Resumption == ResumePSKOnly) && !tls13:
		return fmt.Errorf("resumption %q is TLS 1.3's; TLS %s resumes with session-id or ticket", c.Resumption, c.Version)
	case (c.Resumption == ResumeSessionID || c.Resumption == ResumeTicket) && tls13:
		return fmt.Errorf("resumption %q is TLS 1.2's; TLS 1.3 resumes with psk or psk-ke", c.Resumption)
	}
	if _, err := c.Suite(); err != nil {
		return err
	}
	return nil
}

// Validate checks the cell and that its peers can play it. The error says
// what is wrong and which changes of one dimension (or of the peers)
// would work.
func (c Cell) Validate() error {
	err := c.possible()
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %v\n  what would work: %s", c.Name(), err, strings.Join(c.alternatives(), "; "))
}

func (c Cell) possible() error {
	if err := c.Check(); err != nil {
		return err
	}
	if c.Plain {
		return nil
	}
	for _, role := range []struct {
		name string
		peer string
		r    Role
	}{{"server", c.Server, RoleServer}, {"client", c.Client, RoleClient}} {
		p, err := PeerByName(role.peer)
		if err != nil {
			return fmt.Errorf("--%s: %w", role.name, err)
		}
		if err := p.Supports(role.r, c); err != nil {
			return fmt.Errorf("%s %s: %w", role.peer, role.name, err)
		}
	}
	return nil
}

// alternatives lists the single-dimension changes that make the cell
// possible, as flags.
func (c Cell) alternatives() []string {
	var out []string
	try := func(flag string, values []string, set func(*Cell, string)) {
		var ok []string
		for _, v := range values {
			alt := c
			set(&alt, v)
			if alt != c && alt.possible() == nil {
				ok = append(ok, v)
			}
		}
		if len(ok) > 0 {
			out = append(out, flag+" "+strings.Join(ok, ","))
		}
	}
	try("--version", strs(Versions), func(x *Cell, v string) { x.Version = Version(v) })
	try("--kex", strs(KeyExchanges), func(x *Cell, v string) { x.KeyExchange = KeyExchange(v) })
	try("--bulk", strs(Bulks), func(x *Cell, v string) { x.Bulk = Bulk(v) })
	try("--cert", strs(CertKinds), func(x *Cell, v string) { x.Cert = CertKind(v) })
	try("--resumption", strs(Resumptions), func(x *Cell, v string) { x.Resumption = Resumption(v) })
	var peers []string
	for _, s := range PeerNames() {
		for _, cl := range PeerNames() {
			alt := c
			alt.Server, alt.Client = s, cl
			if alt != c && alt.possible() == nil {
				peers = append(peers, "--server "+s+" --client "+cl)
			}
		}
	}
	if len(peers) > 0 {
		out = append(out, strings.Join(peers, " or "))
	}
	if len(out) == 0 {
		out = c.pairAlternatives()
	}
	if len(out) == 0 {
		out = append(out, "no change of one or two dimensions: see `cryptocost tls --help` for the matrix")
	}
	return out
}

// dimension is one flag of the matrix and how to set it.
type dimension struct {
	flag   string
	values []string
	set    func(*Cell, string)
}

func dimensions() []dimension {
	return []dimension{
		{"--version", strs(Versions), func(x *Cell, v string) { x.Version = Version(v) }},
		{"--kex", strs(KeyExchanges), func(x *Cell, v string) { x.KeyExchange = KeyExchange(v) }},
		{"--bulk", strs(Bulks), func(x *Cell, v string) { x.Bulk = Bulk(v) }},
		{"--cert", strs(CertKinds), func(x *Cell, v string) { x.Cert = CertKind(v) }},
		{"--resumption", strs(Resumptions), func(x *Cell, v string) { x.Resumption = Resumption(v) }},
		{"--server", PeerNames(), func(x *Cell, v string) { x.Server = v }},
		{"--client", PeerNames(), func(x *Cell, v string) { x.Client = v }},
	}
}

// pairAlternatives lists up to four changes of two dimensions that make
// the cell possible, keeping the cell's first dimension fixed last.
func (c Cell) pairAlternatives() []string {
	var out []string
	dims := dimensions()
	for i := len(dims) - 1; i >= 0; i-- {
		for j := i - 1; j >= 0; j-- {
			for _, a := range dims[i].values {
				for _, b := range dims[j].values {
					alt := c
					dims[i].set(&alt, a)
					dims[j].set(&alt, b)
					if alt == c || alt.possible() != nil {
						continue
					}
					out = append(out, fmt.Sprintf("%s %s %s %s", dims[j].flag, b, dims[i].flag, a))
					if len(out) == 4 {
						return out
					}
				}
			}
		}
	}
	return out
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// Dimensions are the values a matrix takes in each dimension; Cells is
// their product.
type Dimensions struct {
	Versions     []Version
	KeyExchanges []KeyExchange
	Bulks        []Bulk
	Certs        []CertKind
	Chains       []int
	ClientAuth   []bool
	Resumptions  []Resumption
	Transfers    []int
	Direction    Direction
	Server       string
	Client       string
	// Plain adds a plain-TCP baseline for every transfer size.
	Plain bool
}

// Cells returns the product of the dimensions, in order, with the plain
// TCP baselines last.
func (d Dimensions) Cells() []Cell {
	var out []Cell
	transfers := d.Transfers
	if len(transfers) == 0 {
		transfers = []int{0}
	}
	for _, v := range d.Versions {
		for _, k := range d.KeyExchanges {
			for _, b := range d.Bulks {
				for _, ct := range d.Certs {
					for _, ch := range d.Chains {
						for _, auth := range d.ClientAuth {
							for _, r := range d.Resumptions {
								for _, t := range transfers {
									out = append(out, Cell{Version: v, KeyExchange: k, Bulk: b, Cert: ct, Chain: ch,
										ClientAuth: auth, Resumption: r, Transfer: t, Direction: d.Direction,
										Server: d.Server, Client: d.Client})
								}
							}
						}
					}
				}
			}
		}
	}
	if d.Plain {
		for _, t := range transfers {
			if t > 0 {
				out = append(out, Cell{Plain: true, Transfer: t, Direction: d.Direction})
			}
		}
	}
	return out
}

// Preset is a named matrix.
type Preset struct {
	Name        string
	Description string
	Dimensions  Dimensions
}

// Presets are the named matrices `--preset` selects.
var Presets = []Preset{
	{
		Name: "seed000",
		Description: "the S000 study's handshakes: TLS 1.0, RSA and DHE-RSA key exchange with AES-128/256-CBC-SHA, " +
			"a 1024-bit RSA server key, with and without client authentication, full and session-ID-resumed; " +
			"OpenSSL on both sides, as in the study",
		Dimensions: Dimensions{
			Versions: []Version{TLS10}, KeyExchanges: []KeyExchange{KexRSA, KexDHE},
			Bulks: []Bulk{BulkAES128CBC, BulkAES256CBC}, Certs: []CertKind{CertRSA1024}, Chains: []int{2},
			ClientAuth: []bool{false, true}, Resumptions: []Resumption{ResumeNone, ResumeSessionID},
			Direction: Down, Server: "openssl", Client: "openssl",
		},
	},
	{
		Name: "seed000-transfers",
		Description: "the S000 study's transfers: 1 KiB to 5 MiB from the server with TLS 1.0 RSA-AES-128-SHA and " +
			"DHE-RSA-AES-128-SHA, and over plain TCP; OpenSSL on both sides",
		Dimensions: Dimensions{
			Versions: []Version{TLS10}, KeyExchanges: []KeyExchange{KexRSA, KexDHE},
			Bulks: []Bulk{BulkAES128CBC}, Certs: []CertKind{CertRSA1024}, Chains: []int{2},
			ClientAuth: []bool{false}, Resumptions: []Resumption{ResumeNone},
			Transfers: []int{1 << 10, 10 << 10, 50 << 10, 100 << 10, 500 << 10, 1 << 20, 5 << 20},
			Direction: Down, Server: "openssl", Client: "openssl", Plain: true,
		},
	},
	{
		Name: "modern",
		Description: "TLS 1.3 with AES-128-GCM: X25519, P-256 and hybrid X25519MLKEM768 key exchange, ECDSA P-256, " +
			"Ed25519 and RSA-2048 certificates (chain of 2), with and without client authentication, full and PSK-resumed; " +
			"Go crypto/tls on both sides",
		Dimensions: Dimensions{
			Versions: []Version{TLS13}, KeyExchanges: []KeyExchange{KexX25519, KexP256, KexX25519MLKEM768},
			Bulks: []Bulk{BulkAES128GCM}, Certs: []CertKind{CertECDSAP256, CertEd25519, CertRSA2048}, Chains: []int{2},
			ClientAuth: []bool{false, true}, Resumptions: []Resumption{ResumeNone, ResumePSK},
			Direction: Down, Server: "go", Client: "go",
		},
	},
	{
		Name: "tls13-resumption",
		Description: "TLS 1.3 resumption side by side: a full handshake, a PSK with (EC)DHE (psk_dhe_ke) and a PSK alone " +
			"(psk_ke), over X25519 and P-256, with ECDSA P-256 and RSA-2048 certificates (chain of 2); OpenSSL server " +
			"(the peer that accepts psk_ke), Go client (crypto/tls; the lab's own client for psk_ke)",
		Dimensions: Dimensions{
			Versions: []Version{TLS13}, KeyExchanges: []KeyExchange{KexX25519, KexP256},
			Bulks: []Bulk{BulkAES128GCM}, Certs: []CertKind{CertECDSAP256, CertRSA2048}, Chains: []int{2},
			ClientAuth: []bool{false}, Resumptions: []Resumption{ResumeNone, ResumePSK, ResumePSKOnly},
			Direction: Down, Server: "openssl", Client: "go",
		},
	},
}

// PresetByName finds a preset, or lists them.
func PresetByName(name string) (Preset, error) {
	for _, p := range Presets {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	var names []string
	for _, p := range Presets {
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("unknown preset %q: want one of %s", name, strings.Join(names, ", "))
}
