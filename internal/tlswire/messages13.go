package tlswire

import (
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// EncryptedExtensions is TLS 1.3's EncryptedExtensions (RFC 8446 §4.3.1):
// the extensions not needed to establish keys, kept raw in order.
type EncryptedExtensions struct {
	Extensions []Extension
}

// Marshal returns the handshake message.
func (m *EncryptedExtensions) Marshal() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(TypeEncryptedExtensions)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			for _, e := range m.Extensions {
				b.AddUint16(e.Type)
				b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(e.Data) })
			}
		})
	})
	return b.Bytes()
}

// Unmarshal parses the message, header included. An extension that RFC
// 8446 §4.2's table puts in the ServerHello (key_share, pre_shared_key,
// supported_versions) or nowhere from a server (psk_key_exchange_modes) is
// an error.
func (m *EncryptedExtensions) Unmarshal(data []byte) error {
	*m = EncryptedExtensions{}
	s := cryptobyte.String(data)
	var typ uint8
	var body, exts cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeEncryptedExtensions || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() ||
		!body.ReadUint16LengthPrefixed(&exts) || !body.Empty() {
		return fmt.Errorf("EncryptedExtensions: %w", errDecode)
	}
	for !exts.Empty() {
		var e Extension
		var d cryptobyte.String
		if !exts.ReadUint16(&e.Type) || !exts.ReadUint16LengthPrefixed(&d) {
			return fmt.Errorf("EncryptedExtensions: %w", errDecode)
		}
		switch e.Type {
		case ExtKeyShare, ExtPreSharedKey, ExtSupportedVersions, ExtPSKModes:
			return fmt.Errorf("EncryptedExtensions carries extension %d, which belongs elsewhere (RFC 8446 §4.2)", e.Type)
		}
		e.Data = clone(d)
		m.Extensions = append(m.Extensions, e)
	}
	return nil
}

// Finished is a Finished message (RFC 8446 §4.4.4, RFC 5246 §7.4.9): the
// verify_data, Hash.length bytes in TLS 1.3, 12 in TLS 1.2.
type Finished struct {
	VerifyData []byte
}

// Marshal returns the handshake message.
func (m *Finished) Marshal() ([]byte, error) {
	return HandshakeMessage{Type: TypeFinished, Body: m.VerifyData}.Marshal(), nil
}

// Unmarshal parses the message, header included.
func (m *Finished) Unmarshal(data []byte) error {
	s := cryptobyte.String(data)
	var typ uint8
	var body cryptobyte.String
	if !s.ReadUint8(&typ) || typ != TypeFinished || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() || len(body) == 0 {
		return fmt.Errorf("Finished: %w", errDecode)
	}
	m.VerifyData = clone(body)
	return nil
}
