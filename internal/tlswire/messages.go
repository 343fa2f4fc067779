package tlswire

// The wire format of the TLS messages the probe sends and reads, and the lab's tap and psk_ke client read, built on
// golang.org/x/crypto/cryptobyte the way crypto/tls's handshake_messages.go
// is: each message has a marshal and an unmarshal, symmetric and
// table-tested (wire_test.go), and nothing indexes raw bytes by hand.
// crypto/tls cannot be used for this part: it never offers DHE, export or
// other legacy suites, SSL 3.0, an empty key_share, or one group at a time.

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/crypto/cryptobyte"
)

// Extension code points (IANA "TLS ExtensionType Values").
const (
	ExtServerName           uint16 = 0
	ExtStatusRequest        uint16 = 5
	ExtSupportedGroups      uint16 = 10
	ExtECPointFormats       uint16 = 11
	ExtSignatureAlgorithms  uint16 = 13
	ExtALPN                 uint16 = 16
	ExtSCT                  uint16 = 18
	ExtEncryptThenMAC       uint16 = 22
	ExtExtendedMasterSecret uint16 = 23
	ExtSessionTicket        uint16 = 35
	ExtPreSharedKey         uint16 = 41
	ExtSupportedVersions    uint16 = 43
	ExtCookie               uint16 = 44
	ExtPSKModes             uint16 = 45
	ExtKeyShare             uint16 = 51
	ExtRenegotiationInfo    uint16 = 0xff01
)

// HelloRetryRequestRandom is the ServerHello.random that marks a
// HelloRetryRequest: SHA-256("HelloRetryRequest") (RFC 8446 §4.1.3).
var HelloRetryRequestRandom = sha256.Sum256([]byte("HelloRetryRequest"))

// Downgrade sentinels a TLS 1.3 server puts in the last 8 bytes of its
// random when it negotiates TLS 1.2 or below (RFC 8446 §4.1.3).
var (
	downgradeTLS12 = [8]byte{'D', 'O', 'W', 'N', 'G', 'R', 'D', 1}
	downgradeTLS11 = [8]byte{'D', 'O', 'W', 'N', 'G', 'R', 'D', 0}
)

// KeyShare is one key_share entry (RFC 8446 §4.2.8).
type KeyShare struct {
	Group uint16
	Data  []byte
}

// Extension is an extension the probe does not interpret, kept raw.
type Extension struct {
	Type uint16
	Data []byte
}

// ClientHello is the message the probe sends (RFC 8446 §4.1.2, RFC 5246
// §7.4.1.2). A nil list leaves its extension out; the booleans add
// extensions whose body is empty or fixed.
type ClientHello struct {
	Version      Version // legacy_version
	Random       [32]byte
	SessionID    []byte
	CipherSuites []uint16
	Compression  []uint8
	// NoExtensions leaves the extensions block out entirely, as SSL 3.0
	// clients did (RFC 6101 has no extensions).
	NoExtensions         bool
	ServerName           string
	StatusRequest        bool // OCSP (RFC 6066 §8)
	SupportedGroups      []uint16
	PointFormats         []uint8
	SignatureSchemes     []uint16
	ALPN                 []string
	SCT                  bool
	ExtendedMasterSecret bool
	SessionTicket        bool // RFC 5077: empty, or with Ticket
	Ticket               []byte
	SupportedVersions    []Version
	// KeyShares are the client's shares; EmptyKeyShare sends the
	// extension with no share, which makes a TLS 1.3 server answer with a
	// HelloRetryRequest naming the group it wants (RFC 8446 §4.2.8).
	KeyShares         []KeyShare
	EmptyKeyShare     bool
	Cookie            []byte
	PSKModes          []uint8
	RenegotiationInfo bool // empty renegotiated_connection (RFC 5746 §3.4)
	Extra             []Extension
	// PSKIdentities and PSKBinders are a pre_shared_key offer (RFC 8446
	// §4.2.11; non-nil PSKIdentities sends the extension, last).
	PSKIdentities []PSKIdentity
	PSKBinders    [][]byte
	// Extensions is the order the extensions came in when it is not the
	// one Marshal writes (nil: Marshal's), so that marshalling a parsed
	// hello gives back its bytes.
	Extensions []uint16
}

// Marshal returns the handshake message: type, length, body.
func (m *ClientHello) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeClientHello)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint16(uint16(m.Version))
		b.AddBytes(m.Random[:])
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.SessionID) })
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, s := range m.CipherSuites {
				b.AddUint16(s)
			}
		})
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Compression) })
		if m.NoExtensions {
			return
		}
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { m.marshalExtensions(b) })
	})
	return b.Bytes()
}

func (m *ClientHello) marshalExtensions(b *cryptobyte.Builder) {
	order := m.Extensions
	if order == nil {
		order = m.presentExtensions()
	}
	for _, t := range order {
		b.AddUint16(t)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { m.marshalExtension(b, t) })
	}
}

// presentExtensions is the order Marshal writes the extensions in when
// m.Extensions is nil; pre_shared_key last, as RFC 8446 §4.2.11 requires.
func (m *ClientHello) presentExtensions() []uint16 {
	var ts []uint16
	add := func(present bool, t uint16) {
		if present {
			ts = append(ts, t)
		}
	}
	add(m.ServerName != "", ExtServerName)
	add(m.StatusRequest, ExtStatusRequest)
	add(m.SupportedGroups != nil, ExtSupportedGroups)
	add(m.PointFormats != nil, ExtECPointFormats)
	add(m.SignatureSchemes != nil, ExtSignatureAlgorithms)
	add(m.ALPN != nil, ExtALPN)
	add(m.SCT, ExtSCT)
	add(m.ExtendedMasterSecret, ExtExtendedMasterSecret)
	add(m.SessionTicket, ExtSessionTicket)
	add(m.SupportedVersions != nil, ExtSupportedVersions)
	add(m.Cookie != nil, ExtCookie)
	add(m.PSKModes != nil, ExtPSKModes)
	add(len(m.KeyShares) > 0 || m.EmptyKeyShare, ExtKeyShare)
	add(m.RenegotiationInfo, ExtRenegotiationInfo)
	for _, e := range m.Extra {
		ts = append(ts, e.Type)
	}
	add(m.PSKIdentities != nil, ExtPreSharedKey)
	return ts
}

// marshalExtension writes the body of extension t.
func (m *ClientHello) marshalExtension(b *cryptobyte.Builder, t uint16) {
	u16s := func(list []uint16) {
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, v := range list {
				b.AddUint16(v)
			}
		})
	}
	switch t {
	case ExtServerName:
		// RFC 6066 §3: a list with one host_name entry.
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			b.AddUint8(0)
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(m.ServerName)) })
		})
	case ExtStatusRequest:
		// RFC 6066 §8: status_type ocsp(1), no responder IDs, no extensions.
		b.AddUint8(1)
		b.AddUint16(0)
		b.AddUint16(0)
	case ExtSupportedGroups:
		u16s(m.SupportedGroups)
	case ExtECPointFormats:
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.PointFormats) })
	case ExtSignatureAlgorithms:
		u16s(m.SignatureSchemes)
	case ExtALPN:
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, p := range m.ALPN {
				b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(p)) })
			}
		})
	case ExtSCT, ExtExtendedMasterSecret:
	case ExtSessionTicket:
		b.AddBytes(m.Ticket)
	case ExtSupportedVersions:
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, v := range m.SupportedVersions {
				b.AddUint16(uint16(v))
			}
		})
	case ExtCookie:
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Cookie) })
	case ExtPSKModes:
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.PSKModes) })
	case ExtKeyShare:
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, ks := range m.KeyShares {
				b.AddUint16(ks.Group)
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(ks.Data) })
			}
		})
	case ExtRenegotiationInfo:
		b.AddUint8(0)
	case ExtPreSharedKey:
		// RFC 8446 §4.2.11: identities (ticket, obfuscated age), then one
		// binder per identity.
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, id := range m.PSKIdentities {
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(id.Identity) })
				b.AddUint32(id.Age)
			}
		})
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, bd := range m.PSKBinders {
				b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(bd) })
			}
		})
	default:
		for _, e := range m.Extra {
			if e.Type == t {
				b.AddBytes(e.Data)
				return
			}
		}
	}
}

// ExtensionOrder is the order of the extensions on the wire.
func (m *ClientHello) ExtensionOrder() []uint16 {
	if m.Extensions != nil {
		return m.Extensions
	}
	return m.presentExtensions()
}

// BindersLen is the size of the pre_shared_key extension's binders list,
// its 2-byte length included: what RFC 8446 §4.2.11.2's binder hash leaves
// out of the ClientHello (the list is last).
func (m *ClientHello) BindersLen() int {
	n := 2
	for _, bd := range m.PSKBinders {
		n += 1 + len(bd)
	}
	return n
}

// PSKIdentity is one identity of a pre_shared_key offer: a ticket (or an
// external PSK's name) and its obfuscated_ticket_age (RFC 8446 §4.2.11).
type PSKIdentity struct {
	Identity []byte
	Age      uint32
}

var errDecode = errors.New("malformed message")

// Unmarshal parses a ClientHello handshake message (type and length
// included). The probe's test servers use it; it is the inverse of Marshal.
func (m *ClientHello) Unmarshal(data []byte) error {
	s := cryptobyte.String(data)
	var typ uint8
	var body cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeClientHello || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		*m = ClientHello{}
		return fmt.Errorf("ClientHello: %w: bad header", errDecode)
	}
	return m.UnmarshalBody(body)
}

// UnmarshalBody parses the message's body (after the 4-byte header): the
// tap's path, which has the body already framed.
func (m *ClientHello) UnmarshalBody(body cryptobyte.String) error {
	*m = ClientHello{}
	var vers uint16
	var random, sid, comp []byte
	var suiteList cryptobyte.String
	if !body.ReadUint16(&vers) || !body.ReadBytes(&random, 32) ||
		!body.ReadUint8LengthPrefixed((*cryptobyte.String)(&sid)) ||
		!body.ReadUint16LengthPrefixed(&suiteList) ||
		!body.ReadUint8LengthPrefixed((*cryptobyte.String)(&comp)) {
		return fmt.Errorf("ClientHello: %w", errDecode)
	}
	m.Version = Version(vers)
	copy(m.Random[:], random)
	m.SessionID = clone(sid)
	m.Compression = clone(comp)
	for !suiteList.Empty() {
		var id uint16
		if !suiteList.ReadUint16(&id) {
			return fmt.Errorf("ClientHello: %w: odd cipher suite list", errDecode)
		}
		m.CipherSuites = append(m.CipherSuites, id)
	}
	if body.Empty() {
		m.NoExtensions = true
		return nil
	}
	var exts cryptobyte.String
	if !body.ReadUint16LengthPrefixed(&exts) || !body.Empty() {
		return fmt.Errorf("ClientHello: %w: extensions", errDecode)
	}
	seen := map[uint16]bool{}
	var order []uint16
	for !exts.Empty() {
		var t uint16
		var d cryptobyte.String
		if !exts.ReadUint16(&t) || !exts.ReadUint16LengthPrefixed(&d) {
			return fmt.Errorf("ClientHello: %w: extension", errDecode)
		}
		if seen[t] {
			return fmt.Errorf("ClientHello: %w: duplicate extension %s", errDecode, ExtensionName(t))
		}
		seen[t] = true
		order = append(order, t)
		if err := m.unmarshalExtension(t, d); err != nil {
			return fmt.Errorf("ClientHello: %s: %w", ExtensionName(t), err)
		}
	}
	if !slices.Equal(order, m.presentExtensions()) {
		m.Extensions = order
	}
	return nil
}

func (m *ClientHello) unmarshalExtension(t uint16, d cryptobyte.String) error {
	ok := true
	switch t {
	case ExtServerName:
		var list, name cryptobyte.String
		var nt uint8
		ok = d.ReadUint16LengthPrefixed(&list) && list.ReadUint8(&nt) && nt == 0 &&
			list.ReadUint16LengthPrefixed(&name) && list.Empty() && len(name) > 0
		m.ServerName = string(name)
	case ExtStatusRequest:
		var st uint8
		var ids, ext cryptobyte.String
		ok = d.ReadUint8(&st) && d.ReadUint16LengthPrefixed(&ids) && d.ReadUint16LengthPrefixed(&ext)
		m.StatusRequest = true
	case ExtSupportedGroups:
		var list cryptobyte.String
		ok = d.ReadUint16LengthPrefixed(&list)
		m.SupportedGroups = []uint16{}
		for ok && !list.Empty() {
			var g uint16
			ok = list.ReadUint16(&g)
			m.SupportedGroups = append(m.SupportedGroups, g)
		}
	case ExtECPointFormats:
		var pf []byte
		ok = d.ReadUint8LengthPrefixed((*cryptobyte.String)(&pf))
		m.PointFormats = append([]uint8{}, pf...)
	case ExtSignatureAlgorithms:
		var list cryptobyte.String
		ok = d.ReadUint16LengthPrefixed(&list)
		m.SignatureSchemes = []uint16{}
		for ok && !list.Empty() {
			var s uint16
			ok = list.ReadUint16(&s)
			m.SignatureSchemes = append(m.SignatureSchemes, s)
		}
	case ExtALPN:
		var list cryptobyte.String
		ok = d.ReadUint16LengthPrefixed(&list)
		m.ALPN = []string{}
		for ok && !list.Empty() {
			var p cryptobyte.String
			ok = list.ReadUint8LengthPrefixed(&p)
			m.ALPN = append(m.ALPN, string(p))
		}
	case ExtSCT:
		m.SCT = true
	case ExtExtendedMasterSecret:
		m.ExtendedMasterSecret = true
	case ExtSessionTicket:
		m.SessionTicket = true
		m.Ticket = clone([]byte(d))
		d = nil
	case ExtSupportedVersions:
		var list cryptobyte.String
		ok = d.ReadUint8LengthPrefixed(&list)
		m.SupportedVersions = []Version{}
		for ok && !list.Empty() {
			var v uint16
			ok = list.ReadUint16(&v)
			m.SupportedVersions = append(m.SupportedVersions, Version(v))
		}
	case ExtCookie:
		var c []byte
		ok = d.ReadUint16LengthPrefixed((*cryptobyte.String)(&c))
		m.Cookie = append([]byte{}, c...)
	case ExtPSKModes:
		var modes []byte
		ok = d.ReadUint8LengthPrefixed((*cryptobyte.String)(&modes))
		m.PSKModes = append([]uint8{}, modes...)
	case ExtKeyShare:
		var list cryptobyte.String
		ok = d.ReadUint16LengthPrefixed(&list)
		m.EmptyKeyShare = ok && list.Empty()
		for ok && !list.Empty() {
			var ks KeyShare
			var data []byte
			ok = list.ReadUint16(&ks.Group) && list.ReadUint16LengthPrefixed((*cryptobyte.String)(&data)) && len(data) > 0
			ks.Data = clone(data)
			m.KeyShares = append(m.KeyShares, ks)
		}
	case ExtRenegotiationInfo:
		var ri []byte
		ok = d.ReadUint8LengthPrefixed((*cryptobyte.String)(&ri)) && len(ri) == 0
		m.RenegotiationInfo = true
	case ExtPreSharedKey:
		var ids, binders cryptobyte.String
		ok = d.ReadUint16LengthPrefixed(&ids) && d.ReadUint16LengthPrefixed(&binders)
		m.PSKIdentities, m.PSKBinders = []PSKIdentity{}, [][]byte{}
		for ok && !ids.Empty() {
			var id PSKIdentity
			var ticket []byte
			ok = ids.ReadUint16LengthPrefixed((*cryptobyte.String)(&ticket)) && ids.ReadUint32(&id.Age)
			id.Identity = clone(ticket)
			m.PSKIdentities = append(m.PSKIdentities, id)
		}
		for ok && !binders.Empty() {
			var bd []byte
			ok = binders.ReadUint8LengthPrefixed((*cryptobyte.String)(&bd))
			m.PSKBinders = append(m.PSKBinders, clone(bd))
		}
	default:
		m.Extra = append(m.Extra, Extension{Type: t, Data: clone([]byte(d))})
		d = nil
	}
	if !ok || !d.Empty() {
		return errDecode
	}
	return nil
}

// ServerHello is a ServerHello or HelloRetryRequest (RFC 8446 §4.1.3-4,
// RFC 5246 §7.4.1.3).
type ServerHello struct {
	Version     Version // legacy_version
	Random      [32]byte
	SessionID   []byte
	CipherSuite uint16
	Compression uint8
	// NoExtensions: the message ended after the compression method (SSL
	// 3.0 and extension-less TLS servers).
	NoExtensions bool
	// SupportedVersion is the supported_versions selection (0: absent).
	SupportedVersion Version
	// KeyShare is the server's share in a ServerHello.
	KeyShare KeyShare
	// SelectedGroup is the group a HelloRetryRequest asks for.
	SelectedGroup        uint16
	Cookie               []byte
	SessionTicket        bool
	StatusRequest        bool
	ExtendedMasterSecret bool
	EncryptThenMAC       bool
	SCT                  []byte
	ALPN                 string
	PointFormats         []uint8
	// RenegotiationInfo is the renegotiation_info body (nil: absent).
	RenegotiationInfo []byte
	// PreSharedKey: the server accepted the client's PSK number
	// SelectedIdentity (RFC 8446 §4.2.11): a TLS 1.3 resumption.
	PreSharedKey     bool
	SelectedIdentity uint16
	Extra            []Extension
	// Extensions lists the extension types in the order received: the
	// evidence of what the server answered.
	Extensions []uint16
}

// IsHelloRetryRequest reports whether the message is a HelloRetryRequest.
func (m *ServerHello) IsHelloRetryRequest() bool { return m.Random == HelloRetryRequestRandom }

// Negotiated is the version the server chose: supported_versions if
// present, else legacy_version.
func (m *ServerHello) Negotiated() Version {
	if m.SupportedVersion != 0 {
		return m.SupportedVersion
	}
	return m.Version
}

// DowngradeSentinel reports whether the random carries RFC 8446 §4.1.3's
// "I support TLS 1.3 but negotiated less" marker.
func (m *ServerHello) DowngradeSentinel() bool {
	var tail [8]byte
	copy(tail[:], m.Random[24:])
	return tail == downgradeTLS12 || tail == downgradeTLS11
}

// Marshal returns the handshake message; extensions go in the order of
// m.Extensions when set (the test servers use it), else a fixed order.
func (m *ServerHello) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeServerHello)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint16(uint16(m.Version))
		b.AddBytes(m.Random[:])
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.SessionID) })
		b.AddUint16(m.CipherSuite)
		b.AddUint8(m.Compression)
		if m.NoExtensions {
			return
		}
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			order := m.Extensions
			if order == nil {
				order = m.presentExtensions()
			}
			for _, t := range order {
				m.marshalExtension(b, t)
			}
		})
	})
	return b.Bytes()
}

func (m *ServerHello) presentExtensions() []uint16 {
	var ts []uint16
	add := func(present bool, t uint16) {
		if present {
			ts = append(ts, t)
		}
	}
	add(m.SupportedVersion != 0, ExtSupportedVersions)
	add(m.KeyShare.Group != 0 || m.SelectedGroup != 0, ExtKeyShare)
	add(m.Cookie != nil, ExtCookie)
	add(m.RenegotiationInfo != nil, ExtRenegotiationInfo)
	add(m.PointFormats != nil, ExtECPointFormats)
	add(m.SessionTicket, ExtSessionTicket)
	add(m.StatusRequest, ExtStatusRequest)
	add(m.ExtendedMasterSecret, ExtExtendedMasterSecret)
	add(m.EncryptThenMAC, ExtEncryptThenMAC)
	add(m.SCT != nil, ExtSCT)
	add(m.ALPN != "", ExtALPN)
	add(m.PreSharedKey, ExtPreSharedKey)
	for _, e := range m.Extra {
		ts = append(ts, e.Type)
	}
	return ts
}

func (m *ServerHello) marshalExtension(b *cryptobyte.Builder, t uint16) {
	b.AddUint16(t)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
		switch t {
		case ExtSupportedVersions:
			b.AddUint16(uint16(m.SupportedVersion))
		case ExtKeyShare:
			if m.IsHelloRetryRequest() {
				b.AddUint16(m.SelectedGroup)
				return
			}
			b.AddUint16(m.KeyShare.Group)
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.KeyShare.Data) })
		case ExtCookie:
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Cookie) })
		case ExtRenegotiationInfo:
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.RenegotiationInfo) })
		case ExtECPointFormats:
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.PointFormats) })
		case ExtSCT:
			b.AddBytes(m.SCT)
		case ExtALPN:
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
				b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(m.ALPN)) })
			})
		case ExtPreSharedKey:
			b.AddUint16(m.SelectedIdentity)
		case ExtSessionTicket, ExtStatusRequest, ExtExtendedMasterSecret, ExtEncryptThenMAC:
		default:
			for _, e := range m.Extra {
				if e.Type == t {
					b.AddBytes(e.Data)
					return
				}
			}
		}
	})
}

// Unmarshal parses a ServerHello handshake message, type and length
// included.
func (m *ServerHello) Unmarshal(data []byte) error {
	s := cryptobyte.String(data)
	var typ uint8
	var body cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeServerHello || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		*m = ServerHello{}
		return fmt.Errorf("ServerHello: %w: bad header", errDecode)
	}
	return m.UnmarshalBody(body)
}

// UnmarshalBody parses the message's body (after the 4-byte header): the
// tap's path, which has the body already framed.
func (m *ServerHello) UnmarshalBody(body cryptobyte.String) error {
	*m = ServerHello{}
	var vers uint16
	var random, sid []byte
	if !body.ReadUint16(&vers) || !body.ReadBytes(&random, 32) ||
		!body.ReadUint8LengthPrefixed((*cryptobyte.String)(&sid)) || len(sid) > 32 ||
		!body.ReadUint16(&m.CipherSuite) || !body.ReadUint8(&m.Compression) {
		return fmt.Errorf("ServerHello: %w", errDecode)
	}
	m.Version = Version(vers)
	copy(m.Random[:], random)
	m.SessionID = clone(sid)
	if body.Empty() {
		m.NoExtensions = true
		return nil
	}
	var exts cryptobyte.String
	if !body.ReadUint16LengthPrefixed(&exts) || !body.Empty() {
		return fmt.Errorf("ServerHello: %w: extensions", errDecode)
	}
	m.Extensions = []uint16{}
	for !exts.Empty() {
		var t uint16
		var d cryptobyte.String
		if !exts.ReadUint16(&t) || !exts.ReadUint16LengthPrefixed(&d) {
			return fmt.Errorf("ServerHello: %w: extension", errDecode)
		}
		for _, seen := range m.Extensions {
			if seen == t {
				return fmt.Errorf("ServerHello: %w: duplicate extension %s", errDecode, ExtensionName(t))
			}
		}
		m.Extensions = append(m.Extensions, t)
		if err := m.unmarshalExtension(t, d); err != nil {
			return fmt.Errorf("ServerHello: %s: %w", ExtensionName(t), err)
		}
	}
	return nil
}

func (m *ServerHello) unmarshalExtension(t uint16, d cryptobyte.String) error {
	ok := true
	switch t {
	case ExtSupportedVersions:
		var v uint16
		ok = d.ReadUint16(&v)
		m.SupportedVersion = Version(v)
	case ExtKeyShare:
		if m.IsHelloRetryRequest() {
			ok = d.ReadUint16(&m.SelectedGroup)
			break
		}
		var data []byte
		ok = d.ReadUint16(&m.KeyShare.Group) && d.ReadUint16LengthPrefixed((*cryptobyte.String)(&data)) && len(data) > 0
		m.KeyShare.Data = clone(data)
	case ExtCookie:
		var c []byte
		ok = d.ReadUint16LengthPrefixed((*cryptobyte.String)(&c)) && len(c) > 0
		m.Cookie = clone(c)
	case ExtRenegotiationInfo:
		var ri []byte
		ok = d.ReadUint8LengthPrefixed((*cryptobyte.String)(&ri))
		m.RenegotiationInfo = append([]byte{}, ri...)
	case ExtECPointFormats:
		var pf []byte
		ok = d.ReadUint8LengthPrefixed((*cryptobyte.String)(&pf))
		m.PointFormats = append([]uint8{}, pf...)
	case ExtSCT:
		m.SCT = append([]byte{}, d...)
		d = nil
	case ExtALPN:
		var list, p cryptobyte.String
		ok = d.ReadUint16LengthPrefixed(&list) && list.ReadUint8LengthPrefixed(&p) && list.Empty() && len(p) > 0
		m.ALPN = string(p)
	case ExtSessionTicket:
		m.SessionTicket = true
	case ExtStatusRequest:
		m.StatusRequest = true
	case ExtExtendedMasterSecret:
		m.ExtendedMasterSecret = true
	case ExtEncryptThenMAC:
		m.EncryptThenMAC = true
	case ExtPreSharedKey:
		ok = d.ReadUint16(&m.SelectedIdentity)
		m.PreSharedKey = true
	default:
		m.Extra = append(m.Extra, Extension{Type: t, Data: clone([]byte(d))})
		d = nil
	}
	if !ok || !d.Empty() {
		return errDecode
	}
	return nil
}

// Alert is a TLS alert (RFC 8446 §6).
type Alert struct {
	Level       uint8 // 1 warning, 2 fatal
	Description uint8
}

func (a Alert) Error() string {
	level := "fatal"
	if a.Level == 1 {
		level = "warning"
	}
	return fmt.Sprintf("alert %s %s (%d)", level, AlertDescriptionName(a.Description), a.Description)
}

func (a Alert) Marshal() []byte { return []byte{a.Level, a.Description} }

func (a *Alert) Unmarshal(data []byte) error {
	s := cryptobyte.String(data)
	if !s.ReadUint8(&a.Level) || !s.ReadUint8(&a.Description) || !s.Empty() {
		return fmt.Errorf("alert: %w: %d bytes, want 2", errDecode, len(data))
	}
	return nil
}

// CertificateEntry is one certificate of a Certificate message with, in
// TLS 1.3, its extensions (RFC 8446 §4.4.2).
type CertificateEntry struct {
	DER []byte
	// OCSP is a TLS 1.3 stapled response in the entry's status_request.
	OCSP []byte
	// Extensions are the entry's raw extensions (TLS 1.3).
	Extensions []Extension
}

// Certificate is a Certificate message: TLS ≤ 1.2 (RFC 5246 §7.4.2) or,
// with TLS13 set, TLS 1.3 (RFC 8446 §4.4.2).
type Certificate struct {
	TLS13   bool
	Context []byte
	Entries []CertificateEntry
}

// Marshal returns the handshake message.
func (m *Certificate) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeCertificate)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		if m.TLS13 {
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Context) })
		}
		b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, e := range m.Entries {
				b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(e.DER) })
				if !m.TLS13 {
					continue
				}
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
					for _, x := range e.Extensions {
						b.AddUint16(x.Type)
						b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(x.Data) })
					}
				})
			}
		})
	})
	return b.Bytes()
}

// Unmarshal parses a Certificate handshake message; m.TLS13 selects the
// format and must be set first.
func (m *Certificate) Unmarshal(data []byte) error {
	tls13 := m.TLS13
	*m = Certificate{TLS13: tls13}
	s := cryptobyte.String(data)
	var typ uint8
	var body, list cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeCertificate || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		return fmt.Errorf("Certificate: %w: bad header", errDecode)
	}
	if tls13 {
		var ctx []byte
		if !body.ReadUint8LengthPrefixed((*cryptobyte.String)(&ctx)) {
			return fmt.Errorf("Certificate: %w: context", errDecode)
		}
		m.Context = clone(ctx)
	}
	if !body.ReadUint24LengthPrefixed(&list) || !body.Empty() {
		return fmt.Errorf("Certificate: %w: list", errDecode)
	}
	for !list.Empty() {
		var der []byte
		if !list.ReadUint24LengthPrefixed((*cryptobyte.String)(&der)) || len(der) == 0 {
			return fmt.Errorf("Certificate: %w: entry %d", errDecode, len(m.Entries))
		}
		e := CertificateEntry{DER: clone(der)}
		if tls13 {
			var exts cryptobyte.String
			if !list.ReadUint16LengthPrefixed(&exts) {
				return fmt.Errorf("Certificate: %w: entry %d extensions", errDecode, len(m.Entries))
			}
			for !exts.Empty() {
				var x Extension
				var d []byte
				if !exts.ReadUint16(&x.Type) || !exts.ReadUint16LengthPrefixed((*cryptobyte.String)(&d)) {
					return fmt.Errorf("Certificate: %w: entry %d extension", errDecode, len(m.Entries))
				}
				x.Data = clone([]byte(d))
				e.Extensions = append(e.Extensions, x)
				if x.Type == ExtStatusRequest {
					// CertificateStatus body: status_type ocsp(1), uint24 response.
					st := cryptobyte.String(d)
					var kind uint8
					var resp []byte
					if !st.ReadUint8(&kind) || kind != 1 || !st.ReadUint24LengthPrefixed((*cryptobyte.String)(&resp)) || !st.Empty() {
						return fmt.Errorf("Certificate: %w: entry %d status_request", errDecode, len(m.Entries))
					}
					e.OCSP = clone(resp)
				}
			}
		}
		m.Entries = append(m.Entries, e)
	}
	return nil
}

// CertificateStatus carries a stapled OCSP response in TLS ≤ 1.2
// (RFC 6066 §8).
type CertificateStatus struct {
	OCSP []byte
}

// Marshal returns the handshake message.
func (m *CertificateStatus) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeCertificateStatus)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint8(1)
		b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.OCSP) })
	})
	return b.Bytes()
}

// Unmarshal parses the handshake message.
func (m *CertificateStatus) Unmarshal(data []byte) error {
	s := cryptobyte.String(data)
	var typ, kind uint8
	var body cryptobyte.String
	var resp []byte
	if !s.ReadUint8(&typ) || typ != TypeCertificateStatus || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() ||
		!body.ReadUint8(&kind) || kind != 1 || !body.ReadUint24LengthPrefixed((*cryptobyte.String)(&resp)) ||
		len(resp) == 0 || !body.Empty() {
		return fmt.Errorf("CertificateStatus: %w", errDecode)
	}
	m.OCSP = clone(resp)
	return nil
}

// ServerKeyExchange holds the key exchange parameters of a DHE, ECDHE or
// RSA-export ServerKeyExchange (RFC 5246 §7.4.3, RFC 8422 §5.4, RFC 4279
// §3 for the PSK identity hint, RFC 2246 §7.4.3 for ServerRSAParams).
type ServerKeyExchange struct {
	Kex     KeyExchange // KexDHE, KexECDHE or KexRSA (export suites)
	PSKHint []byte      // DHE_PSK / ECDHE_PSK only
	HasHint bool
	// DHE: the prime, generator and server public value (big-endian).
	P, G, Y []byte
	// ECDHE: the named curve and the server's point.
	Curve uint16
	Point []byte
	// RSA (export suites): the temporary key's modulus and public
	// exponent, big-endian (ServerRSAParams, RFC 2246 §7.4.3).
	Modulus, Exponent []byte
	// SignatureScheme is the TLS 1.2 signature algorithm (0 before 1.2
	// or for anonymous and PSK suites, which sign nothing).
	SignatureScheme uint16
	Signature       []byte
	Signed          bool
	TLS12           bool
}

// Marshal returns the handshake message.
func (m *ServerKeyExchange) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeServerKeyExchange)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		if m.HasHint {
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.PSKHint) })
		}
		switch m.Kex {
		case KexDHE:
			for _, v := range [][]byte{m.P, m.G, m.Y} {
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(v) })
			}
		case KexECDHE:
			b.AddUint8(3) // named_curve (RFC 8422 §5.4)
			b.AddUint16(m.Curve)
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Point) })
		case KexRSA:
			for _, v := range [][]byte{m.Modulus, m.Exponent} {
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(v) })
			}
		default:
			b.SetError(fmt.Errorf("ServerKeyExchange: cannot marshal key exchange %q", m.Kex))
		}
		if !m.Signed {
			return
		}
		if m.TLS12 {
			b.AddUint16(m.SignatureScheme)
		}
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Signature) })
	})
	return b.Bytes()
}

// ParseServerKeyExchange parses a ServerKeyExchange handshake message for
// a suite; version decides whether a signature algorithm precedes the
// signature (TLS 1.2, RFC 5246 §7.4.1.4.1). For an RSA suite it reads
// ServerRSAParams, the only ServerKeyExchange RSA key transport defines
// (sent with export suites, RFC 2246 §7.4.3).
func ParseServerKeyExchange(data []byte, suite Suite, version Version) (*ServerKeyExchange, error) {
	s := cryptobyte.String(data)
	var typ uint8
	var body cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeServerKeyExchange || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		return nil, fmt.Errorf("ServerKeyExchange: %w: bad header", errDecode)
	}
	m := &ServerKeyExchange{Kex: suite.KeyExchange, TLS12: version >= TLS12}
	if suite.PSKHint {
		var hint []byte
		if !body.ReadUint16LengthPrefixed((*cryptobyte.String)(&hint)) {
			return nil, fmt.Errorf("ServerKeyExchange: %w: PSK identity hint", errDecode)
		}
		m.HasHint, m.PSKHint = true, clone(hint)
	}
	switch suite.KeyExchange {
	case KexDHE:
		var p, g, y []byte
		if !body.ReadUint16LengthPrefixed((*cryptobyte.String)(&p)) || len(p) == 0 ||
			!body.ReadUint16LengthPrefixed((*cryptobyte.String)(&g)) || len(g) == 0 ||
			!body.ReadUint16LengthPrefixed((*cryptobyte.String)(&y)) || len(y) == 0 {
			return nil, fmt.Errorf("ServerKeyExchange: %w: DH parameters", errDecode)
		}
		m.P, m.G, m.Y = clone(p), clone(g), clone(y)
	case KexECDHE:
		var curveType uint8
		var point []byte
		if !body.ReadUint8(&curveType) {
			return nil, fmt.Errorf("ServerKeyExchange: %w: curve type", errDecode)
		}
		if curveType != 3 {
			return nil, fmt.Errorf("ServerKeyExchange: curve type %d: only named_curve (3) is defined since RFC 8422", curveType)
		}
		if !body.ReadUint16(&m.Curve) || !body.ReadUint8LengthPrefixed((*cryptobyte.String)(&point)) || len(point) == 0 {
			return nil, fmt.Errorf("ServerKeyExchange: %w: ECDH parameters", errDecode)
		}
		m.Point = clone(point)
	case KexRSA:
		var n, e []byte
		if !body.ReadUint16LengthPrefixed((*cryptobyte.String)(&n)) || len(n) == 0 ||
			!body.ReadUint16LengthPrefixed((*cryptobyte.String)(&e)) || len(e) == 0 {
			return nil, fmt.Errorf("ServerKeyExchange: %w: RSA parameters", errDecode)
		}
		m.Modulus, m.Exponent = clone(n), clone(e)
	default:
		return nil, fmt.Errorf("ServerKeyExchange: not parsed for %s key exchange", suite.KeyExchange)
	}
	if body.Empty() {
		return m, nil // anonymous and PSK suites sign nothing
	}
	m.Signed = true
	if m.TLS12 && !body.ReadUint16(&m.SignatureScheme) {
		return nil, fmt.Errorf("ServerKeyExchange: %w: signature algorithm", errDecode)
	}
	var sig []byte
	if !body.ReadUint16LengthPrefixed((*cryptobyte.String)(&sig)) || !body.Empty() {
		return nil, fmt.Errorf("ServerKeyExchange: %w: signature", errDecode)
	}
	m.Signature = clone(sig)
	return m, nil
}

// NewSessionTicket is a session ticket: TLS 1.2 (RFC 5077 §3.3: lifetime
// hint and ticket) or, with TLS13 set, TLS 1.3 (RFC 8446 §4.6.1).
type NewSessionTicket struct {
	TLS13 bool
	// Lifetime is the lifetime hint (TLS 1.2; 0 = unspecified) or the
	// ticket lifetime (TLS 1.3), in seconds.
	Lifetime   uint32
	AgeAdd     uint32
	Nonce      []byte
	Ticket     []byte
	Extensions []Extension
}

// Marshal returns the handshake message.
func (m *NewSessionTicket) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeNewSessionTicket)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint32(m.Lifetime)
		if m.TLS13 {
			b.AddUint32(m.AgeAdd)
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Nonce) })
		}
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Ticket) })
		if m.TLS13 {
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
				for _, x := range m.Extensions {
					b.AddUint16(x.Type)
					b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(x.Data) })
				}
			})
		}
	})
	return b.Bytes()
}

// Unmarshal parses the handshake message; set TLS13 first.
func (m *NewSessionTicket) Unmarshal(data []byte) error {
	tls13 := m.TLS13
	*m = NewSessionTicket{TLS13: tls13}
	s := cryptobyte.String(data)
	var typ uint8
	var body cryptobyte.String
	var ticket []byte
	if !s.ReadUint8(&typ) || typ != TypeNewSessionTicket || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() ||
		!body.ReadUint32(&m.Lifetime) {
		return fmt.Errorf("NewSessionTicket: %w", errDecode)
	}
	if tls13 {
		var nonce []byte
		if !body.ReadUint32(&m.AgeAdd) || !body.ReadUint8LengthPrefixed((*cryptobyte.String)(&nonce)) {
			return fmt.Errorf("NewSessionTicket: %w: nonce", errDecode)
		}
		m.Nonce = clone(nonce)
	}
	if !body.ReadUint16LengthPrefixed((*cryptobyte.String)(&ticket)) {
		return fmt.Errorf("NewSessionTicket: %w: ticket", errDecode)
	}
	m.Ticket = clone(ticket)
	if tls13 {
		var exts cryptobyte.String
		if len(ticket) == 0 || !body.ReadUint16LengthPrefixed(&exts) {
			return fmt.Errorf("NewSessionTicket: %w: extensions", errDecode)
		}
		for !exts.Empty() {
			var x Extension
			var d []byte
			if !exts.ReadUint16(&x.Type) || !exts.ReadUint16LengthPrefixed((*cryptobyte.String)(&d)) {
				return fmt.Errorf("NewSessionTicket: %w: extension", errDecode)
			}
			x.Data = clone([]byte(d))
			m.Extensions = append(m.Extensions, x)
		}
	}
	if !body.Empty() {
		return fmt.Errorf("NewSessionTicket: %w: trailing bytes", errDecode)
	}
	return nil
}

// marshalRecords wraps a payload in records of at most 2^14 bytes
// clone copies b; empty becomes nil, so parsed messages compare equal to
// the ones they were marshalled from.
func clone(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return append([]byte{}, b...)
}
