package costing

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// ModelCosts prices a model's operations on a device through the same
// resolver as the runs (`model eval --device`, and the scenarios' model
// rows priced by Price), so "model vs run" compares like with like. A
// model names an operation by a cost key: a registry scheme's
// "SCHEME/OPERATION" ("ECDSA-P256-SHA256/sign"), the short form of one
// ("ECDSA-P256/sign", "RSA-1024/verify"), or a key of the device's own
// literature operations ("ECDSA-160/verify"). Keys it cannot resolve are
// left to the model's cost table.
func ModelCosts(p *Pricer) model.OpCostSource { return &modelCosts{p: p, why: map[string]string{}} }

type modelCosts struct {
	p *Pricer
	// why holds, per key the resolver could not price, its reason.
	why map[string]string
}

// WhyNot implements model.OpCostExplainer.
func (m *modelCosts) WhyNot(key string) string { return m.why[key] }

// ModelCostsOn are a model's costs on p's device: the resolver for every
// operation; the model's cost table (its default, or --costs) only when
// the table describes this device (its device: field names it), for the
// keys the resolver cannot price — a table of another device's figures
// never prices this one (the TelosB table is not an Arduino's). The radio
// is rp, the device's radio for the run's link (RadioFor); without one,
// the table's own radio when the table is this device's. A model that
// sends messages on a device with neither is refused, naming its radios.
func ModelCostsOn(p *Pricer, m *model.Model, table *model.CostTable, rp *radio.Profile) (*model.Costs, error) {
	costs := &model.Costs{}
	own := false
	if table != nil {
		if d, err := device.Lookup(table.Device); err == nil && d.Name == p.Device.Name {
			own = true
			costs = table.Costs()
		}
	}
	costs.Ops = append(costs.Ops, ModelCosts(p))
	if rp != nil {
		bc, err := model.RadioCosts(rp)
		if err != nil {
			return nil, err
		}
		costs.Radio = bc
	}
	if costs.Radio == nil && len(m.Messages) > 0 {
		have, _ := deviceRadios(p.Device)
		why := "its profile lists no radio"
		if len(have) > 0 {
			why = "its radios are " + strings.Join(have, ", ") + ": give --radio NAME to choose one"
		}
		if !own && table != nil && table.Radio != nil {
			why += fmt.Sprintf("; the cost table %s's radio is %s's, not %s's", table.Name, table.Device, p.Device.Name)
		}
		return nil, fmt.Errorf("model %s sends messages, and no radio of %s prices them: %s", m.Name, p.Device.Name, why)
	}
	return costs, nil
}

func (m *modelCosts) Describe() string {
	return "the costing stage on " + m.p.Device.Name + " (" + m.p.Device.Source() + ")"
}

func (m *modelCosts) OpNames() []string {
	var names []string
	for _, o := range m.p.Device.Operations {
		names = append(names, o.Key())
	}
	return names
}

// shortForms are the model cost keys' scheme names for registry schemes:
// the family and parameters without the padding and hash.
var shortForms = map[string]string{
	"ECDSA-P256": "ECDSA-P256-SHA256", "ECDSA-P384": "ECDSA-P384-SHA384", "ECDSA-P521": "ECDSA-P521-SHA512",
	"RSA-1024": "RSA-1024-PKCS1v15-SHA256", "RSA-2048": "RSA-2048-PKCS1v15-SHA256", "RSA-3072": "RSA-3072-PKCS1v15-SHA256",
}

// rsaEncrypt: a model's "RSA-N/encrypt" (a TLS ClientKeyExchange) is the
// registry's PKCS #1 v1.5 encryption scheme.
var rsaEncrypt = map[string]string{"RSA-1024": "RSA-1024-PKCS1v15", "RSA-2048": "RSA-2048-PKCS1v15"}

func (m *modelCosts) OpCost(key string) (model.OpCost, bool) {
	name, op, ok := strings.Cut(key, "/")
	if !ok {
		return model.OpCost{}, false
	}
	p := m.p
	var e Energy
	var err error
	switch {
	case registryScheme(name) && !strings.Contains(name, "/"):
		e, err = p.OpEnergy(Op{Scheme: canonical(name), Operation: op})
	case shortForms[name] != "":
		s := shortForms[name]
		if op == "encrypt" && rsaEncrypt[name] != "" {
			s = rsaEncrypt[name]
		}
		e, err = p.OpEnergy(Op{Scheme: s, Operation: op})
	default:
		o, found := p.Device.FindOperation(key, "")
		if !found {
			m.why[key] = fmt.Sprintf("not priced: %s is neither a registry scheme's operation nor one of %s's literature operations", key, p.Device.Name)
			return model.OpCost{}, false
		}
		var c Cost
		if c, err = literatureCost(o); err == nil {
			e, err = p.priceCost(Op{Scheme: o.Key(), Operation: o.Operation}, c, 0)
		}
	}
	if err != nil {
		// Not priced on the device: the model's own table may have it
		// (ModelCostsOn), else the model's error says why.
		m.why[key] = err.Error()
		return model.OpCost{}, false
	}
	oc := model.OpCost{TimeSeconds: math.NaN(), EnergyJoules: e.Gross.V, Label: energyLabel(e),
		Source: fmt.Sprintf("%s: %s", e.Cost.Rung, e.Cost.Source), Method: e.Method}
	if e.Cost.Seconds != nil {
		oc.TimeSeconds = e.Cost.Seconds.V
	}
	if e.Cost.Label == result.Estimated {
		oc.Label = result.Estimated
	}
	return oc, true
}

// canonical is the registry's own spelling of a scheme name.
func canonical(name string) string {
	if s, err := lookupScheme(name); err == nil {
		return s
	}
	return name
}

// ModelSources are where a model command takes its costs from: a cost
// table (a built-in name or a YAML file; empty, the model's default), a
// device profile priced through the resolver (ModelCostsOn), a radio
// profile for the bits, and bench runs' operation times (JSON files).
type ModelSources struct {
	Costs, Device, Radio string
	OpTimes              []string
}

// OpenModelCosts are m's costs from the sources: on a device, the
// resolver's figures and the table only where it is the device's own;
// otherwise the table's, its bits priced by the radio if one is named;
// either way the bench runs' times first.
func OpenModelCosts(m *model.Model, s ModelSources) (*model.Costs, error) {
	name := cmp.Or(s.Costs, m.DefaultCosts)
	if name == "" {
		return nil, fmt.Errorf("model %s names no cost table: give one with --costs (built-in: telosb) or a file", m.Name)
	}
	t, err := model.OpenCosts(name)
	if err != nil {
		return nil, err
	}
	costs, err := s.tableOrDevice(m, t)
	if err != nil {
		return nil, err
	}
	for _, file := range s.OpTimes {
		runs, err := model.ReadRuns(file)
		if err != nil {
			return nil, err
		}
		rc, err := model.NewRunCosts(file, runs)
		if err != nil {
			return nil, err
		}
		costs.Ops = append(costs.Ops, rc)
	}
	return costs, nil
}

func (s ModelSources) tableOrDevice(m *model.Model, t *model.CostTable) (*model.Costs, error) {
	var rp *radio.Profile
	var err error
	if s.Radio != "" {
		if rp, err = radio.Lookup(s.Radio); err != nil {
			return nil, fmt.Errorf("--radio: %w", err)
		}
	}
	if s.Device == "" {
		costs := t.Costs()
		if rp != nil {
			if costs.Radio, err = model.RadioCosts(rp); err != nil {
				return nil, fmt.Errorf("--radio: %w", err)
			}
		}
		return costs, nil
	}
	d, err := device.Lookup(s.Device)
	if err != nil {
		return nil, fmt.Errorf("--device: %w", err)
	}
	if rp != nil {
		if rp, err = RadioFor(d, nil, s.Radio); err != nil {
			return nil, fmt.Errorf("--radio: %w", err)
		}
	}
	costs, err := ModelCostsOn(&Pricer{Device: d}, m, t, rp)
	if err != nil {
		return nil, fmt.Errorf("--device: %w", err)
	}
	return costs, nil
}
