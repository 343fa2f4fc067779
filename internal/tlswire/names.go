package tlswire

import (
	"fmt"
	"slices"
	"strings"
)

// Version is a protocol version as it appears on the wire.
type Version uint16

// Protocol versions (RFC 6101 §5.1, RFC 2246 §6.2.1, RFC 4346, RFC 5246,
// RFC 8446 §4.2.1).
const (
	SSL30 Version = 0x0300
	TLS10 Version = 0x0301
	TLS11 Version = 0x0302
	TLS12 Version = 0x0303
	TLS13 Version = 0x0304
)

// Versions are the versions the probe tests, oldest first.
var Versions = []Version{SSL30, TLS10, TLS11, TLS12, TLS13}

func (v Version) String() string {
	switch v {
	case SSL30:
		return "SSL 3.0"
	case TLS10:
		return "TLS 1.0"
	case TLS11:
		return "TLS 1.1"
	case TLS12:
		return "TLS 1.2"
	case TLS13:
		return "TLS 1.3"
	}
	return fmt.Sprintf("0x%04x", uint16(v))
}

// MarshalText writes the readable name, so JSON says "TLS 1.2".
func (v Version) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (v *Version) UnmarshalText(b []byte) error {
	for _, c := range Versions {
		if c.String() == string(b) {
			*v = c
			return nil
		}
	}
	var n uint16
	if _, err := fmt.Sscanf(string(b), "0x%04x", &n); err != nil {
		return fmt.Errorf("unknown protocol version %q", b)
	}
	*v = Version(n)
	return nil
}

// ParseVersion reads "1.2", "TLS1.2", "tls12", "ssl3" and the like.
func ParseVersion(s string) (Version, error) {
	k := strings.NewReplacer(" ", "", ".", "", "_", "", "v", "").Replace(strings.ToLower(s))
	k = strings.TrimPrefix(strings.TrimPrefix(k, "tls"), "ssl")
	switch k {
	case "3", "30":
		return SSL30, nil
	case "10":
		return TLS10, nil
	case "11":
		return TLS11, nil
	case "12":
		return TLS12, nil
	case "13":
		return TLS13, nil
	}
	return 0, fmt.Errorf("unknown protocol version %q: want one of ssl3, 1.0, 1.1, 1.2, 1.3", s)
}

// KeyExchange is how a cipher suite agrees on keys.
type KeyExchange string

// Key exchange classes of TLS ≤ 1.2 cipher suites (RFC 5246 §7.4.3,
// RFC 4492, RFC 4279, RFC 5054, RFC 2712). TLS 1.3 suites leave the key
// exchange to the supported_groups / key_share extensions.
const (
	KexRSA   KeyExchange = "RSA"   // RSA key transport: no forward secrecy
	KexDHE   KeyExchange = "DHE"   // ephemeral finite-field Diffie-Hellman
	KexECDHE KeyExchange = "ECDHE" // ephemeral elliptic-curve Diffie-Hellman
	KexDH    KeyExchange = "DH"    // static DH from the certificate
	KexECDH  KeyExchange = "ECDH"  // static ECDH from the certificate
	KexPSK   KeyExchange = "PSK"
	KexSRP   KeyExchange = "SRP"
	KexKRB5  KeyExchange = "KRB5"
	KexOther KeyExchange = "other"
	KexTLS13 KeyExchange = "TLS 1.3" // (EC)DHE or hybrid via key_share
)

// Suite is a cipher suite with what its name says about it.
type Suite struct {
	ID          uint16
	Name        string
	KeyExchange KeyExchange
	// Anonymous suites authenticate no one (DH_anon, ECDH_anon).
	Anonymous bool
	// PSKHint: the ServerKeyExchange starts with a PSK identity hint
	// (DHE_PSK, ECDHE_PSK; RFC 4279 §3, RFC 5489 §2).
	PSKHint bool
	// Export suites (…_EXPORT_…, …_EXPORT1024_…) limit the key exchange
	// to 512 (1024) bits: an RSA_EXPORT server with a longer certificate
	// key sends a temporary RSA key in its ServerKeyExchange (RFC 2246
	// §7.4.3, §A.5; the FREAK attack, CVE-2015-0204, forces it).
	Export bool
	// MinVersion is TLS 1.2 for AEAD and SHA-256/384 MAC suites (RFC 5246
	// §1.2, RFC 5288, RFC 5289), TLS 1.3 for TLS 1.3 suites.
	MinVersion Version
	// TLS13 suites can be negotiated only in TLS 1.3 (RFC 8446 §B.4).
	TLS13 bool
}

// Ephemeral says whether the suite's key exchange is ephemeral (forward
// secret): DHE, ECDHE, or any TLS 1.3 suite.
func (s Suite) Ephemeral() bool {
	return s.KeyExchange == KexDHE || s.KeyExchange == KexECDHE || s.TLS13
}

// Usable says whether the suite can be offered in a ClientHello for v.
func (s Suite) Usable(v Version) bool {
	if s.TLS13 {
		return v == TLS13
	}
	return v < TLS13 && v >= s.MinVersion
}

var suites = func() []Suite {
	out := make([]Suite, 0, len(suiteTable))
	for _, e := range suiteTable {
		out = append(out, parseSuiteName(e.id, e.name))
	}
	return out
}()

// parseSuiteName derives a suite's properties from its IANA name,
// TLS_<KEX>_WITH_<CIPHER>_<MAC> (TLS ≤ 1.2) or TLS_<AEAD>_<HASH> (1.3).
func parseSuiteName(id uint16, name string) Suite {
	s := Suite{ID: id, Name: name, MinVersion: SSL30}
	if id>>8 == 0x13 {
		s.KeyExchange, s.TLS13, s.MinVersion = KexTLS13, true, TLS13
		return s
	}
	kx, cipher, ok := strings.Cut(strings.TrimPrefix(name, "TLS_"), "_WITH_")
	if !ok {
		s.KeyExchange = KexOther
		return s
	}
	s.Anonymous = strings.Contains(kx, "anon")
	s.Export = strings.Contains(kx, "_EXPORT")
	switch {
	case strings.HasPrefix(kx, "DHE_PSK"), strings.HasPrefix(kx, "PSK_DHE"):
		s.KeyExchange, s.PSKHint = KexDHE, true
	case strings.HasPrefix(kx, "ECDHE_PSK"):
		s.KeyExchange, s.PSKHint = KexECDHE, true
	case strings.HasPrefix(kx, "DHE_"), strings.HasPrefix(kx, "DH_anon"):
		s.KeyExchange = KexDHE
	case strings.HasPrefix(kx, "ECDHE_"), strings.HasPrefix(kx, "ECDH_anon"):
		s.KeyExchange = KexECDHE
	case strings.HasPrefix(kx, "DH_"):
		s.KeyExchange = KexDH
	case strings.HasPrefix(kx, "ECDH_"):
		s.KeyExchange = KexECDH
	case strings.HasPrefix(kx, "RSA_PSK"), strings.HasPrefix(kx, "PSK"):
		s.KeyExchange = KexPSK
	case strings.HasPrefix(kx, "RSA"):
		s.KeyExchange = KexRSA
	case strings.HasPrefix(kx, "SRP"):
		s.KeyExchange = KexSRP
	case strings.HasPrefix(kx, "KRB5"):
		s.KeyExchange = KexKRB5
	default:
		s.KeyExchange = KexOther
	}
	aead := strings.Contains(cipher, "_GCM") || strings.Contains(cipher, "_CCM") || strings.Contains(cipher, "CHACHA20")
	sha2MAC := strings.HasSuffix(cipher, "_SHA256") || strings.HasSuffix(cipher, "_SHA384")
	// OpenSSL and the PSK RFCs (RFC 5487 §3.2) allow the PSK SHA-256/384
	// CBC suites before TLS 1.2; everyone else restricts them to 1.2.
	if aead || (sha2MAC && s.KeyExchange != KexPSK) {
		s.MinVersion = TLS12
	}
	return s
}

// Suites returns every cipher suite the probe knows, in code point order.
func Suites() []Suite { return slices.Clone(suites) }

// SuiteByID returns the suite with that code point.
func SuiteByID(id uint16) (Suite, bool) {
	i, ok := slices.BinarySearchFunc(suites, id, func(s Suite, id uint16) int { return int(s.ID) - int(id) })
	if !ok {
		return Suite{ID: id, Name: fmt.Sprintf("0x%04X", id), KeyExchange: KexOther}, false
	}
	return suites[i], true
}

// SuiteName is the IANA name of a code point, or its hex value.
func SuiteName(id uint16) string {
	s, _ := SuiteByID(id)
	return s.Name
}

// LookupSuite finds a suite by IANA name (case-insensitive, "TLS_" optional)
// or by hex code point ("0x002f", "c02f").
func LookupSuite(name string) (Suite, error) {
	n := strings.ToUpper(strings.TrimSpace(name))
	var id uint16
	if _, err := fmt.Sscanf(strings.TrimPrefix(n, "0X"), "%04x", &id); err == nil && len(strings.TrimPrefix(n, "0X")) == 4 {
		if s, ok := SuiteByID(id); ok {
			return s, nil
		}
	}
	for _, s := range suites {
		if strings.EqualFold(s.Name, n) || strings.EqualFold(s.Name, "TLS_"+n) {
			return s, nil
		}
	}
	var close []string
	for _, s := range suites {
		if strings.Contains(s.Name, strings.TrimPrefix(n, "TLS_")) && len(close) < 5 {
			close = append(close, s.Name)
		}
	}
	if len(close) > 0 {
		return Suite{}, fmt.Errorf("unknown cipher suite %q; did you mean %s", name, strings.Join(close, ", "))
	}
	return Suite{}, fmt.Errorf("unknown cipher suite %q: give an IANA name such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 or a code point such as 0xc02f", name)
}

// GroupKind says what mathematics a named group is.
type GroupKind string

const (
	GroupEC     GroupKind = "ECDHE"     // elliptic curve
	GroupFF     GroupKind = "FFDHE"     // finite field (RFC 7919)
	GroupHybrid GroupKind = "hybrid-PQ" // ECDHE + ML-KEM
	GroupPQ     GroupKind = "PQ"        // ML-KEM alone
)

// Group is a TLS named group (the IANA "TLS Supported Groups" registry).
type Group struct {
	ID   uint16
	Name string
	Kind GroupKind
	// TLS13Only groups are not defined for TLS ≤ 1.2's ECDHE suites.
	TLS13Only bool
	// ClientShare and ServerShare are the key_share sizes in bytes (0:
	// unknown), from the defining documents cited in groupTable.
	ClientShare, ServerShare int
}

// groupTable: RFC 8422 §5.1.1 (secp, x25519, x448; sect and secp < 256
// deprecated but still asked for), RFC 7027 (brainpool), RFC 8734 (brainpool
// TLS 1.3), RFC 7919 §A (ffdhe), draft-ietf-tls-ecdhe-mlkem-03 §4
// (X25519MLKEM768 = 0x11EC: ML-KEM-768 encapsulation key 1184 B ‖ X25519 32 B
// from the client, ciphertext 1088 B ‖ 32 B from the server; the SecP
// hybrids put the uncompressed EC point first), draft-ietf-tls-mlkem-04
// (pure ML-KEM, FIPS 203 §8 Table 3 sizes). Share sizes: X25519 32 B, X448
// 56 B (RFC 7748), uncompressed P-256/384/521 points 65/97/133 B (SEC 1
// §2.3.3), FFDHE the prime's size (RFC 8446 §4.2.8.1).
var groupTable = []Group{
	{1, "sect163k1", GroupEC, false, 43, 43}, {2, "sect163r1", GroupEC, false, 43, 43},
	{3, "sect163r2", GroupEC, false, 43, 43}, {4, "sect193r1", GroupEC, false, 49, 49},
	{5, "sect193r2", GroupEC, false, 49, 49}, {6, "sect233k1", GroupEC, false, 61, 61},
	{7, "sect233r1", GroupEC, false, 61, 61}, {8, "sect239k1", GroupEC, false, 61, 61},
	{9, "sect283k1", GroupEC, false, 73, 73}, {10, "sect283r1", GroupEC, false, 73, 73},
	{11, "sect409k1", GroupEC, false, 105, 105}, {12, "sect409r1", GroupEC, false, 105, 105},
	{13, "sect571k1", GroupEC, false, 145, 145}, {14, "sect571r1", GroupEC, false, 145, 145},
	{15, "secp160k1", GroupEC, false, 41, 41}, {16, "secp160r1", GroupEC, false, 41, 41},
	{17, "secp160r2", GroupEC, false, 41, 41}, {18, "secp192k1", GroupEC, false, 49, 49},
	{19, "secp192r1", GroupEC, false, 49, 49}, {20, "secp224k1", GroupEC, false, 57, 57},
	{21, "secp224r1", GroupEC, false, 57, 57}, {22, "secp256k1", GroupEC, false, 65, 65},
	{23, "secp256r1", GroupEC, false, 65, 65}, {24, "secp384r1", GroupEC, false, 97, 97},
	{25, "secp521r1", GroupEC, false, 133, 133},
	{26, "brainpoolP256r1", GroupEC, false, 65, 65}, {27, "brainpoolP384r1", GroupEC, false, 97, 97},
	{28, "brainpoolP512r1", GroupEC, false, 129, 129},
	{29, "x25519", GroupEC, false, 32, 32}, {30, "x448", GroupEC, false, 56, 56},
	{31, "brainpoolP256r1tls13", GroupEC, true, 65, 65}, {32, "brainpoolP384r1tls13", GroupEC, true, 97, 97},
	{33, "brainpoolP512r1tls13", GroupEC, true, 129, 129},
	{256, "ffdhe2048", GroupFF, false, 256, 256}, {257, "ffdhe3072", GroupFF, false, 384, 384},
	{258, "ffdhe4096", GroupFF, false, 512, 512}, {259, "ffdhe6144", GroupFF, false, 768, 768},
	{260, "ffdhe8192", GroupFF, false, 1024, 1024},
	{0x0200, "MLKEM512", GroupPQ, true, 800, 768}, {0x0201, "MLKEM768", GroupPQ, true, 1184, 1088},
	{0x0202, "MLKEM1024", GroupPQ, true, 1568, 1568},
	{0x11EB, "SecP256r1MLKEM768", GroupHybrid, true, 65 + 1184, 65 + 1088},
	{0x11EC, "X25519MLKEM768", GroupHybrid, true, 1184 + 32, 1088 + 32},
	{0x11ED, "SecP384r1MLKEM1024", GroupHybrid, true, 97 + 1568, 97 + 1568},
}

// Groups returns every named group the probe knows.
func Groups() []Group { return slices.Clone(groupTable) }

// GroupByID returns the group with that code point.
func GroupByID(id uint16) (Group, bool) {
	for _, g := range groupTable {
		if g.ID == id {
			return g, true
		}
	}
	return Group{ID: id, Name: fmt.Sprintf("0x%04X", id)}, false
}

// GroupName is the IANA name of a group code point, or its hex value.
func GroupName(id uint16) string {
	g, _ := GroupByID(id)
	return g.Name
}

// commonGroupNames are the names users know some curves by (FIPS 186-5's
// P-256…, RFC 7748's X25519 and X448), which Go and OpenSSL print.
var commonGroupNames = map[uint16]string{23: "P-256", 24: "P-384", 25: "P-521", 29: "X25519", 30: "X448"}

// GroupCommonName is a group's common name (P-256, X25519), else its IANA
// name (ffdhe2048, X25519MLKEM768), else group(0x…).
func GroupCommonName(id uint16) string {
	if n, ok := commonGroupNames[id]; ok {
		return n
	}
	if g, ok := GroupByID(id); ok {
		return g.Name
	}
	return fmt.Sprintf("group(%#04x)", id)
}

// LookupGroup finds a group by name (case-insensitive) or code point.
func LookupGroup(name string) (Group, error) {
	for _, g := range groupTable {
		if strings.EqualFold(g.Name, name) {
			return g, nil
		}
	}
	var id uint16
	if _, err := fmt.Sscanf(strings.ToLower(name), "0x%x", &id); err == nil {
		if g, ok := GroupByID(id); ok {
			return g, nil
		}
	}
	names := make([]string, 0, len(groupTable))
	for _, g := range groupTable {
		names = append(names, g.Name)
	}
	return Group{}, fmt.Errorf("unknown group %q: want one of %s", name, strings.Join(names, ", "))
}

// signatureSchemeNames: RFC 8446 §4.2.3, RFC 5246 §7.4.1.4.1 (the TLS 1.2
// hash/signature pairs), RFC 8734, draft-ietf-tls-mldsa (ML-DSA 0x0904-6).
var signatureSchemeNames = map[uint16]string{
	0x0101: "rsa_md5", 0x0201: "rsa_pkcs1_sha1", 0x0202: "dsa_sha1", 0x0203: "ecdsa_sha1",
	0x0301: "rsa_sha224", 0x0302: "dsa_sha224", 0x0303: "ecdsa_sha224",
	0x0401: "rsa_pkcs1_sha256", 0x0402: "dsa_sha256", 0x0403: "ecdsa_secp256r1_sha256",
	0x0501: "rsa_pkcs1_sha384", 0x0502: "dsa_sha384", 0x0503: "ecdsa_secp384r1_sha384",
	0x0601: "rsa_pkcs1_sha512", 0x0602: "dsa_sha512", 0x0603: "ecdsa_secp521r1_sha512",
	0x0804: "rsa_pss_rsae_sha256", 0x0805: "rsa_pss_rsae_sha384", 0x0806: "rsa_pss_rsae_sha512",
	0x0807: "ed25519", 0x0808: "ed448",
	0x0809: "rsa_pss_pss_sha256", 0x080a: "rsa_pss_pss_sha384", 0x080b: "rsa_pss_pss_sha512",
	0x081a: "ecdsa_brainpoolP256r1tls13_sha256", 0x081b: "ecdsa_brainpoolP384r1tls13_sha384",
	0x081c: "ecdsa_brainpoolP512r1tls13_sha512",
	0x0904: "mldsa44", 0x0905: "mldsa65", 0x0906: "mldsa87",
}

// SignatureSchemeName is the IANA name of a signature scheme code point.
func SignatureSchemeName(id uint16) string {
	if n, ok := signatureSchemeNames[id]; ok {
		return n
	}
	return fmt.Sprintf("0x%04x", id)
}

// allSignatureSchemes is every scheme the probe's hellos offer, so no
// server refuses a hello for want of a signature algorithm it can use.
var allSignatureSchemes = func() []uint16 {
	ids := make([]uint16, 0, len(signatureSchemeNames))
	for id := range signatureSchemeNames {
		ids = append(ids, id)
	}
	// Modern schemes first: some servers take the first usable entry.
	slices.SortFunc(ids, func(a, b uint16) int {
		ra, rb := sigRank(a), sigRank(b)
		if ra != rb {
			return ra - rb
		}
		return int(a) - int(b)
	})
	return ids
}()

// AllSignatureSchemes returns every signature scheme named here, modern
// schemes first (the probe offers them all).
func AllSignatureSchemes() []uint16 { return slices.Clone(allSignatureSchemes) }

func sigRank(id uint16) int {
	switch {
	case id>>8 == 0x08 || id>>8 == 0x09:
		return 0
	case id&0xff == 3 || id&0xff == 1:
		if id>>8 >= 4 {
			return 1
		}
		return 2
	}
	return 3
}

// alertNames: RFC 8446 §6, RFC 5246 §7.2, RFC 6101 §5.4.2.
var alertNames = map[uint8]string{
	0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 21: "decryption_failed",
	22: "record_overflow", 30: "decompression_failure", 40: "handshake_failure", 41: "no_certificate",
	42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked",
	45: "certificate_expired", 46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca",
	49: "access_denied", 50: "decode_error", 51: "decrypt_error", 60: "export_restriction",
	70: "protocol_version", 71: "insufficient_security", 80: "internal_error",
	86: "inappropriate_fallback", 90: "user_canceled", 100: "no_renegotiation",
	109: "missing_extension", 110: "unsupported_extension", 111: "certificate_unobtainable",
	112: "unrecognized_name", 113: "bad_certificate_status_response", 115: "unknown_psk_identity",
	116: "certificate_required", 120: "no_application_protocol", 121: "ech_required",
}

// AlertDescriptionName is the RFC name of an alert description.
func AlertDescriptionName(d uint8) string {
	if n, ok := alertNames[d]; ok {
		return n
	}
	return fmt.Sprintf("alert %d", d)
}

// extensionNames: the IANA "TLS ExtensionType Values" registry entries the
// probe reports.
var extensionNames = map[uint16]string{
	0: "server_name", 1: "max_fragment_length", 5: "status_request", 10: "supported_groups",
	11: "ec_point_formats", 13: "signature_algorithms", 15: "heartbeat", 16: "alpn",
	18: "signed_certificate_timestamp", 21: "padding", 22: "encrypt_then_mac",
	23: "extended_master_secret", 27: "compress_certificate", 28: "record_size_limit",
	35: "session_ticket", 41: "pre_shared_key", 42: "early_data", 43: "supported_versions",
	44: "cookie", 45: "psk_key_exchange_modes", 47: "certificate_authorities",
	49: "post_handshake_auth", 50: "signature_algorithms_cert", 51: "key_share",
	0xfe0d: "encrypted_client_hello", 0xff01: "renegotiation_info",
}

// ExtensionName is the IANA name of an extension type, or its hex value.
func ExtensionName(t uint16) string {
	if n, ok := extensionNames[t]; ok {
		return n
	}
	return fmt.Sprintf("0x%04x", t)
}
