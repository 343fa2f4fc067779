package probe

import "github.com/cryptocost/cryptocost/internal/tlswire"

// The name tables (versions, suites, groups, signature schemes, alerts,
// extensions) are internal/tlswire's, shared with the TLS lab; these names
// keep the probe's API (cmd/cryptocost, the report's JSON).

// Version is a protocol version as it appears on the wire.
type Version = tlswire.Version

// Protocol versions.
const (
	SSL30 = tlswire.SSL30
	TLS10 = tlswire.TLS10
	TLS11 = tlswire.TLS11
	TLS12 = tlswire.TLS12
	TLS13 = tlswire.TLS13
)

// Versions are the versions the probe tests, oldest first.
var Versions = tlswire.Versions

// ParseVersion reads "1.2", "TLS 1.2", "tls1.2", "ssl3" or "0x0303".
func ParseVersion(s string) (Version, error) { return tlswire.ParseVersion(s) }

// KeyExchange is how a cipher suite agrees on keys.
type KeyExchange = tlswire.KeyExchange

// Key exchange classes of TLS ≤ 1.2 cipher suites.
const (
	KexRSA   = tlswire.KexRSA
	KexDHE   = tlswire.KexDHE
	KexECDHE = tlswire.KexECDHE
	KexDH    = tlswire.KexDH
	KexECDH  = tlswire.KexECDH
	KexPSK   = tlswire.KexPSK
	KexSRP   = tlswire.KexSRP
	KexKRB5  = tlswire.KexKRB5
	KexOther = tlswire.KexOther
	KexTLS13 = tlswire.KexTLS13
)

// Suite is a cipher suite with what its name says about it.
type Suite = tlswire.Suite

// Suites returns every cipher suite the probe can offer, by code point.
func Suites() []Suite { return tlswire.Suites() }

// SuiteByID returns the suite with that code point.
func SuiteByID(id uint16) (Suite, bool) { return tlswire.SuiteByID(id) }

// SuiteName is the IANA name of a suite code point, or its hex value.
func SuiteName(id uint16) string { return tlswire.SuiteName(id) }

// LookupSuite finds a suite by IANA name (case-insensitive, TLS_ optional)
// or code point.
func LookupSuite(name string) (Suite, error) { return tlswire.LookupSuite(name) }

// GroupKind says what mathematics a named group is.
type GroupKind = tlswire.GroupKind

// Group kinds.
const (
	GroupEC     = tlswire.GroupEC
	GroupFF     = tlswire.GroupFF
	GroupHybrid = tlswire.GroupHybrid
	GroupPQ     = tlswire.GroupPQ
)

// Group is a TLS named group.
type Group = tlswire.Group

// Groups returns every named group the probe knows.
func Groups() []Group { return tlswire.Groups() }

// GroupByID returns the group with that code point.
func GroupByID(id uint16) (Group, bool) { return tlswire.GroupByID(id) }

// GroupName is the IANA name of a group code point, or its hex value.
func GroupName(id uint16) string { return tlswire.GroupName(id) }

// LookupGroup finds a group by name (case-insensitive) or code point.
func LookupGroup(name string) (Group, error) { return tlswire.LookupGroup(name) }

// SignatureSchemeName is the IANA name of a signature scheme code point.
func SignatureSchemeName(id uint16) string { return tlswire.SignatureSchemeName(id) }

var (
	groupTable          = tlswire.Groups()
	allSignatureSchemes = tlswire.AllSignatureSchemes()
	suites              = tlswire.Suites()
)

func alertName(d uint8) string      { return tlswire.AlertDescriptionName(d) }
func extensionName(t uint16) string { return tlswire.ExtensionName(t) }
