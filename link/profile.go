// Package link emulates network links in process, so the cost of a protocol
// over WiFi, 3G, LTE, BLE or IEEE 802.15.4 can be measured on any machine
// without root or netem: a relay between two TCP connections (or a wrapper
// around one net.Conn or net.PacketConn) delays every segment by the link's
// one-way latency and its serialisation time at the link's rate, cuts
// streams into MTU-sized segments, and drops datagrams with the link's loss
// probability. Each segment it forwards is reported to an Observer with its
// times, so a tap (the TLS lab's) can attribute bytes and a radio model can
// price the packet trace.
//
// The model, stated once (docs/tls.md repeats it):
//
//   - A direction is a FIFO pipe: a packet of W wire bytes offered at time t
//     starts transmission at max(t, the end of the previous packet), takes
//     8·W/rate to serialise and arrives latency later.
//   - TCP: a stream is cut into segments of at most MSS = MTU − 52 bytes
//     (IPv4 20 B + TCP 20 B + timestamp option 12 B, Linux's default); each
//     segment is charged its payload plus those 52 header bytes. Congestion
//     control, slow start and receive windows are not modelled: the pipe is
//     a TCP flow in steady state with a window of at least bandwidth × RTT.
//     The TCP three-way handshake delays the first data by one round trip.
//     Loss on a stream is a retransmission: the lost segment is sent again
//     after an RTO of RTT + 200 ms (Linux's tcp_rto_min, RFC 6298 §2.4's
//     floor of 1 s lowered as Linux does), and later data waits for it
//     (in-order delivery).
//   - UDP: a datagram of n bytes is n + 28 wire bytes (IPv4 20 B + UDP 8 B),
//     split into IPv4 fragments of at most MTU bytes; each fragment is lost
//     with the link's loss probability and the datagram with any of them.
package link

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
)

// Profile is a named link with sourced parameters. Every number is a
// catalog.Quantity, so `cryptocost tls --link` can say where it came from.
type Profile struct {
	Name        string
	Description string
	// Latency is the one-way delay of each direction (propagation,
	// queueing and processing), excluding serialisation.
	Latency catalog.Quantity
	// RateUp and RateDown are the rates the link carries IP packets at,
	// device → network and network → device (bit/s units). Zero: unlimited.
	RateUp, RateDown catalog.Quantity
	// Loss is the probability that a packet (a TCP segment, an IPv4
	// fragment) is lost (dimensionless, "%" allowed).
	Loss catalog.Quantity
	// MTU is the largest IP packet the link carries in one frame (bytes).
	MTU catalog.Quantity
	// Aliases are other names --link accepts.
	Aliases []string
	// Radio is the radio profile a trace over this link is priced on when
	// no device chooses one (the file's radio:); "" for a wired link.
	Radio string
	// Technology is Radio's technology ("ieee802154", "lte", "wifi"): the
	// costing stage prices a trace on the device's radio of this
	// technology (costing.RadioFor). "" for a wired link.
	Technology string
	// File is the profile's source file ("link/links/04-lte.yaml"); ""
	// for a custom link.
	File string
}

// Params are a profile's numbers in the units the emulator uses.
type Params struct {
	Latency          time.Duration
	RateUp, RateDown float64 // bit/s; 0 = unlimited
	Loss             float64 // probability, 0..1
	MTU              int     // bytes
}

// Header sizes of the model (bytes). IPv4 without options (RFC 791 §3.1),
// TCP without options (RFC 9293 §3.1), the TCP timestamp option as Linux
// sends it on every segment (RFC 7323 §3: 10 B kind/len/TSval/TSecr, padded
// with two NOPs to 12 B), UDP (RFC 768).
const (
	IPv4HeaderBytes     = 20
	TCPHeaderBytes      = 20
	TCPTimestampBytes   = 12
	TCPSegmentOverhead  = IPv4HeaderBytes + TCPHeaderBytes + TCPTimestampBytes // 52
	UDPHeaderBytes      = 8
	UDPDatagramOverhead = IPv4HeaderBytes + UDPHeaderBytes // 28
	// TCPSYNOptionBytes: MSS (4), SACK-permitted (2), timestamps (10), NOP
	// (1), window scale (3): Linux's SYN and SYN-ACK options, 20 B.
	TCPSYNOptionBytes = 20
	TCPSYNOverhead    = IPv4HeaderBytes + TCPHeaderBytes + TCPSYNOptionBytes // 60
)

// DefaultMTU is Ethernet's (RFC 894), used when a profile names none.
const DefaultMTU = 1500

// MSS is the TCP payload per segment the model uses on a link with this MTU.
func (p Params) MSS() int { return max(p.MTU-TCPSegmentOverhead, 1) }

// RTT is the round trip of an empty exchange: twice the one-way latency.
func (p Params) RTT() time.Duration { return 2 * p.Latency }

// Params converts the profile's quantities, checking their units.
func (p Profile) Params() (Params, error) {
	var out Params
	if !p.Latency.IsZero() {
		s, err := p.Latency.In("s")
		if err != nil || s < 0 {
			return out, fmt.Errorf("link %s: latency %v: want a non-negative time such as 20 ms", p.Name, p.Latency)
		}
		out.Latency = time.Duration(math.Round(s * 1e9))
	}
	for _, r := range []struct {
		q   catalog.Quantity
		dst *float64
		dir string
	}{{p.RateUp, &out.RateUp, "up"}, {p.RateDown, &out.RateDown, "down"}} {
		if r.q.IsZero() {
			continue
		}
		v, err := r.q.In("bit/s")
		if err != nil || v <= 0 {
			return out, fmt.Errorf("link %s: rate %s %v: want a positive rate such as 1 Mbit/s", p.Name, r.dir, r.q)
		}
		*r.dst = v
	}
	if !p.Loss.IsZero() {
		v, err := p.Loss.In("")
		if err != nil || v < 0 || v >= 1 {
			return out, fmt.Errorf("link %s: loss %v: want a probability in [0, 1), such as 0.01 or 1 %%", p.Name, p.Loss)
		}
		out.Loss = v
	}
	out.MTU = DefaultMTU
	if !p.MTU.IsZero() {
		v, err := p.MTU.In("B")
		if err != nil || v < TCPSegmentOverhead+1 || v > 65535 {
			return out, fmt.Errorf("link %s: MTU %v: want %d to 65535 bytes", p.Name, p.MTU, TCPSegmentOverhead+1)
		}
		out.MTU = int(v)
	}
	return out, nil
}

// String describes the profile's parameters in one line.
func (p Profile) String() string {
	var parts []string
	add := func(name string, q catalog.Quantity) {
		if !q.IsZero() {
			parts = append(parts, name+" "+strconv.FormatFloat(q.Value, 'g', -1, 64)+" "+q.Unit)
		}
	}
	add("latency", p.Latency)
	add("up", p.RateUp)
	add("down", p.RateDown)
	add("loss", p.Loss)
	add("MTU", p.MTU)
	return p.Name + ": " + strings.Join(parts, ", ")
}

// Sources lists where each of the profile's numbers came from.
func (p Profile) Sources() []string {
	var out []string
	for _, f := range []struct {
		name string
		q    catalog.Quantity
	}{{"latency", p.Latency}, {"rate up", p.RateUp}, {"rate down", p.RateDown}, {"loss", p.Loss}, {"MTU", p.MTU}} {
		if !f.q.IsZero() {
			out = append(out, f.name+" "+f.q.String())
		}
	}
	return out
}

// Profiles returns the built-in link profiles, in the order help lists
// them.
func Profiles() []Profile { return profiles().Values() }

// Names returns the built-in profile names, for help and errors.
func Names() []string { return profiles().Names() }

// Lookup returns the built-in profile with this name or alias (case and
// punctuation ignored: "wifi", "802.11g", "WiFi-802.11g"), or a custom link
// written as "latency=20ms,rate=10Mbit/s,up=..,down=..,loss=0.01,mtu=1280".
func Lookup(spec string) (Profile, error) {
	if strings.Contains(spec, "=") {
		return ParseSpec(spec)
	}
	if p, ok := profiles().Lookup(spec); ok {
		return p, nil
	}
	u := profiles().Unknown(spec)
	msg := fmt.Sprintf("unknown link %q: want one of %s, or a custom link such as \"latency=20ms,rate=10Mbit/s,loss=0.01,mtu=1500\"", spec, strings.Join(u.Want, ", "))
	if len(u.Closest) > 0 {
		msg += "; did you mean " + strings.Join(u.Closest, ", ") + "?"
	}
	return Profile{}, errors.New(msg)
}

// ParseSpec reads a custom link: comma-separated key=value pairs with keys
// latency (a Go duration or a time quantity: 20ms, "20 ms"), rate (both
// directions), up, down (bit/s quantities: 10Mbit/s, 250kbit/s), loss
// (0.01 or 1%) and mtu (bytes). Its numbers' source is "command line".
func ParseSpec(spec string) (Profile, error) {
	p := Profile{Name: "custom(" + spec + ")", Description: "a link given on the command line"}
	const src = "command line"
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return p, fmt.Errorf("custom link %q: %q is not key=value (keys: latency, rate, up, down, loss, mtu)", spec, kv)
		}
		v = strings.TrimSpace(v)
		var err error
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "latency", "delay":
			var d time.Duration
			if d, err = time.ParseDuration(strings.ReplaceAll(v, " ", "")); err == nil {
				p.Latency = catalog.Q(d.Seconds()*1e3, "ms", src)
			}
		case "rate", "bandwidth":
			p.RateUp, err = rateQuantity(v, src)
			p.RateDown = p.RateUp
		case "up":
			p.RateUp, err = rateQuantity(v, src)
		case "down":
			p.RateDown, err = rateQuantity(v, src)
		case "loss":
			var f float64
			if pct, ok := strings.CutSuffix(v, "%"); ok {
				f, err = strconv.ParseFloat(strings.TrimSpace(pct), 64)
				f /= 100
			} else {
				f, err = strconv.ParseFloat(v, 64)
			}
			p.Loss = catalog.Q(f, "", src)
		case "mtu":
			var n int
			n, err = strconv.Atoi(v)
			p.MTU = catalog.Q(float64(n), "B", src)
		default:
			return p, fmt.Errorf("custom link %q: unknown key %q (keys: latency, rate, up, down, loss, mtu)", spec, k)
		}
		if err != nil {
			return p, fmt.Errorf("custom link %q: %s=%s: %v", spec, k, v, err)
		}
	}
	if _, err := p.Params(); err != nil {
		return p, err
	}
	return p, nil
}

// rateQuantity parses "10Mbit/s", "250 kbit/s", "1e6" (bit/s).
func rateQuantity(v, src string) (catalog.Quantity, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return catalog.Q(f, "bit/s", src), nil
	}
	i := strings.IndexFunc(v, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != 'e' && r != 'E' })
	if i <= 0 {
		return catalog.Quantity{}, fmt.Errorf("want a rate such as 10Mbit/s")
	}
	f, err := strconv.ParseFloat(v[:i], 64)
	if err != nil {
		return catalog.Quantity{}, fmt.Errorf("want a rate such as 10Mbit/s")
	}
	q := catalog.Q(f, strings.TrimSpace(v[i:]), src)
	if err := catalog.CheckUnit(q.Unit, "bitrate"); err != nil {
		return q, err
	}
	return q, nil
}
