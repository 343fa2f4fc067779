package tlslab

import (
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// TLS record content types (RFC 8446 §5.1; RFC 5246 §6.2.1; RFC 6520).
const (
	ContentChangeCipherSpec uint8 = 20
	ContentAlert            uint8 = 21
	ContentHandshake        uint8 = 22
	ContentApplicationData  uint8 = 23
	ContentHeartbeat        uint8 = 24
)

// RecordHeaderLen is the TLSPlaintext/TLSCiphertext header: type (1),
// legacy version (2), length (2).
const RecordHeaderLen = 5

// maxRecordFragment is the largest record body any TLS version allows:
// 2^14 + 2048 for TLSCiphertext in TLS 1.2 (RFC 5246 §6.2.3); TLS 1.3
// allows 2^14 + 256 (RFC 8446 §5.2).
const maxRecordFragment = 1<<14 + 2048

var contentNames = map[uint8]string{
	ContentChangeCipherSpec: "change_cipher_spec",
	ContentAlert:            "alert",
	ContentHandshake:        "handshake",
	ContentApplicationData:  "application_data",
	ContentHeartbeat:        "heartbeat",
}

// ContentName is the RFC name of a record content type.
func ContentName(t uint8) string {
	if n, ok := contentNames[t]; ok {
		return n
	}
	return fmt.Sprintf("content_type(%d)", t)
}

// Record is one TLS record of a byte stream.
type Record struct {
	// Offset is where the record's header starts in its stream.
	Offset  int
	Type    uint8
	Version uint16
	// Fragment is the record body (plaintext or ciphertext).
	Fragment []byte
}

// Len is the record's size on the wire, header included.
func (r Record) Len() int { return RecordHeaderLen + len(r.Fragment) }

// ErrNotTLS says a stream does not hold TLS records.
var ErrNotTLS = errors.New("not a TLS record stream")

// ParseRecords splits a TLS byte stream into records, reading it as
// crypto/tls does (cryptobyte, RFC 8446 §5.1). A partial record at the end
// is not an error: tail is the number of bytes after the last whole record
// (a connection cut short). A header that cannot be TLS is an error naming
// its offset.
func ParseRecords(stream []byte) (recs []Record, tail int, err error) {
	s := cryptobyte.String(stream)
	off := 0
	for len(s) > 0 {
		if len(s) < RecordHeaderLen {
			return recs, len(s), nil
		}
		var typ uint8
		var vers uint16
		var frag cryptobyte.String
		hdr := s
		if !hdr.ReadUint8(&typ) || !hdr.ReadUint16(&vers) {
			return recs, len(s), nil
		}
		if _, ok := contentNames[typ]; !ok {
			return recs, len(s), fmt.Errorf("%w: content type %d at offset %d", ErrNotTLS, typ, off)
		}
		if vers>>8 != 3 {
			return recs, len(s), fmt.Errorf("%w: record version %#04x at offset %d", ErrNotTLS, vers, off)
		}
		var length uint16
		if !hdr.ReadUint16(&length) {
			return recs, len(s), nil
		}
		if int(length) > maxRecordFragment {
			return recs, len(s), fmt.Errorf("%w: record of %d bytes at offset %d (at most %d)", ErrNotTLS, length, off, maxRecordFragment)
		}
		if !s.Skip(1+2) || !s.ReadUint16LengthPrefixed(&frag) {
			return recs, len(stream) - off, nil
		}
		recs = append(recs, Record{Offset: off, Type: typ, Version: vers, Fragment: frag})
		off += RecordHeaderLen + len(frag)
	}
	return recs, 0, nil
}
