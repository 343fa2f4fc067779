package model

import (
	"fmt"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

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
