package tlslab

import (
	"github.com/cryptocost/cryptocost/internal/tlswire"
)

// Handshake framing and names are internal/tlswire's; these names keep
// tlslab's library API (docs/tls.md).
const (
	TypeHelloRequest        = tlswire.TypeHelloRequest
	TypeClientHello         = tlswire.TypeClientHello
	TypeServerHello         = tlswire.TypeServerHello
	TypeNewSessionTicket    = tlswire.TypeNewSessionTicket
	TypeEndOfEarlyData      = tlswire.TypeEndOfEarlyData
	TypeEncryptedExtensions = tlswire.TypeEncryptedExtensions
	TypeCertificate         = tlswire.TypeCertificate
	TypeServerKeyExchange   = tlswire.TypeServerKeyExchange
	TypeCertificateRequest  = tlswire.TypeCertificateRequest
	TypeServerHelloDone     = tlswire.TypeServerHelloDone
	TypeCertificateVerify   = tlswire.TypeCertificateVerify
	TypeClientKeyExchange   = tlswire.TypeClientKeyExchange
	TypeFinished            = tlswire.TypeFinished
	TypeCertificateStatus   = tlswire.TypeCertificateStatus
	TypeKeyUpdate           = tlswire.TypeKeyUpdate
	TypeCompressedCert      = tlswire.TypeCompressedCert
	TypeMessageHash         = tlswire.TypeMessageHash
)

// HandshakeMessage is one handshake message: its type and body.
type HandshakeMessage = tlswire.HandshakeMessage

// HandshakeName is the RFC name of a handshake message type.
func HandshakeName(t uint8) string { return tlswire.HandshakeName(t) }

// ParseHandshakeMessages splits handshake-protocol bytes into messages
// (tlswire.ParseHandshakeMessages).
func ParseHandshakeMessages(buf []byte) ([]HandshakeMessage, []byte) {
	return tlswire.ParseHandshakeMessages(buf)
}

// AlertName names an alert from its two plaintext bytes (level,
// description).
func AlertName(b []byte) string { return tlswire.AlertName(b) }

// TLS versions.
const (
	VersionTLS10 uint16 = 0x0301
	VersionTLS11 uint16 = 0x0302
	VersionTLS12 uint16 = 0x0303
	VersionTLS13 uint16 = 0x0304
)

// Extension code points the tap reads (IANA TLS ExtensionType registry).
const (
	extServerName          uint16 = 0
	extSupportedGroups     uint16 = 10
	extSessionTicket       uint16 = 35
	extPreSharedKey        uint16 = 41
	extEarlyData           uint16 = 42
	extSupportedVersions   uint16 = 43
	extPSKKeyExchangeModes uint16 = 45
	extKeyShare            uint16 = 51
)

// ClientHello holds what the tap needs from a ClientHello (RFC 8446 §4.1.2).
type ClientHello struct {
	Version           uint16
	Random            []byte
	SessionID         []byte
	CipherSuites      []uint16
	Extensions        []uint16
	SupportedVersions []uint16
	KeyShares         []uint16 // groups of the offered key shares
	KeyShareBytes     int      // the key_share extension, 4-byte header included (0 if absent): the (EC)DHE's wire cost
	PSKModes          []uint8
	OffersPSK         bool // pre_shared_key extension present
	// PSKIdentities and PSKBinders are the pre_shared_key offer
	// (RFC 8446 §4.2.11): the identities (tickets) with their obfuscated
	// ages, and one binder per identity.
	PSKIdentities []PSKIdentity
	PSKBinders    [][]byte
	TicketLen     int // bytes of a session_ticket extension (RFC 5077), -1 if absent
}

// PSKIdentity is one identity of a pre_shared_key offer: a ticket (or an
// external PSK's name) and its obfuscated_ticket_age (RFC 8446 §4.2.11).
type PSKIdentity = tlswire.PSKIdentity

// ServerHello holds what the tap needs from a ServerHello (RFC 8446 §4.1.3).
type ServerHello struct {
	Version     uint16 // legacy_version
	Random      []byte
	SessionID   []byte
	CipherSuite uint16
	Compression uint8
	Extensions  []uint16
	// SelectedVersion is supported_versions' value (TLS 1.3) or Version.
	SelectedVersion uint16
	KeyShare        uint16 // the selected group (TLS 1.3), 0 if none
	KeyShareBytes   int    // the key_share extension, 4-byte header included (0 if absent)
	// PSK: pre_shared_key selected, a resumption (TLS 1.3);
	// SelectedIdentity is the index of the client's identity the server
	// accepted (RFC 8446 §4.2.11).
	PSK              bool
	SelectedIdentity uint16
	// HelloRetryRequest: the random is SHA-256("HelloRetryRequest")
	// (RFC 8446 §4.1.3).
	HelloRetryRequest bool
}

// ParseClientHello reads a ClientHello body with tlswire's codec and
// returns what the tap needs of it.
func ParseClientHello(body []byte) (*ClientHello, error) {
	var m tlswire.ClientHello
	if err := m.UnmarshalBody(body); err != nil {
		return nil, err
	}
	ch := &ClientHello{Version: uint16(m.Version), Random: m.Random[:], SessionID: m.SessionID, CipherSuites: m.CipherSuites,
		Extensions: m.ExtensionOrder(), PSKModes: m.PSKModes, OffersPSK: m.PSKIdentities != nil,
		PSKIdentities: m.PSKIdentities, PSKBinders: m.PSKBinders, TicketLen: -1}
	for _, v := range m.SupportedVersions {
		ch.SupportedVersions = append(ch.SupportedVersions, uint16(v))
	}
	if len(m.KeyShares) > 0 || m.EmptyKeyShare {
		ch.KeyShareBytes = 4 + 2 // extension header, client_shares length
		for _, ks := range m.KeyShares {
			ch.KeyShares = append(ch.KeyShares, ks.Group)
			ch.KeyShareBytes += 2 + 2 + len(ks.Data)
		}
	}
	if m.SessionTicket {
		ch.TicketLen = len(m.Ticket)
	}
	return ch, nil
}

// ParseServerHello reads a ServerHello (or HelloRetryRequest) body with
// tlswire's codec and returns what the tap needs of it.
func ParseServerHello(body []byte) (*ServerHello, error) {
	var m tlswire.ServerHello
	if err := m.UnmarshalBody(body); err != nil {
		return nil, err
	}
	sh := &ServerHello{Version: uint16(m.Version), Random: m.Random[:], SessionID: m.SessionID, CipherSuite: m.CipherSuite,
		Compression: m.Compression, Extensions: m.Extensions, SelectedVersion: uint16(m.Negotiated()),
		PSK: m.PreSharedKey, SelectedIdentity: m.SelectedIdentity, HelloRetryRequest: m.IsHelloRetryRequest()}
	switch {
	case m.IsHelloRetryRequest() && m.SelectedGroup != 0:
		sh.KeyShare, sh.KeyShareBytes = m.SelectedGroup, 4+2
	case m.KeyShare.Group != 0:
		sh.KeyShare, sh.KeyShareBytes = m.KeyShare.Group, 4+2+2+len(m.KeyShare.Data)
	}
	return sh, nil
}

// helloRetryRandom marks a HelloRetryRequest: SHA-256("HelloRetryRequest")
// (RFC 8446 §4.1.3).
var helloRetryRandom = tlswire.HelloRetryRequestRandom
