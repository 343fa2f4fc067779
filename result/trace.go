package result

// Direction is which way a packet went, seen from the device under study.
type Direction string

const (
	Up   Direction = "up"   // sent by the device (client, sensor, phone)
	Down Direction = "down" // received by the device
)

// Trace is a packet trace: what crossed a link, when, and which way.
// Runners that move bytes (the TLS lab, scenarios) attach one to their
// results; radio models price it (a 3G tail, an 802.15.4 frame count), so
// one measurement can be costed for any radio.
type Trace struct {
	// Link names the emulated link the packets crossed, if any.
	Link string `json:"link,omitempty"`
	// HeaderModel says how header bytes were counted or estimated
	// ("TCP/IPv4 40 B per segment, no options").
	HeaderModel string `json:"header_model,omitempty"`
	// Transport is the transport protocol every packet is a segment or
	// datagram of: TransportTCP, TransportUDP, or "" when unknown or mixed.
	// Links that compress headers (6LoWPAN) price it.
	Transport string `json:"transport,omitempty"`
	// Packets in time order.
	Packets []Packet `json:"packets"`
}

// Trace transports.
const (
	TransportTCP = "tcp"
	TransportUDP = "udp"
)

// Packet is one packet (or segment, or frame) of a trace.
type Packet struct {
	// TimeNs is the time since the start of the subject, in nanoseconds.
	TimeNs int64     `json:"t_ns"`
	Dir    Direction `json:"dir"`
	// Bytes on the wire, headers included as HeaderModel says.
	Bytes int `json:"bytes"`
	// Payload is the bytes of the layer above (TLS record bytes in a TCP
	// segment), when known.
	Payload int `json:"payload,omitempty"`
	// Label says what the packet carried ("ClientHello", "app data").
	Label string `json:"label,omitempty"`
}

// Totals returns the bytes and packets each way.
func (t *Trace) Totals() (upBytes, downBytes, upPackets, downPackets int) {
	for _, p := range t.Packets {
		if p.Dir == Up {
			upBytes += p.Bytes
			upPackets++
		} else {
			downBytes += p.Bytes
			downPackets++
		}
	}
	return
}
