package radio

import (
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// Bluetooth Classic (BR/EDR) on an ACL link that stays connected, as
// S001's phone answered the PC over RFCOMM, after the Bluetooth Core
// Specification's link modes (Vol 2 Part B §8.6: active mode, §8.7 sniff
// mode) and the host's power manager, which puts an idle link into sniff
// after an inactivity timer:
//
//	SNIFF ──packet──► ACTIVE ──no packet for sniff_timeout──► SNIFF
//
// In SNIFF the controller wakes only at sniff anchor points: an average
// current. A packet switches the link to active mode (the mode change is
// not priced: it takes a few slots). While packets flow the controller
// draws active_current (its figure at full ACL throughput); after the last
// one it stays in active mode, polled every T_poll, at tail_current until
// the timer expires. There is no promotion delay in the model: the link
// exists before the first packet, as S001's did.
func init() {
	registerTechnology("bredr", "Bluetooth Classic (BR/EDR) ACL link: active mode while packets flow, an inactivity timer, then sniff mode",
		func(file string, data []byte) (header, Model, []Param, error) {
			return decodeFile(file, data, newBREDR)
		})
}

type bredrParams struct {
	SupplyVoltage catalog.Quantity `yaml:"supply_voltage"`
	ActiveCurrent catalog.Quantity `yaml:"active_current"`
	TailCurrent   catalog.Quantity `yaml:"tail_current"`
	SniffCurrent  catalog.Quantity `yaml:"sniff_current"`
	SniffTimeout  catalog.Quantity `yaml:"sniff_timeout"`
}

// BREDR is the BR/EDR link model with a profile's parameters.
type BREDR struct {
	activeW, tailW, sniffW float64
	timeout                time.Duration
}

func newBREDR(v *validator, p *bredrParams) Model {
	volts := v.voltage("params.supply_voltage", p.SupplyVoltage, true)
	m := &BREDR{
		activeW: volts * v.current("params.active_current", p.ActiveCurrent, true),
		tailW:   volts * v.current("params.tail_current", p.TailCurrent, true),
		sniffW:  volts * v.current("params.sniff_current", p.SniffCurrent, true),
		timeout: v.duration("params.sniff_timeout", p.SniffTimeout, true),
	}
	v.positive("params.sniff_timeout", float64(m.timeout), p.SniffTimeout)
	return m
}

// Simulate implements Model: bursts are packets closer than the sniff
// timeout to the previous one; each is ACTIVE from its first to its last
// packet, then ACTIVE (tail) for the timeout, then SNIFF.
func (m *BREDR) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	pk := t.Packets
	start := at(pk[0])
	tl := &timeline{now: start}
	for i := 0; i < len(pk); {
		t0 := at(pk[i])
		tl.power(t0, "SNIFF", Idle, m.sniffW, 0)
		last, j := t0, i
		for j+1 < len(pk) && at(pk[j+1])-last <= m.timeout {
			j++
			last = at(pk[j])
		}
		tl.power(last, "ACTIVE", Transfer, m.activeW, 0)
		tl.power(last+m.timeout, "ACTIVE", Tail, m.tailW, 0)
		i = j + 1
	}
	b := tl.finish(start, opt, "SNIFF", m.sniffW)
	b.count(t)
	return b, nil
}
