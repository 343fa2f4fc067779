package main

import (
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/energy"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// linkRadio returns the radio profile a link is priced with, and checks it
// against the device's radios: a device profile's radios define which links
// it can use (a TelosB has no LTE modem).
func linkRadio(dev *energy.Device, link string) (*radio.Profile, error) {
	p, err := radio.Lookup(link)
	if err != nil {
		return nil, fmt.Errorf("no radio model for link %q (radio profiles: cryptocost radio list)", link)
	}
	if dev == nil || len(dev.Radios) == 0 {
		return p, nil
	}
	var techs []string
	for _, name := range dev.Radios {
		if r, err := radio.Lookup(name); err == nil {
			if r.Technology == p.Technology {
				return p, nil
			}
			techs = append(techs, name+" ("+r.Technology+")")
		} else {
			techs = append(techs, name+" (no radio model)")
		}
	}
	return nil, fmt.Errorf("%s has no %s radio: its radios are %s", dev.Name, p.Technology, strings.Join(techs, ", "))
}

// radioEnergy prices a trace on a radio profile: the total and how.
func radioEnergy(p *radio.Profile, tr *result.Trace) (joules float64, method string, err error) {
	b, err := p.Simulate(tr, radio.Options{})
	if err != nil {
		return 0, "", err
	}
	return b.Total(), fmt.Sprintf("%s: promotion %.3g J + transfer %.3g J + tail %.3g J + idle %.3g J", p.Method(),
		b.Energy(radio.Promotion), b.Energy(radio.Transfer), b.Energy(radio.Tail), b.Energy(radio.Idle)), nil
}

// probePricer prices a probed handshake's packet trace on the link's radio.
// The probe does not measure the client's CPU time (cryptocost tls does,
// and splits it), so the CPU share is said to be not modelled.
type probePricer struct {
	dev   *energy.Device
	radio *radio.Profile
}

func (p probePricer) Price(r *result.Result) ([]result.Metric, error) {
	if r.Trace == nil {
		return nil, fmt.Errorf("no packet trace to price")
	}
	j, method, err := radioEnergy(p.radio, r.Trace)
	if err != nil {
		return nil, err
	}
	m := result.NewScalar("energy/radio", "J", result.Lower, result.Modelled, j)
	m.Method = method
	if p.dev != nil {
		r.Warnings = append(r.Warnings, "energy: CPU components not modelled: the probe does not measure the client's CPU time (cryptocost tls splits it by component)")
	}
	return []result.Metric{m}, nil
}
