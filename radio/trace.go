package radio

import (
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Limits on one trace, so a hostile or mistaken file cannot exhaust memory
// or time: readers and state machines refuse what lies beyond them.
const (
	// MaxPackets: a day of a busy phone's traffic.
	MaxPackets = 5_000_000
	// MaxPacketBytes: far above any IP packet (64 KiB) or TLS record.
	MaxPacketBytes = 64 << 20
	// MaxTraceBytes: what one trace may carry in all.
	MaxTraceBytes = 1 << 30
	// MaxTraceTime: ten years of nanoseconds, far from int64's limit.
	MaxTraceTime = 10 * 365 * 24 * time.Hour
)

// CheckTrace reports the first record a state machine cannot price: times
// must be non-negative and in order (equal times are allowed: a burst
// handed to the radio at once), sizes positive, directions up or down.
func CheckTrace(t *result.Trace) error {
	if t == nil || len(t.Packets) == 0 {
		return fmt.Errorf("the trace has no packets: nothing crossed the link")
	}
	if len(t.Packets) > MaxPackets {
		return fmt.Errorf("the trace has %d packets, more than the %d cryptocost prices at once: split it", len(t.Packets), MaxPackets)
	}
	total := 0
	for i, p := range t.Packets {
		total += max(p.Bytes, 0)
		switch {
		case total > MaxTraceBytes:
			return fmt.Errorf("packet %d: the trace carries more than %d MiB, the most cryptocost prices at once: split it", i, MaxTraceBytes>>20)
		case p.Bytes > MaxPacketBytes:
			return fmt.Errorf("packet %d: %d bytes is more than the %d MiB a packet may have", i, p.Bytes, MaxPacketBytes>>20)
		case p.TimeNs > int64(MaxTraceTime):
			return fmt.Errorf("packet %d: t_ns %d is more than ten years: times are nanoseconds since the start of the subject", i, p.TimeNs)
		case p.TimeNs < 0:
			return fmt.Errorf("packet %d: t_ns %d is negative: times are nanoseconds since the start of the subject", i, p.TimeNs)
		case i > 0 && p.TimeNs < t.Packets[i-1].TimeNs:
			return fmt.Errorf("packet %d: t_ns %d is before packet %d's %d: packets must be in time order", i, p.TimeNs, i-1, t.Packets[i-1].TimeNs)
		case p.Bytes <= 0:
			return fmt.Errorf("packet %d: bytes %d: want the packet's positive size on the wire", i, p.Bytes)
		case p.Payload < 0 || p.Payload > p.Bytes:
			return fmt.Errorf("packet %d: payload %d: want between 0 and the packet's %d bytes", i, p.Payload, p.Bytes)
		case p.Dir != result.Up && p.Dir != result.Down:
			return fmt.Errorf("packet %d: dir %q: want %q (sent by the device) or %q (received)", i, p.Dir, result.Up, result.Down)
		}
	}
	return nil
}

// at is a packet's time as a duration.
func at(p result.Packet) time.Duration { return time.Duration(p.TimeNs) }

// count fills the breakdown's packet and byte counts.
func (b *Breakdown) count(t *result.Trace) {
	b.BytesUp, b.BytesDown, _, _ = t.Totals()
	b.Packets = len(t.Packets)
}
