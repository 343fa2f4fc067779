package sensor

import (
	"slices"

	"github.com/plgd-dev/go-coap/v3/message"
)

// CoAP message sizes computed from the message's parts by RFC 7252 §3,
// independently of go-coap's encoder: the scenario checks that the bytes
// the link carried are the sum of the messages' sizes computed this way.

// CoAPMessage is what decides a CoAP message's size on the wire.
type CoAPMessage struct {
	TokenBytes   int
	Options      []message.Option
	PayloadBytes int
}

// coapHeaderBytes is the fixed header: Ver, T, TKL, Code, Message ID
// (RFC 7252 §3, Figure 7).
const coapHeaderBytes = 4

// Size is the message's length over UDP: the 4-byte header, the token,
// each option as a delta-encoded header plus its value (§3.1), and the
// payload after a 0xFF marker when there is one.
func (m CoAPMessage) Size() int {
	n := coapHeaderBytes + m.TokenBytes
	opts := slices.Clone(m.Options)
	slices.SortStableFunc(opts, func(a, b message.Option) int { return int(a.ID) - int(b.ID) })
	prev := 0
	for _, o := range opts {
		n += 1 + optionExtBytes(int(o.ID)-prev) + optionExtBytes(len(o.Value)) + len(o.Value)
		prev = int(o.ID)
	}
	if m.PayloadBytes > 0 {
		n += 1 + m.PayloadBytes
	}
	return n
}

// optionExtBytes is the extended delta or length field a value v needs
// (§3.1): none below 13, one byte below 269, two bytes beyond.
func optionExtBytes(v int) int {
	switch {
	case v < 13:
		return 0
	case v < 269:
		return 1
	}
	return 2
}
