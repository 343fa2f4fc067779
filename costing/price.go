package costing

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// Options say what a run is priced on.
type Options struct {
	Device *device.Device
	// OnDevice says the run was made on the device itself.
	OnDevice    bool
	Calibration *Calibration
	NoEstimates bool
	// Speed assumes the device takes Speed times this machine's time
	// (an explicit override: remote-sign's --signer-speed).
	Speed float64
	// Link is the link the run's traces crossed (nil: the traces' own
	// link names, if any); Radio names a radio profile to price them on
	// instead of the device's (RadioFor).
	Link  *link.Profile
	Radio string
	// Period, when positive, adds the battery life at one subject (one
	// reading, one signature) per Period; a result's "interval" param
	// gives its own.
	Period time.Duration
	// References names an operation whose literature figures on the
	// device (CurrentReferences) are added to the run as results of
	// their own ("sign": S001's signing currents).
	References string
}

// Price adds, to every result of run that has something to price, the
// device's time and energy for it: a primitive's operation, the work a
// runner recorded (per component, per session), the radio energy of its
// packet trace on the link's radio, and the battery life when a period is
// given. What cannot be priced becomes a warning that says why and what
// would price it — never a zero. Run.Environment.Device names the device.
//
// The error is for options that price nothing at all (a device without a
// supply voltage, a radio the link cannot use), returned before any
// result changes.
func Price(run *result.Run, opt Options) error {
	d := opt.Device
	if d == nil {
		return fmt.Errorf("no device to price on: give --device NAME (cryptocost devices lists them) or --device-file FILE")
	}
	if err := CheckDevice(d); err != nil {
		return err
	}
	if opt.OnDevice && !d.Host && run.Environment.Arch != "" && !d.RunsGo(run.Environment.Arch) {
		return fmt.Errorf("the run was measured on %s, which cannot be %s (%s): drop --on-device to price it as a run made elsewhere", run.Environment.Arch, d.Name, d.CPU.Arch)
	}
	p := &Pricer{Device: d, OnDevice: opt.OnDevice || d.Host, Calibration: opt.Calibration, NoEstimates: opt.NoEstimates, Reference: run, Speed: opt.Speed,
		recordInputs: true}
	var rp *radio.Profile
	if opt.Link != nil || opt.Radio != "" {
		var err error
		if rp, err = RadioFor(d, opt.Link, opt.Radio); err != nil {
			return err
		}
	}
	run.Environment.Device = d.Name
	if in := DeviceInput(d); in != nil {
		run.AddInput(*in)
	}
	for i := range run.Results {
		r := &run.Results[i]
		if r.Error != "" {
			continue
		}
		pr := &resultPricer{p: p, r: r, env: run.Environment, radio: rp, opt: opt}
		pr.price()
	}
	if opt.References != "" {
		run.Results = append(run.Results, CurrentReferences(d, opt.References)...)
	}
	return nil
}

// CheckDevice says whether anything can be priced on d: a device with no
// known supply voltage gives no joule at all. Commands call it before any
// work; Price calls it too.
func CheckDevice(d *device.Device) error {
	if !d.Supply.Voltage.Known() {
		return fmt.Errorf("cannot price energy on %s: %s's supply voltage is %s: give a profile that has one (--device-file FILE; docs/energy.md)", d.Name, d.Name, d.Supply.Voltage)
	}
	return nil
}

// PriceTraffic prices only the packet traces of run's results, on the
// radio RadioFor gives the link (or the named radio) without a device: the
// probe's --link without --device. Nothing else is priced, and each priced
// result says so.
func PriceTraffic(run *result.Run, l *link.Profile, radioName string) error {
	rp, err := RadioFor(nil, l, radioName)
	if err != nil {
		return err
	}
	if rp == nil {
		return fmt.Errorf("%s is a wired link: no radio prices its traffic", l.Name)
	}
	p := &Pricer{Reference: run, recordInputs: true}
	for i := range run.Results {
		r := &run.Results[i]
		if r.Error != "" || r.Trace == nil || len(r.Trace.Packets) == 0 {
			continue
		}
		x := &resultPricer{p: p, r: r, env: run.Environment, radio: rp}
		x.trace()
		if len(x.parts) > 0 {
			x.warn(fmt.Errorf("no device: only the traffic is priced (energy/radio on radio profile %s); give --device for the rest", rp.Name))
		}
	}
	return nil
}

// resultPricer prices one result.
type resultPricer struct {
	p     *Pricer
	r     *result.Result
	env   result.Environment
	radio *radio.Profile
	opt   Options
	// parts are the per-subject energies priced so far, by name, for the
	// total; missing names the parts that could not be priced.
	parts   []part
	missing []string
	// scoped are the energies per session or registration, by scope;
	// activeSeconds the device's busy time per subject (CPU and radio),
	// for the battery arithmetic.
	scoped        map[string]Interval
	activeSeconds Interval
	radioSleep    string
	// radioPriced: the traffic was priced on a radio (per subject or
	// per scope).
	radioPriced bool
}

type part struct {
	name   string
	joules Interval
	// net is joules net of the baseline (the radio's is all of it); nil
	// when the device has no baseline.
	net   *Interval
	label result.Label
}

func (x *resultPricer) price() {
	r := x.r
	switch {
	case r.Subject.Kind == "primitive" && r.Metric("time") != nil:
		x.primitive()
	case r.Subject.Kind == "mcu" && r.Metric("time") != nil:
		x.simulatedRun()
	}
	if len(r.Work) > 0 {
		x.work()
	}
	missing := len(x.missing)
	switch {
	case len(r.TraceParts) > 0:
		x.traceParts()
	case r.Trace != nil && len(r.Trace.Packets) > 0:
		x.trace()
	}
	if hasTraffic(r) && !x.radioPriced && len(x.missing) == missing {
		// Traffic that crossed no radio (loopback, a wired link): a total
		// without its radio would look whole and is not.
		x.warn(fmt.Errorf("radio not priced: the traffic crossed no radio link%s, or --radio NAME", radioAdvice(x.p.Device)))
		x.missing = append(x.missing, "radio")
	}
	switch {
	case len(r.Work) > 0 || len(r.TraceParts) > 0:
		x.total()
	case len(x.parts) > 0:
		// Traffic alone (a probed handshake): its runner recorded no
		// CPU work, so no total is claimed.
		x.warn(fmt.Errorf("no total energy: only the traffic is priced (energy/radio); the run records no CPU work to price"))
	}
	if r.Model != nil {
		x.modelPoint()
	}
}

// trust orders labels from the most certain; a sum is as certain as its
// least certain term.
var trust = map[result.Label]int{result.Measured: 0, result.Simulated: 1, result.Imported: 2, result.Modelled: 3, result.Estimated: 4}

func weakest(a, b result.Label) result.Label {
	if a == "" || trust[b] > trust[a] {
		return b
	}
	return a
}

// hasTraffic: the result carries packet traces to price.
func hasTraffic(r *result.Result) bool {
	if r.Trace != nil && len(r.Trace.Packets) > 0 {
		return true
	}
	for _, tp := range r.TraceParts {
		for _, t := range tp.Traces {
			if t != nil && len(t.Packets) > 0 {
				return true
			}
		}
	}
	return false
}

// add appends a metric priced on the device, with its source.
func (x *resultPricer) add(m result.Metric, source string) {
	m.Source = source
	x.r.Metrics = append(x.r.Metrics, m)
}

func (x *resultPricer) warn(err error) {
	x.r.Warnings = append(x.r.Warnings, err.Error())
}

// primitive prices a bench result: the subject's own operation.
func (x *resultPricer) primitive() {
	r := x.r
	t := r.Metric("time")
	op := Op{Scheme: r.Subject.Scheme, Provider: r.Subject.Provider, Operation: r.Subject.Operation, InputBytes: r.Subject.InputBytes,
		HostSeconds: t.Samples, Env: x.env}
	if len(op.HostSeconds) == 0 {
		op.HostSeconds = []float64{t.Summary.Median}
	}
	e, err := x.p.OpEnergy(op)
	if err != nil {
		x.warn(err)
		return
	}
	x.opMetrics(e, "", r.Subject.InputBytes > 0 && r.Subject.Params["input"] == "bulk", r.Subject.InputBytes)
}

// opMetrics adds one operation's figures: device-time (unless the run is
// the device's own), energy, energy-net, per byte, current and power.
func (x *resultPricer) opMetrics(e Energy, prefix string, bulk bool, bytes int) {
	c := e.Cost
	src := fmt.Sprintf("%s: %s", c.Rung, c.Source)
	if c.Seconds != nil && c.Rung != Measured {
		m := c.Seconds.metric(prefix+"device-time", "s", c.Label, c.Method, c.BoundsHow)
		if len(c.Samples) > 1 {
			m.Samples = c.Samples
		}
		x.add(m, src)
	}
	label := energyLabel(e)
	x.add(e.Gross.metric(prefix+"energy", "J", label, e.Method, boundsHow(e)), src)
	if e.Net != nil {
		x.add(e.Net.metric(prefix+"energy-net", "J", label, e.NetMethod, boundsHow(e)), src)
	}
	if bulk && bytes > 0 {
		x.add(e.Gross.Scale(1/float64(bytes)).metric(prefix+"energy-per-byte", "J/B", label, e.Method+" / input bytes", boundsHow(e)), src)
		if e.Net != nil {
			x.add(e.Net.Scale(1/float64(bytes)).metric(prefix+"energy-net-per-byte", "J/B", label, e.NetMethod+" / input bytes", boundsHow(e)), src)
		}
	}
	if pw := e.Power; pw != nil {
		curLabel := result.Modelled
		if pw.OwnCurrent {
			curLabel = result.Imported
		}
		x.add(pw.Amps.metric(prefix+"current", "A", curLabel, "average current while the operation runs on "+x.p.Device.Name+": "+pw.How, "the profile's range"), x.p.Device.Source())
		x.add(pw.Watts.metric(prefix+"power", "W", curLabel, "P = "+pw.How, "the profile's ranges"), x.p.Device.Source())
	}
	x.r.Warnings = append(x.r.Warnings, e.Notes...)
}

// energyLabel: the literature's measured energy is imported; E = V·I·t is
// modelled from a time measured, simulated, calibrated or imported, and
// estimated from an estimated time.
func energyLabel(e Energy) result.Label {
	switch {
	case e.Cost.Label == result.Estimated:
		return result.Estimated
	case e.Power == nil:
		return result.Imported
	}
	return result.Modelled
}

func boundsHow(e Energy) string {
	var parts []string
	if e.Cost.BoundsHow != "" {
		parts = append(parts, "time: "+e.Cost.BoundsHow)
	}
	if e.Power != nil && (!e.Power.Volts.Exact() || !e.Power.Amps.Exact()) {
		parts = append(parts, "the profile's voltage and current ranges")
	}
	return strings.Join(parts, "; ")
}

// simulatedRun prices an mcu run: its times are a target's; they are the
// device's when the device's profile names that target.
func (x *resultPricer) simulatedRun() {
	r, d := x.r, x.p.Device
	target := r.Subject.Params["target"]
	if d.Simulation == nil || !strings.EqualFold(d.Simulation.Target, target) {
		have := "names no simulated target"
		if d.Simulation != nil {
			have = "is simulated as " + d.Simulation.Target
		}
		x.warn(fmt.Errorf("not priced: this run simulated %s and %s %s; what would price it: a device whose profile names simulation target %s (arduino-uno for atmega328p)", target, d.Name, have, target))
		return
	}
	t := r.Metric("time")
	secs, how := sampleInterval(append([]float64(nil), t.Samples...))
	if len(t.Samples) == 0 {
		secs = Exact(t.Summary.Median)
	}
	// QEMU's cycles are estimated from exact instruction counts by a
	// cycle rule: the time is as estimated as they are (the run's own
	// label), and its interval the rule's low and high ends.
	label, what := t.Label, "the time this run simulated"
	if label != result.Simulated {
		what = "the time this run estimated from its simulated instructions (" + t.Method + ")"
	}
	lo, hi := r.Metric("cycles-min"), r.Metric("cycles-max")
	if clock, err := strconv.ParseFloat(r.Subject.Params["clock_hz"], 64); err == nil && clock > 0 && lo != nil && hi != nil {
		secs = Span(secs.V, lo.Summary.Median/clock, hi.Summary.Median/clock)
		how = "the cycle rule's low and high ends (cycles-min, cycles-max ÷ the clock)"
	}
	pw, err := PowerFor(d, Op{Scheme: r.Subject.Scheme, Operation: r.Subject.Operation}, nil)
	if err != nil {
		x.warn(&NotPricedError{Device: d.Name, What: r.Subject.Name, Why: []string{err.Error()}})
		return
	}
	c := Cost{Rung: Simulated, Label: label, Seconds: &secs, Source: target + " simulation (this run)",
		Method: what, BoundsHow: how}
	e := Energy{Cost: c, Power: &pw, Gross: pw.Watts.Mul(secs), Method: fmt.Sprintf("E = V·I·t: %s × the simulated time", pw.How)}
	if net, netHow, ok := x.p.netEnergy(pw, secs); ok {
		e.Net, e.NetMethod = &net, e.Method+" − "+netHow+" × the simulated time"
	}
	x.opMetrics(e, "", false, 0)
}

// work prices the work a runner recorded, per component and per scope
// (the subject, or Per: a session, a registration).
func (x *resultPricer) work() {
	type key struct{ per, component string }
	sums := map[key]*part{}
	var order []key
	failed := map[key]bool{}
	why := map[key][]error{} // each failed operation, said unless a residual prices its component
	noNet := map[key]bool{}
	var seconds Interval
	timeKnown := true
	timeLabel := result.Label("")
	for _, w := range x.r.Work {
		k := key{w.Per, cmpOr(w.Component, "cpu")}
		if _, ok := sums[k]; !ok {
			sums[k] = &part{name: k.component, label: result.Modelled}
			order = append(order, k)
		}
		op := Op{Scheme: w.Scheme, Provider: w.Provider, Operation: w.Operation, InputBytes: w.InputBytes, Env: x.env}
		for _, ns := range w.HostNs {
			op.HostSeconds = append(op.HostSeconds, ns*1e-9)
		}
		e, err := x.p.OpEnergy(op)
		if err != nil {
			failed[k] = true
			why[k] = append(why[k], fmt.Errorf("%s %s (%s): %w", k.component, scopeName(k.per), w.Party, err))
			continue
		}
		x.opFigures(w, e)
		sums[k].joules = sums[k].joules.Add(e.Gross.Scale(w.Count))
		switch {
		case e.Net == nil:
			noNet[k] = true
		case sums[k].net == nil:
			n := e.Net.Scale(w.Count)
			sums[k].net = &n
		default:
			n := sums[k].net.Add(e.Net.Scale(w.Count))
			sums[k].net = &n
		}
		if l := energyLabel(e); l == result.Estimated || w.CountLabel == result.Estimated {
			sums[k].label = result.Estimated
		} else if l == result.Imported && sums[k].label != result.Estimated {
			sums[k].label = result.Imported
		}
		if w.Per == "" {
			if e.Cost.Seconds != nil {
				seconds = seconds.Add(e.Cost.Seconds.Scale(w.Count))
				timeLabel = weakest(timeLabel, e.Cost.Label)
				if w.CountLabel != "" {
					timeLabel = weakest(timeLabel, w.CountLabel) // the count is a factor too
				}
			} else {
				timeKnown = false
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].per < order[j].per })
	methods := map[key]string{}
	var failedSubject []string
	for _, k := range order {
		if failed[k] && k.per == "" {
			failedSubject = append(failedSubject, k.component)
		}
	}
	if len(failedSubject) == 1 {
		k := key{"", failedSubject[0]}
		var others []part
		for _, o := range order {
			if o.per == "" && o != k {
				others = append(others, *sums[o])
			}
		}
		if j, method, ok := x.residual(k.component, others); ok {
			failed[k], noNet[k] = false, true
			sums[k].joules, sums[k].label, methods[k] = j, result.Estimated, method
			timeKnown = false // the residual is an energy without a time
			x.warn(fmt.Errorf("%s per subject: priced by difference: %s", k.component, method))
		}
	}
	for _, k := range order {
		if failed[k] {
			for _, err := range why[k] {
				x.warn(err)
			}
			x.missing = append(x.missing, k.component+" "+scopeName(k.per))
			continue
		}
		s := sums[k]
		name := "energy/" + k.component
		if k.per != "" {
			name = k.per + "-energy/" + k.component
		}
		method := methods[k]
		if method == "" {
			method = x.workMethod(k.per, k.component)
		}
		x.add(s.joules.metric(name, "J", s.label, method, "the priced operations' bounds"), x.p.Device.Source())
		if noNet[k] {
			s.net = nil
		}
		if s.net != nil && k.per == "" {
			x.add(s.net.metric("energy-net/"+k.component, "J", s.label, "the same net of the baseline", "the priced operations' bounds"), x.p.Device.Source())
		}
		if k.per == "" {
			x.parts = append(x.parts, *s)
		} else {
			x.addScoped(k.per, s.joules)
		}
	}
	if timeKnown && seconds.V > 0 && len(failed) == 0 {
		x.add(seconds.metric("device-time", "s", timeLabel, "Σ count × device time of each operation of the subject's work (the CPU only; labelled as the least certain of them)", ""), x.p.Device.Source())
		x.activeSeconds = x.activeSeconds.Add(seconds)
	}
}

// residual prices component by difference when the device's profile has a
// whole measured energy for a run like this one (S000's handshake energy
// for a TLS 1.0 suite, with or without client authentication): the whole,
// less the operations the study took off as other parts (the plain TCP
// connection), less the components priced (others). The answer is an
// estimate, and says every number it used.
func (x *resultPricer) residual(component string, others []part) (Interval, string, bool) {
	d := x.p.Device
	for _, o := range d.Residuals() {
		r := o.Residual
		if r.Component != component || !x.matches(r.Match) {
			continue
		}
		whole := valueInterval(o.Energy, "J")
		j := whole
		terms := []string{fmt.Sprintf("%s %s", o.Name, o.Energy)}
		for _, m := range r.Minus {
			mo := d.Operation(m)
			j = j.Sub(valueInterval(mo.Energy, "J"))
			terms = append(terms, fmt.Sprintf("%s %s", mo.Name, mo.Energy))
		}
		for _, p := range others {
			j = j.Sub(p.joules)
			terms = append(terms, fmt.Sprintf("%s %s (%s)", p.name, fmtJoules(p.joules.V), p.label))
		}
		if j.V <= 0 {
			x.warn(fmt.Errorf("%s: %s leaves nothing for %s once the other parts are taken off (%s)", d.Name, o.Name, component, strings.Join(terms, " − ")))
			return Interval{}, "", false
		}
		j.Lo = math.Max(j.Lo, 0)
		return j, fmt.Sprintf("%s's split of a whole measured energy: %s = %s", d.Name, strings.Join(terms, " − "), fmtJoules(j.V)), true
	}
	return Interval{}, "", false
}

// matches: the result's subject has every parameter of match.
func (x *resultPricer) matches(match map[string]string) bool {
	for k, v := range match {
		if x.r.Subject.Params[k] != v {
			return false
		}
	}
	return true
}

// opFigures adds one operation's own time and energy on the device, once
// per scheme and operation: op-device-time/SCHEME/OP, op-energy/SCHEME/OP
// (S003 reports its verification's 5919 ms and 17.72 mJ on the mote).
func (x *resultPricer) opFigures(w result.Work, e Energy) {
	key := w.Scheme + "/" + w.Operation
	if x.r.Metric("op-energy/"+key) != nil {
		return
	}
	src := fmt.Sprintf("%s: %s", e.Cost.Rung, e.Cost.Source)
	if c := e.Cost.Seconds; c != nil {
		x.add(c.metric("op-device-time/"+key, "s", e.Cost.Label, e.Cost.Method, e.Cost.BoundsHow), src)
	}
	x.add(e.Gross.metric("op-energy/"+key, "J", energyLabel(e), e.Method, boundsHow(e)), src)
	if pw := e.Power; pw != nil {
		l := result.Modelled
		if pw.OwnCurrent {
			l = result.Imported
		}
		x.add(pw.Amps.metric("op-current/"+key, "A", l, pw.How, "the profile's range"), x.p.Device.Source())
	}
}

// workMethod lists the operations of one component and scope.
func (x *resultPricer) workMethod(per, component string) string {
	var ops []string
	for _, w := range x.r.Work {
		if w.Per != per || cmpOr(w.Component, "cpu") != component {
			continue
		}
		s := fmt.Sprintf("%g × %s %s", w.Count, w.Scheme, w.Operation)
		if w.InputBytes > 0 {
			s += fmt.Sprintf(" of %d B", w.InputBytes)
		}
		if w.Party != "" {
			s += " (" + w.Party + ")"
		}
		ops = append(ops, s)
	}
	return "Σ count × energy on " + x.p.Device.Name + ": " + strings.Join(ops, " + ")
}

func scopeName(per string) string {
	if per == "" {
		return "per subject"
	}
	return "per " + per
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (x *resultPricer) addScoped(per string, j Interval) {
	if x.scoped == nil {
		x.scoped = map[string]Interval{}
	}
	x.scoped[per] = x.scoped[per].Add(j)
}

// radioFor is the radio the result's trace is priced on: the options',
// else the one the trace's own link and the device imply.
func (x *resultPricer) radioFor() *radio.Profile {
	if x.radio != nil {
		return x.radio
	}
	name := ""
	if x.r.Trace != nil {
		name = x.r.Trace.Link
	}
	for _, tp := range x.r.TraceParts {
		for _, t := range tp.Traces {
			if name == "" && t != nil {
				name = t.Link
			}
		}
	}
	if name == "" {
		return nil
	}
	l, err := link.Lookup(name)
	if err != nil || l.Technology == "" {
		return nil
	}
	rp, err := RadioFor(x.p.Device, &l, "")
	if err != nil {
		return nil
	}
	return rp
}

// trace prices the result's packet trace on the radio.
func (x *resultPricer) trace() {
	rp := x.radioFor()
	if rp == nil {
		if x.r.Trace.Link != "" {
			l, err := link.Lookup(x.r.Trace.Link)
			if err == nil && l.Technology != "" {
				if _, err := RadioFor(x.p.Device, &l, ""); err != nil {
					x.warn(fmt.Errorf("not priced: the radio of link %s on %s: %w", l.Name, x.p.Device.Name, err))
					x.missing = append(x.missing, "radio")
				}
			}
		}
		return
	}
	re, err := PriceTrace(rp, x.r.Trace)
	if err != nil {
		x.warn(fmt.Errorf("not priced: radio: %w", err))
		x.missing = append(x.missing, "radio")
		return
	}
	x.p.used(radioInput(rp))
	x.add(re.Joules.metric("energy/radio", "J", result.Modelled, re.Method, ""), "radio profile "+rp.Name)
	j := re.Joules
	x.parts = append(x.parts, part{name: "radio", joules: j, net: &j, label: result.Modelled})
	x.radioPriced = true
}

// traceParts prices each part of the subject's traffic apart: the mean
// over a part's traces per subject, the sum per session or registration.
func (x *resultPricer) traceParts() {
	rp := x.radioFor()
	if rp == nil {
		if x.r.Trace != nil {
			x.trace() // says why, when a link was named
		}
		return
	}
	x.radioSleep, x.radioPriced = rp.Name, true
	x.p.used(radioInput(rp))
	for _, tp := range x.r.TraceParts {
		var sum, secs Interval
		for i, t := range tp.Traces {
			if t == nil || len(t.Packets) == 0 {
				continue
			}
			re, err := PriceTrace(rp, t)
			if err != nil {
				x.warn(fmt.Errorf("not priced: radio: %w", err))
				x.missing = append(x.missing, "radio")
				return
			}
			sum = sum.Add(re.Joules)
			secs = secs.Add(Exact((re.Breakdown.End - re.Breakdown.Start).Seconds()))
			if i < len(tp.Minus) && tp.Minus[i] != nil && len(tp.Minus[i].Packets) > 0 {
				less, err := PriceTrace(rp, tp.Minus[i])
				if err != nil {
					x.warn(fmt.Errorf("not priced: radio: %w", err))
					x.missing = append(x.missing, "radio")
					return
				}
				sum = sum.Sub(less.Joules)
			}
		}
		spans := tp.Spans
		if spans <= 0 {
			spans = 1
		}
		method := fmt.Sprintf("%s; %s", rp.Method(), cmpOr(tp.Method, "each trace priced alone"))
		if tp.Per == "" {
			n := float64(len(tp.Traces)) * spans
			if n == 0 {
				continue
			}
			e := sum.Scale(1 / n)
			x.add(e.metric("energy/radio", "J", result.Modelled, method+fmt.Sprintf(", the mean per subject over %d traces", len(tp.Traces)), ""), "radio profile "+rp.Name)
			x.parts = append(x.parts, part{name: "radio", joules: e, net: &e, label: result.Modelled})
			x.activeSeconds = x.activeSeconds.Add(secs.Scale(1 / n))
			continue
		}
		x.add(sum.metric(tp.Per+"-energy/radio", "J", result.Modelled, method, ""), "radio profile "+rp.Name)
		x.addScoped(tp.Per, sum)
	}
}

// total adds the subject's energy over its priced parts, or says which
// part is missing; then what it amortises to, what a battery pays for and,
// with a period, how long the battery lasts.
func (x *resultPricer) total() {
	if len(x.missing) > 0 {
		x.warn(fmt.Errorf("no total energy on %s: %s not priced (see the warnings above)", x.p.Device.Name, strings.Join(x.missing, ", ")))
		return
	}
	if len(x.parts) == 0 || x.r.Metric("energy") != nil {
		return
	}
	var sum Interval
	label := result.Modelled
	var names []string
	for _, p := range x.parts {
		sum = sum.Add(p.joules)
		names = append(names, "energy/"+p.name)
		if p.label == result.Estimated {
			label = result.Estimated
		}
	}
	src := x.p.Device.Source()
	x.add(sum.metric("energy", "J", label, strings.Join(names, " + "), "the parts' bounds"), src)
	var net *Interval
	for i, p := range x.parts {
		if p.net == nil {
			net = nil
			break
		}
		if i == 0 {
			n := *p.net
			net = &n
		} else {
			n := net.Add(*p.net)
			net = &n
		}
	}
	if net != nil {
		x.add(net.metric("energy-net", "J", label, "the parts net of the device's baseline (the radio's is all its own)", "the parts' bounds"), src)
	}
	event, eventHow := sum, "energy"
	if n, err := strconv.ParseFloat(x.r.Subject.Params["amortise_over"], 64); err == nil && n > 0 && x.scoped["session"].V != 0 {
		event = sum.Add(x.scoped["session"].Scale(1 / n))
		eventHow = fmt.Sprintf("energy + session-energy / %g subjects", n)
		x.add(event.metric("amortised-energy", "J", label, eventHow, "the parts' bounds"), src)
	}
	d := x.p.Device
	if d.Battery != nil {
		if q, qHow, err := UsableCharge(d.Battery); err == nil && d.Supply.Voltage.Known() {
			v := valueInterval(d.Supply.Voltage, "V")
			charge := Interval{event.V / v.V, event.Lo / v.Hi, event.Hi / v.Lo}
			x.add(q.Div(charge).metric("ops-per-battery", "ops", label,
				fmt.Sprintf("usable charge / the subject's charge = %s / (%s / %s)", qHow, eventHow, d.Supply.Voltage), "the inputs' bounds"), src)
			if net != nil && net.V > 0 && eventHow == "energy" {
				c := Interval{net.V / v.V, net.Lo / v.Hi, net.Hi / v.Lo} // a net of no low bound gives a count of no upper bound (+Inf)
				x.add(q.Div(c).metric("ops-per-battery-net", "ops", label,
					fmt.Sprintf("usable charge / the subject's charge above the baseline = %s / (energy-net / %s), as S001 counted signatures over idle", qHow, d.Supply.Voltage), "the inputs' bounds"), src)
			}
		}
	}
	x.battery(event, eventHow, label)
}

// battery adds the battery life at one subject per period: the options'
// period, else the subject's "interval" param.
func (x *resultPricer) battery(event Interval, eventHow string, label result.Label) {
	period := x.opt.Period
	if period <= 0 {
		if d, err := time.ParseDuration(x.r.Subject.Params["interval"]); err == nil {
			period = d
		}
	}
	if period <= 0 {
		return
	}
	b := Battery{Device: x.p.Device, Period: period, EventJoules: event, EventSeconds: x.activeSeconds}
	if x.radioSleep != "" {
		if rp, err := radio.Lookup(x.radioSleep); err == nil {
			for _, q := range rp.Params {
				if q.Field == "params.sleep_current" {
					if a, err := q.Quantity.In("A"); err == nil {
						b.RadioSleepAmps, b.RadioSleepHow = Exact(a), q.Quantity.String()
					}
				}
			}
		}
	}
	l, err := b.Life()
	if err != nil {
		x.warn(fmt.Errorf("no battery life on %s: %w", x.p.Device.Name, err))
		return
	}
	m := l.Seconds.metric("battery-life", "s", label, fmt.Sprintf("%s per %v (%s): %s", eventHow, period, FormatPeriod(period), l.Method), "the inputs' bounds")
	x.add(m, x.p.Device.Source())
	x.r.Warnings = append(x.r.Warnings, l.Notes...)
}

// modelPoint evaluates the analytic model the result names at its point,
// priced on the same device by the same resolver (and on the trace's
// radio when it has per-bit costs), so "model vs run" compares like with
// like.
func (x *resultPricer) modelPoint() {
	mp := x.r.Model
	m, err := model.Open(mp.Name)
	if err != nil {
		x.warn(fmt.Errorf("model %s: %w", mp.Name, err))
		return
	}
	var table *model.CostTable
	if m.DefaultCosts != "" {
		t, err := model.OpenCosts(m.DefaultCosts)
		if err != nil {
			x.warn(fmt.Errorf("model %s: %w", mp.Name, err))
			return
		}
		table = t
	}
	costs, err := ModelCostsOn(x.p, m, table, x.radioFor())
	if err != nil {
		x.warn(fmt.Errorf("model %s not evaluated: %w", mp.Name, err))
		return
	}
	var variants []string
	if mp.Variant != "" {
		variants = []string{mp.Variant}
	}
	plan, err := model.NewPlan(m, costs, model.Options{Set: mp.Set, Variants: variants})
	if err != nil {
		x.warn(fmt.Errorf("model %s: %w", mp.Name, err))
		return
	}
	var out model.Outputs
	label := result.Modelled
	if err := plan.Run(context.Background(), func(_ *model.Point, o *model.Outputs) error { out = *o; return nil }); err != nil {
		x.warn(fmt.Errorf("model %s: %w", mp.Name, err))
		return
	}
	for i := range m.Operations {
		if c, _ := plan.Eval.OpCost(0, i); c.Label == result.Estimated && out.Ops[i].Count > 0 {
			label = result.Estimated
		}
	}
	name := cmpOr(mp.Metric, "model/energy")
	how := fmt.Sprintf("built-in model %s, variant %s, at the run's point (cryptocost model show %s); priced with %s",
		mp.Name, cmpOr(mp.Variant, "default"), mp.Name, costs.Describe())
	x.add(Exact(out.EnergyTotal()).metric(name, "J", label, how, ""), "model "+mp.Name)
	if mp.TimeMetric != "" {
		x.add(Exact(out.TimeTotal()).metric(mp.TimeMetric, "s", label, how, ""), "model "+mp.Name)
	}
}
