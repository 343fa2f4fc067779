package costing

import (
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// RadioFor is the one rule for which radio profile prices a trace over a
// link: the radio the user names (--radio), which must be of the link's
// technology and one the device has; else the device's radio of the link's
// technology; else, with no device, the link's own default radio. A device
// without a radio of the link's technology is refused, naming the radios
// it has. A wired link (LAN) has no radio: (nil, nil).
func RadioFor(d *device.Device, l *link.Profile, radioName string) (*radio.Profile, error) {
	var named *radio.Profile
	if radioName != "" {
		p, err := radio.Lookup(radioName)
		if err != nil {
			return nil, err
		}
		named = p
	}
	tech := ""
	if l != nil {
		tech = l.Technology
		if tech == "" {
			if named != nil {
				return nil, fmt.Errorf("%s is a wired link: no radio prices it (drop --radio %s, or choose a radio link)", l.Name, radioName)
			}
			return nil, nil
		}
		if named != nil && named.Technology != tech {
			return nil, fmt.Errorf("radio %s is %s and link %s is %s: give a %s radio (cryptocost radio list)", named.Name, named.Technology, l.Name, tech, tech)
		}
	} else if named != nil {
		tech = named.Technology
	}
	if tech == "" {
		return nil, fmt.Errorf("no link or radio named: give --link (the network path) or --radio (the energy profile)")
	}
	if d != nil {
		have, own := deviceRadios(d)
		r, ok := own[tech]
		switch {
		case !ok && len(have) == 0:
			return nil, fmt.Errorf("%s has no radio (its profile lists none), so no %s link can be priced on it: give a device with one (cryptocost devices)", d.Name, tech)
		case !ok:
			return nil, fmt.Errorf("%s has no %s radio: its radios are %s%s", d.Name, tech, strings.Join(have, ", "), linksFor(own))
		case named != nil:
			return named, nil
		}
		return r, nil
	}
	if named != nil {
		return named, nil
	}
	p, err := radio.Lookup(l.Radio)
	if err != nil {
		return nil, fmt.Errorf("link %s: its radio %q: %v", l.Name, l.Radio, err)
	}
	return p, nil
}

// deviceRadios resolves a device's radio names: each with its technology
// for messages, and the profile per technology.
func deviceRadios(d *device.Device) (have []string, byTech map[string]*radio.Profile) {
	byTech = map[string]*radio.Profile{}
	for _, name := range d.Radios {
		p, err := radio.Lookup(name)
		if err != nil {
			have = append(have, name+" (no radio model)")
			continue
		}
		have = append(have, name+" ("+p.Technology+")")
		if _, dup := byTech[p.Technology]; !dup {
			byTech[p.Technology] = p
		}
	}
	return have, byTech
}

// radioAdvice names the device's radios and the links they price, for a
// message that asks for a link.
func radioAdvice(d *device.Device) string {
	if d == nil {
		return ": give --radio NAME (cryptocost radio list), or a --link of a radio technology"
	}
	have, own := deviceRadios(d)
	if len(have) == 0 {
		return fmt.Sprintf(": %s's profile names no radio; give --radio NAME (cryptocost radio list)", d.Name)
	}
	if l := linksFor(own); l != "" {
		return fmt.Sprintf(" (%s's radios: %s)%s", d.Name, strings.Join(have, ", "), l)
	}
	return fmt.Sprintf(": %s's radios are %s", d.Name, strings.Join(have, ", "))
}

// linksFor suggests the links the device's radios can price.
func linksFor(own map[string]*radio.Profile) string {
	var names []string
	for _, n := range link.Names() {
		if l, err := link.Lookup(n); err == nil && own[l.Technology] != nil {
			names = append(names, strings.ToLower(n))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return ": give --link " + strings.Join(names, " or ")
}

// RadioEnergy is a trace's energy on a radio profile, split by phase.
type RadioEnergy struct {
	Radio     *radio.Profile
	Breakdown *radio.Breakdown
	Joules    Interval
	Method    string
}

// PriceTrace simulates the radio over a packet trace.
func PriceTrace(p *radio.Profile, tr *result.Trace) (RadioEnergy, error) {
	if tr == nil || len(tr.Packets) == 0 {
		return RadioEnergy{}, fmt.Errorf("no packet trace to price")
	}
	b, err := p.Simulate(tr, radio.Options{})
	if err != nil {
		return RadioEnergy{}, fmt.Errorf("radio %s: %w", p.Name, err)
	}
	return RadioEnergy{Radio: p, Breakdown: b, Joules: Exact(b.Total()),
		Method: fmt.Sprintf("%s: promotion %.3g J + transfer %.3g J + tail %.3g J + idle %.3g J", p.Method(),
			b.Energy(radio.Promotion), b.Energy(radio.Transfer), b.Energy(radio.Tail), b.Energy(radio.Idle))}, nil
}
