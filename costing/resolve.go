package costing

import (
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// Rung is where a device's figure for an operation came from, in the
// resolver's order of precedence (doc.go).
type Rung int

const (
	Measured Rung = iota
	Simulated
	Calibrated
	Imported
	Estimated
	NotPriced
)

var rungNames = [...]string{"measured on the device", "simulated on the device's microcontroller",
	"calibrated on the device", "imported from the literature", "estimated", "not priced"}

func (r Rung) String() string { return rungNames[r] }

// Label is the result label a figure from this rung carries.
func (r Rung) Label() result.Label {
	switch r {
	case Measured:
		return result.Measured
	case Simulated:
		return result.Simulated
	case Calibrated, Imported:
		return result.Imported
	}
	return result.Estimated
}

// Op is one operation to price: a registry scheme's operation on an input
// of InputBytes, and — when the run timed it — its times on the machine
// that ran the run.
type Op struct {
	Scheme, Provider, Operation string
	InputBytes                  int
	// HostSeconds are seconds per operation measured on the run's machine
	// (nil when the run did not time it); Env is that machine.
	HostSeconds []float64
	Env         result.Environment
}

// Name is "ECDSA-P256-SHA256 sign" or "SHA-256 hash of 1024 B".
func (o Op) Name() string {
	s := o.Scheme + " " + o.Operation
	if o.InputBytes > 0 {
		s += fmt.Sprintf(" of %d B", o.InputBytes)
	}
	return s
}

// Cost is one operation's cost on a device as a rung resolved it: a time,
// an energy, or both (the literature measured both on the device).
type Cost struct {
	Rung  Rung
	Label result.Label
	// Seconds is the time per operation on the device (nil when the rung
	// gives an energy only, as S000's per-byte figures do); Samples are its
	// per-sample values in seconds, when it has them.
	Seconds *Interval
	Samples []float64
	// Joules is the energy per operation the rung gives directly
	// (imported: measured on the device); nil: E = V·I·t prices it.
	Joules *Interval
	// Current is the current while the operation runs, when the source
	// gives one for the operation (S001's signing currents), in amperes.
	Current *device.Value
	// Source is who measured or said it; Method the derivation, with its
	// numbers, so it can be recomputed by hand; BoundsHow where the
	// interval comes from.
	Source, Method, BoundsHow string
	// Literature is the device's own figure for this operation, when the
	// profile has one the resolver did not use, to set beside it.
	Literature *device.Operation
}

// Pricer prices work on one device.
type Pricer struct {
	Device *device.Device
	// OnDevice says the run being priced was made on the device itself.
	OnDevice bool
	// Calibration holds times cryptocost measured on the device earlier.
	Calibration *Calibration
	// NoEstimates refuses the estimated rung.
	NoEstimates bool
	// Reference is the run being priced, for the calibrated-ratio rule
	// (its other operations measured both here and in the calibration).
	Reference *result.Run

	// Speed, when positive, is the user's assumption that the device takes
	// Speed times this machine's time (remote-sign's --signer-speed): an
	// explicit override of the resolver, labelled estimated.
	Speed float64

	// fixed is a cost resolved elsewhere (a literature operation named by
	// its key, a time the user gave), used instead of the rungs.
	fixed *Cost
	// recordInputs: the data files a figure is read from are added to
	// Reference's inputs (Price sets it: the run is the one priced).
	recordInputs bool
}

// NotPricedError says why an operation has no figure on a device and what
// would give it one.
type NotPricedError struct {
	Device string
	What   string
	Why    []string
	Would  []string
}

func (e *NotPricedError) Error() string {
	s := fmt.Sprintf("not priced: %s on %s: %s", e.What, e.Device, strings.Join(e.Why, "; "))
	if len(e.Would) > 0 {
		s += "; what would price it: " + strings.Join(e.Would, ", or ")
	}
	return s
}

// source is one rung of the resolver.
type source interface {
	rung() Rung
	// resolve returns the cost, or why this rung has none.
	resolve(p *Pricer, op Op) (Cost, error)
}

// rungs in precedence order: the registry of time sources.
var rungs = []source{measuredRung{}, simulatedRung{}, calibratedRung{}, importedRung{}, estimatedRung{}}

// Resolve finds op's cost on p.Device from the first rung that has it.
func (p *Pricer) Resolve(op Op) (Cost, error) {
	if p.fixed != nil {
		return *p.fixed, nil
	}
	if p.Speed > 0 && len(op.HostSeconds) > 0 {
		here := stats.Summarize(op.HostSeconds).Median
		t := Exact(here * p.Speed)
		samples := make([]float64, len(op.HostSeconds))
		for i, v := range op.HostSeconds {
			samples[i] = v * p.Speed
		}
		return Cost{Rung: Estimated, Label: result.Estimated, Seconds: &t, Samples: samples, Source: "given speed",
			Method: fmt.Sprintf("%.4g s here × %g (the assumption given that %s takes %g times this machine's time)", here, p.Speed, p.Device.Name, p.Speed)}, nil
	}
	var why []string
	for _, s := range rungs {
		if s.rung() == Estimated && p.NoEstimates {
			why = append(why, "estimates refused (--no-estimates)")
			continue
		}
		c, err := s.resolve(p, op)
		if err == nil {
			c.Rung = s.rung()
			if c.Label == "" {
				c.Label = c.Rung.Label()
			}
			if c.Literature == nil && c.Rung != Imported {
				if lit, _, ok := p.literature(op); ok {
					c.Literature = &lit
				}
			}
			return c, nil
		}
		why = append(why, s.rung().String()+": "+err.Error())
	}
	return Cost{Rung: NotPriced}, &NotPricedError{Device: p.Device.Name, What: op.Name(), Why: why, Would: p.wouldPrice(op)}
}

// wouldPrice is what the user can do about an unpriced operation.
func (p *Pricer) wouldPrice(op Op) []string {
	d := p.Device
	var out []string
	if len(d.CPU.GOARCH) > 0 {
		out = append(out, fmt.Sprintf("run cryptocost on %s (--on-device) or calibrate it (cryptocost calibrate --device %s)", d.Name, d.Name))
	}
	if d.Simulation == nil {
		out = append(out, "a simulated target for its CPU (simulation: in the profile)")
	}
	out = append(out, fmt.Sprintf("a literature figure for %s %s in a profile of your own (--device-file)", op.Scheme, op.Operation))
	return out
}

// literature returns the device's own literature figure for op, if any:
// one for exactly this registry scheme and operation, else — from a
// profile entry that names no scheme (S003's "RSA-2048 verify") — one of
// the same family, key size and operation, the study's implementation;
// exact says which.
func (p *Pricer) literature(op Op) (o device.Operation, exact, ok bool) {
	has := func(o device.Operation) bool {
		return (o.Time.Known() || o.Energy.Known() || o.EnergyPerByte.Known()) && (o.InputBytes == 0 || o.InputBytes == op.InputBytes)
	}
	for _, o := range p.Device.Operations {
		if o.Covers(op.Scheme, op.Operation) && has(o) {
			return o, true, true
		}
	}
	family, bits := KeySize(op.Scheme)
	if family == "" {
		return device.Operation{}, false, false
	}
	for _, o := range p.Device.OperationsFor(family, op.Operation) {
		if o.Scheme == "" && len(o.Schemes) == 0 && o.Bits == bits && has(o) {
			return o, false, true
		}
	}
	return device.Operation{}, false, false
}

// measuredRung: the run was made on the device.
type measuredRung struct{}

func (measuredRung) rung() Rung { return Measured }

func (measuredRung) resolve(p *Pricer, op Op) (Cost, error) {
	switch {
	case !p.OnDevice && !p.Device.Host:
		return Cost{}, fmt.Errorf("the run was made on another machine")
	case len(op.HostSeconds) == 0:
		return Cost{}, fmt.Errorf("the run did not time it")
	}
	t, how := sampleInterval(op.HostSeconds)
	return Cost{Seconds: &t, Samples: op.HostSeconds, Source: "this run, on " + p.Device.Name,
		Method: fmt.Sprintf("median of %d times measured on %s in this run", len(op.HostSeconds), p.Device.Name), BoundsHow: how}, nil
}

// sampleInterval is a sample's median with its 95 % CI (the interval is
// the sample's range when it is too small for a CI).
func sampleInterval(s []float64) (Interval, string) {
	sum := stats.Summarize(s)
	if sum.N >= stats.MinSamplesForCI {
		return Span(sum.Median, sum.CILow, sum.CIHigh), "the 95 % confidence interval of the median"
	}
	if sum.N > 1 {
		return Span(sum.Median, sum.Min, sum.Max), fmt.Sprintf("the range of %d samples (too few for a confidence interval)", sum.N)
	}
	return Exact(sum.Median), ""
}

// calibratedRung: cryptocost ran on the device and calibrate stored it.
type calibratedRung struct{}

func (calibratedRung) rung() Rung { return Calibrated }

func (calibratedRung) resolve(p *Pricer, op Op) (Cost, error) {
	c := p.Calibration
	if c == nil {
		if len(p.Device.CPU.GOARCH) == 0 {
			return Cost{}, fmt.Errorf("cryptocost does not run on %s (%s)", p.Device.Name, p.Device.CPU.Arch)
		}
		return Cost{}, fmt.Errorf("no calibration (cryptocost calibrate --device %s)", p.Device.Name)
	}
	e := c.Find(op)
	if e == nil {
		return Cost{}, fmt.Errorf("the calibration of run %s has no %s", c.RunID, op.Name())
	}
	var t Interval
	var how string
	samples := make([]float64, len(e.Samples))
	for i, v := range e.Samples {
		samples[i] = v * 1e-9
	}
	if len(samples) > 0 {
		t, how = sampleInterval(samples)
	} else {
		t = Exact(e.MedianNs * 1e-9)
	}
	p.used(c.input())
	return Cost{Seconds: &t, Samples: samples, Source: fmt.Sprintf("calibration of %s (run %s, %s)", p.Device.Name, c.RunID, c.Source),
		Method: fmt.Sprintf("time/op of %s measured by cryptocost on %s", e.Subject, p.Device.Name), BoundsHow: how}, nil
}

// importedRung: the literature measured exactly this on the device.
type importedRung struct{}

func (importedRung) rung() Rung { return Imported }

func (importedRung) resolve(p *Pricer, op Op) (Cost, error) {
	o, exact, ok := p.literature(op)
	if !ok {
		return Cost{}, fmt.Errorf("the profile has no figure for %s %s", op.Scheme, op.Operation)
	}
	c := Cost{Source: o.Name}
	var parts []string
	if o.Time.Known() {
		t := valueInterval(o.Time, "s")
		c.Seconds = &t
		parts = append(parts, "time "+o.Time.String())
	}
	switch {
	case o.Energy.Known():
		e := valueInterval(o.Energy, "J")
		c.Joules = &e
		parts = append(parts, "energy "+o.Energy.String())
	case o.EnergyPerByte.Known():
		if op.InputBytes <= 0 {
			return Cost{}, fmt.Errorf("%s gives energy per byte and %s has no input size", o.Name, op.Name())
		}
		per := valueInterval(o.EnergyPerByte, "J/B")
		e := per.Scale(float64(op.InputBytes))
		c.Joules = &e
		parts = append(parts, fmt.Sprintf("%s × %d B", o.EnergyPerByte, op.InputBytes))
	}
	if o.Current.Known() {
		v := o.Current
		c.Current = &v
	}
	if c.Seconds == nil && c.Joules == nil {
		return Cost{}, fmt.Errorf("%s has neither a time nor an energy", o.Name)
	}
	c.Method = o.Name + ": " + strings.Join(parts, ", ")
	if !exact {
		impl := o.Implementation
		if impl == "" {
			impl = "the study's own"
		}
		c.Method += fmt.Sprintf("; the same family, key size and operation as %s, in %s implementation", op.Scheme, impl)
	}
	return c, nil
}

// valueInterval is a profile value in unit, with its range when it has one.
func valueInterval(v device.Value, unit string) Interval {
	x := v.MustIn(unit)
	lo, hi := v.RangeIn(unit)
	return Span(x, lo, hi)
}
