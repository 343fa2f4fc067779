package sensor

import (
	"fmt"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// Costing the sensor's work on its device. This machine's CPU time is not
// a TelosB's, so an operation's time on the device comes from package
// energy the way it prices any result (energy.TimeOnDevice: a calibration,
// the literature's time for the scheme, or an estimate with its scale —
// never a clock ratio across instruction sets), and its energy is
// E = V·I·t with the device's current for that operation (energy.OpPower).
// An operation with no such time is "not priced", with the reason.

// DeviceOp is one operation's cost on the device.
type DeviceOp struct {
	Seconds, Joules float64
	// Label is modelled (E = V·I·t from a time measured on the device or
	// imported from the literature) or estimated (a scaled time).
	Label  result.Label
	Method string
}

// pricedAs maps operations that have no literature figure of their own
// onto one that costs the same work: an ECDH key pair is one fixed-base
// scalar multiplication, the bulk of an ECDSA signature; a shared secret
// is one variable-base multiplication, which a verification (a double
// multiplication) bounds from above. model/costs/telosb.yaml prices them
// the same way.
var pricedAs = map[string]struct{ scheme, op, why string }{
	"ECDH-P256/keygen": {"ECDSA-P256-SHA256", "sign", "priced as an ECDSA P-256 signature (one fixed-base scalar multiplication each)"},
	"ECDH-P256/derive": {"ECDSA-P256-SHA256", "verify", "priced as an ECDSA P-256 verification (an upper bound for one variable-base scalar multiplication)"},
}

// PriceOp returns what one operation (scheme, op) costs on device d.
// here are its times measured on this machine (ns), used only when d is
// this machine ("host") or shares its architecture (an estimate by clock
// ratio).
func PriceOp(d *energy.Device, env result.Environment, scheme, op string, here []float64) (DeviceOp, error) {
	subj := result.Subject{Kind: "primitive", Name: scheme + "/" + op, Scheme: scheme, Operation: op, Provider: "go"}
	prefix := ""
	if sub, ok := pricedAs[scheme+"/"+op]; ok {
		subj.Scheme, subj.Operation, subj.Name = sub.scheme, sub.op, sub.scheme+"/"+sub.op
		prefix = sub.why + ": "
	}
	var dt energy.DeviceTime
	if d.Name == "host" {
		if len(here) == 0 {
			return DeviceOp{}, fmt.Errorf("no time measured here")
		}
		dt = energy.DeviceTime{MedianNs: stats.Summarize(here).Median, Label: result.Measured,
			Method: fmt.Sprintf("median of %d times measured on this machine, which is the device", len(here))}
	} else {
		ref := &result.Result{Subject: subj}
		if len(here) > 0 && prefix == "" {
			ref.Metrics = []result.Metric{result.NewSampled("time", "ns/op", result.Lower, result.Measured, here)}
		}
		var err error
		dt, err = energy.TimeOnDevice(energy.TimeQuery{Device: d, Subject: subj, Reference: ref,
			Run: &result.Run{Environment: env, Results: []result.Result{*ref}}})
		if err != nil {
			return DeviceOp{}, err
		}
	}
	p, err := energy.OpPower(d, subj)
	if err != nil {
		return DeviceOp{}, err
	}
	label := result.Modelled
	if dt.Label == result.Estimated {
		label = result.Estimated
	}
	s := dt.MedianNs / 1e9
	return DeviceOp{Seconds: s, Joules: p.Watts * s, Label: label,
		Method: prefix + fmt.Sprintf("E = V·I·t: %s × %s", p.How, dt.Method)}, nil
}

// Battery is the battery arithmetic for one reading every interval.
type Battery struct {
	Life   energy.BatteryLife
	Method string
}

// BatteryLife runs energy.Lifetime for a sensor that wakes every interval,
// spends joules over active seconds (CPU and radio), and sleeps at the
// device's sleep current plus the radio's.
func BatteryLife(d *energy.Device, rp *radio.Profile, joules, active float64, interval time.Duration) (Battery, error) {
	usable, how, err := energy.UsableCharge(d.Battery)
	if err != nil {
		return Battery{}, fmt.Errorf("%s: %w", d.Name, err)
	}
	volts, err := d.Volts()
	if err != nil {
		return Battery{}, err
	}
	sleep, sleepHow, err := d.StateCurrent("sleep")
	if err != nil {
		return Battery{}, fmt.Errorf("%s: no sleep current: %w", d.Name, err)
	}
	var parts []string
	parts = append(parts, "MCU "+sleepHow)
	if rp != nil {
		for _, q := range rp.Params {
			if q.Field == "params.sleep_current" {
				if a, err := q.Quantity.In("A"); err == nil {
					sleep += a
					parts = append(parts, "radio "+q.Quantity.String())
				}
			}
		}
	}
	dc := energy.DutyCycle{Period: interval, OpSeconds: active, OpAmps: joules / volts / active, SleepAmps: sleep}
	life, err := energy.Lifetime(usable, dc)
	if err != nil {
		return Battery{}, err
	}
	return Battery{Life: life, Method: fmt.Sprintf("Q_usable / I_avg: %s; one reading every %v costs %.4g mJ over %.4g s (charge %.4g mC at %.3g V), asleep otherwise at %s",
		how, interval, joules*1e3, active, joules/volts*1e3, volts, strings.Join(parts, " + "))}, nil
}
