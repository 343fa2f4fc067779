package tlswire

import (
	"errors"
	"fmt"
	"io"

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

// Record size caps. A sender's plaintext fragment is at most 2^14 bytes
// (RFC 8446 §5.1, RFC 5246 §6.2.1); a TLS 1.3 TLSCiphertext at most
// 2^14 + 256 (RFC 8446 §5.2); a TLS ≤ 1.2 TLSCiphertext at most 2^14 +
// 2048 (RFC 5246 §6.2.3), the largest record any version allows.
const (
	MaxPlaintext      = 1 << 14
	MaxCiphertext13   = 1<<14 + 256
	MaxRecordFragment = 1<<14 + 2048
)

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

// Header is the record's 5-byte header: the additional data of TLS 1.3
// record protection (RFC 8446 §5.2).
func (r Record) Header() []byte {
	var b cryptobyte.Builder
	b.AddUint8(r.Type)
	b.AddUint16(r.Version)
	b.AddUint16(uint16(len(r.Fragment)))
	return b.BytesOrPanic()
}

// Marshal returns the record, header included.
func (r Record) Marshal() []byte {
	var b cryptobyte.Builder
	b.AddUint8(r.Type)
	b.AddUint16(r.Version)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(r.Fragment) })
	return b.BytesOrPanic()
}

// ErrNotTLS says a stream does not hold TLS records.
var ErrNotTLS = errors.New("not a TLS record stream")

// ParseRecords splits a TLS byte stream into records, reading it as
// crypto/tls does (cryptobyte, RFC 8446 §5.1). A partial record at the end
// is not an error: tail is the number of bytes after the last whole record
// (a connection cut short). A header that cannot be TLS (unknown content
// type, a version not 3.x, a body above MaxRecordFragment) is an error
// naming its offset.
func ParseRecords(stream []byte) (recs []Record, tail int, err error) {
	s := cryptobyte.String(stream)
	off := 0
	for len(s) > 0 {
		hdr := s
		var typ uint8
		var vers, length uint16
		if !hdr.ReadUint8(&typ) || !hdr.ReadUint16(&vers) {
			return recs, len(s), nil
		}
		if _, ok := contentNames[typ]; !ok {
			return recs, len(s), fmt.Errorf("%w: content type %d at offset %d", ErrNotTLS, typ, off)
		}
		if vers>>8 != 3 {
			return recs, len(s), fmt.Errorf("%w: record version %#04x at offset %d", ErrNotTLS, vers, off)
		}
		if !hdr.ReadUint16(&length) {
			return recs, len(s), nil
		}
		if int(length) > MaxRecordFragment {
			return recs, len(s), fmt.Errorf("%w: record of %d bytes at offset %d (at most %d)", ErrNotTLS, length, off, MaxRecordFragment)
		}
		var frag cryptobyte.String
		if !s.Skip(1+2) || !s.ReadUint16LengthPrefixed(&frag) {
			return recs, len(stream) - off, nil
		}
		recs = append(recs, Record{Offset: off, Type: typ, Version: vers, Fragment: frag})
		off += RecordHeaderLen + len(frag)
	}
	return recs, 0, nil
}

// SplitRecords splits a stream into records without judging their headers
// (a stream a peer wrote, already known to be TLS): the whole records, and
// the bytes after the last one.
func SplitRecords(stream []byte) (recs []Record, rest []byte) {
	s := cryptobyte.String(stream)
	off := 0
	for !s.Empty() {
		save := s
		var r Record
		var body cryptobyte.String
		if !s.ReadUint8(&r.Type) || !s.ReadUint16(&r.Version) || !s.ReadUint16LengthPrefixed(&body) {
			return recs, save
		}
		r.Offset, r.Fragment = off, body
		off += r.Len()
		recs = append(recs, r)
	}
	return recs, nil
}

// MarshalRecords frames payload as records of type typ, at most
// MaxPlaintext bytes each; an empty payload is one empty record.
func MarshalRecords(typ uint8, version uint16, payload []byte) []byte {
	var out []byte
	for first := true; first || len(payload) > 0; first = false {
		n := min(len(payload), MaxPlaintext)
		out = append(out, Record{Type: typ, Version: version, Fragment: payload[:n]}.Marshal()...)
		payload = payload[n:]
	}
	return out
}

// RecordTooLarge is a record refused from its header: its body is never
// read.
type RecordTooLarge struct {
	Size, Limit int
}

func (e *RecordTooLarge) Error() string {
	return fmt.Sprintf("a record of %d B (record_overflow: at most %d)", e.Size, e.Limit)
}

// ReadRecord reads one record from r. A header that cannot be TLS (an
// unknown content type, a version not 3.x) is an ErrNotTLS error, and a
// body above maxFragment a *RecordTooLarge, both before the body is read;
// a stream that ends inside a record is io.ErrUnexpectedEOF.
func ReadRecord(r io.Reader, maxFragment int) (Record, error) {
	var hdr [RecordHeaderLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return Record{}, err
	}
	s := cryptobyte.String(hdr[:])
	var rec Record
	var n uint16
	s.ReadUint8(&rec.Type)
	s.ReadUint16(&rec.Version)
	s.ReadUint16(&n)
	switch {
	case contentNames[rec.Type] == "":
		return Record{}, fmt.Errorf("%w: content type %d", ErrNotTLS, rec.Type)
	case rec.Version>>8 != 3:
		return Record{}, fmt.Errorf("%w: record version %#04x", ErrNotTLS, rec.Version)
	case int(n) > maxFragment:
		return Record{}, &RecordTooLarge{Size: int(n), Limit: maxFragment}
	}
	rec.Fragment = make([]byte, n)
	if _, err := io.ReadFull(r, rec.Fragment); err != nil {
		return Record{}, fmt.Errorf("a record cut short: %w", err)
	}
	return rec, nil
}
