package radio

import (
	"fmt"
	"math"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// LoRaWAN class A in the EU863-870 band on an SX1276-class radio, with
// IPv6/UDP packets carried by SCHC (RFC 8724, RFC 9011). LoRaWAN is not IP:
//
//   - A packet's bytes are a SCHC packet: the compressed header (the
//     residue of the RFC 9011 rule for IPv6/UDP, 0 bytes when every field
//     is known) and the UDP payload. The SCHC rule ID travels in FPort,
//     part of the LoRaWAN frame overhead (MHDR 1, FHDR 7, FPort 1, MIC 4).
//   - A SCHC packet that fits the data rate's FRMPayload limit is one
//     frame. A larger uplink is fragmented in ACK-on-Error mode (RFC 9011
//     §5.6.1): a 1-byte fragment header, 10-byte tiles, the last fragment
//     with a 4-byte RCS, and a SCHC ACK from the network in the receive
//     window after it. A larger downlink uses ACK-Always (§5.6.2): each
//     fragment takes the window after an uplink, and the device answers
//     each with a SCHC ACK uplink, which opens the next window.
//   - Time on air is the Semtech formula (AN1200.13; SX1276 datasheet
//     §4.1.1.7): T_sym = 2^SF / BW, preamble (n + 4.25) symbols, payload
//     8 + max(ceil((8 PL − 4 SF + 28 + 16 CRC − 20 IH) / (4 (SF − 2 DE))) ×
//     (CR + 4), 0) symbols; explicit header, CRC on uplinks only, low data
//     rate optimisation at SF11 and SF12 on 125 kHz.
//   - Class A (LoRaWAN L2 1.0.4 §3.3): after each uplink the device opens
//     RX1 RECEIVE_DELAY1 after its end on the uplink's data rate and, if
//     nothing came, RX2 RECEIVE_DELAY2 after it on the RX2 data rate. A
//     downlink can arrive only there: one ready later waits for the next
//     uplink, or the device sends an empty frame (MHDR, FHDR, MIC) to
//     open windows. An empty window listens rx_window_symbols symbols.
//   - The duty cycle: after a transmission of T, the sub-band is closed
//     until T / duty_cycle after its start (ETSI EN 300 220: 1 % in the
//     g1 sub-band of the default channels).
//   - Between transmissions and windows the radio sleeps.
//
// Transmissions and windows are transfer; the empty windows after the
// last packet are the tail; waiting (for RX1, RX2 or the duty cycle) is
// idle at the sleep current.
func init() {
	registerTechnology("lorawan", "LoRaWAN class A (EU868): Semtech time on air per spreading factor, FRMPayload limits, SCHC compression and fragmentation (RFC 8724/9011), RX1/RX2 windows, 1 % duty cycle",
		func(file string, data []byte) (header, Model, []Param, error) {
			return decodeFile(file, data, newLoRaWAN)
		})
}

type lorawanParams struct {
	SupplyVoltage   catalog.Quantity `yaml:"supply_voltage"`
	TXCurrent       catalog.Quantity `yaml:"tx_current"`
	RXCurrent       catalog.Quantity `yaml:"rx_current"`
	SleepCurrent    catalog.Quantity `yaml:"sleep_current"`
	SpreadingFactor catalog.Quantity `yaml:"spreading_factor"`
	Bandwidth       catalog.Quantity `yaml:"bandwidth"`
	CodingRate      catalog.Quantity `yaml:"coding_rate"`
	Preamble        catalog.Quantity `yaml:"preamble_symbols"`
	MaxFRMPayload   catalog.Quantity `yaml:"max_frm_payload"`
	FrameOverhead   catalog.Quantity `yaml:"frame_overhead"`
	EmptyFrame      catalog.Quantity `yaml:"empty_frame"`
	DutyCycle       catalog.Quantity `yaml:"duty_cycle"`
	ReceiveDelay1   catalog.Quantity `yaml:"receive_delay1"`
	ReceiveDelay2   catalog.Quantity `yaml:"receive_delay2"`
	RXWindowSymbols catalog.Quantity `yaml:"rx_window_symbols"`
	RX2             struct {
		SpreadingFactor catalog.Quantity `yaml:"spreading_factor"`
		MaxFRMPayload   catalog.Quantity `yaml:"max_frm_payload"`
	} `yaml:"rx2"`
	SCHC struct {
		HeaderResidue  catalog.Quantity `yaml:"header_residue"`
		FragmentHeader catalog.Quantity `yaml:"fragment_header"`
		Tile           catalog.Quantity `yaml:"tile"`
		RCS            catalog.Quantity `yaml:"rcs"`
		ACK            catalog.Quantity `yaml:"ack"`
	} `yaml:"schc"`
}

// LoRaWAN is the class A model with a profile's parameters.
type LoRaWAN struct {
	txW, rxW, sleepW   float64
	sf, sf2            int
	bwHz               float64
	cr, preamble       int
	maxPayload, rx2Max int
	overhead, empty    int
	duty               float64
	rd1, rd2           time.Duration
	windowSymbols      int
	residue, fragHdr   int
	tile, rcs, ack     int
}

func newLoRaWAN(v *validator, p *lorawanParams) Model {
	volts := v.voltage("params.supply_voltage", p.SupplyVoltage, true)
	m := &LoRaWAN{
		txW:           volts * v.current("params.tx_current", p.TXCurrent, true),
		rxW:           volts * v.current("params.rx_current", p.RXCurrent, true),
		sleepW:        volts * v.current("params.sleep_current", p.SleepCurrent, true),
		sf:            v.count("params.spreading_factor", p.SpreadingFactor, true),
		sf2:           v.count("params.rx2.spreading_factor", p.RX2.SpreadingFactor, true),
		bwHz:          v.quantity("params.bandwidth", p.Bandwidth, "frequency", "Hz", true),
		cr:            v.count("params.coding_rate", p.CodingRate, true),
		preamble:      v.count("params.preamble_symbols", p.Preamble, true),
		maxPayload:    v.bytes("params.max_frm_payload", p.MaxFRMPayload, true),
		rx2Max:        v.bytes("params.rx2.max_frm_payload", p.RX2.MaxFRMPayload, true),
		overhead:      v.bytes("params.frame_overhead", p.FrameOverhead, true),
		empty:         v.bytes("params.empty_frame", p.EmptyFrame, true),
		duty:          v.quantity("params.duty_cycle", p.DutyCycle, "dimensionless", "", true),
		rd1:           v.duration("params.receive_delay1", p.ReceiveDelay1, true),
		rd2:           v.duration("params.receive_delay2", p.ReceiveDelay2, true),
		windowSymbols: v.count("params.rx_window_symbols", p.RXWindowSymbols, true),
		residue:       v.bytes("params.schc.header_residue", p.SCHC.HeaderResidue, false),
		fragHdr:       v.bytes("params.schc.fragment_header", p.SCHC.FragmentHeader, true),
		tile:          v.bytes("params.schc.tile", p.SCHC.Tile, true),
		rcs:           v.bytes("params.schc.rcs", p.SCHC.RCS, true),
		ack:           v.bytes("params.schc.ack", p.SCHC.ACK, true),
	}
	for _, c := range []struct {
		field string
		sf    int
		q     catalog.Quantity
	}{{"params.spreading_factor", m.sf, p.SpreadingFactor}, {"params.rx2.spreading_factor", m.sf2, p.RX2.SpreadingFactor}} {
		if c.sf < 7 || c.sf > 12 {
			v.fail(c.field, "%v: LoRaWAN uses spreading factors 7 to 12", c.q)
		}
	}
	if m.cr < 1 || m.cr > 4 {
		v.fail("params.coding_rate", "%v: want 1 to 4 (4/5 to 4/8)", p.CodingRate)
	}
	if m.duty <= 0 || m.duty > 1 {
		v.fail("params.duty_cycle", "%v: want a fraction above 0 and at most 100 %%", p.DutyCycle)
	}
	v.positive("params.bandwidth", m.bwHz, p.Bandwidth)
	if m.rd2 < m.rd1 {
		v.fail("params.receive_delay2", "%v opens before RX1 (%v)", p.ReceiveDelay2, p.ReceiveDelay1)
	}
	if m.maxPayload <= m.fragHdr+m.rcs || m.rx2Max <= m.fragHdr+m.rcs || m.tile <= 0 || (m.maxPayload-m.fragHdr) < m.tile {
		v.fail("params.max_frm_payload", "%v leaves no room for a SCHC fragment (header %d B, RCS %d B, tile %d B)", p.MaxFRMPayload, m.fragHdr, m.rcs, m.tile)
	}
	return m
}

// TimeOnAir is a LoRa frame's time on air by the Semtech formula
// (AN1200.13 §4; SX1276 datasheet §4.1.1.7) for phyPayload bytes.
func TimeOnAir(phyPayload, sf int, bwHz float64, cr, preamble int, explicitHeader, crc, lowDataRate bool) time.Duration {
	tsym := math.Pow(2, float64(sf)) / bwHz
	ih, c, de := 1.0, 0.0, 0.0
	if explicitHeader {
		ih = 0
	}
	if crc {
		c = 1
	}
	if lowDataRate {
		de = 1
	}
	n := math.Ceil((8*float64(phyPayload)-4*float64(sf)+28+16*c-20*ih)/(4*(float64(sf)-2*de))) * float64(cr+4)
	symbols := 8 + math.Max(n, 0)
	s := (float64(preamble)+4.25)*tsym + symbols*tsym
	return time.Duration(math.Round(s * 1e9))
}

// lowDataRate: the optimisation is on for symbols of 16 ms or more (SF11
// and SF12 at 125 kHz; LoRaWAN Regional Parameters EU863-870).
func (m *LoRaWAN) lowDataRate(sf int) bool { return math.Pow(2, float64(sf))/m.bwHz >= 0.016 }

// toa is the time on air of a frame of phy bytes at sf (uplink: CRC on).
func (m *LoRaWAN) toa(phy, sf int, uplink bool) time.Duration {
	return TimeOnAir(phy, sf, m.bwHz, m.cr, m.preamble, true, uplink, m.lowDataRate(sf))
}

// symbol is T_sym at sf.
func (m *LoRaWAN) symbol(sf int) time.Duration {
	return time.Duration(math.Round(math.Pow(2, float64(sf)) / m.bwHz * 1e9))
}

// UplinkFrames returns the PHYPayload sizes of the frames that carry an
// uplink of payload bytes (a UDP payload) as SCHC, and whether it was
// fragmented (then the network answers with a SCHC ACK).
func (m *LoRaWAN) UplinkFrames(payload int) (frames []int, fragmented bool) {
	n := m.residue + payload
	if n <= m.maxPayload {
		return []int{m.overhead + n}, false
	}
	// ACK-on-Error: every fragment but the last carries whole tiles.
	per := (m.maxPayload - m.fragHdr) / m.tile * m.tile
	for n > m.maxPayload-m.fragHdr-m.rcs {
		take := min(per, n)
		if n-take == 0 {
			// The tiles fit but not the RCS: a last fragment with the RCS
			// and the final tile.
			take = per - m.tile
		}
		frames = append(frames, m.overhead+m.fragHdr+take)
		n -= take
	}
	return append(frames, m.overhead+m.fragHdr+m.rcs+n), true
}

// DownlinkFrames returns the PHYPayload sizes of the frames carrying a
// downlink of payload bytes received at a window with limit max
// (ACK-Always fragments of max − header bytes, the last with the RCS).
func (m *LoRaWAN) DownlinkFrames(payload, max int) []int {
	n := m.residue + payload
	if n <= max {
		return []int{m.overhead + n}
	}
	var frames []int
	per := max - m.fragHdr
	for n > max-m.fragHdr-m.rcs {
		take := min(per, n)
		if n-take == 0 {
			take = per - 1
		}
		frames = append(frames, m.overhead+m.fragHdr+take)
		n -= take
	}
	return append(frames, m.overhead+m.fragHdr+m.rcs+n)
}

// ACKFrame is a SCHC ACK's frame (PHYPayload bytes).
func (m *LoRaWAN) ACKFrame() int { return m.overhead + m.ack }

// MaxPayload is the FRMPayload limit at the uplink's data rate (RX1).
func (m *LoRaWAN) MaxPayload() int { return m.maxPayload }

// lorawanRun is one simulation's state.
type lorawanRun struct {
	m          *LoRaWAN
	tl         *timeline
	dutyFree   time.Duration // the sub-band is free again
	lastEnd    time.Duration // end of the last uplink
	windowUsed bool          // RX1/RX2 after the last uplink took a downlink
	framesUp   int
	framesDown int
	waitDuty   time.Duration
	fragmented []string
}

// transmit sends one uplink frame no earlier than at; returns its end.
func (r *lorawanRun) transmit(phy int, at time.Duration) time.Duration {
	m := r.m
	s := max(at, r.tl.now, r.dutyFree)
	if s > max(at, r.tl.now) {
		r.waitDuty += s - max(at, r.tl.now)
	}
	r.tl.power(s, "SLEEP", Idle, m.sleepW, 0)
	d := m.toa(phy, m.sf, true)
	r.tl.power(s+d, "TX", Transfer, m.txW, 0)
	r.dutyFree = s + time.Duration(float64(d)/m.duty)
	r.lastEnd, r.windowUsed = s+d, false
	r.framesUp++
	return s + d
}

// receive takes a downlink frame in RX1 (or RX2) of the last uplink.
func (r *lorawanRun) receive(phy int, rx2 bool) time.Duration {
	m := r.m
	open, sf := r.lastEnd+m.rd1, m.sf
	if rx2 {
		// RX1 listened in vain first.
		r.emptyWindow(m.sf, r.lastEnd+m.rd1, Transfer)
		open, sf = r.lastEnd+m.rd2, m.sf2
	}
	r.tl.power(open, "SLEEP", Idle, m.sleepW, 0)
	d := m.toa(phy, sf, false)
	r.tl.power(open+d, "RX", Transfer, m.rxW, 0)
	r.windowUsed = true
	r.framesDown++
	return open + d
}

// emptyWindow listens for a preamble that does not come.
func (r *lorawanRun) emptyWindow(sf int, open time.Duration, phase Phase) {
	m := r.m
	r.tl.power(open, "SLEEP", Idle, m.sleepW, 0)
	state := "RX1_WINDOW"
	if sf == m.sf2 && open-r.lastEnd >= m.rd2 {
		state = "RX2_WINDOW"
	}
	r.tl.power(open+time.Duration(m.windowSymbols)*m.symbol(sf), state, phase, m.rxW, 0)
}

// closeWindows listens in RX1 and RX2 of the last uplink when no downlink
// came.
func (r *lorawanRun) closeWindows(phase Phase) {
	if r.windowUsed {
		return
	}
	r.emptyWindow(r.m.sf, r.lastEnd+r.m.rd1, phase)
	r.emptyWindow(r.m.sf2, r.lastEnd+r.m.rd2, phase)
	r.windowUsed = true
}

// Simulate implements Model.
func (m *LoRaWAN) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	payloads, note := linkPayloads(t)
	start := at(pk[0])
	r := &lorawanRun{m: m, tl: &timeline{now: start}, windowUsed: true}
	var delay time.Duration
	for i, p := range pk {
		if payloads[i] == 0 {
			continue
		}
		ready := at(p) + delay
		if p.Dir == result.Up {
			r.closeWindows(Transfer)
			frames, frag := m.UplinkFrames(payloads[i])
			var end time.Duration
			for j, f := range frames {
				if j > 0 {
					// Each fragment's windows stay empty (ACK-on-Error sends
					// no ACK before the last).
					r.closeWindows(Transfer)
				}
				end = r.transmit(f, ready)
			}
			if frag {
				r.fragmented = append(r.fragmented, fmt.Sprintf("uplink %d B: %d SCHC fragments (ACK-on-Error) and a SCHC ACK", payloads[i], len(frames)))
				end = r.receive(m.ACKFrame(), false)
			}
			delay = end - at(p)
			continue
		}
		// A downlink: in RX1 of the last uplink if the network had it
		// before RX1 opened and the window is free, else RX2, else after
		// an empty uplink that opens new windows.
		var end time.Duration
		rx2 := false
		switch {
		case !r.windowUsed && ready <= r.lastEnd+m.rd1:
		case !r.windowUsed && ready <= r.lastEnd+m.rd2:
			rx2 = true
		default:
			r.closeWindows(Transfer)
			r.transmit(m.empty, ready)
		}
		limit := m.maxPayload
		if rx2 {
			limit = m.rx2Max
		}
		frames := m.DownlinkFrames(payloads[i], limit)
		for j, f := range frames {
			if j > 0 {
				// ACK-Always: the device acknowledges each fragment; its
				// uplink opens the window for the next one.
				r.transmit(m.ACKFrame(), r.tl.now)
				rx2 = false
			}
			end = r.receive(f, rx2)
		}
		if len(frames) > 1 {
			r.transmit(m.ACKFrame(), r.tl.now)
			r.fragmented = append(r.fragmented, fmt.Sprintf("downlink %d B: %d SCHC fragments (ACK-Always), each acknowledged by an uplink", payloads[i], len(frames)))
			end = r.tl.now
		}
		delay = end - at(p)
	}
	r.closeWindows(Tail)
	b := r.tl.finish(start, opt, "SLEEP", m.sleepW)
	b.count(t)
	b.FramesUp, b.FramesDown, b.DelayAdded = r.framesUp, r.framesDown, delay
	b.Notes = append(b.Notes, note, fmt.Sprintf("SF%d uplinks and RX1 (RX2 at SF%d); FRMPayload at most %d B (RX2 %d B); the %.3g %% duty cycle held transmissions back %.4g s in all",
		m.sf, m.sf2, m.maxPayload, m.rx2Max, m.duty*100, r.waitDuty.Seconds()))
	b.Notes = append(b.Notes, r.fragmented...)
	return b, nil
}
