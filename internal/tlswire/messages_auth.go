package tlswire

import (
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// CertificateRequest asks the client for a certificate: TLS ≤ 1.2 (RFC
// 5246 §7.4.4: certificate types, from TLS 1.2 the signature algorithms,
// the acceptable CAs' distinguished names) or, with TLS13 set, TLS 1.3
// (RFC 8446 §4.3.2: a context and extensions). Set TLS12 and TLS13 before
// Unmarshal: the encoding depends on the version.
type CertificateRequest struct {
	TLS13, TLS12 bool
	// TLS ≤ 1.2.
	CertificateTypes []uint8
	SignatureSchemes []uint16 // TLS 1.2 only
	Authorities      [][]byte // DER distinguished names
	// TLS 1.3.
	Context    []byte
	Extensions []Extension
}

// Marshal returns the handshake message.
func (m *CertificateRequest) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeCertificateRequest)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		if m.TLS13 {
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Context) })
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
				for _, e := range m.Extensions {
					b.AddUint16(e.Type)
					b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(e.Data) })
				}
			})
			return
		}
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.CertificateTypes) })
		if m.TLS12 {
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
				for _, s := range m.SignatureSchemes {
					b.AddUint16(s)
				}
			})
		}
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, dn := range m.Authorities {
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(dn) })
			}
		})
	})
	return b.Bytes()
}

// Unmarshal parses the message, header included, in the version TLS12 /
// TLS13 say.
func (m *CertificateRequest) Unmarshal(data []byte) error {
	*m = CertificateRequest{TLS13: m.TLS13, TLS12: m.TLS12}
	s := cryptobyte.String(data)
	var typ uint8
	var body cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeCertificateRequest || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		return fmt.Errorf("CertificateRequest: %w: bad header", errDecode)
	}
	ok := true
	if m.TLS13 {
		var ctx, exts cryptobyte.String
		ok = body.ReadUint8LengthPrefixed(&ctx) && body.ReadUint16LengthPrefixed(&exts)
		m.Context = clone(ctx)
		for ok && !exts.Empty() {
			var e Extension
			var d cryptobyte.String
			ok = exts.ReadUint16(&e.Type) && exts.ReadUint16LengthPrefixed(&d)
			e.Data = clone(d)
			m.Extensions = append(m.Extensions, e)
		}
	} else {
		var types, cas cryptobyte.String
		ok = body.ReadUint8LengthPrefixed(&types) && len(types) > 0
		m.CertificateTypes = clone(types)
		if ok && m.TLS12 {
			var algs cryptobyte.String
			ok = body.ReadUint16LengthPrefixed(&algs) && len(algs) > 0
			for ok && !algs.Empty() {
				var a uint16
				ok = algs.ReadUint16(&a)
				m.SignatureSchemes = append(m.SignatureSchemes, a)
			}
		}
		ok = ok && body.ReadUint16LengthPrefixed(&cas)
		for ok && !cas.Empty() {
			var dn cryptobyte.String
			ok = cas.ReadUint16LengthPrefixed(&dn) && len(dn) > 0
			m.Authorities = append(m.Authorities, clone(dn))
		}
	}
	if !ok || !body.Empty() {
		return fmt.Errorf("CertificateRequest: %w", errDecode)
	}
	return nil
}

// ClientKeyExchange is TLS ≤ 1.2's ClientKeyExchange (RFC 5246 §7.4.7):
// the RSA-encrypted premaster secret (opaque<0..2^16-1>; SSL 3.0 sends it
// bare, RFC 6101 §5.6.7.1), the client's DH public value (dh_Yc<1..2^16-1>,
// §7.4.7.2) or its ECDH point (opaque<1..2^8-1>, RFC 8422 §5.7). Set Kex
// (and SSL30) before Unmarshal: the encoding depends on the suite.
type ClientKeyExchange struct {
	Kex   KeyExchange // KexRSA, KexDHE, KexECDHE
	SSL30 bool
	Data  []byte
}

// Marshal returns the handshake message.
func (m *ClientKeyExchange) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeClientKeyExchange)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		switch {
		case m.Kex == KexECDHE:
			b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Data) })
		case m.Kex == KexRSA && m.SSL30:
			b.AddBytes(m.Data)
		default:
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Data) })
		}
	})
	return b.Bytes()
}

// Unmarshal parses the message, header included, for the key exchange
// Kex says.
func (m *ClientKeyExchange) Unmarshal(data []byte) error {
	*m = ClientKeyExchange{Kex: m.Kex, SSL30: m.SSL30}
	s := cryptobyte.String(data)
	var typ uint8
	var body, v cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeClientKeyExchange || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		return fmt.Errorf("ClientKeyExchange: %w: bad header", errDecode)
	}
	ok := true
	switch {
	case m.Kex == KexECDHE:
		ok = body.ReadUint8LengthPrefixed(&v) && len(v) > 0
	case m.Kex == KexRSA && m.SSL30:
		v, body = body, nil
	case m.Kex == KexRSA || m.Kex == KexDHE:
		ok = body.ReadUint16LengthPrefixed(&v) && (m.Kex == KexRSA || len(v) > 0)
	default:
		return fmt.Errorf("ClientKeyExchange: no codec for key exchange %q", m.Kex)
	}
	if !ok || !body.Empty() {
		return fmt.Errorf("ClientKeyExchange: %w", errDecode)
	}
	m.Data = clone(v)
	return nil
}
