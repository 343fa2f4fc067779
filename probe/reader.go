package probe

import (
	"errors"
	"fmt"
	"io"
	"unicode"

	"github.com/cryptocost/cryptocost/internal/tlswire"
)

// record is one TLS record (RFC 8446 §5.1).
type record struct {
	typ     uint8
	version uint16
	payload []byte
}

// recordReader reads a server's records and handshake messages through
// tlswire.RecordReader, within Limits: no record above MaxRecord, no
// message above MaxMessage, no more than MaxUseless records that carry
// nothing. What each record means before the handshake ends is the
// probe's: a fatal alert is the server's answer, a ChangeCipherSpec ends
// the plaintext, warning alerts, empty records and HelloRequests are
// skipped.
type recordReader struct {
	wire *tlswire.RecordReader
}

func newRecordReader(r io.Reader, limits Limits) *recordReader {
	return &recordReader{wire: tlswire.NewRecordReader(r, limits.MaxRecord, limits.MaxMessage, limits.MaxUseless)}
}

// errChangeCipherSpec is returned by readHandshake when the server's next
// record is a ChangeCipherSpec.
var errChangeCipherSpec = errors.New("ChangeCipherSpec")

// errNotTLS marks an answer that is not a TLS record at all.
var errNotTLS = errors.New("not TLS")

func (rr *recordReader) readRecord() (record, error) {
	first := rr.wire.Records() == 0
	rec, err := rr.wire.ReadRecord()
	var notTLS *tlswire.NotTLSError
	switch {
	case errors.As(err, &notTLS) && first:
		return record{}, fmt.Errorf("%w: the server's first bytes are %s", errNotTLS, showBytes(notTLS.Header[:]))
	case errors.As(err, &notTLS):
		return record{}, fmt.Errorf("%w: record header %s", errNotTLS, showBytes(notTLS.Header[:]))
	case err != nil:
		return record{}, err
	}
	return record{typ: rec.Type, version: rec.Version, payload: rec.Fragment}, nil
}

// MessageTooLarge is a handshake message refused from its header: the
// probe never buffers more than Limits.MaxMessage of one message.
type MessageTooLarge = tlswire.MessageTooLarge

// readHandshake returns the next handshake message, header included. A
// fatal alert comes back as an Alert error; warning alerts, empty records
// and HelloRequests are skipped up to the limit.
func (rr *recordReader) readHandshake() ([]byte, error) {
	_, msg, err := rr.readMessage()
	return msg, err
}

// readMessage is readHandshake returning the message's type too.
func (rr *recordReader) readMessage() (uint8, []byte, error) {
	for {
		if typ, msg, ok := rr.wire.NextMessage(); ok {
			if typ == typeHelloRequest && len(msg) == 4 {
				// RFC 5246 §7.4.1.1: ignored during a handshake.
				if err := rr.skip("HelloRequest"); err != nil {
					return 0, nil, err
				}
				continue
			}
			return typ, msg, nil
		}
		rec, err := rr.readRecord()
		if err != nil {
			return 0, nil, err
		}
		if rec.typ != recordHandshake && rr.wire.Pending() > 0 {
			return 0, nil, fmt.Errorf("record type %d inside a fragmented handshake message (RFC 8446 §5.1 forbids it)", rec.typ)
		}
		switch rec.typ {
		case recordHandshake:
			if len(rec.payload) == 0 {
				if err := rr.skip("empty record"); err != nil {
					return 0, nil, err
				}
				continue
			}
			if err := rr.wire.AddHandshake(rec.payload); err != nil {
				return 0, nil, err
			}
		case recordAlert:
			var a Alert
			if err := a.Unmarshal(rec.payload); err != nil {
				return 0, nil, err
			}
			if a.Level == 1 && a.Description != 0 {
				if err := rr.skip("warning alert " + alertName(a.Description)); err != nil {
					return 0, nil, err
				}
				continue
			}
			return 0, nil, a
		case recordChangeCipherSpec:
			return 0, nil, errChangeCipherSpec
		default:
			return 0, nil, fmt.Errorf("unexpected record type %d before the handshake finished", rec.typ)
		}
	}
}

func (rr *recordReader) skip(what string) error {
	if err := rr.wire.Skip(what); err != nil {
		return fmt.Errorf("server sent %w: giving up", err)
	}
	return nil
}

// showBytes renders the first bytes of a non-TLS answer, as hex and, when
// printable, as text ("48 54 54 50 2f "HTTP/"").
func showBytes(b []byte) string {
	out := fmt.Sprintf("% x", b)
	printable := true
	for _, c := range b {
		if c > unicode.MaxASCII || !unicode.IsPrint(rune(c)) {
			printable = false
		}
	}
	if printable {
		out += fmt.Sprintf(" (%q)", b)
	}
	return out
}

// splitRecords splits a byte stream into records without limits beyond the
// stream itself (the stream was already bounded when read); a trailing
// partial record is returned as rest.
func splitRecords(stream []byte) (recs []record, rest []byte) {
	rs, rest := tlswire.SplitRecords(stream)
	for _, r := range rs {
		recs = append(recs, record{typ: r.Type, version: r.Version, payload: r.Fragment})
	}
	return recs, rest
}
