package radio

import (
	"fmt"

	"github.com/cryptocost/cryptocost/result"
)

// linkPayloads returns the bytes a low-power link (BLE, 802.15.4) must carry
// for each packet, and a note on how they were chosen. Those links carry
// their own compressed headers (6LoWPAN, L2CAP) instead of the trace's
// IP/TCP headers, so when the trace knows the transport payload of its
// packets (pcap readers and the TLS lab fill Packet.Payload) that is what is
// priced, and a packet without payload (a TCP ACK) is not sent: the link
// acknowledges its frames itself. A trace without payloads is priced whole.
func linkPayloads(t *result.Trace) ([]int, string) {
	known := payloadsKnown(t)
	out := make([]int, len(t.Packets))
	skipped := 0
	for i, p := range t.Packets {
		if !known {
			out[i] = p.Bytes
			continue
		}
		out[i] = p.Payload
		if p.Payload == 0 {
			skipped++
		}
	}
	if !known {
		return out, "the trace gives no transport payloads: each packet's whole size (IP and transport headers included) was priced as link payload"
	}
	return out, fmt.Sprintf("priced each packet's transport payload under the link's own headers; %d packets without payload (TCP ACKs) were left out, the link acknowledges frames itself", skipped)
}

// payloadsKnown: the trace gives its packets' transport payloads.
func payloadsKnown(t *result.Trace) bool {
	for _, p := range t.Packets {
		if p.Payload > 0 {
			return true
		}
	}
	return false
}
