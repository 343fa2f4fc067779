package tlslab

import (
	"crypto/tls"
	"fmt"
	"math/big"

	"github.com/cryptocost/cryptocost/internal/tlswire"
	"golang.org/x/crypto/cryptobyte"
)

// Suite is a TLS 1.0–1.2 cipher suite of the lab's matrix, or a TLS 1.3
// suite, with the names Go and OpenSSL give it.
type Suite struct {
	ID uint16
	// Name is the IANA name (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256).
	Name string
	// OpenSSL is its OpenSSL name (ECDHE-RSA-AES128-GCM-SHA256).
	OpenSSL string
	// KeyExchange: "rsa", "dhe", "ecdhe", "" (TLS 1.3: any);
	// Auth: "rsa", "ecdsa" (ECDSA or Ed25519 certificates), "" (TLS 1.3).
	KeyExchange, Auth string
	Bulk              Bulk
	// TLS13 suites are negotiated separately from the key exchange.
	TLS13 bool
	// MinVersion is the first version that has it (AEAD suites: TLS 1.2).
	MinVersion uint16
	// Go says crypto/tls implements it.
	Go bool
}

// suites is the table the matrix resolves cells to: every suite whose key
// exchange, authentication and bulk the lab offers (IANA TLS Cipher Suites
// registry; OpenSSL names from `openssl ciphers -V`).
var suites = []Suite{
	{0x002F, "TLS_RSA_WITH_AES_128_CBC_SHA", "AES128-SHA", "rsa", "rsa", BulkAES128CBC, false, VersionTLS10, true},
	{0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", "AES256-SHA", "rsa", "rsa", BulkAES256CBC, false, VersionTLS10, true},
	{0x009C, "TLS_RSA_WITH_AES_128_GCM_SHA256", "AES128-GCM-SHA256", "rsa", "rsa", BulkAES128GCM, false, VersionTLS12, true},
	{0x009D, "TLS_RSA_WITH_AES_256_GCM_SHA384", "AES256-GCM-SHA384", "rsa", "rsa", BulkAES256GCM, false, VersionTLS12, true},
	{0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", "DHE-RSA-AES128-SHA", "dhe", "rsa", BulkAES128CBC, false, VersionTLS10, false},
	{0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", "DHE-RSA-AES256-SHA", "dhe", "rsa", BulkAES256CBC, false, VersionTLS10, false},
	{0x009E, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "DHE-RSA-AES128-GCM-SHA256", "dhe", "rsa", BulkAES128GCM, false, VersionTLS12, false},
	{0x009F, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "DHE-RSA-AES256-GCM-SHA384", "dhe", "rsa", BulkAES256GCM, false, VersionTLS12, false},
	{0xCCAA, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "DHE-RSA-CHACHA20-POLY1305", "dhe", "rsa", BulkChaCha20, false, VersionTLS12, false},
	{0xC013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES128-SHA", "ecdhe", "rsa", BulkAES128CBC, false, VersionTLS10, true},
	{0xC014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA-AES256-SHA", "ecdhe", "rsa", BulkAES256CBC, false, VersionTLS10, true},
	{0xC009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES128-SHA", "ecdhe", "ecdsa", BulkAES128CBC, false, VersionTLS10, true},
	{0xC00A, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA-AES256-SHA", "ecdhe", "ecdsa", BulkAES256CBC, false, VersionTLS10, true},
	{0xC02F, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ecdhe", "rsa", BulkAES128GCM, false, VersionTLS12, true},
	{0xC030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384", "ecdhe", "rsa", BulkAES256GCM, false, VersionTLS12, true},
	{0xC02B, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256", "ecdhe", "ecdsa", BulkAES128GCM, false, VersionTLS12, true},
	{0xC02C, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384", "ecdhe", "ecdsa", BulkAES256GCM, false, VersionTLS12, true},
	{0xCCA8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305", "ecdhe", "rsa", BulkChaCha20, false, VersionTLS12, true},
	{0xCCA9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305", "ecdhe", "ecdsa", BulkChaCha20, false, VersionTLS12, true},
	{TLS_AES_128_GCM_SHA256, "TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", "", "", BulkAES128GCM, true, VersionTLS13, true},
	{TLS_AES_256_GCM_SHA384, "TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", "", "", BulkAES256GCM, true, VersionTLS13, true},
	{TLS_CHACHA20_POLY1305_SHA256, "TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256", "", "", BulkChaCha20, true, VersionTLS13, true},
}

// SuiteByID returns the suite with this code point.
func SuiteByID(id uint16) (Suite, bool) {
	for _, s := range suites {
		if s.ID == id {
			return s, true
		}
	}
	return Suite{}, false
}

// SuiteName names a cipher suite code point.
func SuiteName(id uint16) string {
	if s, ok := SuiteByID(id); ok {
		return s.Name
	}
	return tls.CipherSuiteName(id)
}

// GroupName names a key-exchange group by its common name (P-256,
// X25519, ffdhe2048, X25519MLKEM768; tlswire.GroupCommonName).
func GroupName(id uint16) string { return tlswire.GroupCommonName(id) }

// skeGroup reads the group of a TLS 1.0–1.2 ServerKeyExchange: an ECDHE
// named curve (RFC 8422 §5.4: curve_type 3, NamedCurve) or the size of a
// DHE prime (RFC 5246 §7.4.3: dh_p<1..2^16-1>).
func skeGroup(suite uint16, body []byte) string {
	s, _ := SuiteByID(suite)
	b := cryptobyte.String(body)
	switch s.KeyExchange {
	case "ecdhe":
		var curveType uint8
		var group uint16
		if b.ReadUint8(&curveType) && curveType == 3 && b.ReadUint16(&group) {
			return GroupName(group)
		}
	case "dhe":
		var p cryptobyte.String
		if b.ReadUint16LengthPrefixed(&p) {
			return fmt.Sprintf("DH-%d", new(big.Int).SetBytes(p).BitLen())
		}
	}
	return ""
}

// TLS 1.3 cipher suites (RFC 8446 §B.4; internal/tlswire).
const (
	TLS_AES_128_GCM_SHA256       = tlswire.TLS_AES_128_GCM_SHA256
	TLS_AES_256_GCM_SHA384       = tlswire.TLS_AES_256_GCM_SHA384
	TLS_CHACHA20_POLY1305_SHA256 = tlswire.TLS_CHACHA20_POLY1305_SHA256
)
