package costing

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// BatteryQuery asks "one ALGO OP every PERIOD on DEVICE: how long does the
// battery last, and what share of it does the operation take?".
type BatteryQuery struct {
	Device *device.Device
	// Algo is a registry scheme ("ECDSA-P256-SHA256") or one of the
	// device's literature operations (its key "ECDSA-160" or its name).
	Algo, Op string
	// InputBytes is the operation's input (a message to sign), 0 for the
	// registry's default.
	InputBytes int
	Period     time.Duration
	// OpTime, when positive, is the operation's time given by the user.
	OpTime time.Duration
	// Reference is a run measured on this machine, for the rules that
	// scale its times; Calibration holds the device's own times.
	Reference   *result.Run
	Calibration *Calibration
	NoEstimates bool
	// Battery replaces the profile's (or supplies one).
	Battery *device.Battery
}

// BatteryAnswer is the arithmetic, every input with its source.
type BatteryAnswer struct {
	Query  BatteryQuery
	Name   string // what the operation is called in the answer
	Energy Energy
	Life   Life
	Label  result.Label
}

// AnswerBattery resolves the operation's cost on the device through the
// resolver (the same figure `bench --device`, `energy cost` and the
// scenarios use) and does the duty-cycle arithmetic (Battery.Life).
func AnswerBattery(q BatteryQuery) (*BatteryAnswer, error) {
	d := q.Device
	a := &BatteryAnswer{Query: q, Name: q.Algo + " " + q.Op}
	p := &Pricer{Device: d, Calibration: q.Calibration, NoEstimates: q.NoEstimates, Reference: q.Reference}
	var op Op
	if o, ok := d.FindOperation(q.Algo, q.Op); ok && !registryScheme(q.Algo) {
		// A literature operation named by its key: its own figures.
		a.Name = o.Name
		c, err := literatureCost(o)
		if err != nil && q.OpTime <= 0 {
			return nil, fmt.Errorf("%s on %s: %v: give --op-time", o.Name, d.Name, err)
		}
		op = Op{Scheme: o.Key(), Operation: o.Operation}
		e, err := p.priceCost(op, c, q.OpTime)
		if err != nil {
			return nil, err
		}
		a.Energy = e
	} else {
		s, err := scheme.Lookup(q.Algo)
		if err != nil {
			return nil, fmt.Errorf("%v; or one of %s's literature operations: %s", err, d.Name, strings.Join(opKeys(d), ", "))
		}
		info := s.Info()
		op = Op{Scheme: info.Name, Provider: string(info.Provider), Operation: q.Op, InputBytes: q.InputBytes}
		if q.Reference != nil {
			for _, r := range q.Reference.Results {
				if t := r.Metric("time"); t != nil && strings.EqualFold(r.Subject.Scheme, op.Scheme) && strings.EqualFold(r.Subject.Operation, op.Operation) &&
					(op.InputBytes == 0 || r.Subject.InputBytes == op.InputBytes) {
					op.HostSeconds, op.Env, op.InputBytes = t.Samples, q.Reference.Environment, r.Subject.InputBytes
					break
				}
			}
		}
		var e Energy
		if q.OpTime > 0 {
			e, err = p.priceCost(op, Cost{}, q.OpTime)
		} else {
			e, err = p.OpEnergy(op)
		}
		if err != nil {
			return nil, fmt.Errorf("%w; or give --op-time", err)
		}
		a.Energy = e
	}
	secs := Exact(0)
	if t := a.Energy.Cost.Seconds; t != nil {
		secs = *t
	}
	b := Battery{Device: d, Battery: q.Battery, Period: q.Period, EventJoules: a.Energy.Gross, EventSeconds: secs,
		EventNetJoules: a.Energy.Net}
	if pw := a.Energy.Power; pw != nil && a.Energy.Cost.Seconds != nil {
		b.EventAmps = &pw.Amps // E = V·I·t: the charge is I·t
	}
	life, err := b.Life()
	if err != nil {
		return nil, err
	}
	a.Life = life
	a.Label = energyLabel(a.Energy)
	return a, nil
}

func registryScheme(name string) bool {
	_, err := scheme.Lookup(name)
	return err == nil
}

// literatureCost is a literature operation's own cost.
func literatureCost(o device.Operation) (Cost, error) {
	c := Cost{Rung: Imported, Label: result.Imported, Source: o.Name}
	var parts []string
	if o.Time.Known() {
		t := valueInterval(o.Time, "s")
		c.Seconds = &t
		parts = append(parts, "time "+o.Time.String())
	}
	if o.Energy.Known() {
		e := valueInterval(o.Energy, "J")
		c.Joules = &e
		parts = append(parts, "energy "+o.Energy.String())
	}
	if o.Current.Known() {
		v := o.Current
		c.Current = &v
	}
	if c.Seconds == nil && c.Joules == nil {
		return c, fmt.Errorf("the profile gives no time (%s)", strings.Join(parts, "; "))
	}
	c.Method = o.Name + ": " + strings.Join(parts, ", ")
	return c, nil
}

// priceCost prices a cost already resolved (a literature operation), or a
// time the user gave (--op-time, labelled imported: the user measured it).
func (p *Pricer) priceCost(op Op, c Cost, opTime time.Duration) (Energy, error) {
	if opTime > 0 {
		t := Exact(opTime.Seconds())
		c = Cost{Rung: Imported, Label: result.Imported, Seconds: &t, Source: "given (--op-time)",
			Method: fmt.Sprintf("time/op %v given (--op-time)", opTime), Current: c.Current}
	}
	fixed := *p
	fixed.fixed = &c
	return fixed.OpEnergy(op)
}

func opKeys(d *device.Device) []string {
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

// Sentence is the answer in one sentence, with the lifetime's interval.
func (a *BatteryAnswer) Sentence() string {
	q := a.Query
	battery := ""
	if b := q.Device.Battery; q.Battery != nil || b != nil {
		if q.Battery != nil {
			b = q.Battery
		}
		battery = fmt.Sprintf(" with %s (%s)", b.Chemistry, device.Short(b.Capacity))
	}
	about := ""
	if a.Label == result.Estimated {
		about = "about "
	}
	return fmt.Sprintf("One %s every %s on %s%s lasts %s%s%s; the %s is %.3g %% of the budget (%s).",
		a.Name, FormatPeriod(q.Period), q.Device.Title, battery, about, FormatLifetime(a.Life.Seconds.V), lifeRange(a.Life.Seconds),
		q.Op, 100*a.Life.EventShare.V, a.Label)
}

// lifeRange is a lifetime's interval in words: "(16.5 hours to 21.5
// hours)", or one side only when the other has no bound ("at most 20.6
// hours": a lower-bound time without a current to cap it).
func lifeRange(s Interval) string {
	switch {
	case s.Exact():
		return ""
	case s.Lo <= 0 && math.IsInf(s.Hi, 1):
		return " (no bound either way)"
	case s.Lo <= 0:
		return fmt.Sprintf(" (at most %s)", shortLife(s.Hi))
	case math.IsInf(s.Hi, 1):
		return fmt.Sprintf(" (at least %s)", shortLife(s.Lo))
	}
	return fmt.Sprintf(" (%s to %s)", shortLife(s.Lo), shortLife(s.Hi))
}

func shortLife(s float64) string {
	if math.IsInf(s, 1) {
		return "∞"
	}
	d := s / 86400
	if d >= 1 {
		return fmt.Sprintf("%.0f days", d)
	}
	return fmt.Sprintf("%.1f hours", s/3600)
}

// Details are the arithmetic's lines, each input with its source.
func (a *BatteryAnswer) Details() []string {
	e := a.Energy
	c := e.Cost
	var lines []string
	if c.Seconds != nil {
		lines = append(lines, fmt.Sprintf("time per %s: %s (%s, %s: %s)", a.Query.Op, FormatSeconds(c.Seconds.V)+boundsText(*c.Seconds, FormatSeconds), c.Rung, c.Label, c.Method))
	}
	if e.Power != nil {
		lines = append(lines, fmt.Sprintf("current while it runs: %s (%s)", FormatAmps(e.Power.Amps.V), e.Power.How))
	}
	energyLine := fmt.Sprintf("energy per %s: %s gross (%s)", a.Query.Op, fmtJoules(e.Gross.V)+boundsText(e.Gross, fmtJoules), e.Method)
	if e.Net != nil {
		energyLine += fmt.Sprintf(", %s net of the baseline", fmtJoules(e.Net.V))
	}
	lines = append(lines, energyLine)
	if c.Literature != nil && c.Literature.Energy.Known() {
		lines = append(lines, fmt.Sprintf("measured energy per %s in the literature: %s (imported), against the %s figure %s", a.Query.Op, c.Literature.Energy, c.Rung, fmtJoules(e.Gross.V)))
	}
	l := a.Life
	lines = append(lines,
		fmt.Sprintf("average current: %s over one period of %s", FormatAmps(l.AverageAmps.V), FormatPeriod(a.Query.Period)),
		fmt.Sprintf("lifetime: %s; sleeping only: %s", FormatLifetime(l.Seconds.V)+lifeRange(l.Seconds), FormatLifetime(l.SleepOnlySeconds.V)),
		fmt.Sprintf("operations per full battery doing nothing else: %.4g (whole energy)", l.EventsPerBattery.V),
		"method: "+l.Method+"; charge accounting (mAh ÷ mA, as the studies did); converter losses, self-discharge, radio and sensors are not included",
	)
	if l.EventsPerBatteryNet != nil {
		lines[len(lines)-2] += fmt.Sprintf("; %.4g counting only the energy above the baseline", l.EventsPerBatteryNet.V)
	}
	lines = append(lines, e.Notes...)
	lines = append(lines, l.Notes...)
	return lines
}

func boundsText(i Interval, f func(float64) string) string {
	if i.Exact() {
		return ""
	}
	return " [" + f(i.Lo) + ", " + f(i.Hi) + "]"
}

// Result is the answer as a result for the result formats and the store.
func (a *BatteryAnswer) Result() result.Result {
	q := a.Query
	lbl := a.Label
	e := a.Energy
	src := fmt.Sprintf("%s: %s", e.Cost.Rung, e.Cost.Source)
	r := result.Result{
		Subject: result.Subject{Kind: "battery", Name: fmt.Sprintf("%s/%s/%s/every-%s", q.Device.Name, q.Algo, q.Op, FormatPeriod(q.Period)),
			Scheme: q.Algo, Operation: q.Op,
			Params: map[string]string{"device": q.Device.Name, "algorithm": q.Algo, "operation": q.Op, "period": q.Period.String()}},
		Provenance: result.Provenance{Label: lbl, Method: result.Method{Name: "duty-cycle battery arithmetic"}, Source: q.Device.Source()},
	}
	add := func(m result.Metric, source string) { m.Source = source; r.Metrics = append(r.Metrics, m) }
	l := a.Life
	life := l.Seconds.metric("battery-life", "s", lbl, l.Method, "the inputs' bounds")
	add(life, q.Device.Source())
	add(l.EventShare.Scale(100).metric("op-share", "%", lbl, "the operation's charge per period over all charge per period", "the inputs' bounds"), q.Device.Source())
	add(l.AverageAmps.metric("average-current", "A", lbl, "(E/V + I_sleep·(T − t)) / T", "the inputs' bounds"), q.Device.Source())
	if c := e.Cost.Seconds; c != nil {
		add(c.metric("device-time", "s", e.Cost.Label, e.Cost.Method, e.Cost.BoundsHow), src)
	}
	add(e.Gross.metric("energy", "J", lbl, e.Method, boundsHow(e)), src)
	if e.Net != nil {
		add(e.Net.metric("energy-net", "J", lbl, e.NetMethod, boundsHow(e)), src)
	}
	add(l.EventsPerBattery.metric("ops-per-battery", "ops", lbl, "usable charge / the operation's charge", "the inputs' bounds"), q.Device.Source())
	if n := l.EventsPerBatteryNet; n != nil {
		add(n.metric("ops-per-battery-net", "ops", lbl, "usable charge / the operation's charge above the baseline", "the inputs' bounds"), q.Device.Source())
	}
	if !math.IsInf(l.SleepOnlySeconds.V, 1) {
		add(l.SleepOnlySeconds.metric("battery-life-sleep-only", "s", result.Modelled, "usable charge / sleep current", "the inputs' bounds"), q.Device.Source())
	}
	r.Warnings = append(append(r.Warnings, e.Notes...), l.Notes...)
	return r
}

// FormatPeriod prints a duty-cycle period: "10min", "1h", "30s".
func FormatPeriod(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%dmin", d/time.Minute)
	}
	return d.String()
}

// FormatAmps prints a current with a fitting prefix: "1.8 mA", "5.1 µA".
func FormatAmps(a float64) string {
	switch {
	case a >= 1:
		return fmt.Sprintf("%.4g A", a)
	case a >= 1e-3:
		return fmt.Sprintf("%.4g mA", a*1e3)
	}
	return fmt.Sprintf("%.4g µA", a*1e6)
}

// FormatSeconds prints a time with a fitting prefix.
func FormatSeconds(s float64) string { return result.Display(s, "s") }

func fmtJoules(j float64) string { return result.Display(j, "J") }

// FormatLifetime prints a lifetime: "2107 days (5.8 years)", "20.6 hours".
func FormatLifetime(s float64) string {
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

func lookupScheme(name string) (string, error) {
	s, err := scheme.Lookup(name)
	if err != nil {
		return "", err
	}
	return s.Info().Name, nil
}
