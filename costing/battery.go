package costing

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/device"
)

// Battery is the one battery-life function: a device that wakes every
// Period, spends EventJoules over EventSeconds (CPU and radio), and sleeps
// in between at the device's sleep current (plus its radios' sleep
// currents, when given).
type Battery struct {
	Device *device.Device
	// Battery replaces the profile's (or supplies one): --capacity.
	Battery *device.Battery
	Period  time.Duration
	// EventJoules and EventSeconds are one event's energy and duration on
	// the device, with their intervals. EventSeconds may have no upper
	// bound (a lower-bound time, [t, ∞)): an event cannot take more than
	// the period, so the bounds stop at a device busy all the time.
	EventJoules, EventSeconds Interval
	// EventAmps, when the event's energy is V·I·t at one current (a single
	// operation), is that current: the event's charge is then I·t, each
	// bound from the same time as the sleep's, with the voltage not
	// entering twice. Nil: the charge is E/V.
	EventAmps *Interval
	// EventNetJoules is the event's energy net of the baseline (nil: none),
	// for the events a battery pays for above the baseline (S001's "over
	// idle").
	EventNetJoules *Interval
	// RadioSleepAmps is the radios' sleep current while the device sleeps
	// (0 when none is priced), and RadioSleepHow where it comes from.
	RadioSleepAmps Interval
	RadioSleepHow  string
}

// Life is the result of the battery arithmetic, every figure with its
// interval and the formula.
type Life struct {
	Seconds          Interval // until the usable charge is spent
	SleepOnlySeconds Interval // sleeping, never waking
	AverageAmps      Interval
	// EventShare is the events' share of the charge per period (0..1).
	EventShare Interval
	// EventsPerBattery is how many events a full battery pays for at the
	// event's whole energy, doing nothing else.
	EventsPerBattery Interval
	// EventsPerBatteryNet counts only the energy above the baseline (nil
	// when there is no net energy).
	EventsPerBatteryNet *Interval
	UsableCoulombs      Interval
	Method              string
	Notes               []string
}

// Days is the lifetime in days.
func (l Life) Days() float64 { return l.Seconds.V / 86400 }

// Life does the duty-cycle arithmetic in charge, as the studies did (mAh
// ÷ mA): the event's charge is its energy over the supply voltage, the
// sleep's is the sleep current over the rest of the period, I_avg =
// (Q_event + I_sleep·(T − t_event)) / T, and the lifetime Q_usable /
// I_avg. Each bound takes the inputs' bounds that make it extreme, each
// input once: the short lifetime has the smallest capacity, the longest
// event at its largest current (or largest energy at the lowest voltage,
// which draws the most charge for an energy) and the largest sleep
// current over the rest of that period. Converter losses, self-discharge and the capacity's
// dependence on load and temperature are not modelled.
func (b Battery) Life() (Life, error) {
	d := b.Device
	var l Life
	cell := d.Battery
	if b.Battery != nil {
		cell = b.Battery
	}
	q, qHow, err := UsableCharge(cell)
	if err != nil {
		return l, fmt.Errorf("%s: %w", d.Name, err)
	}
	l.UsableCoulombs = q
	if !d.Supply.Voltage.Known() {
		return l, fmt.Errorf("%s's supply voltage is %s", d.Name, d.Supply.Voltage)
	}
	volts := valueInterval(d.Supply.Voltage, "V")
	sleep, sleepHow, err := sleepCurrent(d)
	if err != nil {
		return l, err
	}
	if b.RadioSleepHow != "" {
		sleep = sleep.Add(b.RadioSleepAmps)
		sleepHow += " + radio " + b.RadioSleepHow
	}
	T := b.Period.Seconds()
	t := b.EventSeconds
	switch {
	case T <= 0:
		return l, fmt.Errorf("period %v: want a positive interval such as 10m", b.Period)
	case b.EventJoules.V <= 0:
		return l, fmt.Errorf("an event of %g J: want a positive energy", b.EventJoules.V)
	case t.V > T:
		return l, fmt.Errorf("an event takes %.3g s, longer than the period %v: the device never sleeps; use a longer period", t.V, b.Period)
	}
	// The event's charge: I·t at its one current, else E/V (more charge
	// at the lower voltage).
	qEvent := Interval{b.EventJoules.V / volts.V, b.EventJoules.Lo / volts.Hi, b.EventJoules.Hi / volts.Lo}
	if b.EventAmps != nil {
		qEvent = b.EventAmps.Mul(t)
	}
	// Charge per period: the event's, and the sleep over the rest of the
	// period, T − t. The low bound takes the shortest time in both terms,
	// the high bound the longest (an event draws more than sleep, so a
	// longer event is more charge), and a time beyond the period (a
	// lower-bound time has none above it) is a device busy all period:
	// I·T at the event's current, or no bound without one.
	tHi := math.Min(t.Hi, T)
	qEventHi := qEvent.Hi
	if b.EventAmps != nil {
		qEventHi = b.EventAmps.Hi * tHi
	}
	qSleep := Interval{sleep.V * (T - t.V), sleep.Lo * (T - t.Lo), sleep.Hi * (T - tHi)}
	perPeriod := Interval{qEvent.V + qSleep.V, qEvent.Lo + qSleep.Lo, qEventHi + qSleep.Hi}
	l.AverageAmps = perPeriod.Scale(1 / T)
	l.Seconds = q.Div(l.AverageAmps)
	l.EventShare = Interval{qEvent.V / perPeriod.V, qEvent.Lo / perPeriod.Lo, 1}
	if !math.IsInf(qEventHi, 1) {
		l.EventShare.Hi = qEventHi / perPeriod.Hi
	}
	if t.Hi > T {
		l.Notes = append(l.Notes, fmt.Sprintf("the time per event reaches past the period (%s): the shortest lifetime is the device doing nothing but the operation", boundText(t)))
	}
	l.EventsPerBattery = q.Div(qEvent)
	if n := b.EventNetJoules; n != nil && n.V > 0 {
		qNet := Interval{n.V / volts.V, n.Lo / volts.Hi, n.Hi / volts.Lo}
		if b.EventAmps != nil && b.EventJoules.V > 0 {
			// the same share of the event's charge as of its energy, at
			// each bound: V cancels
			qNet = Interval{qEvent.V * n.V / b.EventJoules.V, qEvent.Lo * n.Lo / b.EventJoules.Lo, qEvent.Hi * n.Hi / b.EventJoules.Hi}
			if math.IsInf(qEvent.Hi, 1) {
				qNet.Hi = math.Inf(1)
			}
		}
		e := q.Div(qNet) // no low bound on the net charge: no upper bound on the count (+Inf)
		l.EventsPerBatteryNet = &e
	}
	l.SleepOnlySeconds = Exact(math.Inf(1))
	if sleep.V > 0 {
		l.SleepOnlySeconds = q.Div(sleep)
	}
	l.Method = fmt.Sprintf("Q_usable / I_avg = %s / ((E/V + I_sleep·(T − t)) / T) with E = %.4g J, V = %s, t = %.4g s, T = %v, I_sleep = %s",
		qHow, b.EventJoules.V, d.Supply.Voltage, t.V, b.Period, sleepHow)
	if b.EventAmps != nil {
		l.Method = fmt.Sprintf("Q_usable / I_avg = %s / ((I·t + I_sleep·(T − t)) / T) with I = %s, t = %.4g s, T = %v, I_sleep = %s",
			qHow, FormatAmps(b.EventAmps.V), t.V, b.Period, sleepHow)
	}
	if l.Seconds.V > 5*365*86400 {
		l.Notes = append(l.Notes, "a lifetime of years: the cells' self-discharge and shelf life (not modelled) will shorten it")
	}
	return l, nil
}

// UsableCharge is the battery's usable charge in coulombs with its
// interval (a capacity range, "2000–2500 mAh"), and how it was obtained.
func UsableCharge(b *device.Battery) (Interval, string, error) {
	if b == nil {
		return Interval{}, "", fmt.Errorf("no battery in the profile (give --capacity)")
	}
	if !b.Capacity.Known() {
		return Interval{}, "", fmt.Errorf("the battery capacity is %s", b.Capacity)
	}
	if !b.Usable.Known() {
		return Interval{}, "", fmt.Errorf("the battery's usable fraction is %s", b.Usable)
	}
	usable := valueInterval(b.Usable, "")
	how := fmt.Sprintf("%s × usable %s", b.Capacity, b.Usable)
	if dim, _ := b.Capacity.Dimension(); dim == "energy" {
		if !b.NominalVoltage.Known() {
			return Interval{}, "", fmt.Errorf("the battery's nominal voltage is %s", b.NominalVoltage)
		}
		how = fmt.Sprintf("%s / %s × usable %s", b.Capacity, b.NominalVoltage, b.Usable)
		return valueInterval(b.Capacity, "J").Div(valueInterval(b.NominalVoltage, "V")).Mul(usable), how, nil
	}
	return valueInterval(b.Capacity, "C").Mul(usable), how, nil
}

// sleepCurrent is what the device draws between events: its sleep state,
// else its idle state (said in the method).
func sleepCurrent(d *device.Device) (Interval, string, error) {
	for _, st := range []string{"sleep", "idle"} {
		if v, ok := d.Power[st]; ok && v.Known() {
			a, how, err := stateCurrent(d, st)
			if err != nil {
				return Interval{}, "", err
			}
			if st == "idle" {
				how += " (no sleep figure: it idles between events)"
			}
			return a, how, nil
		}
	}
	var why []string
	for _, st := range []string{"sleep", "idle"} {
		why = append(why, st+" "+d.Power[st].String())
	}
	return Interval{}, "", fmt.Errorf("%s has no sleep or idle current (%s): give --device-file with one", d.Name, strings.Join(why, ", "))
}

// boundText is an interval as "[lo, hi]" in seconds, "∞" for no bound.
func boundText(t Interval) string {
	hi := "∞"
	if !math.IsInf(t.Hi, 1) {
		hi = FormatSeconds(t.Hi)
	}
	return fmt.Sprintf("%s to %s", FormatSeconds(t.Lo), hi)
}
