package costing

import (
	"fmt"
	"math"
	"strings"

	"github.com/cryptocost/cryptocost/device"
)

// Power is the current and power while an operation runs on a device,
// with the baseline state energy is reported net of, each an interval
// from the profile's ranges, and how each was obtained.
type Power struct {
	Volts, Amps, Watts Interval
	How                string // "2.65 V [S003] × active 1.8 mA [S003]"
	// OwnCurrent says the current is the operation's own (the literature
	// measured it while the operation ran), not the CPU-active state's.
	OwnCurrent bool
	// BaseState is "idle" or "sleep" ("" when the profile has neither).
	BaseState           string
	BaseAmps, BaseWatts Interval
	BaseHow             string
}

// PowerFor is the power while op runs on d: the current the literature
// gives for this operation on this device when it does (S001 measured
// 182.2 mA while signing with ECDSA P-256), else the CPU-active state's.
func PowerFor(d *device.Device, op Op, own *device.Value) (Power, error) {
	var p Power
	if !d.Supply.Voltage.Known() {
		return p, fmt.Errorf("%s's supply voltage is %s", d.Name, d.Supply.Voltage)
	}
	p.Volts = valueInterval(d.Supply.Voltage, "V")
	if own == nil {
		if o, ok := opCurrent(d, op); ok {
			v := o.Current
			own = &v
			p.How = fmt.Sprintf("%s × %s while %s", d.Supply.Voltage, o.Current, o.Name)
		}
	} else {
		p.How = fmt.Sprintf("%s × %s", d.Supply.Voltage, own)
	}
	if own != nil {
		p.Amps, p.OwnCurrent = valueInterval(*own, "A"), true
	} else {
		amps, how, err := stateCurrent(d, "active")
		if err != nil {
			return p, err
		}
		p.Amps, p.How = amps, fmt.Sprintf("%s × %s", d.Supply.Voltage, how)
	}
	p.Watts = p.Volts.Mul(p.Amps)
	if st := d.BaselineState(); st != "" {
		p.BaseState = st
		p.BaseAmps, p.BaseHow, _ = stateCurrent(d, st)
		p.BaseWatts = p.Volts.Mul(p.BaseAmps)
		p.BaseHow = fmt.Sprintf("%s × %s", d.Supply.Voltage, p.BaseHow)
	}
	return p, nil
}

// opCurrent is the literature's current while op runs on d, matched by
// scheme and operation, else by family, key size and operation.
func opCurrent(d *device.Device, op Op) (device.Operation, bool) {
	for _, o := range d.Operations {
		if o.Current.Known() && o.Covers(op.Scheme, op.Operation) {
			return o, true
		}
	}
	family, bits := KeySize(op.Scheme)
	if family == "" {
		return device.Operation{}, false
	}
	for _, o := range d.OperationsFor(family, op.Operation) {
		if o.Current.Known() && (o.Bits == bits || o.Bits == 0) {
			return o, true
		}
	}
	return device.Operation{}, false
}

// stateCurrent is a power state's current in amperes as an interval
// (I = P / V for a state given as a power).
func stateCurrent(d *device.Device, state string) (Interval, string, error) {
	v, ok := d.Power[state]
	if !ok || !v.Known() {
		if ok && v.Unknown != "" {
			return Interval{}, "", fmt.Errorf("%s's %s current is unknown (%s)", d.Name, state, v.Unknown)
		}
		return Interval{}, "", fmt.Errorf("%s's profile has no %s current", d.Name, state)
	}
	if dim, _ := v.Dimension(); dim == "power" {
		return valueInterval(v, "W").Div(valueInterval(d.Supply.Voltage, "V")), fmt.Sprintf("(%s %s / %s)", state, v, d.Supply.Voltage), nil
	}
	return valueInterval(v, "A"), state + " " + v.String(), nil
}

// Energy is one operation's energy on a device: gross and net of the
// baseline, with the time and power behind it, labelled by the rung the
// time came from.
type Energy struct {
	Cost  Cost
	Power *Power // nil when the literature's energy is used as it is
	// Gross is the energy per operation; Net is Gross minus the baseline
	// power over the operation's time (nil when the profile has no
	// baseline, or no time is known).
	Gross Interval
	Net   *Interval
	// Method is the formula with its numbers; NetMethod the same for Net.
	Method, NetMethod string
	// Notes say what is not net, or which figure was set aside.
	Notes []string
}

// OpEnergy resolves op's time on the device and prices it: the
// literature's measured energy for exactly this operation when the
// profile has one (imported: measured on the device beats a model), else
// E = V·I·t.
func (p *Pricer) OpEnergy(op Op) (Energy, error) {
	c, err := p.Resolve(op)
	if err != nil {
		return Energy{}, err
	}
	e := Energy{Cost: c}
	if c.Joules != nil && c.Seconds == nil || c.Joules != nil && c.Rung == Imported {
		e.Gross = *c.Joules
		e.Method = "measured on the device by the literature: " + c.Method
		if c.Rung == Estimated {
			e.Method = "the literature's energy for another operation on the device: " + c.Method
		}
		// The model's figure, set aside but shown: how far E = V·I·t with
		// the profile's currents is from what the study measured.
		if c.Seconds != nil {
			if pw, err := PowerFor(p.Device, op, c.Current); err == nil {
				model := pw.Watts.Mul(*c.Seconds)
				e.Notes = append(e.Notes, fmt.Sprintf("the literature's measured %s is used; E = V·I·t would give %s (%s × %s), %.2g× it",
					fmtJoules(e.Gross.V), fmtJoules(model.V), pw.How, timeText(c), model.V/e.Gross.V))
			}
		}
	} else {
		if c.Seconds == nil {
			return Energy{}, &NotPricedError{Device: p.Device.Name, What: op.Name(), Why: []string{c.Rung.String() + " gives no time"}}
		}
		pw, err := PowerFor(p.Device, op, c.Current)
		if err != nil {
			return Energy{}, &NotPricedError{Device: p.Device.Name, What: op.Name(), Why: []string{err.Error()},
				Would: []string{"the missing figure in a profile of your own (--device-file)"}}
		}
		e.Power = &pw
		e.Gross = pw.Watts.Mul(*c.Seconds)
		e.Method = fmt.Sprintf("E = V·I·t: %s × %s", pw.How, timeText(c))
	}
	if c.Literature != nil && c.Literature.Energy.Known() && c.Joules == nil {
		e.Notes = append(e.Notes, fmt.Sprintf("%s measured %s on the device; the figure above is %s", c.Literature.Name, c.Literature.Energy, c.Rung))
	}
	// Net of the baseline: the baseline power over the operation's time.
	base, baseHow, ok := p.baseline()
	switch {
	case !ok:
		e.Notes = append(e.Notes, fmt.Sprintf("no net energy: %s's profile has no idle or sleep figure", p.Device.Name))
	case c.Seconds == nil:
		e.Notes = append(e.Notes, "no net energy: the figure is an energy without a time")
	default:
		net := e.Gross.Sub(base.Mul(*c.Seconds)) // the literature's energy less the baseline over its time
		if e.Power != nil {
			net, _, ok = p.netEnergy(*e.Power, *c.Seconds)
		}
		if !ok || net.V < 0 {
			e.Notes = append(e.Notes, fmt.Sprintf("no net energy: the operation's power is below the %s baseline", baseHow))
			break
		}
		net.Lo = math.Max(net.Lo, 0)
		e.Net = &net
		e.NetMethod = fmt.Sprintf("%s − %s × %s", e.Method, baseHow, timeText(c))
	}
	return e, nil
}

// netEnergy is the energy above the baseline while an operation of time t
// runs at pw: V·(I − I_base)·t. Each quantity enters once with its own
// interval — the one supply voltage, the current above the baseline
// (I_lo − I_base,hi to I_hi − I_base,lo: the two states' currents are
// separate figures), the one time — so the bounds are V_lo·ΔI_lo·t_lo to
// V_hi·ΔI_hi·t_hi. (Gross minus baseline taken apart would pair the
// shortest time with the longest, and its low bound is then often
// nothing at all.) ok is false when the device has no baseline or the
// operation's current is not above it.
func (p *Pricer) netEnergy(pw Power, t Interval) (Interval, string, bool) {
	if pw.BaseState == "" {
		return Interval{}, "", false
	}
	d := pw.Amps.Sub(pw.BaseAmps)
	if d.V <= 0 {
		return Interval{}, "", false
	}
	d.Lo = math.Max(d.Lo, 0)
	return pw.Volts.Mul(d).Mul(t), "(" + pw.BaseHow + ")", true
}

// baseline is the baseline state's power.
func (p *Pricer) baseline() (Interval, string, bool) {
	d := p.Device
	st := d.BaselineState()
	if st == "" || !d.Supply.Voltage.Known() {
		return Interval{}, "", false
	}
	amps, how, err := stateCurrent(d, st)
	if err != nil {
		return Interval{}, "", false
	}
	return valueInterval(d.Supply.Voltage, "V").Mul(amps), fmt.Sprintf("(%s × %s)", d.Supply.Voltage, how), true
}

func timeText(c Cost) string {
	if c.Seconds == nil {
		return "no time"
	}
	return fmt.Sprintf("%.4g s (%s: %s)", c.Seconds.V, c.Rung, strings.TrimSpace(c.Method))
}
