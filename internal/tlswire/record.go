package tlswire

import (
	"encoding/binary"
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
func (r Record) Header() []byte { return r.AppendHeader(make([]byte, 0, RecordHeaderLen)) }

// AppendHeader appends the record's header to b.
func (r Record) AppendHeader(b []byte) []byte {
	b = append(b, r.Type)
	b = binary.BigEndian.AppendUint16(b, r.Version)
	return binary.BigEndian.AppendUint16(b, uint16(len(r.Fragment)))
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
	recs = make([]Record, 0, 16) // a handshake's records, each way, without growing
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
	return fmt.Sprintf("record of %d bytes exceeds the %d-byte limit (record_overflow, RFC 5246 §6.2.3)", e.Size, e.Limit)
}

// NotTLSError is a record header that cannot be TLS (an unknown content
// type, a version not 3.x): errors.Is(err, ErrNotTLS). Header holds the
// bytes read, for a message that shows what the peer sent instead.
type NotTLSError struct {
	Header [RecordHeaderLen]byte
	Reason string
}

func (e *NotTLSError) Error() string        { return ErrNotTLS.Error() + ": " + e.Reason }
func (e *NotTLSError) Is(target error) bool { return target == ErrNotTLS }

// ReadRecord reads one record from r. A header that cannot be TLS is a
// *NotTLSError, and a body above maxFragment a *RecordTooLarge, both
// before the body is read; a stream that ends inside a record, or before
// one, is io.ErrUnexpectedEOF.
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
		return Record{}, &NotTLSError{Header: hdr, Reason: fmt.Sprintf("content type %d", rec.Type)}
	case rec.Version>>8 != 3:
		return Record{}, &NotTLSError{Header: hdr, Reason: fmt.Sprintf("record version %#04x", rec.Version)}
	case int(n) > maxFragment:
		return Record{}, &RecordTooLarge{Size: int(n), Limit: maxFragment}
	}
	rec.Fragment = make([]byte, n)
	if _, err := io.ReadFull(r, rec.Fragment); err != nil {
		return Record{}, fmt.Errorf("a record cut short: %w", err)
	}
	return rec, nil
}

// RecordReader reads a peer's records as they arrive and reassembles its
// handshake messages (RFC 8446 §5.1: a message may span records, a record
// may hold several), within caps a hostile peer cannot get past: no record
// body above MaxRecord (refused from its header, before the body is read),
// no handshake message above MaxMessage (refused from its header, before
// it is buffered), no more than MaxUseless records that carry nothing.
// Together with a deadline on the connection, the bytes one peer can make
// its reader hold are bounded. The probe and the TLS lab's psk_ke client
// read servers through it; what each record type means at each point of a
// handshake is theirs to say.
type RecordReader struct {
	r                                 io.Reader
	MaxRecord, MaxMessage, MaxUseless int
	hs                                []byte // handshake bytes not yet returned
	useless, records                  int
}

// NewRecordReader reads records from r within the caps.
func NewRecordReader(r io.Reader, maxRecord, maxMessage, maxUseless int) *RecordReader {
	return &RecordReader{r: r, MaxRecord: maxRecord, MaxMessage: maxMessage, MaxUseless: maxUseless}
}

// ReadRecord reads the next record (ReadRecord with MaxRecord).
func (rr *RecordReader) ReadRecord() (Record, error) {
	rec, err := ReadRecord(rr.r, rr.MaxRecord)
	if err == nil {
		rr.records++
	}
	return rec, err
}

// Records is the number of records read so far.
func (rr *RecordReader) Records() int { return rr.records }

// AddHandshake buffers a handshake record's plaintext, refusing
// (*MessageTooLarge) a message whose header announces more than
// MaxMessage bytes.
func (rr *RecordReader) AddHandshake(fragment []byte) error {
	rr.hs = append(rr.hs, fragment...)
	return CheckMessageLength(rr.hs, rr.MaxMessage)
}

// NextMessage pops the next whole buffered handshake message, header
// included, with its type.
func (rr *RecordReader) NextMessage() (typ uint8, msg []byte, ok bool) {
	typ, msg, rest, ok := CutHandshakeMessage(rr.hs)
	if ok {
		rr.hs = rest
	}
	return typ, msg, ok
}

// Pending is the number of buffered bytes of an incomplete message.
func (rr *RecordReader) Pending() int { return len(rr.hs) }

// TooManyUseless says a peer sent more than the allowed records that
// carry nothing (empty records, warning alerts, HelloRequests,
// ChangeCipherSpecs in TLS 1.3): crypto/tls gives up after 16 (conn.go,
// maxUselessRecords).
type TooManyUseless struct {
	Limit int
	Last  string
}

func (e *TooManyUseless) Error() string {
	return fmt.Sprintf("more than %d records that carry nothing (last: %s)", e.Limit, e.Last)
}

// Skip counts a record that carries nothing (what names it), refusing
// one past MaxUseless.
func (rr *RecordReader) Skip(what string) error {
	if rr.useless++; rr.useless > rr.MaxUseless {
		return &TooManyUseless{Limit: rr.MaxUseless, Last: what}
	}
	return nil
}
