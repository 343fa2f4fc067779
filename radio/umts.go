package radio

import (
	"math"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// 3G UMTS RRC, after 3GPP TS 25.331 as modelled by AT&T's ARO
// (RrcStateRangeFactoryImpl.create3G) and EnergyBox (Engine3G):
//
//	IDLE ──packet──► PROMO_IDLE_DCH ──► DCH
//	IDLE ──packet ≤ idle threshold (if the profile has one)──► PROMO_IDLE_FACH ──► FACH
//	DCH ──no packet for T1 (dch_to_fach)──► FACH ──no packet for T2──► IDLE
//	FACH ──RLC buffer of a direction exceeds its threshold──► PROMO_FACH_DCH ──► DCH
//
// The RLC buffer of a direction holds the bytes sent that way in FACH; it
// empties when no packet went that way for its drain time, which grows
// with its content: drain = base + per_byte·x + per_byte_squared·x² (ARO's
// RLC consumption-rate polynomial, RLC_UL_RATE_P0..P2, in ms for x bytes).
// A packet that pushes the buffer past the threshold promotes the radio;
// it and every later packet wait for the promotion.
func init() {
	registerTechnology("umts", "3G UMTS RRC: IDLE, FACH, DCH, promotions, inactivity timers T1/T2, RLC buffer thresholds",
		func(file string, data []byte) (header, Model, []Param, error) { return decodeFile(file, data, newUMTS) })
}

type umtsParams struct {
	Power struct {
		Idle catalog.Quantity `yaml:"idle"`
		FACH catalog.Quantity `yaml:"fach"`
		DCH  catalog.Quantity `yaml:"dch"`
	} `yaml:"power"`
	Timers struct {
		DCHToFACH  catalog.Quantity `yaml:"dch_to_fach"`
		FACHToIdle catalog.Quantity `yaml:"fach_to_idle"`
	} `yaml:"timers"`
	Promotion struct {
		IdleToDCH  promotionParams  `yaml:"idle_to_dch"`
		FACHToDCH  promotionParams  `yaml:"fach_to_dch"`
		IdleToFACH *promotionParams `yaml:"idle_to_fach"`
	} `yaml:"promotion"`
	RLC struct {
		Up   rlcParams `yaml:"up"`
		Down rlcParams `yaml:"down"`
	} `yaml:"rlc"`
}

// rlcParams are one direction's RLC buffer thresholds and drain time.
type rlcParams struct {
	// FACHToDCH: a FACH buffer above this promotes to DCH.
	FACHToDCH catalog.Quantity `yaml:"fach_to_dch"`
	// IdleToFACH: from IDLE, a packet up to this size goes to FACH, a
	// larger one to DCH (only with promotion.idle_to_fach).
	IdleToFACH catalog.Quantity `yaml:"idle_to_fach"`
	// Drain time of the FACH buffer: base + per_byte·x + per_byte_squared·x²
	// milliseconds for x bytes (the coefficients are dimensionless numbers
	// in ms per byte and ms per byte²).
	DrainBase           catalog.Quantity `yaml:"drain_base"`
	DrainPerByte        catalog.Quantity `yaml:"drain_per_byte"`
	DrainPerByteSquared catalog.Quantity `yaml:"drain_per_byte_squared"`
}

// UMTS is the 3G state machine with a profile's parameters.
type UMTS struct {
	idleW, fachW, dchW  float64
	t1, t2              time.Duration
	idleDCH, fachDCH    promotion
	idleFACH            *promotion
	rlc                 [2]rlcBuffer // up, down
	idleToFACHThreshold [2]int
}

type rlcBuffer struct {
	threshold int
	base      time.Duration
	p1, p2    float64 // ms per byte, ms per byte²
}

// drain is how long a buffer of x bytes takes to empty.
func (r rlcBuffer) drain(x int) time.Duration {
	ms := r.p1*float64(x) + r.p2*float64(x)*float64(x)
	return r.base + time.Duration(math.Round(ms*1e6))
}

func dirIndex(d result.Direction) int {
	if d == result.Up {
		return 0
	}
	return 1
}

func newUMTS(v *validator, p *umtsParams) Model {
	m := &UMTS{
		idleW:   v.power("params.power.idle", p.Power.Idle, true),
		fachW:   v.power("params.power.fach", p.Power.FACH, true),
		dchW:    v.power("params.power.dch", p.Power.DCH, true),
		t1:      v.duration("params.timers.dch_to_fach", p.Timers.DCHToFACH, true),
		t2:      v.duration("params.timers.fach_to_idle", p.Timers.FACHToIdle, true),
		idleDCH: v.promotion("params.promotion.idle_to_dch", p.Promotion.IdleToDCH),
		fachDCH: v.promotion("params.promotion.fach_to_dch", p.Promotion.FACHToDCH),
	}
	if p.Promotion.IdleToFACH != nil {
		pr := v.promotion("params.promotion.idle_to_fach", *p.Promotion.IdleToFACH)
		m.idleFACH = &pr
	}
	for i, d := range []struct {
		name string
		p    rlcParams
	}{{"up", p.RLC.Up}, {"down", p.RLC.Down}} {
		f := "params.rlc." + d.name
		m.rlc[i] = rlcBuffer{
			threshold: v.bytes(f+".fach_to_dch", d.p.FACHToDCH, true),
			base:      v.duration(f+".drain_base", d.p.DrainBase, true),
			p1:        v.quantity(f+".drain_per_byte", d.p.DrainPerByte, "dimensionless", "", false),
			p2:        v.quantity(f+".drain_per_byte_squared", d.p.DrainPerByteSquared, "dimensionless", "", false),
		}
		switch {
		case m.idleFACH != nil:
			m.idleToFACHThreshold[i] = v.bytes(f+".idle_to_fach", d.p.IdleToFACH, true)
		case !d.p.IdleToFACH.IsZero():
			v.fail(f+".idle_to_fach", "given without promotion.idle_to_fach: say how long and at what power IDLE→FACH takes, or remove it")
		}
	}
	for _, t := range []struct {
		field string
		d     time.Duration
		q     catalog.Quantity
	}{{"params.timers.dch_to_fach", m.t1, p.Timers.DCHToFACH}, {"params.timers.fach_to_idle", m.t2, p.Timers.FACHToIdle}} {
		v.positive(t.field, float64(t.d), t.q)
	}
	return m
}

type umtsState int

const (
	umtsIdle umtsState = iota
	umtsFACH
	umtsDCH
)

// Simulate implements Model.
func (m *UMTS) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	start := at(pk[0])
	tl := &timeline{now: start}
	var (
		delay      time.Duration
		promotions int
		state      = umtsIdle
		last       time.Duration    // the previous packet's time on the timeline
		buffer     [2]int           // FACH RLC buffers, up and down
		lastDir    [2]time.Duration // last packet each way in FACH
	)
	promote := func(now time.Duration, name string, p promotion) time.Duration {
		tl.power(now+p.time, name, Promotion, p.watts, 0)
		delay += p.time
		promotions++
		buffer = [2]int{}
		return now + p.time
	}
	for _, p := range pk {
		now := at(p) + delay
		// Demotions while no packet came.
		gap := now - last
		switch state {
		case umtsDCH:
			switch {
			case gap <= m.t1:
				tl.power(now, "DCH", Transfer, m.dchW, 0)
			case gap <= m.t1+m.t2:
				tl.power(last+m.t1, "DCH", Tail, m.dchW, 0)
				tl.power(now, "FACH", Tail, m.fachW, 0)
				state, buffer = umtsFACH, [2]int{}
			default:
				tl.power(last+m.t1, "DCH", Tail, m.dchW, 0)
				tl.power(last+m.t1+m.t2, "FACH", Tail, m.fachW, 0)
				state = umtsIdle
			}
		case umtsFACH:
			if gap <= m.t2 {
				tl.power(now, "FACH", Transfer, m.fachW, 0)
			} else {
				tl.power(last+m.t2, "FACH", Tail, m.fachW, 0)
				state = umtsIdle
			}
		}
		// The packet, and the promotion it needs.
		d := dirIndex(p.Dir)
		switch state {
		case umtsIdle:
			tl.power(now, "IDLE", Idle, m.idleW, 0)
			if m.idleFACH != nil && p.Bytes <= m.idleToFACHThreshold[d] {
				// EnergyBox: the packet that wakes the radio into FACH does
				// not count towards the FACH buffer.
				now = promote(now, "PROMO_IDLE_FACH", *m.idleFACH)
				state = umtsFACH
				lastDir = [2]time.Duration{now, now}
			} else {
				now = promote(now, "PROMO_IDLE_DCH", m.idleDCH)
				state = umtsDCH
			}
		case umtsFACH:
			if buffer[d] > 0 && now-lastDir[d] > m.rlc[d].drain(buffer[d]) {
				buffer[d] = 0
			}
			buffer[d] += p.Bytes
			lastDir[d] = now
			if buffer[d] > m.rlc[d].threshold {
				now = promote(now, "PROMO_FACH_DCH", m.fachDCH)
				state = umtsDCH
			}
		}
		last = now
	}
	// The tail after the last packet.
	switch state {
	case umtsDCH:
		tl.power(last+m.t1, "DCH", Tail, m.dchW, 0)
		tl.power(last+m.t1+m.t2, "FACH", Tail, m.fachW, 0)
	case umtsFACH:
		tl.power(last+m.t2, "FACH", Tail, m.fachW, 0)
	}
	b := tl.finish(start, opt, "IDLE", m.idleW)
	b.count(t)
	b.Promotions, b.DelayAdded = promotions, delay
	return b, nil
}
