package model

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// OpCost is what one operation costs on a device. Time or Energy is NaN
// when the source does not know it (a bench run knows times, not joules).
type OpCost struct {
	TimeSeconds  float64
	EnergyJoules float64
	// Label says how the numbers were obtained: imported from a paper,
	// measured here, modelled (E = V·I·t), estimated (scaled).
	Label result.Label
	// Source says where they come from: "[S003] Piotrowski et al.".
	Source string
	// Method says how they were derived, when they were.
	Method string
}

// OpCostSource is a source of per-operation costs: a cost table file, a
// bench run, or (wired by the lead) a device profile of package energy.
// Names are "SCHEME/OPERATION" such as "ECDSA-P256/sign".
type OpCostSource interface {
	// Describe says what the source is, for provenance: "cost table telosb".
	Describe() string
	// OpCost returns the cost of one operation, and whether it is known.
	OpCost(op string) (OpCost, bool)
	// OpNames lists the operations it prices, for error messages.
	OpNames() []string
}

// BitCost prices bits on a radio: the time to send or receive a bit is
// 1/RateBitsPerSecond, and each costs TxJoulesPerBit or RxJoulesPerBit.
type BitCost struct {
	Radio             string
	RateBitsPerSecond float64
	TxJoulesPerBit    float64
	RxJoulesPerBit    float64
	Label             result.Label
	Source            string
}

// OpCostExplainer is an OpCostSource that can say why it has no cost for
// a key (the costing stage's "not priced: …; what would price it"), for
// the error of a model that needs it.
type OpCostExplainer interface {
	WhyNot(key string) string
}

// BitCostSource is a source of per-bit radio costs: a cost table file, or
// (wired by the lead) a radio profile of package radio.
type BitCostSource interface {
	Describe() string
	BitCost() (BitCost, error)
}

// Costs is what a model is priced with: one radio and a stack of
// operation cost sources, later ones overriding earlier ones (a bench run
// over a built-in table).
type Costs struct {
	Radio BitCostSource
	Ops   []OpCostSource
}

// Free is the cost key of operations a model declares free by assumption
// (S003's model counts MACs and hashes as free): they are listed, with
// their counts, but cost nothing.
const Free = "free"

type freeSource struct{}

func (freeSource) Describe() string { return "free" }
func (freeSource) OpCost(string) (OpCost, bool) {
	return OpCost{Label: result.Modelled, Source: "by the model's assumption"}, true
}
func (freeSource) OpNames() []string { return nil }

// OpCost looks op up in the sources, last first, and says which one knew it.
func (c *Costs) OpCost(op string) (OpCost, OpCostSource, bool) {
	if op == Free {
		oc, _ := freeSource{}.OpCost(op)
		return oc, freeSource{}, true
	}
	for i := len(c.Ops) - 1; i >= 0; i-- {
		if oc, ok := c.Ops[i].OpCost(op); ok {
			return oc, c.Ops[i], true
		}
	}
	return OpCost{}, nil, false
}

// Describe names the sources: "radio: cost table telosb; operations: cost
// table telosb, bench run 2026...".
func (c *Costs) Describe() string {
	var ops []string
	for _, s := range c.Ops {
		ops = append(ops, s.Describe())
	}
	radio := "none"
	if c.Radio != nil {
		radio = c.Radio.Describe()
	}
	return fmt.Sprintf("radio from %s; operations from %s", radio, strings.Join(ops, " over "))
}

// opNames lists every operation any source prices.
func (c *Costs) opNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range c.Ops {
		for _, n := range s.OpNames() {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// CostTable is a cost table file: a device's per-operation costs and its
// radio's per-bit costs, every number with a source.
type CostTable struct {
	Name        string
	Title       string
	Device      string
	File        string
	Radio       *BitCost
	CPUPowerW   float64 // power while computing; 0: unknown
	cpuPowerSrc string
	Ops         map[string]OpCost
	order       []string
}

type costFile struct {
	Name       string              `yaml:"name"`
	Title      string              `yaml:"title"`
	Device     string              `yaml:"device"`
	CPU        *cpuSpec            `yaml:"cpu"`
	Radio      *radioSpec          `yaml:"radio"`
	Operations ordered[opCostSpec] `yaml:"operations"`
	Notes      []string            `yaml:"notes"`
}

type cpuSpec struct {
	Voltage catalog.Quantity `yaml:"voltage"`
	Current catalog.Quantity `yaml:"current"`
}

type radioSpec struct {
	Name           string           `yaml:"name"`
	BitRate        catalog.Quantity `yaml:"bit_rate"`
	TxEnergyPerBit catalog.Quantity `yaml:"tx_energy_per_bit"`
	RxEnergyPerBit catalog.Quantity `yaml:"rx_energy_per_bit"`
}

type opCostSpec struct {
	Time   *catalog.Quantity `yaml:"time"`
	Energy *catalog.Quantity `yaml:"energy"`
	Label  string            `yaml:"label"`
	Method string            `yaml:"method"`
}

// ParseCostTable reads a cost table file (YAML or JSON).
func ParseCostTable(file string, data []byte) (*CostTable, error) {
	var cf costFile
	node, err := catalog.Parse(file, data, &cf)
	if err != nil {
		return nil, err
	}
	t := &CostTable{Name: cf.Name, Title: cf.Title, Device: cf.Device, File: file, Ops: map[string]OpCost{}}
	if t.Name == "" {
		return nil, node.Errorf("name", "a cost table needs a name, such as name: my-board")
	}
	if cf.CPU != nil {
		v, err := cf.CPU.Voltage.In("V")
		if err != nil || v <= 0 {
			return nil, node.Errorf("cpu.voltage", "want a positive voltage such as \"3 V [datasheet]\" (%v)", errOrValue(err, cf.CPU.Voltage))
		}
		a, err := cf.CPU.Current.In("A")
		if err != nil || a <= 0 {
			return nil, node.Errorf("cpu.current", "want a positive current such as \"1.8 mA [datasheet]\" (%v)", errOrValue(err, cf.CPU.Current))
		}
		t.CPUPowerW = v * a
		t.cpuPowerSrc = fmt.Sprintf("%s × %s", cf.CPU.Voltage, cf.CPU.Current)
	}
	if cf.Radio != nil {
		r := cf.Radio
		rate, err := positive(r.BitRate, "bit/s")
		if err != nil {
			return nil, node.Errorf("radio.bit_rate", "%v", err)
		}
		tx, err := positive(r.TxEnergyPerBit, "J/bit")
		if err != nil {
			return nil, node.Errorf("radio.tx_energy_per_bit", "%v", err)
		}
		rx, err := positive(r.RxEnergyPerBit, "J/bit")
		if err != nil {
			return nil, node.Errorf("radio.rx_energy_per_bit", "%v", err)
		}
		t.Radio = &BitCost{Radio: r.Name, RateBitsPerSecond: rate, TxJoulesPerBit: tx, RxJoulesPerBit: rx, Label: result.Imported,
			Source: fmt.Sprintf("bit rate %s; TX %s; RX %s", r.BitRate, r.TxEnergyPerBit, r.RxEnergyPerBit)}
	}
	for _, e := range cf.Operations {
		field := "operations." + e.Name
		errAt := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s: %s", file, e.Line, field, fmt.Sprintf(format, args...))
		}
		if e.Name == "" || strings.ContainsAny(e.Name, " \t") {
			return nil, errAt("bad operation name %q: use SCHEME/OPERATION such as ECDSA-P256/sign", e.Name)
		}
		if _, dup := t.Ops[e.Name]; dup {
			return nil, errAt("operation %s is priced twice", e.Name)
		}
		s := e.Value
		oc := OpCost{TimeSeconds: math.NaN(), EnergyJoules: math.NaN(), Label: result.Imported, Method: s.Method}
		var srcs []string
		if s.Time != nil {
			v, err := nonNegative(*s.Time, "s")
			if err != nil {
				return nil, errAt("time: %v", err)
			}
			oc.TimeSeconds = v
			srcs = append(srcs, "time "+s.Time.String())
		}
		if s.Energy != nil {
			v, err := nonNegative(*s.Energy, "J")
			if err != nil {
				return nil, errAt("energy: %v", err)
			}
			oc.EnergyJoules = v
			srcs = append(srcs, "energy "+s.Energy.String())
		}
		if s.Time == nil && s.Energy == nil {
			return nil, errAt("give time: and/or energy:, such as time: \"220 ms [source]\"")
		}
		switch s.Label {
		case "", "imported":
		case "measured", "modelled", "estimated":
			oc.Label = result.Label(s.Label)
		default:
			return nil, errAt("label %q: want imported, measured, modelled or estimated", s.Label)
		}
		if oc.Label == result.Estimated && oc.Method == "" {
			return nil, errAt("an estimated cost needs method: saying how it was estimated")
		}
		if s.Energy == nil && t.CPUPowerW > 0 {
			oc.EnergyJoules = oc.TimeSeconds * t.CPUPowerW
			how := fmt.Sprintf("energy E = V·I·t = %s × %s", t.cpuPowerSrc, s.Time)
			oc.Method = strings.TrimPrefix(oc.Method+"; "+how, "; ")
			if oc.Label == result.Imported || oc.Label == result.Measured {
				oc.Label = result.Modelled
			}
		}
		oc.Source = strings.Join(srcs, "; ")
		t.Ops[e.Name] = oc
		t.order = append(t.order, e.Name)
	}
	return t, nil
}

func errOrValue(err error, q catalog.Quantity) string {
	if err != nil {
		return err.Error()
	}
	return "got " + q.String()
}

func positive(q catalog.Quantity, unit string) (float64, error) {
	v, err := q.In(unit)
	if err != nil {
		return 0, err
	}
	if v <= 0 {
		return 0, fmt.Errorf("%s must be positive", q)
	}
	return v, nil
}

func nonNegative(q catalog.Quantity, unit string) (float64, error) {
	v, err := q.In(unit)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, fmt.Errorf("%s is negative", q)
	}
	return v, nil
}

// Describe implements OpCostSource and BitCostSource.
func (t *CostTable) Describe() string { return "cost table " + t.Name }

// OpCost implements OpCostSource.
func (t *CostTable) OpCost(op string) (OpCost, bool) {
	if oc, ok := t.Ops[op]; ok {
		return oc, true
	}
	for name, oc := range t.Ops {
		if strings.EqualFold(name, op) {
			return oc, true
		}
	}
	return OpCost{}, false
}

// OpNames implements OpCostSource.
func (t *CostTable) OpNames() []string { return append([]string(nil), t.order...) }

// BitCost implements BitCostSource.
func (t *CostTable) BitCost() (BitCost, error) {
	if t.Radio == nil {
		return BitCost{}, fmt.Errorf("cost table %s has no radio: add radio: {bit_rate, tx_energy_per_bit, rx_energy_per_bit}", t.Name)
	}
	return *t.Radio, nil
}

// Costs returns the table as the costs of a model.
func (t *CostTable) Costs() *Costs {
	return &Costs{Radio: t, Ops: []OpCostSource{t}}
}
