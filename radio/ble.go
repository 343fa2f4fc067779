package radio

import (
	"math"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// Bluetooth Low Energy in a connection, seen from the peripheral (the
// sensor or phone under study), after the Bluetooth Core Specification
// (Vol 6 Part B: link layer; Vol 3 Part A: L2CAP):
//
//   - Every connection interval the central opens a connection event. The
//     peripheral wakes (event_wakeup), receives the central's PDU, waits
//     T_IFS, sends its own, waits T_IFS: one exchange. An event carries up to
//     max_pdus_per_event exchanges while either side has data.
//   - With nothing to send both sides exchange empty PDUs (10 B on air at
//     1M PHY: preamble 1, access address 4, header 2, CRC 3): the cost of
//     staying connected, priced as an average power between data events.
//   - A packet's payload travels as an L2CAP SDU (4-byte basic header)
//     split into link-layer PDUs of at most ll_payload bytes (27 B before
//     Bluetooth 4.2, up to 251 B with data length extension), each with the
//     link-layer overhead and, on an encrypted link, a 4-byte MIC.
//
// Events are anchored at the first packet's time. A packet waits for the
// next event that has room, which delays it and every later packet. A run
// of events that carry data, with the sleep between them, is transfer; the
// connection between such runs is idle. There is no promotion (the
// connection exists) and no tail.
func init() {
	registerTechnology("ble", "Bluetooth Low Energy connection: connection events and interval, per-PDU TX/RX, LL payload 27 or 251 B",
		func(file string, data []byte) (header, Model, []Param, error) { return decodeFile(file, data, newBLE) })
}

type bleParams struct {
	SupplyVoltage      catalog.Quantity `yaml:"supply_voltage"`
	TXCurrent          catalog.Quantity `yaml:"tx_current"`
	RXCurrent          catalog.Quantity `yaml:"rx_current"`
	SleepCurrent       catalog.Quantity `yaml:"sleep_current"`
	PHYRate            catalog.Quantity `yaml:"phy_rate"`
	ConnectionInterval catalog.Quantity `yaml:"connection_interval"`
	MaxPDUsPerEvent    catalog.Quantity `yaml:"max_pdus_per_event"`
	LLPayload          catalog.Quantity `yaml:"ll_payload"`
	LLOverhead         catalog.Quantity `yaml:"ll_overhead"`
	MIC                catalog.Quantity `yaml:"mic"`
	L2CAPHeader        catalog.Quantity `yaml:"l2cap_header"`
	IFS                catalog.Quantity `yaml:"ifs"`
	EventWakeup        struct {
		Time    catalog.Quantity `yaml:"time"`
		Current catalog.Quantity `yaml:"current"`
	} `yaml:"event_wakeup"`
}

// BLE is the BLE connection model with a profile's parameters.
type BLE struct {
	txW, rxW, sleepW float64
	byteTime         time.Duration // on air, per byte
	interval         time.Duration
	maxPDUs          int
	llPayload        int
	llOverhead, mic  int
	l2cap            int
	ifs              time.Duration
	wakeTime         time.Duration
	wakeW            float64
}

func newBLE(v *validator, p *bleParams) Model {
	volts := v.voltage("params.supply_voltage", p.SupplyVoltage, true)
	m := &BLE{
		txW:        volts * v.current("params.tx_current", p.TXCurrent, true),
		rxW:        volts * v.current("params.rx_current", p.RXCurrent, true),
		sleepW:     volts * v.current("params.sleep_current", p.SleepCurrent, true),
		interval:   v.duration("params.connection_interval", p.ConnectionInterval, true),
		maxPDUs:    v.count("params.max_pdus_per_event", p.MaxPDUsPerEvent, true),
		llPayload:  v.bytes("params.ll_payload", p.LLPayload, true),
		llOverhead: v.bytes("params.ll_overhead", p.LLOverhead, true),
		mic:        v.bytes("params.mic", p.MIC, false),
		l2cap:      v.bytes("params.l2cap_header", p.L2CAPHeader, true),
		ifs:        v.duration("params.ifs", p.IFS, true),
		wakeTime:   v.duration("params.event_wakeup.time", p.EventWakeup.Time, true),
		wakeW:      volts * v.current("params.event_wakeup.current", p.EventWakeup.Current, true),
	}
	rate := v.bitrate("params.phy_rate", p.PHYRate, true)
	v.positive("params.phy_rate", rate, p.PHYRate)
	v.positive("params.max_pdus_per_event", float64(m.maxPDUs), p.MaxPDUsPerEvent)
	v.positive("params.ll_payload", float64(m.llPayload), p.LLPayload)
	// Bluetooth Core v4.0 Vol 6 Part B §2.4: 27 B; v4.2 data length
	// extension (§2.4 there): up to 251 B.
	if m.llPayload > 251 {
		v.fail("params.ll_payload", "%v exceeds the 251-byte link-layer maximum (Bluetooth 4.2+ data length extension)", p.LLPayload)
	}
	if m.interval < 7500*time.Microsecond || m.interval > 4*time.Second {
		v.fail("params.connection_interval", "%v is outside the 7.5 ms–4 s the Core Specification allows (Vol 6 Part B §4.5.1)", p.ConnectionInterval)
	}
	if rate > 0 {
		m.byteTime = time.Duration(math.Round(8e9 / rate))
		if full := m.eventTime(m.maxPDUs, 0); full > m.interval {
			v.fail("params.max_pdus_per_event", "%v exchanges of full PDUs take %v, longer than the connection interval %v", p.MaxPDUsPerEvent, full, p.ConnectionInterval)
		}
	}
	return m
}

// air is the on-air time of a PDU of n bytes (overhead included).
func (m *BLE) air(n int) time.Duration { return time.Duration(n) * m.byteTime }

// pduBytes is the on-air size of a data PDU carrying n payload bytes
// (0: an empty PDU, which carries no MIC).
func (m *BLE) pduBytes(n int) int {
	if n == 0 {
		return m.llOverhead
	}
	return m.llOverhead + n + m.mic
}

// eventTime bounds an event of k exchanges of full PDUs (for validation) or,
// with k = 0 and empty = n, of n empty exchanges.
func (m *BLE) eventTime(full, empty int) time.Duration {
	fullEx := 2*m.air(m.pduBytes(m.llPayload)) + 2*m.ifs
	emptyEx := 2*m.air(m.pduBytes(0)) + 2*m.ifs
	return m.wakeTime + time.Duration(full)*fullEx + time.Duration(empty)*emptyEx
}

// exchange is one RX then TX of the peripheral: its time and energy.
func (m *BLE) exchange(rxPayload, txPayload int) (time.Duration, float64) {
	rx, tx := m.air(m.pduBytes(rxPayload)), m.air(m.pduBytes(txPayload))
	// The T_IFS turnarounds are priced at the receive current: the radio
	// ramps between modes (an assumption; the datasheet gives ramp-up
	// currents close to RX).
	e := rx.Seconds()*m.rxW + tx.Seconds()*m.txW + 2*m.ifs.Seconds()*m.rxW
	return rx + tx + 2*m.ifs, e
}

// idleW is the average power of a connection with nothing to send: one
// empty exchange per interval, asleep otherwise.
func (m *BLE) idleW() float64 {
	d, e := m.exchange(0, 0)
	busy := m.wakeTime + d
	e += m.wakeTime.Seconds() * m.wakeW
	return (e + (m.interval-busy).Seconds()*m.sleepW) / m.interval.Seconds()
}

// blePending is a packet waiting in a direction's queue: the bytes of its
// L2CAP SDU not yet sent.
type blePending struct {
	packet int // index in the trace
	left   int
}

// Simulate implements Model.
func (m *BLE) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	payloads, note := linkPayloads(t)
	start := at(pk[0])
	tl := &timeline{now: start}
	idle := m.idleW()
	var (
		delay      time.Duration
		queue      [2][]blePending // up, down
		frames     [2]int
		next       int // next packet to enqueue
		sent       int
		inBurst    bool // a run of events that carry data
		burstStart time.Duration
		burstEnd   time.Duration
		burstBusy  time.Duration // time in events, the rest asleep
		burstJ     float64
	)
	enqueue := func(until time.Duration) {
		for next < len(pk) && at(pk[next])+delay <= until {
			if payloads[next] > 0 {
				d := dirIndex(pk[next].Dir)
				queue[d] = append(queue[d], blePending{next, payloads[next] + m.l2cap})
				sent++
			}
			next++
		}
	}
	// pop takes the next PDU's payload from a direction's queue (0: an
	// empty PDU) and the packet it finished, if any.
	pop := func(d int) (size, done int) {
		if len(queue[d]) == 0 {
			return 0, -1
		}
		q := &queue[d][0]
		size = min(q.left, m.llPayload)
		q.left -= size
		frames[d]++
		if q.left > 0 {
			return size, -1
		}
		done = q.packet
		queue[d] = queue[d][1:]
		return size, done
	}
	closeBurst := func() {
		if inBurst {
			sleepJ := ((burstEnd - burstStart) - burstBusy).Seconds() * m.sleepW
			tl.power(burstEnd, "CONNECTION_EVENTS", Transfer, 0, burstJ+sleepJ)
			inBurst = false
		}
	}
	for event := start; ; event += m.interval {
		enqueue(event)
		if len(queue[0]) == 0 && len(queue[1]) == 0 {
			closeBurst()
			if next == len(pk) {
				break
			}
			// Sleep to the last event before the next packet is ready.
			if ready := at(pk[next]) + delay; ready > event {
				event += (ready - event - 1) / m.interval * m.interval
			}
			continue
		}
		if !inBurst {
			tl.power(event, "CONNECTED", Idle, idle, 0)
			inBurst, burstStart, burstBusy, burstJ = true, event, 0, 0
		}
		d, e := m.wakeTime, m.wakeTime.Seconds()*m.wakeW
		var done []int
		for x := 0; x < m.maxPDUs && (len(queue[0]) > 0 || len(queue[1]) > 0); x++ {
			rx, doneRX := pop(1)
			tx, doneTX := pop(0)
			for _, i := range []int{doneRX, doneTX} {
				if i >= 0 {
					done = append(done, i)
				}
			}
			xd, xe := m.exchange(rx, tx)
			d += xd
			e += xe
		}
		burstEnd, burstBusy, burstJ = event+d, burstBusy+d, burstJ+e
		for _, i := range done {
			delay = max(delay, event+d-at(pk[i]))
		}
	}
	b := tl.finish(start, opt, "CONNECTED", idle)
	b.count(t)
	b.FramesUp, b.FramesDown, b.DelayAdded = frames[0], frames[1], delay
	b.Notes = append(b.Notes, note)
	if sent == 0 {
		b.Notes = append(b.Notes, "no packet carried payload: only the connection's empty events were priced")
	}
	return b, nil
}
