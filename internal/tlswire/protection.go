package tlswire

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
)

// RecordProtection protects and opens TLS 1.3 records of one direction
// under one traffic secret (RFC 8446 §5.2–5.3).
type RecordProtection struct {
	aead  cipher.AEAD
	iv    []byte
	nonce []byte // the per-record nonce, rewritten for each record
	seq   uint64
}

// NewRecordProtection derives the key and IV of a traffic secret.
func NewRecordProtection(suite uint16, secret []byte) (*RecordProtection, error) {
	key, iv, err := TrafficKeys(suite, secret)
	if err != nil {
		return nil, err
	}
	aead, err := suites13[suite].AEAD(key)
	if err != nil {
		return nil, err
	}
	return &RecordProtection{aead: aead, iv: iv, nonce: make([]byte, len(iv))}, nil
}

// Overhead is what protection adds to a record's content besides the
// inner content type: the AEAD tag.
func (p *RecordProtection) Overhead() int { return p.aead.Overhead() }

// Seq is the sequence number of the next record.
func (p *RecordProtection) Seq() uint64 { return p.seq }

// ErrOpen says a record does not authenticate under the key tried.
var ErrOpen = errors.New("record does not authenticate under this key")

// Open decrypts a TLSCiphertext record: the nonce is the IV XOR the
// 64-bit sequence number, the additional data the record header; the
// plaintext is content || type || zeros (TLSInnerPlaintext). On success
// the sequence number advances.
func (p *RecordProtection) Open(rec Record) (content []byte, innerType uint8, err error) {
	return p.OpenTo(nil, rec)
}

// OpenTo is Open decrypting into dst's storage when it is large enough
// (dst[:0] is reused: a reader that opens many records and keeps none
// allocates nothing per record).
func (p *RecordProtection) OpenTo(dst []byte, rec Record) (content []byte, innerType uint8, err error) {
	if len(rec.Fragment) > MaxCiphertext13 {
		return nil, 0, fmt.Errorf("protected record of %d bytes exceeds TLS 1.3's %d (RFC 8446 §5.2)", len(rec.Fragment), MaxCiphertext13)
	}
	var hdr [RecordHeaderLen]byte
	plain, err := p.aead.Open(dst[:0], p.nextNonce(), rec.Fragment, rec.AppendHeader(hdr[:0]))
	if err != nil {
		return nil, 0, ErrOpen
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

// nextNonce is the per-record nonce: the IV XOR the 64-bit sequence
// number, left-padded to the IV's length (RFC 8446 §5.3). It is
// rewritten for every record.
func (p *RecordProtection) nextNonce() []byte {
	var seq [8]byte
	binary.BigEndian.PutUint64(seq[:], p.seq)
	pad := len(p.iv) - len(seq)
	copy(p.nonce, p.iv[:pad])
	subtle.XORBytes(p.nonce[pad:], p.iv[pad:], seq[:])
	return p.nonce
}

// Seal protects content of type innerType as one TLSCiphertext record
// (RFC 8446 §5.2): the plaintext is content || type with no padding, the
// outer type application_data, legacy_record_version 0x0303, and the
// additional data the record's header. It returns the whole record and
// advances the sequence number.
func (p *RecordProtection) Seal(content []byte, innerType uint8) []byte {
	n := len(content) + 1 + p.aead.Overhead()
	hdr := Record{Type: ContentApplicationData, Version: 0x0303, Fragment: make([]byte, n)}.Header()
	plain := append(append(make([]byte, 0, len(content)+1), content...), innerType)
	rec := p.aead.Seal(append(make([]byte, 0, RecordHeaderLen+n), hdr...), p.nextNonce(), plain, hdr)
	p.seq++
	return rec
}
