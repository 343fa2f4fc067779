package edhoc

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"
)

// EDHOC messages are CBOR sequences (RFC 8742) of deterministically
// encoded items (RFC 9528 §3.1, RFC 8949 §4.2.1). Encoding goes through
// fxamacker/cbor in its core deterministic mode; decoding reads one item
// at a time and refuses any item whose encoding is not the deterministic
// one (RFC 9529 §4.3: a 16-bit encoding of 3, indefinite lengths), by
// re-encoding what was decoded and comparing the bytes.

var (
	encMode cbor.EncMode
	decMode cbor.DecMode
)

func init() {
	var err error
	if encMode, err = cbor.CoreDetEncOptions().EncMode(); err != nil {
		panic(err)
	}
	if decMode, err = (cbor.DecOptions{IndefLength: cbor.IndefLengthForbidden, DupMapKey: cbor.DupMapKeyEnforcedAPF,
		MaxNestedLevels: 8, MaxArrayElements: 64, MaxMapPairs: 64}).DecMode(); err != nil {
		panic(err)
	}
}

// CBOR major types (RFC 8949 §3.1).
const (
	majorUint  = 0
	majorNeg   = 1
	majorBytes = 2
	majorText  = 3
	majorArray = 4
	majorMap   = 5
	majorOther = 7
)

// marshal encodes v deterministically; a failure is a programming error.
func marshal(v any) []byte {
	b, err := encMode.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("edhoc: encoding %T: %v", v, err))
	}
	return b
}

// bstr is v as a CBOR byte string.
func bstr(v []byte) []byte {
	if v == nil {
		v = []byte{}
	}
	return marshal(v)
}

// seq concatenates encoded items into a CBOR sequence.
func seq(items ...[]byte) []byte { return bytes.Join(items, nil) }

// item is one decoded data item of a sequence: its raw encoding and value.
type item struct {
	raw   []byte
	major byte
	value any
}

// errEncoding marks a message that is not well-formed or not
// deterministically encoded.
var errEncoding = errors.New("not a deterministically encoded CBOR sequence")

// reader walks a CBOR sequence item by item.
type reader struct {
	rest []byte
	n    int
}

func newReader(b []byte) *reader { return &reader{rest: b} }

func (r *reader) empty() bool { return len(r.rest) == 0 }

// next reads one item and checks its encoding is deterministic.
func (r *reader) next(what string) (item, error) {
	if len(r.rest) == 0 {
		return item{}, fmt.Errorf("%s: missing (the sequence ends after %d items)", what, r.n)
	}
	var raw cbor.RawMessage
	rest, err := decMode.UnmarshalFirst(r.rest, &raw)
	if err != nil {
		return item{}, fmt.Errorf("%s: %w: %v", what, errEncoding, err)
	}
	var v any
	if err := decMode.Unmarshal(raw, &v); err != nil {
		return item{}, fmt.Errorf("%s: %w: %v", what, errEncoding, err)
	}
	if again, err := encMode.Marshal(v); err != nil || !bytes.Equal(again, raw) {
		return item{}, fmt.Errorf("%s: %w: the item is not in its shortest, definite-length encoding (RFC 8949 §4.2.1)", what, errEncoding)
	}
	r.rest, r.n = rest, r.n+1
	return item{raw: []byte(raw), major: raw[0] >> 5, value: v}, nil
}

// bytesItem reads a byte string.
func (r *reader) bytesItem(what string) ([]byte, error) {
	it, err := r.next(what)
	if err != nil {
		return nil, err
	}
	if it.major != majorBytes {
		return nil, fmt.Errorf("%s: want a byte string, got CBOR major type %d", what, it.major)
	}
	return it.value.([]byte), nil
}

// intItem reads an integer.
func (r *reader) intItem(what string) (int64, error) {
	it, err := r.next(what)
	if err != nil {
		return 0, err
	}
	return intOf(it, what)
}

func intOf(it item, what string) (int64, error) {
	switch v := it.value.(type) {
	case uint64:
		if v > 1<<62 {
			return 0, fmt.Errorf("%s: integer %d out of range", what, v)
		}
		return int64(v), nil
	case int64:
		return v, nil
	}
	return 0, fmt.Errorf("%s: want an integer, got CBOR major type %d", what, it.major)
}

// Connection identifiers and compact key identifiers (RFC 9528 §3.3.2):
// a byte string whose single byte is the encoding of an integer -24..23 is
// sent as that integer; any other byte string as a byte string. The two
// are the same identifier, so a one-byte byte string that could have been
// an integer is an encoding error (RFC 9529 §4.1.2).

// encodeID encodes identifier id.
func encodeID(id []byte) []byte {
	if len(id) == 1 && oneByteInt(id[0]) {
		return []byte{id[0]}
	}
	return bstr(id)
}

// oneByteInt reports whether b is a complete one-byte CBOR integer
// (0..23 or -1..-24).
func oneByteInt(b byte) bool { return b <= 0x17 || (b >= 0x20 && b <= 0x37) }

// idItem reads an identifier encoded by encodeID.
func (r *reader) idItem(what string) ([]byte, error) {
	it, err := r.next(what)
	if err != nil {
		return nil, err
	}
	switch it.major {
	case majorUint, majorNeg:
		if len(it.raw) != 1 {
			return nil, fmt.Errorf("%s: an integer identifier must be -24..23 (one byte)", what)
		}
		return it.raw, nil
	case majorBytes:
		b := it.value.([]byte)
		if len(b) == 1 && oneByteInt(b[0]) {
			return nil, fmt.Errorf("%s: %w: the byte string h'%02x' must be sent as the integer %#02x (RFC 9528 §3.3.2)", what, errEncoding, b[0], b[0])
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s: want a byte string or an integer, got CBOR major type %d", what, it.major)
}

// rawMessage is one encoded item inside a decoded container.
type rawMessage = cbor.RawMessage
