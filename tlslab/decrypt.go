package tlslab

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"

	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/cryptobyte"
)

// TLS 1.3 cipher suites (RFC 8446 §B.4).
const (
	TLS_AES_128_GCM_SHA256       uint16 = 0x1301
	TLS_AES_256_GCM_SHA384       uint16 = 0x1302
	TLS_CHACHA20_POLY1305_SHA256 uint16 = 0x1303
)

// suite13 is a TLS 1.3 suite's AEAD and hash, for the record layer.
type suite13 struct {
	keyLen int
	hash   func() hash.Hash
	aead   func(key []byte) (cipher.AEAD, error)
}

var suites13 = map[uint16]suite13{
	TLS_AES_128_GCM_SHA256:       {16, sha256.New, aesGCM},
	TLS_AES_256_GCM_SHA384:       {32, sha512.New384, aesGCM},
	TLS_CHACHA20_POLY1305_SHA256: {32, sha256.New, chacha20poly1305.New},
}

func aesGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// expandLabel is HKDF-Expand-Label (RFC 8446 §7.1): HKDF-Expand with the
// info HkdfLabel = uint16 length || opaque label<7..255> = "tls13 " + label
// || opaque context<0..255>.
func expandLabel(h func() hash.Hash, secret []byte, label string, context []byte, length int) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint16(uint16(length))
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte("tls13 " + label)) })
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(context) })
	info, err := b.Bytes()
	if err != nil {
		return nil, err
	}
	return hkdf.Expand(h, secret, string(info), length)
}

// trafficKeys derives a record key and IV from a traffic secret (RFC 8446
// §7.3: key = HKDF-Expand-Label(secret, "key", "", key_length), iv =
// HKDF-Expand-Label(secret, "iv", "", 12)).
func trafficKeys(suite uint16, secret []byte) (key, iv []byte, err error) {
	s, ok := suites13[suite]
	if !ok {
		return nil, nil, fmt.Errorf("TLS 1.3 cipher suite %#04x unknown", suite)
	}
	if key, err = expandLabel(s.hash, secret, "key", nil, s.keyLen); err != nil {
		return nil, nil, err
	}
	iv, err = expandLabel(s.hash, secret, "iv", nil, 12)
	return key, iv, err
}

// recordProtection opens TLS 1.3 records of one direction under one traffic
// secret (RFC 8446 §5.2–5.3).
type recordProtection struct {
	aead cipher.AEAD
	iv   []byte
	seq  uint64
}

func newRecordProtection(suite uint16, secret []byte) (*recordProtection, error) {
	key, iv, err := trafficKeys(suite, secret)
	if err != nil {
		return nil, err
	}
	aead, err := suites13[suite].aead(key)
	if err != nil {
		return nil, err
	}
	return &recordProtection{aead: aead, iv: iv}, nil
}

var errOpen = errors.New("record does not authenticate under this key")

// open decrypts a TLSCiphertext record: the nonce is the IV XOR the
// 64-bit sequence number, the additional data the record header; the
// plaintext is content || type || zeros (TLSInnerPlaintext). On success
// the sequence number advances.
func (p *recordProtection) open(rec Record) (content []byte, innerType uint8, err error) {
	aad := []byte{rec.Type, byte(rec.Version >> 8), byte(rec.Version), byte(len(rec.Fragment) >> 8), byte(len(rec.Fragment))}
	plain, err := p.aead.Open(nil, p.nonce(), rec.Fragment, aad)
	if err != nil {
		return nil, 0, errOpen
	}
	p.seq++
	i := len(plain) - 1
	for i >= 0 && plain[i] == 0 {
		i--
	}
	if i < 0 {
		return nil, 0, fmt.Errorf("TLSInnerPlaintext without a content type")
	}
	return plain[:i], plain[i], nil
}

// nonce is the per-record nonce: the IV XOR the 64-bit sequence number,
// left-padded to the IV's length (RFC 8446 §5.3).
func (p *recordProtection) nonce() []byte {
	nonce := make([]byte, len(p.iv))
	copy(nonce, p.iv)
	var seq [8]byte
	binary.BigEndian.PutUint64(seq[:], p.seq)
	for i := range seq {
		nonce[len(nonce)-8+i] ^= seq[i]
	}
	return nonce
}

// seal protects content of type innerType as one TLSCiphertext record
// (RFC 8446 §5.2): the plaintext is content || type with no padding, the
// outer type application_data, legacy_record_version 0x0303, and the
// additional data the record's header. It returns the whole record and
// advances the sequence number.
func (p *recordProtection) seal(content []byte, innerType uint8) []byte {
	n := len(content) + 1 + p.aead.Overhead()
	hdr := [RecordHeaderLen]byte{ContentApplicationData, 3, 3, byte(n >> 8), byte(n)}
	plain := append(append(make([]byte, 0, len(content)+1), content...), innerType)
	rec := p.aead.Seal(append(make([]byte, 0, RecordHeaderLen+n), hdr[:]...), p.nonce(), plain, hdr[:])
	p.seq++
	return rec
}
