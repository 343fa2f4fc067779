package oscore

import (
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"
)

// The EDHOC + OSCORE request (RFC 9668 §3): the Client sends EDHOC
// message_3 together with its first OSCORE-protected request. The request
// carries the (empty, Class U) EDHOC option, and its payload is
// COMB_PAYLOAD = EDHOC_MSG_3 / OSCORE_PAYLOAD (§3.2.1): message_3, a CBOR
// byte string and so self-delimiting, followed by the OSCORE ciphertext.
// C_R is not sent: it is the 'kid' of the OSCORE option.

// CombinedPayload joins message_3 and the OSCORE ciphertext.
func CombinedPayload(message3, ciphertext []byte) []byte {
	return append(append([]byte(nil), message3...), ciphertext...)
}

// SplitCombined separates a COMB_PAYLOAD: the first CBOR item, which must
// be a byte string (message_3), and the rest, which must not be empty
// (RFC 9668 §3.3.1 step 1).
func SplitCombined(payload []byte) (message3, ciphertext []byte, err error) {
	var raw cbor.RawMessage
	rest, err := cbor.UnmarshalFirst(payload, &raw)
	if err != nil {
		return nil, nil, fmt.Errorf("EDHOC + OSCORE payload: %w", err)
	}
	if raw[0]>>5 != 2 {
		return nil, nil, errors.New("EDHOC + OSCORE payload: message_3 must be a CBOR byte string")
	}
	if len(rest) == 0 {
		return nil, nil, errors.New("EDHOC + OSCORE payload: no OSCORE ciphertext after message_3")
	}
	return []byte(raw), rest, nil
}
