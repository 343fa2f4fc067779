package radio

import (
	"fmt"
	"math"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// IEEE 802.15.4 (2.4 GHz O-QPSK, 250 kbit/s; the CC2420 of TelosB and
// MICAz), priced per bit as the SecSyWiSe study (S003) measured it:
//
//   - A packet's payload travels in frames of at most 127 bytes of PHY
//     payload (IEEE 802.15.4-2006 §6.4.1 aMaxPHYPacketSize), each with a
//     6-byte PHY header (preamble 4, SFD 1, PHR 1; §6.3) and the MAC
//     header and FCS.
//   - With 6LoWPAN (RFC 4944, RFC 6282) the first frame carries the
//     compressed IPv6 header (IPHC) and the transport header: for UDP its
//     next-header compression (NHC, RFC 6282 §4.3); for TCP, which has no
//     NHC, the next-header byte and the 20-byte TCP header inline (RFC 6282
//     §3.1.1, NH = 0). A TCP trace's bare segments (SYN, ACK, FIN) are
//     sent too: a link-layer ACK does not stand in for TCP's. A payload that does not
//     fit is fragmented: FRAG1 (4 B) with the compressed headers, then
//     FRAGN (5 B) frames. Fragment offsets count 8-byte units of the
//     uncompressed datagram (RFC 4944 §5.3; RFC 6282 §2), so every fragment
//     but the last carries a multiple of 8 bytes of it. Datagrams are at
//     most the 1280-byte IPv6 minimum MTU (RFC 4944 §4): a larger payload
//     is split into several datagrams first.
//   - With TinyOS active messages (S003's implementation) a frame carries
//     at most 102 bytes of payload after a 2-byte header, and a larger
//     message is split into that many frames.
//   - Each data frame may be acknowledged (a 5-byte MAC ACK after the
//     12-symbol turnaround), and frames are separated by the long
//     interframe spacing, during which the radio listens.
//   - After a frame the radio listens for listen_timeout (a reply, the next
//     fragment) and then sleeps: listening between frames of an exchange is
//     transfer, listening after the last is the tail.
//
// Frames take their air time: a packet starts when the previous one's
// frames are done, which delays it and every later packet.
func init() {
	registerTechnology("ieee802154", "IEEE 802.15.4: per-bit TX/RX energy, 127-byte frames with MAC and 6LoWPAN (or TinyOS) overhead, fragmentation, idle listening and sleep",
		func(file string, data []byte) (header, Model, []Param, error) {
			return decodeFile(file, data, newIEEE802154)
		})
}

type ieee802154Params struct {
	SupplyVoltage  catalog.Quantity `yaml:"supply_voltage"`
	BitRate        catalog.Quantity `yaml:"bit_rate"`
	TXEnergyPerBit catalog.Quantity `yaml:"tx_energy_per_bit"`
	RXEnergyPerBit catalog.Quantity `yaml:"rx_energy_per_bit"`
	ListenCurrent  catalog.Quantity `yaml:"listen_current"`
	SleepCurrent   catalog.Quantity `yaml:"sleep_current"`
	ListenTimeout  catalog.Quantity `yaml:"listen_timeout"`
	IFS            catalog.Quantity `yaml:"ifs"`
	Wakeup         *struct {
		Time    catalog.Quantity `yaml:"time"`
		Current catalog.Quantity `yaml:"current"`
	} `yaml:"wakeup"`
	Frame struct {
		MaxPHYPayload catalog.Quantity `yaml:"max_phy_payload"`
		PHYHeader     catalog.Quantity `yaml:"phy_header"`
		MACHeader     catalog.Quantity `yaml:"mac_header"`
		MACFooter     catalog.Quantity `yaml:"mac_footer"`
	} `yaml:"frame"`
	Ack *struct {
		Frame      catalog.Quantity `yaml:"frame"`
		Turnaround catalog.Quantity `yaml:"turnaround"`
	} `yaml:"ack"`
	SixLoWPAN *struct {
		IPHC   catalog.Quantity `yaml:"iphc"`
		UDPNHC catalog.Quantity `yaml:"udp_nhc"`
		FRAG1  catalog.Quantity `yaml:"frag1"`
		FRAGN  catalog.Quantity `yaml:"fragn"`
	} `yaml:"sixlowpan"`
	TinyOS *struct {
		MaxPayload catalog.Quantity `yaml:"max_payload"`
		Header     catalog.Quantity `yaml:"header"`
	} `yaml:"tinyos"`
}

// Uncompressed header sizes that 6LoWPAN fragment offsets count (RFC 6282
// §2): the IPv6 header (RFC 8200 §3), the UDP header (RFC 768) and the TCP
// header without options (RFC 9293 §3.1; the TLS lab's and the probe's
// data segments carry none).
const (
	ipv6HeaderBytes = 40
	udpHeaderBytes  = 8
	tcpHeaderBytes  = 20
	// nextHeaderInline is the Next Header byte IPHC carries inline when
	// NH = 0, as for TCP, which RFC 6282 gives no NHC (§3.1.1).
	nextHeaderInline = 1
	// ipv6MinMTU is the largest datagram a 6LoWPAN interface must carry
	// (RFC 4944 §4; RFC 8200 §5).
	ipv6MinMTU = 1280
)

// lowpanHeaders is what one 6LoWPAN datagram's headers take: compressed on
// the air, and uncompressed in the offsets fragments count (RFC 4944 §5.3).
type lowpanHeaders struct {
	compressed, uncompressed int
}

// headers are the datagram headers for a transport (result.TransportTCP;
// anything else is priced as UDP, the model's older default).
func (m *IEEE802154) headers(transport string) lowpanHeaders {
	if transport == result.TransportTCP {
		return lowpanHeaders{m.iphc + nextHeaderInline + tcpHeaderBytes, ipv6HeaderBytes + tcpHeaderBytes}
	}
	return lowpanHeaders{m.iphc + m.udpNHC, ipv6HeaderBytes + udpHeaderBytes}
}

// IEEE802154 is the 802.15.4 model with a profile's parameters.
type IEEE802154 struct {
	txJPerBit, rxJPerBit float64
	byteTime             time.Duration
	listenW, sleepW      float64
	listenTimeout, ifs   time.Duration
	wakeTime             time.Duration
	wakeW                float64
	phyHeader            int
	frameOverhead        int // MAC header + FCS
	capacity             int // MAC payload bytes per frame
	ackBytes             int // on air, PHY header included; 0 without ACKs
	turnaround           time.Duration
	// 6LoWPAN
	sixlowpan                 bool
	iphc, udpNHC, frag1, frag int
	// TinyOS
	tinyMax, tinyHeader int
}

func newIEEE802154(v *validator, p *ieee802154Params) Model {
	volts := v.voltage("params.supply_voltage", p.SupplyVoltage, true)
	m := &IEEE802154{
		txJPerBit:     v.energyPerBit("params.tx_energy_per_bit", p.TXEnergyPerBit, true),
		rxJPerBit:     v.energyPerBit("params.rx_energy_per_bit", p.RXEnergyPerBit, true),
		listenW:       volts * v.current("params.listen_current", p.ListenCurrent, true),
		sleepW:        volts * v.current("params.sleep_current", p.SleepCurrent, true),
		listenTimeout: v.duration("params.listen_timeout", p.ListenTimeout, true),
		ifs:           v.duration("params.ifs", p.IFS, true),
		phyHeader:     v.bytes("params.frame.phy_header", p.Frame.PHYHeader, true),
	}
	rate := v.bitrate("params.bit_rate", p.BitRate, true)
	v.positive("params.bit_rate", rate, p.BitRate)
	if rate > 0 {
		m.byteTime = time.Duration(math.Round(8e9 / rate))
	}
	if w := p.Wakeup; w != nil {
		m.wakeTime = v.duration("params.wakeup.time", w.Time, true)
		m.wakeW = volts * v.current("params.wakeup.current", w.Current, true)
	}
	maxPHY := v.bytes("params.frame.max_phy_payload", p.Frame.MaxPHYPayload, true)
	m.frameOverhead = v.bytes("params.frame.mac_header", p.Frame.MACHeader, true) + v.bytes("params.frame.mac_footer", p.Frame.MACFooter, true)
	m.capacity = maxPHY - m.frameOverhead
	if m.capacity <= 0 {
		v.fail("params.frame.mac_header", "MAC header and footer (%d B) leave no room in a %d-byte frame", m.frameOverhead, maxPHY)
	}
	if a := p.Ack; a != nil {
		m.ackBytes = m.phyHeader + v.bytes("params.ack.frame", a.Frame, true)
		m.turnaround = v.duration("params.ack.turnaround", a.Turnaround, true)
	}
	switch {
	case (p.SixLoWPAN == nil) == (p.TinyOS == nil):
		v.fail("params", "give exactly one adaptation layer: sixlowpan (RFC 4944/6282 headers) or tinyos (active messages)")
	case p.SixLoWPAN != nil:
		s := p.SixLoWPAN
		m.sixlowpan = true
		m.iphc = v.bytes("params.sixlowpan.iphc", s.IPHC, true)
		m.udpNHC = v.bytes("params.sixlowpan.udp_nhc", s.UDPNHC, true)
		m.frag1 = v.bytes("params.sixlowpan.frag1", s.FRAG1, true)
		m.frag = v.bytes("params.sixlowpan.fragn", s.FRAGN, true)
		if h := m.headers(result.TransportTCP); m.capacity > 0 && (m.firstFragmentData(h) < 8 || (m.capacity-m.frag)/8*8 < 8) {
			v.fail("params.sixlowpan", "the headers leave less than 8 bytes of fragment payload in a %d-byte MAC payload", m.capacity)
		}
	default:
		t := p.TinyOS
		m.tinyMax = v.bytes("params.tinyos.max_payload", t.MaxPayload, true)
		m.tinyHeader = v.bytes("params.tinyos.header", t.Header, true)
		v.positive("params.tinyos.max_payload", float64(m.tinyMax), t.MaxPayload)
		if m.capacity > 0 && m.tinyMax+m.tinyHeader > m.capacity {
			v.fail("params.tinyos.max_payload", "%v plus the %d-byte header exceeds the %d bytes a %d-byte frame leaves after the MAC header and FCS",
				t.MaxPayload, m.tinyHeader, m.capacity, maxPHY)
		}
	}
	return m
}

// firstFragmentData is the payload bytes FRAG1 carries after the compressed
// headers: what fits, rounded down so the uncompressed offset of the next
// fragment (h.uncompressed + this bytes: 40 + 8 + this for UDP) is a
// multiple of 8.
func (m *IEEE802154) firstFragmentData(h lowpanHeaders) int {
	room := m.capacity - m.frag1 - h.compressed
	return (h.uncompressed+room)/8*8 - h.uncompressed
}

// Frames returns the MAC payload size of each frame that carries a UDP
// payload of n bytes (6LoWPAN or TinyOS headers included; MAC header, FCS
// and PHY header not).
func (m *IEEE802154) Frames(n int) []int { return m.FramesOf(n, result.TransportUDP) }

// FramesOf is Frames for a payload of the transport (result.TransportTCP
// or result.TransportUDP).
func (m *IEEE802154) FramesOf(n int, transport string) []int {
	if !m.sixlowpan {
		var out []int
		for n > m.tinyMax {
			out = append(out, m.tinyHeader+m.tinyMax)
			n -= m.tinyMax
		}
		return append(out, m.tinyHeader+n)
	}
	var out []int
	h := m.headers(transport)
	per := ipv6MinMTU - h.uncompressed
	for n > per {
		out = append(out, m.datagram(per, h)...)
		n -= per
	}
	return append(out, m.datagram(n, h)...)
}

// datagram fragments one datagram of n payload bytes (RFC 4944 §5.3).
func (m *IEEE802154) datagram(n int, h lowpanHeaders) []int {
	hdr := h.compressed
	if hdr+n <= m.capacity {
		return []int{hdr + n}
	}
	first := m.firstFragmentData(h)
	out := []int{m.frag1 + hdr + first}
	n -= first
	middle := (m.capacity - m.frag) / 8 * 8 // every fragment but the last
	for n > m.capacity-m.frag {
		out = append(out, m.frag+middle)
		n -= middle
	}
	return append(out, m.frag+n)
}

// frameTotals returns the number of frames carrying a payload of n bytes
// and the sum of their MAC payloads: Frames(n) counted without building it,
// so a large packet costs no memory.
func (m *IEEE802154) frameTotals(n int, transport string) (frames, bytes int) {
	if !m.sixlowpan {
		full := max(n-1, 0) / m.tinyMax // every frame but the last is full
		return full + 1, (full+1)*m.tinyHeader + n
	}
	h := m.headers(transport)
	per := ipv6MinMTU - h.uncompressed
	whole := max(n-1, 0) / per
	f1, b1 := m.datagramTotals(per, h)
	f2, b2 := m.datagramTotals(n-whole*per, h)
	return whole*f1 + f2, whole*b1 + b2
}

// datagramTotals is frameTotals for one datagram (see datagram).
func (m *IEEE802154) datagramTotals(n int, h lowpanHeaders) (frames, bytes int) {
	hdr := h.compressed
	if hdr+n <= m.capacity {
		return 1, hdr + n
	}
	first := m.firstFragmentData(h)
	rest := n - first
	middle := (m.capacity - m.frag) / 8 * 8
	k := 0
	if rest > m.capacity-m.frag {
		k = (rest - (m.capacity - m.frag) + middle - 1) / middle
	}
	return 2 + k, m.frag1 + hdr + first + k*(m.frag+middle) + m.frag + (rest - k*middle)
}

// Simulate implements Model.
func (m *IEEE802154) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	payloads, note := linkPayloads(t)
	// Over 6LoWPAN a TCP segment without payload is still a datagram of
	// IPHC and the TCP header; tcpBare marks the packets sent that way.
	tcpBare := m.sixlowpan && t.Transport == result.TransportTCP && payloadsKnown(t)
	if tcpBare {
		note = "priced each TCP segment's payload under 6LoWPAN headers"
	}
	var bare int
	start := at(pk[0])
	tl := &timeline{now: start}
	var (
		delay                time.Duration
		awake                bool
		promotions           int
		framesUp, framesDown int
	)
	for i, p := range pk {
		if payloads[i] == 0 && !tcpBare {
			continue
		}
		if payloads[i] == 0 {
			bare++
		}
		s := max(at(p)+delay, tl.now)
		if awake {
			if s-tl.now <= m.listenTimeout {
				tl.power(s, "LISTEN", Transfer, m.listenW, 0)
			} else {
				tl.power(tl.now+m.listenTimeout, "LISTEN", Tail, m.listenW, 0)
				awake = false
			}
		}
		if !awake {
			tl.power(s, "SLEEP", Idle, m.sleepW, 0)
			if m.wakeTime > 0 {
				s += m.wakeTime
				tl.power(s, "WAKEUP", Promotion, m.wakeW, 0)
				promotions++
			}
		}
		n, macBytes := m.frameTotals(payloads[i], t.Transport)
		d, e := m.burst(n, macBytes, p.Dir)
		state := "TX"
		if p.Dir == result.Up {
			framesUp += n
		} else {
			framesDown += n
			state = "RX"
		}
		tl.power(s+d, state, Transfer, 0, e)
		delay = s + d - at(p)
		awake = true
	}
	if awake {
		tl.power(tl.now+m.listenTimeout, "LISTEN", Tail, m.listenW, 0)
	}
	b := tl.finish(start, opt, "SLEEP", m.sleepW)
	b.count(t)
	b.FramesUp, b.FramesDown, b.Promotions, b.DelayAdded = framesUp, framesDown, promotions, delay
	b.Notes = append(b.Notes, note)
	if m.sixlowpan {
		b.Notes = append(b.Notes, m.headerNote(t.Transport, bare))
	}
	if m.ackBytes > 0 {
		b.Notes = append(b.Notes, fmt.Sprintf("each data frame is acknowledged (%d B on air after a %v turnaround); frame counts exclude ACKs", m.ackBytes, m.turnaround))
	}
	return b, nil
}

// headerNote says how the 6LoWPAN headers were priced.
func (m *IEEE802154) headerNote(transport string, bare int) string {
	h := m.headers(transport)
	switch transport {
	case result.TransportTCP:
		return fmt.Sprintf("6LoWPAN headers for TCP: IPHC %d B + next header %d B + TCP header %d B inline = %d B per datagram (RFC 6282 has no TCP NHC); %d segments without payload (SYN, ACK, FIN) sent as such",
			m.iphc, nextHeaderInline, tcpHeaderBytes, h.compressed, bare)
	case result.TransportUDP:
		return fmt.Sprintf("6LoWPAN headers for UDP: IPHC %d B + UDP NHC %d B = %d B per datagram", m.iphc, m.udpNHC, h.compressed)
	}
	return fmt.Sprintf("the trace does not say its transport: 6LoWPAN headers priced as UDP's, IPHC %d B + UDP NHC %d B = %d B per datagram", m.iphc, m.udpNHC, h.compressed)
}

// burst is the time and energy of sending (up) or receiving (down) n
// frames whose MAC payloads sum to macBytes: each frame with its PHY header,
// MAC header and FCS; its ACK the other way after the turnaround; the
// interframe spacing before the next frame, listening.
func (m *IEEE802154) burst(n, macBytes int, dir result.Direction) (time.Duration, float64) {
	dataJ, ackJ := m.txJPerBit, m.rxJPerBit
	if dir == result.Down {
		dataJ, ackJ = m.rxJPerBit, m.txJPerBit
	}
	onAir := n*(m.phyHeader+m.frameOverhead) + macBytes
	d := time.Duration(onAir)*m.byteTime + time.Duration(n-1)*m.ifs
	e := float64(8*onAir)*dataJ + float64(n-1)*m.ifs.Seconds()*m.listenW
	if m.ackBytes > 0 {
		d += time.Duration(n) * (m.turnaround + time.Duration(m.ackBytes)*m.byteTime)
		e += float64(n) * (m.turnaround.Seconds()*m.listenW + float64(8*m.ackBytes)*ackJ)
	}
	return d, e
}
