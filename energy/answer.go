package energy

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// BatteryQuery asks "one ALGO OP every PERIOD on DEVICE: how long does the
// battery last, and what share of it does the operation take?".
type BatteryQuery struct {
	Device *Device
	// Algo is a registry scheme ("ECDSA-P256-SHA256") or one of the
	// device's literature operations (its key "ECDSA-160" or its name).
	Algo, Op string
	Period   time.Duration
	// OpTime, when positive, is the operation's time given by the user.
	OpTime time.Duration
	// Reference is a run measured on this machine, for estimators that
	// scale its times; Calibration holds the device's own times.
	Reference   *result.Run
	Calibration *Calibration
	NoEstimates bool
	// Battery replaces the profile's (or supplies one).
	Battery *Battery
}

// BatteryAnswer is the arithmetic, every input with its source.
type BatteryAnswer struct {
	Query     BatteryQuery
	Name      string // what the operation is called in the answer
	Time      DeviceTime
	Power     Power
	SleepAmps float64
	SleepHow  string
	UsableC   float64
	UsableHow string
	Life      BatteryLife
	Label     result.Label
	// ImportedEnergy is the literature's measured energy per operation,
	// when the profile has one, to set beside the model's.
	ImportedEnergy *Value
	Warnings       []string
}

// AnswerBattery resolves the operation's time and current on the device,
// the sleep current and the usable charge, and does the duty-cycle
// arithmetic (Lifetime).
func AnswerBattery(q BatteryQuery) (*BatteryAnswer, error) {
	d := q.Device
	a := &BatteryAnswer{Query: q, Name: q.Algo + " " + q.Op, Label: result.Modelled}
	family, bits := "", 0
	if o, ok := d.FindOperation(q.Algo, q.Op); ok {
		a.Name = o.Name
		family, bits = o.Family, o.Bits
		switch {
		case q.OpTime > 0:
		case o.Time.Known():
			a.Time = DeviceTime{MedianNs: o.Time.MustIn("ns"), Label: result.Imported, Method: "time/op " + describe(o.Time) + ", " + o.Name}
		default:
			return nil, fmt.Errorf("%s on %s has no time in the profile (%s): give --op-time", o.Name, d.Name, describeCosts(o))
		}
		if o.Energy.Known() {
			v := o.Energy
			a.ImportedEnergy = &v
		}
	} else {
		schemes, err := scheme.ByName(q.Algo)
		if err != nil {
			return nil, fmt.Errorf("%v; or one of %s's literature operations: %s", err, d.Name, strings.Join(opKeys(d), ", "))
		}
		info := schemes[0].Info()
		subj := result.Subject{Kind: "primitive", Name: info.Name + "@" + string(info.Provider) + "/" + q.Op,
			Scheme: info.Name, Provider: string(info.Provider), Operation: q.Op, Params: map[string]string{}}
		for _, p := range info.Params {
			subj.Params[p.Key] = p.Value
		}
		family, bits = SchemeSize(subj)
		if q.OpTime <= 0 {
			t, err := schemeTime(q, subj)
			if err != nil {
				return nil, err
			}
			a.Time = t
		}
	}
	if q.OpTime > 0 {
		a.Time = DeviceTime{MedianNs: float64(q.OpTime.Nanoseconds()), Label: result.Imported, Method: fmt.Sprintf("time/op %v given (--op-time)", q.OpTime)}
	}
	if a.Time.Label == result.Estimated {
		a.Label = result.Estimated
	}
	p, err := opPower(d, family, bits, q.Op)
	if err != nil {
		return nil, err
	}
	a.Power = p
	switch {
	case known(d, "sleep"):
		a.SleepAmps, a.SleepHow, _ = d.StateCurrent("sleep")
	case known(d, "idle"):
		a.SleepAmps, a.SleepHow, _ = d.StateCurrent("idle")
		a.Warnings = append(a.Warnings, fmt.Sprintf("%s has no sleep figure: it idles between events at %s", d.Name, a.SleepHow))
	default:
		return nil, fmt.Errorf("%s has no sleep or idle current: %s; give --device-file with one", d.Name, d.Power["sleep"])
	}
	b := d.Battery
	if q.Battery != nil {
		b = q.Battery
	}
	a.UsableC, a.UsableHow, err = UsableCharge(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name, err)
	}
	a.Life, err = Lifetime(a.UsableC, DutyCycle{Period: q.Period, OpSeconds: a.Time.MedianNs * 1e-9, OpAmps: p.Amps, SleepAmps: a.SleepAmps, BaseAmps: p.BaseAmps})
	if err != nil {
		return nil, err
	}
	if a.Life.Days() > 5*365 {
		a.Warnings = append(a.Warnings, "a lifetime of years: the cells' self-discharge and shelf life (not modelled) will shorten it")
	}
	return a, nil
}

func known(d *Device, state string) bool { v, ok := d.Power[state]; return ok && v.Known() }

func describeCosts(o Operation) string {
	var s []string
	for _, v := range []Value{o.Time, o.Energy, o.Current, o.EnergyPerByte} {
		if v.Given() {
			s = append(s, v.String())
		}
	}
	return strings.Join(s, "; ")
}

func opKeys(d *Device) []string {
	var out []string
	for _, o := range d.Operations {
		if o.Time.Known() {
			out = append(out, o.Key())
		}
	}
	if len(out) == 0 {
		return []string{"(none with a time)"}
	}
	return out
}

// schemeTime is a registry scheme's time on the device: a calibration
// entry for the scheme and operation, else TimeOnDevice with the reference
// run's result for it.
func schemeTime(q BatteryQuery, subj result.Subject) (DeviceTime, error) {
	if c := q.Calibration; c != nil {
		for _, e := range c.Entries {
			if strings.EqualFold(e.Scheme, subj.Scheme) && strings.EqualFold(e.Operation, subj.Operation) {
				return DeviceTime{Samples: e.Samples, MedianNs: e.MedianNs, Label: result.Imported,
					Method: fmt.Sprintf("time/op of %s measured by cryptocost on %s (calibration of run %s)", e.Subject, q.Device.Name, c.RunID)}, nil
			}
		}
	}
	tq := TimeQuery{Device: q.Device, Subject: subj, Calibration: q.Calibration, NoEstimates: q.NoEstimates, Run: q.Reference}
	if q.Reference != nil {
		for i := range q.Reference.Results {
			r := &q.Reference.Results[i]
			if strings.EqualFold(r.Subject.Scheme, subj.Scheme) && strings.EqualFold(r.Subject.Operation, subj.Operation) && r.Metric("time") != nil {
				tq.Reference, tq.Subject = r, r.Subject
				break
			}
		}
	}
	t, err := TimeOnDevice(tq)
	if err != nil {
		return t, fmt.Errorf("%w; or give --op-time", err)
	}
	return t, nil
}

// Sentence is the answer in one sentence.
func (a *BatteryAnswer) Sentence() string {
	q := a.Query
	battery := ""
	if b := q.Device.Battery; q.Battery != nil || b != nil {
		if q.Battery != nil {
			b = q.Battery
		}
		battery = fmt.Sprintf(" with %s (%s)", b.Chemistry, short(b.Capacity))
	}
	about := ""
	if a.Label == result.Estimated {
		about = "about "
	}
	return fmt.Sprintf("One %s every %s on %s%s lasts %s%s; the %s is %.3g %% of the budget (%s).",
		a.Name, fmtPeriod(q.Period), q.Device.Title, battery, about, fmtLife(a.Life.Seconds), q.Op, 100*a.Life.OpShare, a.Label)
}

// Details are the arithmetic's lines, each input with its source.
func (a *BatteryAnswer) Details() []string {
	t := a.Time.MedianNs * 1e-9
	lines := []string{
		fmt.Sprintf("time per %s: %s (%s: %s)", a.Query.Op, fmtSeconds(t), a.Time.Label, a.Time.Method),
		fmt.Sprintf("current while it runs: %s (%s)", fmtAmps(a.Power.Amps), a.Power.How),
		fmt.Sprintf("energy per %s: E = V·I·t = %.4g mJ gross", a.Query.Op, a.Power.Watts*t*1e3),
	}
	if a.Power.BaseState != "" && a.Power.Watts >= a.Power.BaseWatts {
		lines[2] += fmt.Sprintf(", %.4g mJ net of the %s baseline (%s)", (a.Power.Watts-a.Power.BaseWatts)*t*1e3, a.Power.BaseState, a.Power.BaseHow)
	}
	if a.ImportedEnergy != nil {
		lines = append(lines, fmt.Sprintf("measured energy per %s in the literature: %s (imported), against the model's %.4g mJ", a.Query.Op, a.ImportedEnergy, a.Power.Watts*t*1e3))
	}
	lines = append(lines,
		fmt.Sprintf("between events: %s (%s)", fmtAmps(a.SleepAmps), a.SleepHow),
		fmt.Sprintf("average current: (%s × %s + %s × %s) / %s = %s",
			fmtAmps(a.Power.Amps), fmtSeconds(t), fmtAmps(a.SleepAmps), fmtSeconds(a.Query.Period.Seconds()-t), fmtPeriod(a.Query.Period), fmtAmps(a.Life.AverageAmps)),
		fmt.Sprintf("usable charge: %.4g mAh (%s)", a.UsableC/3.6, a.UsableHow),
		fmt.Sprintf("lifetime: usable charge / average current = %s; sleeping only: %s", fmtLife(a.Life.Seconds), fmtLife(a.Life.SleepOnlySeconds)),
		fmt.Sprintf("operations per full battery doing nothing else: %.4g (whole current); %.4g counting only the current above the baseline",
			a.Life.OpsPerBattery, a.Life.OpsPerBatteryNet),
		"method: charge accounting (mAh ÷ mA, as the studies did); converter losses, self-discharge, radio and sensors are not included",
	)
	return lines
}

// Result is the answer as a result for the result formats and the store.
func (a *BatteryAnswer) Result() result.Result {
	q := a.Query
	lbl := a.Label
	method := func(m result.Metric, s string) result.Metric { m.Method = s; return m }
	t := a.Time.MedianNs * 1e-9
	r := result.Result{
		Subject: result.Subject{Kind: "battery", Name: fmt.Sprintf("%s/%s/%s/every-%s", q.Device.Name, q.Algo, q.Op, fmtPeriod(q.Period)),
			Params: map[string]string{"device": q.Device.Name, "algorithm": q.Algo, "operation": q.Op, "period": q.Period.String()}},
		Provenance: result.Provenance{Label: lbl, Method: result.Method{Name: "duty-cycle battery arithmetic"}, Source: q.Device.Source()},
		Warnings:   a.Warnings,
	}
	r.Metrics = append(r.Metrics,
		method(result.NewScalar("battery-life", "s", result.Higher, lbl, a.Life.Seconds), "usable charge / average current: "+a.UsableHow),
		method(result.NewScalar("op-share", "%", result.Lower, lbl, 100*a.Life.OpShare), "the operation's charge per period over all charge per period"),
		method(result.NewScalar("average-current", "µA", result.Lower, lbl, a.Life.AverageAmps*1e6), "(I_op·t_op + I_sleep·(T − t_op)) / T; sleep "+a.SleepHow),
		method(result.NewScalar("device-time", "s", result.Lower, a.Time.Label, t), a.Time.Method),
		method(result.NewScalar("energy", "mJ/op", result.Lower, lbl, a.Power.Watts*t*1e3), "E = V·I·t: "+a.Power.How),
		method(result.NewScalar("ops-per-battery", "ops", result.Higher, lbl, a.Life.OpsPerBattery), "usable charge / (I_op · t_op)"),
	)
	if !math.IsInf(a.Life.SleepOnlySeconds, 1) {
		r.Metrics = append(r.Metrics, method(result.NewScalar("battery-life-sleep-only", "s", result.Higher, result.Modelled, a.Life.SleepOnlySeconds), "usable charge / sleep current"))
	}
	return r
}

// FormatPeriod prints a duty-cycle period: "10min", "1h", "30s".
func FormatPeriod(d time.Duration) string { return fmtPeriod(d) }

func fmtPeriod(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%dmin", d/time.Minute)
	}
	return d.String()
}

func fmtAmps(a float64) string {
	switch {
	case a >= 1:
		return fmt.Sprintf("%.4g A", a)
	case a >= 1e-3:
		return fmt.Sprintf("%.4g mA", a*1e3)
	}
	return fmt.Sprintf("%.4g µA", a*1e6)
}

func fmtSeconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.4g s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.4g ms", s*1e3)
	case s >= 1e-6:
		return fmt.Sprintf("%.4g µs", s*1e6)
	}
	return fmt.Sprintf("%.4g ns", s*1e9)
}

func fmtLife(s float64) string {
	if math.IsInf(s, 1) {
		return "for ever (no sleep current)"
	}
	days := s / 86400
	switch {
	case days >= 365:
		return fmt.Sprintf("%.0f days (%.1f years)", days, days/365.25)
	case days >= 1:
		return fmt.Sprintf("%.1f days", days)
	}
	return fmt.Sprintf("%.1f hours", s/3600)
}

// FormatAmps prints a current with a fitting prefix: "1.8 mA", "5.1 µA".
func FormatAmps(a float64) string { return fmtAmps(a) }

// FormatLifetime prints a lifetime: "2107 days (5.8 years)", "20.6 hours".
func FormatLifetime(seconds float64) string { return fmtLife(seconds) }
