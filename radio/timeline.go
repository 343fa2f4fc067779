package radio

import (
	"time"
)

// Phase is what radio time and energy are spent on.
type Phase string

const (
	// Promotion: moving from a low-power state to one that can carry data
	// (RRC connection set-up, WiFi wake-up, an oscillator starting).
	Promotion Phase = "promotion"
	// Transfer: in an active state between packets that follow each other
	// before the state's inactivity timer expires, including the energy
	// per bit sent or received.
	Transfer Phase = "transfer"
	// Tail: in an active state after the last packet of a burst until the
	// inactivity timer demotes the radio (Huang et al., MobiSys 2012 §4).
	Tail Phase = "tail"
	// Idle: the lowest state, with paging, beacons or connection events.
	Idle Phase = "idle"
)

// Phases lists the phases in the order results report them.
var Phases = []Phase{Promotion, Transfer, Tail, Idle}

// Segment is a span of the timeline in one state.
type Segment struct {
	// Start and End are times since the first packet of the trace.
	Start, End time.Duration
	// State is the machine's state name ("DCH", "LONG_DRX", "PSM").
	State string
	Phase Phase
	// EnergyJ is the segment's energy in joules: its power over its time
	// plus any energy per bit of the packets it carried (so a zero-length
	// segment can hold the energy of one packet's bits).
	EnergyJ float64
}

// PowerW is the segment's average power (0 for a zero-length segment).
func (s Segment) PowerW() float64 {
	if s.End <= s.Start {
		return 0
	}
	return s.EnergyJ / (s.End - s.Start).Seconds()
}

// Breakdown is what a trace costs on a radio.
type Breakdown struct {
	Profile    string
	Technology string
	// Segments cover [Start, End] without gaps, in time order.
	Segments []Segment
	// Start is the first packet's time (the trace's clock); End is when the
	// radio is back to idle after its tail, or Options.Until.
	Start, End time.Duration
	// Packets and bytes each way, as the trace gives them.
	Packets            int
	BytesUp, BytesDown int
	// FramesUp and FramesDown count link-layer frames for technologies
	// that fragment (802.15.4 frames, BLE link-layer PDUs); zero otherwise.
	FramesUp, FramesDown int
	// Promotions counts promotions from a lower state.
	Promotions int
	// DelayAdded is the latency the radio added to the last packet
	// (promotions, waiting for connection events, frame air time).
	DelayAdded time.Duration
	// Notes say what the model assumed for this trace.
	Notes []string
}

// Energy returns the joules spent in phase p.
func (b *Breakdown) Energy(p Phase) float64 {
	var e float64
	for _, s := range b.Segments {
		if s.Phase == p {
			e += s.EnergyJ
		}
	}
	return e
}

// Time returns the time spent in phase p.
func (b *Breakdown) Time(p Phase) time.Duration {
	var d time.Duration
	for _, s := range b.Segments {
		if s.Phase == p {
			d += s.End - s.Start
		}
	}
	return d
}

// Total returns the energy of the whole timeline, in joules.
func (b *Breakdown) Total() float64 {
	var e float64
	for _, s := range b.Segments {
		e += s.EnergyJ
	}
	return e
}

// StateTotal is the time and energy of one state.
type StateTotal struct {
	State   string
	Phase   Phase
	Time    time.Duration
	EnergyJ float64
}

// States returns the time and energy per state and phase, in order of first
// appearance.
func (b *Breakdown) States() []StateTotal {
	var out []StateTotal
	index := map[[2]string]int{}
	for _, s := range b.Segments {
		k := [2]string{s.State, string(s.Phase)}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, StateTotal{State: s.State, Phase: s.Phase})
		}
		out[i].Time += s.End - s.Start
		out[i].EnergyJ += s.EnergyJ
	}
	return out
}

// timeline builds a Breakdown's segments: each call extends it from the
// current time, so segments cannot overlap or leave gaps.
type timeline struct {
	now  time.Duration
	segs []Segment
}

// power adds a segment from now to end at a constant power (watts), plus
// extraJ joules (energy per bit of what it carried).
func (tl *timeline) power(end time.Duration, state string, phase Phase, watts, extraJ float64) {
	if end < tl.now {
		end = tl.now
	}
	if end == tl.now && extraJ == 0 {
		return
	}
	e := watts*(end-tl.now).Seconds() + extraJ
	if n := len(tl.segs); n > 0 && tl.segs[n-1].State == state && tl.segs[n-1].Phase == phase && tl.segs[n-1].End == tl.now &&
		sameRate(tl.segs[n-1], watts) && extraJ == 0 {
		tl.segs[n-1].End = end
		tl.segs[n-1].EnergyJ += e
	} else {
		tl.segs = append(tl.segs, Segment{Start: tl.now, End: end, State: state, Phase: phase, EnergyJ: e})
	}
	tl.now = end
}

// sameRate reports whether extending s at watts keeps its average power,
// so adjacent segments of one state merge and the timeline stays short.
func sameRate(s Segment, watts float64) bool {
	if s.End <= s.Start {
		return false
	}
	p := s.PowerW()
	return p == watts || (p > 0 && abs(p-watts)/p < 1e-12)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// finish returns the breakdown of the segments, idle at idleW (state idle)
// until opt.Until when that is later than the timeline's end.
func (tl *timeline) finish(start time.Duration, opt Options, idle string, idleW float64) *Breakdown {
	if opt.Until > 0 && start+opt.Until > tl.now {
		tl.power(start+opt.Until, idle, Idle, idleW, 0)
	}
	return &Breakdown{Segments: tl.segs, Start: start, End: tl.now}
}
