package energy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Options say how Annotate prices a run.
type Options struct {
	// OnDevice says the run was measured on the device itself (cryptocost
	// running on the Pi it is asked to price). Always true for "host".
	OnDevice bool
	// Calibration holds times measured on the device earlier (nil: none).
	Calibration *Calibration
	// NoEstimates refuses times scaled from another machine.
	NoEstimates bool
}

// Power is the current and power of an operation on a device, with the
// baseline it is reported net of, and how each was obtained.
type Power struct {
	Volts, Amps, Watts float64
	How                string // "2.65 V [S003] × active 1.8 mA [S003]"
	// BaseWatts is the baseline state's power (0 with BaseState "" when the
	// profile has none).
	BaseState string
	BaseAmps  float64
	BaseWatts float64
	BaseHow   string
}

// OpPower is the power while the subject's operation runs on d: the
// current the literature gives for this operation on this device when it
// does (S001 measured 182.2 mA while signing with ECDSA P-256), else the
// CPU-active state's.
func OpPower(d *Device, s result.Subject) (Power, error) {
	family, bits := SchemeSize(s)
	return opPower(d, family, bits, s.Operation)
}

func opPower(d *Device, family string, bits int, op string) (Power, error) {
	var p Power
	volts, err := d.Volts()
	if err != nil {
		return p, err
	}
	p.Volts = volts
	var opCurrent *Operation
	if family != "" {
		for _, o := range d.OperationsFor(family, op) {
			if o.Current.Known() && (o.Bits == bits || o.Bits == 0) {
				opCurrent = &o
				break
			}
		}
	}
	if opCurrent != nil {
		p.Amps = opCurrent.Current.MustIn("A")
		p.Watts = volts * p.Amps
		p.How = fmt.Sprintf("%s × %s while %s", describe(d.Supply.Voltage), describe(opCurrent.Current), opCurrent.Name)
	} else {
		p.Amps, _, err = d.StateCurrent("active")
		if err != nil {
			return p, err
		}
		p.Watts, p.How, _ = d.StatePower("active")
	}
	if st := d.BaselineState(); st != "" {
		p.BaseState = st
		p.BaseAmps, _, _ = d.StateCurrent(st)
		p.BaseWatts, p.BaseHow, _ = d.StatePower(st)
	}
	return p, nil
}

// Annotate adds energy figures to every result of run that has a time per
// operation, priced on device d: energy per operation gross and net of the
// device's idle (or sleep) baseline in µJ, per byte for bulk operations,
// and the average current and power while the operation runs. Each figure
// is labelled modelled (E = V·I·t with a time measured on the device or
// imported from it) or estimated (a time scaled from this machine), with
// its method; a result whose time on the device cannot be had gets a
// warning instead. Run.Environment.Device is set to d's name.
//
// An error means nothing could be priced (an unknown supply voltage or CPU
// current), and is returned before any result is changed.
func Annotate(run *result.Run, d *Device, opt Options) error {
	if d.Name == "host" {
		opt.OnDevice = true
	}
	if _, err := d.Volts(); err != nil {
		return fmt.Errorf("cannot price energy on %s: %w; measure this machine with a meter (cryptocost energy meters) or give --device-file with measured figures", d.Name, err)
	}
	if _, _, err := d.StateCurrent("active"); err != nil && !hasOpCurrents(d) {
		return fmt.Errorf("cannot price energy on %s: %w", d.Name, err)
	}
	if opt.OnDevice && d.Name != "host" && run.Environment.Arch != "" && !d.RunsGo(run.Environment.Arch) {
		return fmt.Errorf("the run was measured on %s, which cannot be %s (%s): drop --on-device to price it as a run made elsewhere", run.Environment.Arch, d.Name, d.CPU.Arch)
	}
	run.Environment.Device = d.Name
	for i := range run.Results {
		r := &run.Results[i]
		t := r.Metric("time")
		if r.Error != "" || t == nil {
			continue
		}
		if err := annotateResult(run, r, d, opt); err != nil {
			r.Warnings = append(r.Warnings, fmt.Sprintf("no energy on %s: %v", d.Name, err))
		}
	}
	return nil
}

func hasOpCurrents(d *Device) bool {
	for _, o := range d.Operations {
		if o.Current.Known() {
			return true
		}
	}
	return false
}

func annotateResult(run *result.Run, r *result.Result, d *Device, opt Options) error {
	own := r.Metric("time")
	var dt DeviceTime
	if opt.OnDevice {
		dt = DeviceTime{Samples: nanos(own.Samples), MedianNs: own.Summary.Median * 1e9, Label: own.Label,
			Method: "time/op " + string(own.Label) + " on " + d.Name + " in this run"}
	} else {
		var err error
		dt, err = TimeOnDevice(TimeQuery{Device: d, Subject: r.Subject, Reference: r, Run: run,
			Calibration: opt.Calibration, NoEstimates: opt.NoEstimates})
		if err != nil {
			return errors.New(strings.TrimPrefix(err.Error(), "no time for "+r.Subject.Name+" on "+d.Name+": "))
		}
	}
	p, err := OpPower(d, r.Subject)
	if err != nil {
		return err
	}
	label := result.Modelled
	if dt.Label == result.Estimated {
		label = result.Estimated
	}
	if !opt.OnDevice {
		// Its own unit: a second ns/op in a Go benchmark line would read as
		// this machine's time.
		m := newMetric("device-time", "device-ns/op", dt.Label, dt.Method, dt.Samples, dt.MedianNs, 1)
		r.Metrics = append(r.Metrics, m)
	}
	// µJ = ns × 1e-9 s/ns × W × 1e6 µJ/J.
	const nsWattToMicroJ = 1e-3
	gross := newMetric("energy", "µJ/op", label,
		fmt.Sprintf("E = V·I·t: %s × %s", p.How, dt.Method), dt.Samples, dt.MedianNs, p.Watts*nsWattToMicroJ)
	r.Metrics = append(r.Metrics, gross)
	var net *result.Metric
	switch {
	case p.BaseState == "":
		r.Warnings = append(r.Warnings, fmt.Sprintf("no net energy on %s: the profile has no idle or sleep figure to subtract", d.Name))
	case p.Watts < p.BaseWatts:
		r.Warnings = append(r.Warnings, fmt.Sprintf("no net energy on %s: the operation's power (%s) is below the %s baseline (%s)", d.Name, p.How, p.BaseState, p.BaseHow))
	default:
		m := newMetric("energy-net", "µJ/op", label,
			fmt.Sprintf("E = V·(I − I_%s)·t: (%s) − (%s), × %s", p.BaseState, p.How, p.BaseHow, dt.Method),
			dt.Samples, dt.MedianNs, (p.Watts-p.BaseWatts)*nsWattToMicroJ)
		net = &m
		r.Metrics = append(r.Metrics, m)
	}
	if r.Subject.InputBytes > 0 && r.Subject.Params["input"] == "bulk" {
		perByte := 1 / float64(r.Subject.InputBytes)
		m := newMetric("energy-per-byte", "µJ/B", label, gross.Method+" / input bytes", gross.Samples, gross.Summary.Median, perByte*1e6)
		r.Metrics = append(r.Metrics, m)
		if net != nil {
			m := newMetric("energy-net-per-byte", "µJ/B", label, net.Method+" / input bytes", net.Samples, net.Summary.Median, perByte*1e6)
			r.Metrics = append(r.Metrics, m)
		}
	}
	cur := result.NewScalar("current", "mA", result.Lower, label, p.Amps*1e3)
	cur.Method = "average current while the operation runs on " + d.Name + ": " + p.How
	pow := result.NewScalar("power", "mW", result.Lower, label, p.Watts*1e3)
	pow.Method = "average power while the operation runs on " + d.Name + ": P = " + p.How
	r.Metrics = append(r.Metrics, cur, pow)
	return nil
}

// nanos converts samples in seconds (the vocabulary's base unit) to the
// nanoseconds DeviceTime holds.
func nanos(s []float64) []float64 {
	if s == nil {
		return nil
	}
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = v * 1e9
	}
	return out
}

// newMetric scales samples (or a single median) by factor.
func newMetric(name, unit string, label result.Label, method string, samples []float64, median, factor float64) result.Metric {
	var m result.Metric
	if len(samples) > 0 {
		out := make([]float64, len(samples))
		for i, v := range samples {
			out[i] = v * factor
		}
		m = result.NewSampled(name, unit, result.Lower, label, out)
	} else {
		m = result.NewScalar(name, unit, result.Lower, label, median*factor)
	}
	m.Method = method
	return m
}
