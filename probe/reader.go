package probe

import (
	"errors"
	"fmt"
	"io"
	"unicode"

	"github.com/cryptocost/cryptocost/internal/tlswire"
	"golang.org/x/crypto/cryptobyte"
)

// record is one TLS record (RFC 8446 §5.1).
type record struct {
	typ     uint8
	version uint16
	payload []byte
}

// recordReader reads records and reassembles handshake messages from a
// server, within Limits: no record above MaxRecord, no message above
// MaxMessage, no more than MaxUseless records that carry nothing.
type recordReader struct {
	r       io.Reader
	limits  Limits
	hs      []byte // handshake bytes not yet returned
	useless int
	first   bool // nothing read yet
}

func newRecordReader(r io.Reader, limits Limits) *recordReader {
	return &recordReader{r: r, limits: limits, first: true}
}

// errChangeCipherSpec is returned by readHandshake when the server's next
// record is a ChangeCipherSpec.
var errChangeCipherSpec = errors.New("ChangeCipherSpec")

// errNotTLS marks an answer that is not a TLS record at all.
var errNotTLS = errors.New("not TLS")

func (rr *recordReader) readRecord() (record, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(rr.r, hdr[:]); err != nil {
		return record{}, err
	}
	s := cryptobyte.String(hdr[:])
	var rec record
	var n uint16
	s.ReadUint8(&rec.typ)
	s.ReadUint16(&rec.version)
	s.ReadUint16(&n)
	if rec.typ < recordChangeCipherSpec || rec.typ > recordHeartbeat || rec.version>>8 != 3 {
		if rr.first {
			return rec, fmt.Errorf("%w: the server's first bytes are %s", errNotTLS, showBytes(hdr[:]))
		}
		return rec, fmt.Errorf("%w: record header %s", errNotTLS, showBytes(hdr[:]))
	}
	rr.first = false
	if int(n) > rr.limits.MaxRecord {
		return rec, fmt.Errorf("record of %d bytes exceeds the %d-byte limit (RFC 5246 §6.2.3)", n, rr.limits.MaxRecord)
	}
	rec.payload = make([]byte, n)
	if _, err := io.ReadFull(rr.r, rec.payload); err != nil {
		return rec, err
	}
	return rec, nil
}

// MessageTooLarge is a handshake message refused from its header: the
// probe never buffers more than Limits.MaxMessage of one message.
type MessageTooLarge = tlswire.MessageTooLarge

// readHandshake returns the next handshake message, header included. A
// fatal alert comes back as an Alert error; warning alerts, empty records
// and HelloRequests are skipped up to the limit.
func (rr *recordReader) readHandshake() ([]byte, error) {
	for {
		if len(rr.hs) >= 4 {
			s := cryptobyte.String(rr.hs[1:4])
			var n uint32
			s.ReadUint24(&n)
			if int(n) > rr.limits.MaxMessage {
				return nil, &MessageTooLarge{Type: rr.hs[0], Size: int(n), Limit: rr.limits.MaxMessage}
			}
			if len(rr.hs) >= 4+int(n) {
				msg := rr.hs[:4+n]
				rr.hs = rr.hs[4+n:]
				if msg[0] == typeHelloRequest && n == 0 {
					// RFC 5246 §7.4.1.1: ignored during a handshake.
					if err := rr.skip("HelloRequest"); err != nil {
						return nil, err
					}
					continue
				}
				return msg, nil
			}
		}
		rec, err := rr.readRecord()
		if err != nil {
			return nil, err
		}
		if rec.typ != recordHandshake && len(rr.hs) > 0 {
			return nil, fmt.Errorf("record type %d inside a fragmented handshake message (RFC 8446 §5.1 forbids it)", rec.typ)
		}
		switch rec.typ {
		case recordHandshake:
			if len(rec.payload) == 0 {
				if err := rr.skip("empty record"); err != nil {
					return nil, err
				}
				continue
			}
			rr.hs = append(rr.hs, rec.payload...)
		case recordAlert:
			var a Alert
			if err := a.Unmarshal(rec.payload); err != nil {
				return nil, err
			}
			if a.Level == 1 && a.Description != 0 {
				if err := rr.skip("warning alert " + alertName(a.Description)); err != nil {
					return nil, err
				}
				continue
			}
			return nil, a
		case recordChangeCipherSpec:
			return nil, errChangeCipherSpec
		default:
			return nil, fmt.Errorf("unexpected record type %d before the handshake finished", rec.typ)
		}
	}
}

func (rr *recordReader) skip(what string) error {
	rr.useless++
	if rr.useless > rr.limits.MaxUseless {
		return fmt.Errorf("server sent more than %d records that carry nothing (last: %s): giving up", rr.limits.MaxUseless, what)
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
