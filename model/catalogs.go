package model

import (
	"fmt"
	"math"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// DeviceCosts prices operations from a device profile of package energy:
// the per-operation costs the literature measured on that device (S003's
// TelosB verifications, TinyECC's signatures), by their key
// "FAMILY-BITS/OPERATION" ("ECDSA-160/verify"). Energy is the profile's
// figure when it gives one, else E = V·I·t from the supply voltage, the
// operation's current (or the CPU-active current) and its time — labelled
// modelled, with the formula.
func DeviceCosts(d *energy.Device) OpCostSource { return deviceCosts{d} }

type deviceCosts struct{ d *energy.Device }

func (c deviceCosts) Describe() string { return "device profile " + c.d.Name + " (" + c.d.File + ")" }

func (c deviceCosts) OpNames() []string {
	var names []string
	for _, o := range c.d.Operations {
		names = append(names, o.Key())
	}
	return names
}

func (c deviceCosts) OpCost(op string) (OpCost, bool) {
	for _, o := range c.d.Operations {
		if !strings.EqualFold(o.Key(), op) || !o.Time.Known() {
			continue
		}
		cost := OpCost{TimeSeconds: o.Time.MustIn("s"), EnergyJoules: math.NaN(), Label: result.Imported,
			Source: o.Name + ": " + o.Time.String()}
		switch {
		case o.Energy.Known():
			cost.EnergyJoules = o.Energy.MustIn("J")
			cost.Source += "; " + o.Energy.String()
		default:
			if j, how, ok := c.vit(o); ok {
				cost.EnergyJoules, cost.Label = j, result.Modelled
				cost.Method = "E = V·I·t: " + how
			}
		}
		return cost, true
	}
	return OpCost{}, false
}

// vit is V·I·t with the operation's own current if the profile has one,
// else the CPU-active state's.
func (c deviceCosts) vit(o energy.Operation) (float64, string, bool) {
	volts, err := c.d.Volts()
	if err != nil {
		return 0, "", false
	}
	amps, how := 0.0, ""
	if o.Current.Known() {
		amps, how = o.Current.MustIn("A"), o.Current.String()
	} else if a, h, err := c.d.StateCurrent("active"); err == nil {
		amps, how = a, h
	} else {
		return 0, "", false
	}
	t := o.Time.MustIn("s")
	return volts * amps * t, fmt.Sprintf("%.3g V × %s × %s", volts, how, o.Time.String()), true
}

// RadioCosts prices bits with a radio profile of package radio that gives
// per-bit energies (the IEEE 802.15.4 profiles: S003's CC2420 figures).
// State machines with tails (3G, LTE, WiFi) are not per-bit: price their
// traces with radio.Price instead.
func RadioCosts(p *radio.Profile) (BitCostSource, error) {
	get := func(field string) (catalog.Quantity, bool) {
		for _, q := range p.Params {
			if q.Field == "params."+field {
				return q.Quantity, true
			}
		}
		return catalog.Quantity{}, false
	}
	rate, ok1 := get("bit_rate")
	tx, ok2 := get("tx_energy_per_bit")
	rx, ok3 := get("rx_energy_per_bit")
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("radio profile %s (%s) has no per-bit costs: a model prices bits with an 802.15.4 profile or a cost table (--costs); state machines with tails are priced from traces by 'cryptocost radio simulate'", p.Name, p.Technology)
	}
	bc := BitCost{Radio: p.Name, Label: result.Imported,
		Source: fmt.Sprintf("radio profile %s: %s, TX %s, RX %s", p.Name, rate, tx, rx)}
	var err error
	if bc.RateBitsPerSecond, err = rate.In("bit/s"); err != nil {
		return nil, err
	}
	if bc.TxJoulesPerBit, err = tx.In("J/bit"); err != nil {
		return nil, err
	}
	if bc.RxJoulesPerBit, err = rx.In("J/bit"); err != nil {
		return nil, err
	}
	return radioCosts{bc}, nil
}

type radioCosts struct{ bc BitCost }

func (r radioCosts) Describe() string          { return "radio profile " + r.bc.Radio }
func (r radioCosts) BitCost() (BitCost, error) { return r.bc, nil }
