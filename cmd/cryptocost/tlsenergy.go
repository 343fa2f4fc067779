package main

import (
	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/measure"
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
			p.Radio = tlsRadio{dev: d}
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

// tlsRadio prices a packet trace on the radio profile named like the link,
// if the device has such a radio.
type tlsRadio struct{ dev *energy.Device }

func (r tlsRadio) PriceTrace(_, link string, tr *result.Trace) (tlslab.Energy, error) {
	p, err := linkRadio(r.dev, link)
	if err != nil {
		return tlslab.Energy{}, err
	}
	j, method, err := radioEnergy(p, tr)
	if err != nil {
		return tlslab.Energy{}, err
	}
	return tlslab.Energy{Component: tlslab.Radio, Joules: j, Label: result.Modelled, Method: method, Source: p.Name}, nil
}
