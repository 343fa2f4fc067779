package timesync

import (
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// Message is one synchronisation message, S003's layout (seed003-models.md:
// node ID 16 bits, timestamp 32 bits, update counter 32 bits, signature):
//
//	uint16 node_id    the source's ID
//	uint32 timestamp  the source's clock when it built the message, in µs mod 2^32
//	uint32 counter    increases by one per message; receivers reject old ones
//	opaque signature[sig_len]  over the 10 bytes above; sig_len fixed by the suite
//
// All big-endian; no type or length fields: a receiver knows the source's
// suite and so the signature's length, and a datagram of any other length
// is malformed. The timestamp's unit is finer than TinyOS's binary
// milliseconds so that loopback delays are resolved; 2^32 µs is 71.6
// minutes, and receivers unwrap it against their own clock.
type Message struct {
	NodeID    uint16
	Timestamp uint32
	Counter   uint32
	Signature []byte
}

// HeaderBytes is what the signature covers: ID, timestamp, counter.
const HeaderBytes = 2 + 4 + 4

// Signed returns the bytes the signature covers.
func (m Message) Signed() []byte {
	var b cryptobyte.Builder
	b.AddUint16(m.NodeID)
	b.AddUint32(m.Timestamp)
	b.AddUint32(m.Counter)
	return b.BytesOrPanic()
}

// Marshal encodes the message; its length is HeaderBytes + the signature.
func (m Message) Marshal() []byte {
	var b cryptobyte.Builder
	b.AddUint16(m.NodeID)
	b.AddUint32(m.Timestamp)
	b.AddUint32(m.Counter)
	b.AddBytes(m.Signature)
	return b.BytesOrPanic()
}

// Parse decodes a datagram carrying a signature of sigLen bytes.
func Parse(b []byte, sigLen int) (Message, error) {
	if len(b) != HeaderBytes+sigLen {
		return Message{}, fmt.Errorf("datagram of %d bytes: a message of this suite is %d", len(b), HeaderBytes+sigLen)
	}
	s := cryptobyte.String(b)
	var m Message
	var sig []byte
	if !s.ReadUint16(&m.NodeID) || !s.ReadUint32(&m.Timestamp) || !s.ReadUint32(&m.Counter) || !s.ReadBytes(&sig, sigLen) || !s.Empty() {
		return Message{}, fmt.Errorf("malformed message")
	}
	m.Signature = append([]byte(nil), sig...)
	return m, nil
}
