package probe

import (
	"fmt"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"golang.org/x/crypto/cryptobyte"
)

// The segment model that turns measured TLS bytes into the packets a radio
// would carry. The TLS bytes are measured on the socket; how the kernel cut
// them into TCP segments is not visible from user space, so the trace
// models it: each flight (the bytes one side sends before the other
// answers) is cut into segments of at most mss bytes, each with 40 bytes
// of IPv4 (20, RFC 791) and TCP (20, RFC 9293 §3.1) headers and no options,
// plus the three-way handshake's SYN, SYN-ACK and ACK as bare headers. Pure
// ACKs of data and the connection close are not modelled.
const (
	mss         = 1460 // Ethernet MTU 1500 − 40 (RFC 894, RFC 9293 §3.7.1)
	headerBytes = 40
)

// HeaderModel is the trace's statement of how header bytes were counted.
const HeaderModel = "TLS bytes measured on the socket; packets modelled: flights cut into 1460-byte TCP segments, 40 B TCP/IPv4 headers each (no options), SYN/SYN-ACK/ACK as bare 40 B headers; pure ACKs and FIN not modelled"

// connCost is what one measured connection cost.
type connCost struct {
	bytesUp, bytesDown int // TLS bytes until the handshake completed
	postUp, postDown   int // TLS bytes sent after it (tickets, close_notify)
	roundTrips         int
	connectNs          int64
	handshakeNs        int64 // TCP established → handshake complete
	trace              *result.Trace
	wireUp, wireDown   int // modelled, handshake only
	packetsUp          int
	packetsDown        int
}

// recordLabels names what each record of a direction's stream carried.
type recordLabels func(dir result.Direction, recs []record) []string

// measureConn computes the cost of a connection from its tap. doneAt is
// when the handshake completed (from the start of the dial).
func measureConn(events []ioEvent, connectNs int64, doneAt time.Duration, label recordLabels) connCost {
	c := connCost{connectNs: connectNs, handshakeNs: doneAt.Nanoseconds() - connectNs}
	var streams = map[result.Direction][]byte{}
	var last result.Direction
	for _, e := range events {
		streams[e.dir] = append(streams[e.dir], e.data...)
		if e.at > doneAt {
			if e.dir == result.Down {
				c.postDown += len(e.data)
			} else {
				c.postUp += len(e.data)
			}
			continue
		}
		if e.dir == result.Up {
			c.bytesUp += len(e.data)
		} else {
			c.bytesDown += len(e.data)
			if last == result.Up {
				c.roundTrips++
			}
		}
		last = e.dir
	}
	// Labels per stream offset range.
	type span struct {
		end   int
		label string
	}
	spans := map[result.Direction][]span{}
	for _, dir := range []result.Direction{result.Up, result.Down} {
		recs, _ := splitRecords(streams[dir])
		labels := label(dir, recs)
		off := 0
		for i, r := range recs {
			off += 5 + len(r.payload)
			l := ""
			if i < len(labels) {
				l = labels[i]
			}
			spans[dir] = append(spans[dir], span{off, l})
		}
	}
	labelOf := func(dir result.Direction, from, to int) string {
		var names []string
		start := 0
		for _, s := range spans[dir] {
			if s.end > from && start < to && s.label != "" && (len(names) == 0 || names[len(names)-1] != s.label) {
				names = append(names, s.label)
			}
			start = s.end
		}
		return strings.Join(names, ", ")
	}
	tr := &result.Trace{HeaderModel: HeaderModel, Transport: result.TransportTCP}
	tr.Packets = append(tr.Packets,
		result.Packet{TimeNs: 0, Dir: result.Up, Bytes: headerBytes, Label: "TCP SYN"},
		result.Packet{TimeNs: connectNs, Dir: result.Down, Bytes: headerBytes, Label: "TCP SYN-ACK"},
		result.Packet{TimeNs: connectNs, Dir: result.Up, Bytes: headerBytes, Label: "TCP ACK"})
	c.wireUp, c.wireDown, c.packetsUp, c.packetsDown = 2*headerBytes, headerBytes, 2, 1
	// Flights: runs of events in one direction, split where the
	// handshake completed (what follows is not handshake cost).
	offsets := map[result.Direction]int{}
	for i := 0; i < len(events); {
		dir, at := events[i].dir, events[i].at
		n := 0
		for ; i < len(events) && events[i].dir == dir && (events[i].at > doneAt) == (at > doneAt); i++ {
			n += len(events[i].data)
		}
		from := offsets[dir]
		offsets[dir] += n
		for off := from; off < from+n; off += mss {
			seg := min(mss, from+n-off)
			tr.Packets = append(tr.Packets, result.Packet{TimeNs: at.Nanoseconds(), Dir: dir,
				Bytes: seg + headerBytes, Payload: seg, Label: labelOf(dir, off, off+seg)})
			if at <= doneAt {
				if dir == result.Up {
					c.wireUp += seg + headerBytes
					c.packetsUp++
				} else {
					c.wireDown += seg + headerBytes
					c.packetsDown++
				}
			}
		}
	}
	c.trace = tr
	return c
}

// plainLabels names the handshake messages in plaintext records, across
// record boundaries (TLS ≤ 1.2, and TLS 1.3 up to the ServerHello);
// records after a ChangeCipherSpec are encrypted, and named by what the
// protocol puts there.
func plainLabels(afterCCS func(dir result.Direction, i int) string) recordLabels {
	return func(dir result.Direction, recs []record) []string {
		out := make([]string, len(recs))
		var pending []byte // handshake bytes not yet a full message
		left := 0          // bytes of the current message still to come
		var current uint8
		encrypted := false
		n := 0
		for i, r := range recs {
			switch {
			case r.typ == recordChangeCipherSpec:
				out[i] = "ChangeCipherSpec"
				encrypted = true
				continue
			case r.typ == recordAlert && !encrypted:
				var a Alert
				if a.Unmarshal(r.payload) == nil {
					out[i] = "alert " + alertName(a.Description)
				} else {
					out[i] = "alert"
				}
				continue
			case encrypted || r.typ == recordApplicationData:
				out[i] = afterCCS(dir, n)
				n++
				continue
			case r.typ != recordHandshake:
				out[i] = fmt.Sprintf("record type %d", r.typ)
				continue
			}
			var names []string
			data := r.payload
			for len(data) > 0 {
				if left > 0 {
					k := min(left, len(data))
					left -= k
					data = data[k:]
					names = appendName(names, handshakeName(current))
					continue
				}
				pending = append(pending, data...)
				data = nil
				for {
					// A message's header (type, uint24 length) names
					// it; its body may end in a later record.
					s := cryptobyte.String(pending)
					var l uint32
					if !s.ReadUint8(&current) || !s.ReadUint24(&l) {
						break
					}
					names = appendName(names, handshakeName(current))
					if !s.Skip(int(l)) {
						left = int(l) - len(s)
						pending = nil
						break
					}
					pending = s
				}
			}
			out[i] = strings.Join(names, ", ")
		}
		return out
	}
}

func appendName(names []string, n string) []string {
	if len(names) > 0 && names[len(names)-1] == n {
		return names
	}
	return append(names, n)
}
