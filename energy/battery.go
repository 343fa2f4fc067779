package energy

import (
	"fmt"
	"math"
	"time"
)

// DutyCycle is a device that wakes once every Period, runs an operation
// for OpSeconds at OpAmps, and sleeps at SleepAmps in between: "one ECDSA
// P-256 signature every 10 minutes".
type DutyCycle struct {
	Period    time.Duration
	OpSeconds float64
	OpAmps    float64
	SleepAmps float64
	// BaseAmps is the baseline the operation's net share is counted
	// against (idle or sleep); 0 when the device has none.
	BaseAmps float64
}

// BatteryLife is the result of the battery arithmetic.
type BatteryLife struct {
	// UsableCoulombs is the charge the battery delivers: rated capacity ×
	// usable fraction (a capacity in Wh is converted at the nominal
	// voltage).
	UsableCoulombs float64
	// AverageAmps over one period.
	AverageAmps float64
	// Seconds until the usable charge is spent at AverageAmps.
	Seconds float64
	// OpShare is the operation's share of the charge spent per period
	// (0..1); the rest is sleep.
	OpShare float64
	// SleepOnlySeconds is the lifetime sleeping without ever operating.
	SleepOnlySeconds float64
	// OpsPerBattery is how many operations a full battery runs doing
	// nothing else, at the operation's whole current; OpsPerBatteryNet
	// counts only its current above the baseline (S001's "over idle").
	OpsPerBattery, OpsPerBatteryNet float64
}

// Days is the lifetime in days.
func (b BatteryLife) Days() float64 { return b.Seconds / 86400 }

// UsableCharge is the battery's usable charge in coulombs, and how it was
// obtained.
func UsableCharge(b *Battery) (float64, string, error) {
	if b == nil {
		return 0, "", fmt.Errorf("no battery in the profile (give --capacity)")
	}
	if !b.Capacity.Known() {
		return 0, "", fmt.Errorf("%s", errUnknown("battery capacity", b.Capacity))
	}
	if !b.Usable.Known() {
		return 0, "", fmt.Errorf("%s", errUnknown("battery usable fraction", b.Usable))
	}
	usable := b.Usable.MustIn("")
	how := fmt.Sprintf("%s × usable %s", describe(b.Capacity), describe(b.Usable))
	if dim, _ := b.Capacity.Dimension(); dim == "energy" {
		if !b.NominalVoltage.Known() {
			return 0, "", fmt.Errorf("%s", errUnknown("battery nominal voltage", b.NominalVoltage))
		}
		how = fmt.Sprintf("%s / %s × usable %s", describe(b.Capacity), describe(b.NominalVoltage), describe(b.Usable))
		return b.Capacity.MustIn("J") / b.NominalVoltage.MustIn("V") * usable, how, nil
	}
	return b.Capacity.MustIn("C") * usable, how, nil
}

// Lifetime does the duty-cycle arithmetic in charge, as the studies did
// (mAh ÷ mA): a battery delivers its rated charge whatever the load
// voltage, so I_avg = (I_op·t_op + I_sleep·(T − t_op)) / T and the
// lifetime is Q_usable / I_avg. Converter losses, self-discharge and the
// capacity's dependence on load and temperature are not modelled.
func Lifetime(usableCoulombs float64, c DutyCycle) (BatteryLife, error) {
	T := c.Period.Seconds()
	switch {
	case usableCoulombs <= 0:
		return BatteryLife{}, fmt.Errorf("usable charge %g C: want a positive capacity", usableCoulombs)
	case T <= 0:
		return BatteryLife{}, fmt.Errorf("period %v: want a positive interval such as 10m", c.Period)
	case c.OpSeconds <= 0 || c.OpAmps <= 0:
		return BatteryLife{}, fmt.Errorf("operation %g s at %g A: want a positive time and current", c.OpSeconds, c.OpAmps)
	case c.OpSeconds > T:
		return BatteryLife{}, fmt.Errorf("the operation takes %.3g s, longer than the period %v: the device never sleeps; use a longer period", c.OpSeconds, c.Period)
	case c.SleepAmps < 0:
		return BatteryLife{}, fmt.Errorf("sleep current %g A: want zero or more", c.SleepAmps)
	}
	opCharge := c.OpAmps * c.OpSeconds
	sleepCharge := c.SleepAmps * (T - c.OpSeconds)
	b := BatteryLife{UsableCoulombs: usableCoulombs}
	b.AverageAmps = (opCharge + sleepCharge) / T
	b.Seconds = usableCoulombs / b.AverageAmps
	b.OpShare = opCharge / (opCharge + sleepCharge)
	b.SleepOnlySeconds = math.Inf(1)
	if c.SleepAmps > 0 {
		b.SleepOnlySeconds = usableCoulombs / c.SleepAmps
	}
	b.OpsPerBattery = usableCoulombs / opCharge
	b.OpsPerBatteryNet = math.Inf(1)
	if net := (c.OpAmps - c.BaseAmps) * c.OpSeconds; net > 0 {
		b.OpsPerBatteryNet = usableCoulombs / net
	}
	return b, nil
}
