package radio

import (
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// placed is a packet on the radio's timeline: its trace time plus the delay
// the radio added before it.
type placed struct {
	t     time.Duration
	dir   result.Direction
	bytes int
}

// transferModel prices a burst: the time from its first to its last packet
// in an active state, and the bits it carried.
type transferModel interface {
	// add extends tl (whose clock is at from) to `to` in phase Transfer.
	add(tl *timeline, state string, burst []placed, from, to time.Duration)
}

// constantPower: the state draws the same power whatever it carries (ARO's
// 3G DCH, ARO's WiFi active state).
type constantPower struct{ watts float64 }

func (c constantPower) add(tl *timeline, state string, _ []placed, _, to time.Duration) {
	tl.power(to, state, Transfer, c.watts, 0)
}

// rateParams are the throughput-dependent power model of Huang et al.
// (MobiSys 2012, §4.2): P = αu·up + αd·down + β, with up and down the
// throughputs in Mbit/s over windows. αu and αd in mW/Mbps are nJ/bit
// (1 mW / 1 Mbit/s = 1e-9 J/bit), which is how profiles write them.
type rateParams struct {
	AlphaUp   catalog.Quantity `yaml:"alpha_up"`
	AlphaDown catalog.Quantity `yaml:"alpha_down"`
	Beta      catalog.Quantity `yaml:"beta"`
	Window    catalog.Quantity `yaml:"window"`
}

// rateModel is rateParams read. Summed over windows, a burst costs
// β·duration + αu·bits up + αd·bits down whatever the window, so the window
// only shapes the timeline's power curve (ARO's W_THROUGHPUT, 0.5 s).
type rateModel struct {
	alphaUp, alphaDown float64 // J/bit
	beta               float64 // W
	window             time.Duration
}

func (v *validator) rate(field string, p rateParams) rateModel {
	r := rateModel{
		alphaUp:   v.energyPerBit(field+".alpha_up", p.AlphaUp, true),
		alphaDown: v.energyPerBit(field+".alpha_down", p.AlphaDown, true),
		beta:      v.power(field+".beta", p.Beta, true),
		window:    v.duration(field+".window", p.Window, true),
	}
	v.window(field+".window", r.window, p.Window)
	return r
}

func (r rateModel) add(tl *timeline, state string, burst []placed, from, to time.Duration) {
	i := 0
	for ws := from; ; ws += r.window {
		we := min(ws+r.window, to)
		var bitsJ float64
		for i < len(burst) && (burst[i].t < we || we == to) {
			alpha := r.alphaDown
			if burst[i].dir == result.Up {
				alpha = r.alphaUp
			}
			bitsJ += alpha * float64(8*burst[i].bytes)
			i++
		}
		tl.power(we, state, Transfer, r.beta, bitsJ)
		if we == to {
			return
		}
	}
}

// windowedPower is EnergyBox's WiFi CAM-high state: in a window (aligned to
// the trace's clock) carrying more than threshold bytes the radio draws
// high instead of low power.
type windowedPower struct {
	low, high float64 // W
	window    time.Duration
	threshold int // bytes per window
}

func (w windowedPower) add(tl *timeline, state string, burst []placed, from, to time.Duration) {
	bytes := map[time.Duration]int{}
	for _, p := range burst {
		bytes[p.t/w.window] += p.bytes
	}
	for cur := from; cur < to; {
		k := cur / w.window
		end := min((k+1)*w.window, to)
		if bytes[k] > w.threshold {
			tl.power(end, state+"_HIGH", Transfer, w.high, 0)
		} else {
			tl.power(end, state, Transfer, w.low, 0)
		}
		cur = end
	}
}

// drxAverage is the mean power of a DRX cycle: the receiver is on for on
// at onW and off for the rest of the cycle at baseW. ARO prices DRX the same
// way (ProfileFactoryImpl.energyLTE), a fraction of a cycle pro rata.
func drxAverage(cycle, on time.Duration, onW, baseW float64) float64 {
	return (on.Seconds()*onW + (cycle-on).Seconds()*baseW) / cycle.Seconds()
}

// window checks a throughput window: below 1 ms it would split a timeline
// into millions of segments (a unit slip: "0.5 ms" for "0.5 s").
func (v *validator) window(field string, d time.Duration, q catalog.Quantity) {
	if !q.IsZero() && d < time.Millisecond {
		v.fail(field, "%v is shorter than 1 ms: a window is a fraction of a second (ARO uses 0.5 s)", q)
	}
}

// promotionParams are a promotion's duration and power.
type promotionParams struct {
	Time  catalog.Quantity `yaml:"time"`
	Power catalog.Quantity `yaml:"power"`
}

type promotion struct {
	time  time.Duration
	watts float64
}

func (v *validator) promotion(field string, p promotionParams) promotion {
	return promotion{v.duration(field+".time", p.Time, true), v.power(field+".power", p.Power, true)}
}

func (p promotion) String() string { return fmt.Sprintf("%v at %.3g W", p.time, p.watts) }
