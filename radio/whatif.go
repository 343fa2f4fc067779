package radio

import (
	"fmt"
	"math"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// The what-ifs build new traces from measured ones, so a question such as
// "does a second connection 5 s later share the tail?" is answered by
// pricing the combined trace. None changes its inputs.

// Sequence returns first followed by second, second's first packet gap
// after first's last one: a second connection some time later.
func Sequence(first, second *result.Trace, gap time.Duration) (*result.Trace, error) {
	if err := CheckTrace(first); err != nil {
		return nil, fmt.Errorf("first trace: %w", err)
	}
	if err := CheckTrace(second); err != nil {
		return nil, fmt.Errorf("second trace: %w", err)
	}
	if gap < 0 {
		return nil, fmt.Errorf("gap %v is negative: the second connection must start after the first ends", gap)
	}
	out := derive(first)
	out.Packets = append(out.Packets, first.Packets...)
	shift := last(first) + gap.Nanoseconds() - second.Packets[0].TimeNs
	for _, p := range second.Packets {
		p.TimeNs += shift
		out.Packets = append(out.Packets, p)
	}
	return out, nil
}

// Repeat returns n copies of t, one starting every `every` (first packet to
// first packet): readings sent one connection each.
func Repeat(t *result.Trace, n int, every time.Duration) (*result.Trace, error) {
	if err := CheckTrace(t); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("%d copies: want at least 1", n)
	}
	if d := time.Duration(last(t) - t.Packets[0].TimeNs); n > 1 && every < d {
		return nil, fmt.Errorf("a copy every %v would overlap the next: the trace lasts %v", every, d)
	}
	if n > 1 && every.Nanoseconds() > (math.MaxInt64-last(t))/int64(n) {
		return nil, fmt.Errorf("%d copies every %v overflow the trace clock", n, every)
	}
	out := derive(t)
	for k := range n {
		for _, p := range t.Packets {
			p.TimeNs += int64(k) * every.Nanoseconds()
			out.Packets = append(out.Packets, p)
		}
	}
	return out, CheckTrace(out)
}

// Batch returns one connection that carries n readings: the first
// handshake packets of t once, then the rest of t (one reading's exchange)
// n times back to back, each copy starting when the previous one ends.
func Batch(t *result.Trace, handshake, n int) (*result.Trace, error) {
	if err := CheckTrace(t); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("%d readings: want at least 1", n)
	}
	if handshake < 0 || handshake >= len(t.Packets) {
		return nil, fmt.Errorf("handshake of %d packets: the trace has %d, and the readings need at least one after the handshake", handshake, len(t.Packets))
	}
	out := derive(t)
	out.Packets = append(out.Packets, t.Packets[:handshake]...)
	data := t.Packets[handshake:]
	var shift int64
	for range n {
		for _, p := range data {
			p.TimeNs += shift
			out.Packets = append(out.Packets, p)
		}
		shift = last(out) - data[0].TimeNs
	}
	return out, nil
}

// ReplacePrefix returns t with its first n packets (a full handshake)
// replaced by the packets of with (a resumed one); the rest of t keeps its
// timing relative to the end of the handshake.
func ReplacePrefix(t *result.Trace, n int, with *result.Trace) (*result.Trace, error) {
	if err := CheckTrace(t); err != nil {
		return nil, err
	}
	if err := CheckTrace(with); err != nil {
		return nil, fmt.Errorf("replacement: %w", err)
	}
	if n < 1 || n > len(t.Packets) {
		return nil, fmt.Errorf("handshake of %d packets: the trace has %d", n, len(t.Packets))
	}
	out := derive(t)
	start := t.Packets[0].TimeNs
	for _, p := range with.Packets {
		p.TimeNs += start - with.Packets[0].TimeNs
		out.Packets = append(out.Packets, p)
	}
	shift := last(out) - t.Packets[n-1].TimeNs
	for _, p := range t.Packets[n:] {
		p.TimeNs += shift
		out.Packets = append(out.Packets, p)
	}
	return out, nil
}

// SyntheticTransfer is a bulk exchange over TCP/IPv4 without a measured
// trace: the device sends up bytes, then receives down bytes, each in
// segments of mss payload bytes with 40 bytes of IPv4 and TCP headers
// (RFC 791, RFC 9293, no options) paced at rate bits per second; the
// device acknowledges every second segment it receives (delayed ACKs,
// RFC 9293 §3.8.6.3) with a 40-byte ACK. No handshake and no slow start:
// it is the transfer alone, for questions like "what does 50 KB cost".
func SyntheticTransfer(up, down int, rate float64, mss int) (*result.Trace, error) {
	switch {
	case up < 0 || down < 0 || up+down == 0:
		return nil, fmt.Errorf("transfer of %d B up and %d B down: want some bytes, none negative", up, down)
	case up > MaxTraceBytes || down > MaxTraceBytes || up+down > MaxTraceBytes:
		return nil, fmt.Errorf("transfer of %d B up and %d B down: more than the %d MiB a trace may carry", up, down, MaxTraceBytes>>20)
	case !(rate > 0) || math.IsInf(rate, 0):
		return nil, fmt.Errorf("rate %v bit/s: want a positive rate", rate)
	case mss < 1:
		return nil, fmt.Errorf("MSS %d: want at least 1 byte", mss)
	case (up+down)/mss > MaxPackets:
		return nil, fmt.Errorf("%d B in %d-byte segments is more than %d packets", up+down, mss, MaxPackets)
	}
	const headers = 40
	t := &result.Trace{Transport: result.TransportTCP, HeaderModel: fmt.Sprintf("synthetic: IPv4 + TCP headers 40 B per segment, MSS %d B, %g bit/s, ACK every second segment", mss, rate)}
	var now float64 // ns
	send := func(dir result.Direction, total int, label string) {
		seg := 0
		for total > 0 {
			n := min(total, mss)
			t.Packets = append(t.Packets, result.Packet{TimeNs: int64(now), Dir: dir, Bytes: n + headers, Payload: n, Label: label})
			now += float64(8*(n+headers)) / rate * 1e9
			total -= n
			seg++
			if dir == result.Down && (seg%2 == 0 || total == 0) {
				t.Packets = append(t.Packets, result.Packet{TimeNs: int64(now), Dir: result.Up, Bytes: headers, Label: "ACK"})
			}
		}
	}
	send(result.Up, up, "request")
	send(result.Down, down, "response")
	return t, CheckTrace(t)
}

func derive(t *result.Trace) *result.Trace {
	return &result.Trace{Link: t.Link, HeaderModel: t.HeaderModel, Transport: t.Transport}
}

func last(t *result.Trace) int64 { return t.Packets[len(t.Packets)-1].TimeNs }
