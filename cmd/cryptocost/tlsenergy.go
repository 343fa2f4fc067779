package main

import (
	"fmt"

	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/tlslab"
)

// The TLS lab's energy wiring: the client's CPU components priced on the
// device profile (energy.CPUEnergy) and each connection's packet trace on
// the link's radio profile (radio.Price). tlslab knows neither package;
// costing stays separate from measuring.
func init() {
	tlsPricing = func(device string) *tlslab.Pricing {
		p := &tlslab.Pricing{Device: device, Radio: tlsRadio{}}
		if d, err := energy.Lookup(device); err == nil {
			p.CPU = tlsCPU{dev: d, env: measure.CaptureEnvironment()}
		}
		return p
	}
}

// tlsCPU prices CPU work on a device profile.
type tlsCPU struct {
	dev *energy.Device
	env result.Environment
}

func (p tlsCPU) PriceCPU(_ string, work []tlslab.Work) ([]tlslab.Energy, error) {
	var out []tlslab.Energy
	for _, w := range work {
		j, label, method, err := energy.CPUEnergy(p.dev, p.env, w.CPU, false)
		if err != nil {
			return nil, err
		}
		if w.Label == result.Estimated { // the split itself is an estimate
			label, method = result.Estimated, method+"; CPU share: "+w.Method
		}
		out = append(out, tlslab.Energy{Component: w.Component, Joules: j, Label: label, Method: method, Source: p.dev.Name})
	}
	return out, nil
}

// tlsRadio prices a packet trace on the radio profile named like the link.
type tlsRadio struct{}

func (tlsRadio) PriceTrace(_, link string, tr *result.Trace) (tlslab.Energy, error) {
	p, err := radio.Lookup(link)
	if err != nil {
		return tlslab.Energy{}, fmt.Errorf("no radio model for link %q (radio profiles: cryptocost radio list)", link)
	}
	b, err := p.Simulate(tr, radio.Options{})
	if err != nil {
		return tlslab.Energy{}, err
	}
	return tlslab.Energy{Component: tlslab.Radio, Joules: b.Total(), Label: result.Modelled,
		Method: fmt.Sprintf("%s: promotion %.3g J + transfer %.3g J + tail %.3g J + idle %.3g J", p.Method(),
			b.Energy(radio.Promotion), b.Energy(radio.Transfer), b.Energy(radio.Tail), b.Energy(radio.Idle)),
		Source: p.Name}, nil
}
