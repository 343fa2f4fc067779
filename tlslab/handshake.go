package tlslab

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/cryptocost/cryptocost/internal/tlswire"

	"golang.org/x/crypto/cryptobyte"
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
type PSKIdentity struct {
	Identity []byte
	Age      uint32
}

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

var helloRetryRandom = sha256.Sum256([]byte("HelloRetryRequest"))

var errMalformed = errors.New("malformed")

// ParseClientHello parses a ClientHello body.
func ParseClientHello(body []byte) (*ClientHello, error) {
	s := cryptobyte.String(body)
	ch := &ClientHello{TicketLen: -1}
	var random, sid, suites, comp cryptobyte.String
	if !s.ReadUint16(&ch.Version) || !s.ReadBytes((*[]byte)(&random), 32) ||
		!s.ReadUint8LengthPrefixed(&sid) || !s.ReadUint16LengthPrefixed(&suites) ||
		!s.ReadUint8LengthPrefixed(&comp) {
		return nil, fmt.Errorf("ClientHello: %w", errMalformed)
	}
	ch.Random, ch.SessionID = random, sid
	for !suites.Empty() {
		var cs uint16
		if !suites.ReadUint16(&cs) {
			return nil, fmt.Errorf("ClientHello cipher suites: %w", errMalformed)
		}
		ch.CipherSuites = append(ch.CipherSuites, cs)
	}
	if s.Empty() {
		return ch, nil // no extensions (SSL 3.0 / early TLS clients)
	}
	var exts cryptobyte.String
	if !s.ReadUint16LengthPrefixed(&exts) || !s.Empty() {
		return nil, fmt.Errorf("ClientHello extensions: %w", errMalformed)
	}
	for !exts.Empty() {
		var typ uint16
		var data cryptobyte.String
		if !exts.ReadUint16(&typ) || !exts.ReadUint16LengthPrefixed(&data) {
			return nil, fmt.Errorf("ClientHello extension: %w", errMalformed)
		}
		ch.Extensions = append(ch.Extensions, typ)
		switch typ {
		case extSupportedVersions:
			var list cryptobyte.String
			if !data.ReadUint8LengthPrefixed(&list) {
				return nil, fmt.Errorf("ClientHello supported_versions: %w", errMalformed)
			}
			for !list.Empty() {
				var v uint16
				if !list.ReadUint16(&v) {
					return nil, fmt.Errorf("ClientHello supported_versions: %w", errMalformed)
				}
				ch.SupportedVersions = append(ch.SupportedVersions, v)
			}
		case extKeyShare:
			ch.KeyShareBytes = 4 + len(data)
			var list cryptobyte.String
			if !data.ReadUint16LengthPrefixed(&list) {
				return nil, fmt.Errorf("ClientHello key_share: %w", errMalformed)
			}
			for !list.Empty() {
				var g uint16
				var kx cryptobyte.String
				if !list.ReadUint16(&g) || !list.ReadUint16LengthPrefixed(&kx) {
					return nil, fmt.Errorf("ClientHello key_share: %w", errMalformed)
				}
				ch.KeyShares = append(ch.KeyShares, g)
			}
		case extPSKKeyExchangeModes:
			var modes cryptobyte.String
			if !data.ReadUint8LengthPrefixed(&modes) {
				return nil, fmt.Errorf("ClientHello psk_key_exchange_modes: %w", errMalformed)
			}
			ch.PSKModes = append(ch.PSKModes, modes...)
		case extPreSharedKey:
			ch.OffersPSK = true
			var ids, binders cryptobyte.String
			if !data.ReadUint16LengthPrefixed(&ids) || !data.ReadUint16LengthPrefixed(&binders) || !data.Empty() {
				return nil, fmt.Errorf("ClientHello pre_shared_key: %w", errMalformed)
			}
			for !ids.Empty() {
				var id PSKIdentity
				if !ids.ReadUint16LengthPrefixed((*cryptobyte.String)(&id.Identity)) || !ids.ReadUint32(&id.Age) {
					return nil, fmt.Errorf("ClientHello pre_shared_key identity: %w", errMalformed)
				}
				ch.PSKIdentities = append(ch.PSKIdentities, id)
			}
			for !binders.Empty() {
				var binder cryptobyte.String
				if !binders.ReadUint8LengthPrefixed(&binder) {
					return nil, fmt.Errorf("ClientHello pre_shared_key binder: %w", errMalformed)
				}
				ch.PSKBinders = append(ch.PSKBinders, binder)
			}
		case extSessionTicket:
			ch.TicketLen = len(data)
		}
	}
	return ch, nil
}

// ParseServerHello parses a ServerHello (or HelloRetryRequest) body.
func ParseServerHello(body []byte) (*ServerHello, error) {
	s := cryptobyte.String(body)
	sh := &ServerHello{}
	var random, sid cryptobyte.String
	if !s.ReadUint16(&sh.Version) || !s.ReadBytes((*[]byte)(&random), 32) ||
		!s.ReadUint8LengthPrefixed(&sid) || !s.ReadUint16(&sh.CipherSuite) || !s.ReadUint8(&sh.Compression) {
		return nil, fmt.Errorf("ServerHello: %w", errMalformed)
	}
	sh.Random, sh.SessionID = random, sid
	sh.SelectedVersion = sh.Version
	sh.HelloRetryRequest = bytes.Equal(random, helloRetryRandom[:])
	if s.Empty() {
		return sh, nil
	}
	var exts cryptobyte.String
	if !s.ReadUint16LengthPrefixed(&exts) || !s.Empty() {
		return nil, fmt.Errorf("ServerHello extensions: %w", errMalformed)
	}
	for !exts.Empty() {
		var typ uint16
		var data cryptobyte.String
		if !exts.ReadUint16(&typ) || !exts.ReadUint16LengthPrefixed(&data) {
			return nil, fmt.Errorf("ServerHello extension: %w", errMalformed)
		}
		sh.Extensions = append(sh.Extensions, typ)
		switch typ {
		case extSupportedVersions:
			if !data.ReadUint16(&sh.SelectedVersion) {
				return nil, fmt.Errorf("ServerHello supported_versions: %w", errMalformed)
			}
		case extKeyShare:
			// A ServerHello's KeyShareEntry, or a HelloRetryRequest's group.
			sh.KeyShareBytes = 4 + len(data)
			if !data.ReadUint16(&sh.KeyShare) {
				return nil, fmt.Errorf("ServerHello key_share: %w", errMalformed)
			}
		case extPreSharedKey:
			sh.PSK = true
			if !data.ReadUint16(&sh.SelectedIdentity) {
				return nil, fmt.Errorf("ServerHello pre_shared_key: %w", errMalformed)
			}
		}
	}
	return sh, nil
}
