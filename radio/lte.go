package radio

import (
	"math"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// LTE RRC with DRX, after Huang et al., "A Close Examination of Performance
// and Power Characteristics of 4G LTE Networks", MobiSys 2012 (§3, Fig. 2),
// as AT&T's ARO / Video Optimizer implements it (RrcStateRangeFactoryImpl
// .createLTE, ProfileFactoryImpl.energyLTE):
//
//	RRC_IDLE ──packet──► PROMOTION (T_pro at P_pro) ──► CONTINUOUS_RECEPTION
//	CONTINUOUS_RECEPTION: P = αu·up + αd·down + β per window
//	no packet for the inactivity timer ──► CR_TAIL (β) ──► SHORT_DRX ──►
//	LONG_DRX ──► RRC_IDLE (paging cycles)
//
// A packet in CR_TAIL, SHORT_DRX or LONG_DRX resumes continuous reception
// without a promotion (the small wait for the next on-duration is not
// modelled); one after the tail pays the promotion again.
func init() {
	registerTechnology("lte", "LTE RRC: promotion, continuous reception αu·up + αd·down + β, short and long DRX tail, idle paging",
		func(file string, data []byte) (header, Model, []Param, error) { return decodeFile(file, data, newLTE) })
}

type lteParams struct {
	Promotion       promotionParams  `yaml:"promotion"`
	Transfer        rateParams       `yaml:"transfer"`
	InactivityTimer catalog.Quantity `yaml:"inactivity_timer"`
	TailBasePower   catalog.Quantity `yaml:"tail_base_power"`
	ShortDRX        drxParams        `yaml:"short_drx"`
	LongDRX         drxParams        `yaml:"long_drx"`
	Idle            lteIdleParams    `yaml:"idle"`
}

// drxParams: a DRX mode lasts duration; in each cycle the receiver is on
// for on_duration at on_power and off (tail base power) for the rest.
type drxParams struct {
	Duration   catalog.Quantity `yaml:"duration"`
	Cycle      catalog.Quantity `yaml:"cycle"`
	OnDuration catalog.Quantity `yaml:"on_duration"`
	OnPower    catalog.Quantity `yaml:"on_power"`
}

// lteIdleParams: in RRC_IDLE the radio wakes every paging cycle for
// paging_on at paging_power and draws power otherwise.
type lteIdleParams struct {
	Power       catalog.Quantity `yaml:"power"`
	PagingCycle catalog.Quantity `yaml:"paging_cycle"`
	PagingOn    catalog.Quantity `yaml:"paging_on"`
	PagingPower catalog.Quantity `yaml:"paging_power"`
}

// LTE is the LTE state machine with a profile's parameters.
type LTE struct {
	promotion  promotion
	transfer   rateModel
	inactivity time.Duration
	crTailW    float64 // β: ARO prices the CR tail as continuous reception without data
	shortDRX   drxMode
	longDRX    drxMode
	idleW      float64 // average, paging included
}

type drxMode struct {
	duration time.Duration
	watts    float64 // average over a cycle
}

func (m *LTE) tail() time.Duration { return m.inactivity + m.shortDRX.duration + m.longDRX.duration }

func newLTE(v *validator, p *lteParams) Model {
	m := &LTE{
		promotion:  v.promotion("params.promotion", p.Promotion),
		transfer:   v.rate("params.transfer", p.Transfer),
		inactivity: v.duration("params.inactivity_timer", p.InactivityTimer, true),
	}
	m.crTailW = m.transfer.beta
	base := v.power("params.tail_base_power", p.TailBasePower, true)
	m.shortDRX = v.drx("params.short_drx", p.ShortDRX, base)
	m.longDRX = v.drx("params.long_drx", p.LongDRX, base)
	idle := v.power("params.idle.power", p.Idle.Power, true)
	cycle := v.duration("params.idle.paging_cycle", p.Idle.PagingCycle, true)
	on := v.duration("params.idle.paging_on", p.Idle.PagingOn, true)
	onW := v.power("params.idle.paging_power", p.Idle.PagingPower, true)
	v.positive("params.idle.paging_cycle", float64(cycle), p.Idle.PagingCycle)
	if on > cycle {
		v.fail("params.idle.paging_on", "%v is longer than the paging cycle %v", p.Idle.PagingOn, p.Idle.PagingCycle)
	}
	if cycle > 0 && on <= cycle {
		m.idleW = drxAverage(cycle, on, onW, idle)
	}
	return m
}

// drx reads a DRX mode. Its duration must hold at least one cycle (a tail
// shorter than its DRX cycle never wakes the receiver, a sign of a unit
// slip), and the on-duration must fit in the cycle.
func (v *validator) drx(field string, p drxParams, baseW float64) drxMode {
	d := drxMode{duration: v.duration(field+".duration", p.Duration, true)}
	cycle := v.duration(field+".cycle", p.Cycle, true)
	on := v.duration(field+".on_duration", p.OnDuration, true)
	onW := v.power(field+".on_power", p.OnPower, true)
	v.positive(field+".cycle", float64(cycle), p.Cycle)
	switch {
	case cycle <= 0:
	case on > cycle:
		v.fail(field+".on_duration", "%v is longer than the DRX cycle %v", p.OnDuration, p.Cycle)
	case d.duration < cycle:
		v.fail(field+".duration", "%v is shorter than one DRX cycle (%v): the tail would end before the receiver wakes once", p.Duration, p.Cycle)
	default:
		d.watts = drxAverage(cycle, on, onW, baseW)
	}
	return d
}

// Simulate implements Model.
func (m *LTE) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	start := at(pk[0])
	tl := &timeline{now: start}
	var delay time.Duration
	promotions := 0
	connected := false // in continuous reception or its tail
	for i := 0; i < len(pk); {
		t0 := at(pk[i]) + delay
		if !connected {
			tl.power(t0, "RRC_IDLE", Idle, m.idleW, 0)
			tl.power(t0+m.promotion.time, "PROMOTION", Promotion, m.promotion.watts, 0)
			delay += m.promotion.time
			t0 += m.promotion.time
			promotions++
		}
		// A burst: packets closer than the inactivity timer to the previous.
		burst := []placed{{t0, pk[i].Dir, pk[i].Bytes}}
		last, j := t0, i
		for j+1 < len(pk) && at(pk[j+1])+delay-last <= m.inactivity {
			j++
			last = at(pk[j]) + delay
			burst = append(burst, placed{last, pk[j].Dir, pk[j].Bytes})
		}
		m.transfer.add(tl, "CONTINUOUS_RECEPTION", burst, t0, last)
		next := time.Duration(math.MaxInt64)
		if j+1 < len(pk) {
			next = at(pk[j+1]) + delay
		}
		connected = next <= last+m.tail()
		m.addTail(tl, last, min(next, last+m.tail()))
		i = j + 1
	}
	b := tl.finish(start, opt, "RRC_IDLE", m.idleW)
	b.count(t)
	b.Promotions, b.DelayAdded = promotions, delay
	return b, nil
}

// addTail adds the tail after the last packet at `from`, cut short at
// `until` by the next packet.
func (m *LTE) addTail(tl *timeline, from, until time.Duration) {
	end := from + m.inactivity
	tl.power(min(end, until), "CR_TAIL", Tail, m.crTailW, 0)
	end += m.shortDRX.duration
	tl.power(min(end, until), "SHORT_DRX", Tail, m.shortDRX.watts, 0)
	end += m.longDRX.duration
	tl.power(min(end, until), "LONG_DRX", Tail, m.longDRX.watts, 0)
}
