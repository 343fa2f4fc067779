package radio

import (
	"math"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// WiFi (802.11 with power save), after ARO (createWiFi: active, tail,
// standby), EnergyBox (EngineWifi: PSM, CAM, CAM-high) and Huang et al.
// MobiSys 2012 (promotion, tail, beacons, αu/αd/β):
//
//	PSM ──packet──► [PROMOTION] ──► CAM ──no packet for `tail`──► PSM
//
// In PSM the radio sleeps and wakes for each beacon (average power). In CAM
// it draws cam_power, unless the profile prices transfers by throughput
// (transfer: αu, αd, β) or by bytes per window (cam_high). A device that
// joins the network first pays the scan and association cost (--associate).
func init() {
	registerTechnology("wifi", "WiFi CAM/PSM: inactivity threshold, transfer power, beacons, optional promotion and scan+association",
		func(file string, data []byte) (header, Model, []Param, error) { return decodeFile(file, data, newWiFi) })
}

type wifiParams struct {
	PSMPower    catalog.Quantity `yaml:"psm_power"`
	Beacon      *beaconParams    `yaml:"beacon"`
	Promotion   *promotionParams `yaml:"promotion"`
	CAMPower    catalog.Quantity `yaml:"cam_power"`
	Tail        catalog.Quantity `yaml:"tail"`
	Transfer    *rateParams      `yaml:"transfer"`
	CAMHigh     *camHighParams   `yaml:"cam_high"`
	Association *struct {
		Time   catalog.Quantity `yaml:"time"`
		Energy catalog.Quantity `yaml:"energy"`
	} `yaml:"association"`
}

// beaconParams: in PSM the radio wakes every interval for duration at power
// to hear the access point's beacon (traffic indication map).
type beaconParams struct {
	Interval catalog.Quantity `yaml:"interval"`
	Duration catalog.Quantity `yaml:"duration"`
	Power    catalog.Quantity `yaml:"power"`
}

// camHighParams: EnergyBox's high-throughput CAM state, entered in a
// window that carries more than threshold bytes. phy_rate bounds what a
// window can carry, so a threshold above it is a profile error.
type camHighParams struct {
	Window    catalog.Quantity `yaml:"window"`
	Threshold catalog.Quantity `yaml:"threshold"`
	Power     catalog.Quantity `yaml:"power"`
	PHYRate   catalog.Quantity `yaml:"phy_rate"`
}

// WiFi is the WiFi state machine with a profile's parameters.
type WiFi struct {
	psmW        float64 // average in PSM, beacons included
	promotion   *promotion
	camW        float64
	tail        time.Duration
	transfer    transferModel
	association *association
}

// association is the scan and association before a device can send: its
// time (0 if the source gives none) and energy.
type association struct {
	time    time.Duration
	energyJ float64
}

func newWiFi(v *validator, p *wifiParams) Model {
	m := &WiFi{
		psmW: v.power("params.psm_power", p.PSMPower, true),
		camW: v.power("params.cam_power", p.CAMPower, true),
		tail: v.duration("params.tail", p.Tail, true),
	}
	m.transfer = constantPower{m.camW}
	if b := p.Beacon; b != nil {
		interval := v.duration("params.beacon.interval", b.Interval, true)
		d := v.duration("params.beacon.duration", b.Duration, true)
		w := v.power("params.beacon.power", b.Power, true)
		v.positive("params.beacon.interval", float64(interval), b.Interval)
		if d > interval {
			v.fail("params.beacon.duration", "%v is longer than the beacon interval %v", b.Duration, b.Interval)
		} else if interval > 0 {
			m.psmW = drxAverage(interval, d, w, m.psmW)
		}
	}
	if p.Promotion != nil {
		pr := v.promotion("params.promotion", *p.Promotion)
		m.promotion = &pr
	}
	switch {
	case p.Transfer != nil && p.CAMHigh != nil:
		v.fail("params.cam_high", "give either transfer (αu, αd, β) or cam_high, not both: they are two models of transfer power")
	case p.Transfer != nil:
		m.transfer = v.rate("params.transfer", *p.Transfer)
	case p.CAMHigh != nil:
		h := p.CAMHigh
		w := windowedPower{low: m.camW,
			high:      v.power("params.cam_high.power", h.Power, true),
			window:    v.duration("params.cam_high.window", h.Window, true),
			threshold: v.bytes("params.cam_high.threshold", h.Threshold, true)}
		rate := v.bitrate("params.cam_high.phy_rate", h.PHYRate, true)
		v.window("params.cam_high.window", w.window, h.Window)
		// A window at the PHY rate carries at most rate·window/8 bytes.
		if most := int(math.Floor(rate * w.window.Seconds() / 8)); rate > 0 && w.window > 0 && w.threshold >= most {
			v.fail("params.cam_high.threshold", "%v is larger than any window can hold: at %v a %v window carries at most %d B",
				h.Threshold, h.PHYRate, h.Window, most)
		}
		m.transfer = w
	}
	if a := p.Association; a != nil {
		d := v.duration("params.association.time", a.Time, false)
		e := v.energy("params.association.energy", a.Energy, true)
		m.association = &association{d, e}
	}
	v.positive("params.tail", float64(m.tail), p.Tail)
	return m
}

// Simulate implements Model.
func (m *WiFi) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	start := at(pk[0])
	tl := &timeline{now: start}
	var delay time.Duration
	promotions := 0
	if opt.Associate && m.association != nil {
		// Scan and association before the first packet, as a promotion:
		// its energy is spread over its time (or a point if unknown).
		a := m.association
		tl.power(start+a.time, "SCAN_ASSOCIATE", Promotion, 0, a.energyJ)
		delay += a.time
	}
	// Bursts: packets closer than the tail threshold to the previous one.
	// The threshold is also the tail, so every burst starts from PSM.
	for i := 0; i < len(pk); {
		t0 := at(pk[i]) + delay
		tl.power(t0, "PSM", Idle, m.psmW, 0)
		if m.promotion != nil {
			tl.power(t0+m.promotion.time, "PROMOTION", Promotion, m.promotion.watts, 0)
			delay += m.promotion.time
			t0 += m.promotion.time
			promotions++
		}
		burst := []placed{{t0, pk[i].Dir, pk[i].Bytes}}
		last, j := t0, i
		for j+1 < len(pk) && at(pk[j+1])+delay-last <= m.tail {
			j++
			last = at(pk[j]) + delay
			burst = append(burst, placed{last, pk[j].Dir, pk[j].Bytes})
		}
		m.transfer.add(tl, "CAM", burst, t0, last)
		tl.power(last+m.tail, "CAM", Tail, m.camW, 0)
		i = j + 1
	}
	b := tl.finish(start, opt, "PSM", m.psmW)
	b.count(t)
	b.Promotions, b.DelayAdded = promotions, delay
	return b, nil
}
