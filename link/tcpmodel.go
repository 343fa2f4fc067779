package link

import (
	"fmt"
	"slices"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// TCP flags of a modelled packet.
const (
	FlagFIN = 1 << 0
	FlagSYN = 1 << 1
	FlagPSH = 1 << 3
	FlagACK = 1 << 4
)

// DelayedACK is the receiver's delayed-ACK timeout of the model: Linux's
// TCP_DELACK_MIN (40 ms); RFC 1122 §4.2.3.2 allows up to 500 ms.
const DelayedACK = 40 * time.Millisecond

// HeaderModel describes, in one sentence, how the packets' header bytes are
// counted; it goes into result.Trace.HeaderModel.
const HeaderModel = "modelled TCP/IPv4: 52 B per segment and pure ACK (IPv4 20 + TCP 20 + timestamps 12), " +
	"60 B per SYN and SYN-ACK (options 20); ACK every second segment or after 40 ms unless data piggybacks it " +
	"(RFC 5681 §4.2, Linux TCP_DELACK_MIN); FIN and its ACK each way; no link-layer framing"

// Packet is one packet of a modelled TCP connection, as the client's
// interface sees it: SYN, SYN-ACK and ACK, the data segments the emulator
// carried, the pure ACKs of the delayed-ACK model, and the FINs.
type Packet struct {
	// At is when the client sends (up) or receives (down) the packet.
	At    time.Duration
	Dir   result.Direction
	Flags uint8
	// Seq and Ack are relative sequence numbers (the SYN is 0).
	Seq, Ack uint32
	// Offset and Len locate the payload in its direction's byte stream.
	Offset int64
	Len    int
	// WireBytes is Len plus the modelled IPv4 and TCP headers.
	WireBytes int
	// Retransmission marks a resend after a loss.
	Retransmission bool
}

// HeaderBytes is the packet's modelled IPv4+TCP header size.
func (p Packet) HeaderBytes() int { return p.WireBytes - p.Len }

// ModelTCP builds the client's view of the TCP connection whose data
// segments an emulated link carried (segments in any order; payloads are
// not needed). Lost downlink copies are left out (the client never saw
// them); lost uplink copies are in (the client sent them).
func ModelTCP(segs []Segment, stats StreamStats, p Params) []Packet {
	ser := func(dir result.Direction, n int) time.Duration {
		rate := p.RateUp
		if dir == result.Down {
			rate = p.RateDown
		}
		if rate <= 0 {
			return 0
		}
		return time.Duration(float64(n) * 8 / rate * 1e9)
	}
	// atClient converts a time at the sender to the client's view: the
	// client sees its own packets leave, and the server's arrive.
	atClient := func(dir result.Direction, sentAt time.Duration, wire int) time.Duration {
		if dir == result.Up {
			return sentAt
		}
		return sentAt + ser(dir, wire) + p.Latency
	}
	// arrivals per direction (at the receiver): when each byte count was
	// reached, for ack numbers.
	type arrival struct {
		at    time.Duration
		bytes int64 // stream bytes received up to and including this
	}
	arr := map[result.Direction][]arrival{}
	data := slices.Clone(segs)
	slices.SortStableFunc(data, func(a, b Segment) int { return cmpDur(a.Start, b.Start) })
	var out []Packet
	for _, s := range data {
		if !s.Lost {
			arr[s.Dir] = append(arr[s.Dir], arrival{s.Arrive, s.Seq + payloadLen(s)})
		}
	}
	for _, d := range []result.Direction{result.Up, result.Down} {
		slices.SortFunc(arr[d], func(a, b arrival) int { return cmpDur(a.at, b.at) })
		for i := 1; i < len(arr[d]); i++ {
			arr[d][i].bytes = max(arr[d][i].bytes, arr[d][i-1].bytes)
		}
	}
	other := func(d result.Direction) result.Direction {
		if d == result.Up {
			return result.Down
		}
		return result.Up
	}
	// received is how many bytes of direction d had arrived by t.
	received := func(d result.Direction, t time.Duration) int64 {
		a := arr[d]
		i, _ := slices.BinarySearchFunc(a, t, func(x arrival, t time.Duration) int {
			if x.at <= t {
				return -1
			}
			return 1
		})
		if i == 0 {
			return 0
		}
		return a[i-1].bytes
	}
	finSeq := map[result.Direction]int64{}
	finAt := map[result.Direction]time.Duration{result.Up: stats.UpFIN, result.Down: stats.DownFIN}
	ackNum := func(from result.Direction, t time.Duration) uint32 {
		// The SYN takes sequence number 0; a FIN one more after the data.
		d := other(from)
		n := received(d, t) + 1
		if f, ok := finAt[d]; ok && f >= 0 && f+ser(d, TCPSegmentOverhead)+p.Latency <= t {
			n = finSeq[d] + 1
		}
		return uint32(n)
	}

	// sentSeq is the next sequence number of direction d's sender at t
	// (its SND.NXT, RFC 9293 §3.3.1): one past every byte it had started
	// to send by then, and one more once its FIN is sent (a FIN takes a
	// sequence number). A pure ACK carries it: one lower reads as a TCP
	// keep-alive (RFC 9293 §3.8.4), which Wireshark flags.
	sent := map[result.Direction][]arrival{} // by Start: bytes sent up to then
	for _, s := range data {                 // data is sorted by Start
		n := s.Seq + payloadLen(s)
		if a := sent[s.Dir]; len(a) > 0 {
			n = max(n, a[len(a)-1].bytes)
		}
		sent[s.Dir] = append(sent[s.Dir], arrival{s.Start, n})
	}
	sentSeq := func(d result.Direction, t time.Duration) uint32 {
		a := sent[d]
		i, _ := slices.BinarySearchFunc(a, t, func(x arrival, t time.Duration) int {
			if x.at <= t {
				return -1
			}
			return 1
		})
		var n int64
		if i > 0 {
			n = a[i-1].bytes
		}
		if f := finAt[d]; f >= 0 && f <= t {
			n++
		}
		return uint32(n + 1)
	}

	// Handshake: SYN up at 0, SYN-ACK reaches the client at Handshake,
	// the client's ACK leaves then.
	out = append(out,
		Packet{At: 0, Dir: result.Up, Flags: FlagSYN, WireBytes: TCPSYNOverhead},
		Packet{At: stats.Handshake, Dir: result.Down, Flags: FlagSYN | FlagACK, Ack: 1, WireBytes: TCPSYNOverhead},
		Packet{At: stats.Handshake, Dir: result.Up, Flags: FlagACK, Seq: 1, Ack: 1, WireBytes: TCPSegmentOverhead})

	total := map[result.Direction]int64{}
	for _, s := range data {
		total[s.Dir] = max(total[s.Dir], s.Seq+payloadLen(s))
	}
	for _, d := range []result.Direction{result.Up, result.Down} {
		finSeq[d] = total[d] + 1
	}
	for _, s := range data {
		n := payloadLen(s)
		if s.Lost && s.Dir == result.Down {
			continue
		}
		out = append(out, Packet{At: atClientSeg(s), Dir: s.Dir, Flags: FlagACK | FlagPSH,
			Seq: uint32(s.Seq + 1), Ack: ackNum(s.Dir, s.Start), Offset: s.Seq, Len: int(n),
			WireBytes: s.WireBytes, Retransmission: s.Retransmission})
	}
	// Pure ACKs: the receiver of direction d acknowledges every second
	// segment at once, or the first unacknowledged one after DelayedACK,
	// unless it sends data (which carries the ACK) first.
	for _, d := range []result.Direction{result.Up, result.Down} {
		r := other(d)
		type event struct {
			at   time.Duration
			data bool  // a data segment of d arrives at r; else r sends data
			end  int64 // a data segment's end in d's stream
		}
		var ev []event
		for _, s := range data {
			if s.Lost {
				continue
			}
			if s.Dir == d {
				ev = append(ev, event{s.Arrive, true, s.Seq + payloadLen(s)})
			} else {
				ev = append(ev, event{s.Start, false, 0})
			}
		}
		slices.SortStableFunc(ev, func(a, b event) int { return cmpDur(a.at, b.at) })
		// An ACK acknowledges what had arrived when it was sent, in arrival
		// order: two ACKs sent at one instant (four segments arriving
		// together) acknowledge two segments each, not all four twice —
		// the second would be a duplicate ACK, the sign of a loss.
		unacked, first := 0, time.Duration(0)
		var upTo int64 // stream bytes of d the ACKs so far cover
		emit := func(t time.Duration) {
			out = append(out, Packet{At: atClient(r, t, TCPSegmentOverhead), Dir: r, Flags: FlagACK,
				Seq: sentSeq(r, t), Ack: uint32(upTo + 1), WireBytes: TCPSegmentOverhead})
			unacked = 0
		}
		for _, e := range ev {
			if unacked > 0 && first+DelayedACK < e.at {
				emit(first + DelayedACK)
			}
			if !e.data {
				unacked = 0 // piggybacked
				continue
			}
			upTo = max(upTo, e.end)
			if unacked == 0 {
				first = e.at
			}
			unacked++
			if unacked >= 2 {
				emit(e.at)
			}
		}
		// What is still unacknowledged is acknowledged by the timer, or
		// by the receiver's FIN if that comes first.
		if unacked > 0 {
			t := first + DelayedACK
			if f := finAt[r]; f >= 0 && f < t {
				t = -1
			}
			if t >= 0 {
				emit(t)
			}
		}
	}
	// FINs, each acknowledged at once by the other side.
	for _, d := range []result.Direction{result.Up, result.Down} {
		f := finAt[d]
		if f < 0 {
			continue
		}
		seq := uint32(total[d] + 1)
		out = append(out, Packet{At: atClient(d, f, TCPSegmentOverhead), Dir: d, Flags: FlagFIN | FlagACK,
			Seq: seq, Ack: ackNum(d, f), WireBytes: TCPSegmentOverhead})
		r := other(d)
		at := f + ser(d, TCPSegmentOverhead) + p.Latency // the FIN reaches r
		out = append(out, Packet{At: atClient(r, at, TCPSegmentOverhead), Dir: r, Flags: FlagACK,
			Seq: sentSeq(r, at), Ack: seq + 1, WireBytes: TCPSegmentOverhead})
	}
	slices.SortStableFunc(out, func(a, b Packet) int { return cmpDur(a.At, b.At) })
	return out
}

// payloadLen is a segment's payload length: Payload is nil once the
// Observer call is over, so captured segments carry Len in WireBytes.
func payloadLen(s Segment) int64 { return int64(s.WireBytes - TCPSegmentOverhead) }

func atClientSeg(s Segment) time.Duration { return s.AtClient() }

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TraceOf turns modelled packets into a result.Trace; label names what a
// packet carried (nil: no labels).
func TraceOf(pkts []Packet, linkName string, label func(Packet) string) *result.Trace {
	t := &result.Trace{Link: linkName, HeaderModel: HeaderModel, Transport: result.TransportTCP}
	for _, p := range pkts {
		rp := result.Packet{TimeNs: int64(p.At), Dir: p.Dir, Bytes: p.WireBytes, Payload: p.Len}
		if label != nil {
			rp.Label = label(p)
		} else {
			rp.Label = flagsLabel(p)
		}
		t.Packets = append(t.Packets, rp)
	}
	return t
}

// flagsLabel names a control packet: "SYN", "SYN-ACK", "ACK", "FIN".
func flagsLabel(p Packet) string {
	switch {
	case p.Flags&FlagSYN != 0 && p.Flags&FlagACK != 0:
		return "TCP SYN-ACK"
	case p.Flags&FlagSYN != 0:
		return "TCP SYN"
	case p.Flags&FlagFIN != 0:
		return "TCP FIN"
	case p.Len == 0:
		return "TCP ACK"
	}
	return fmt.Sprintf("TCP data %d B", p.Len)
}

// FlagsLabel names a packet by its TCP flags (for packets without TLS).
func FlagsLabel(p Packet) string { return flagsLabel(p) }
