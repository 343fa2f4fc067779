package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// Model is a compiled protocol cost model: what one node sends, receives
// and computes per unit of work (a synchronisation interval, a handshake,
// a reading), as functions of its parameters.
type Model struct {
	Name        string
	Title       string
	Description string
	Source      string
	// Per says what one evaluation covers: "node and global
	// synchronisation interval".
	Per string
	// DefaultCosts names the cost table the model is priced with unless
	// the user gives another.
	DefaultCosts string
	// File is where the model was read from ("builtin:secsywise" for
	// the embedded ones).
	File        string
	Params      []*Param
	Definitions []*Definition // in evaluation order
	Messages    []*Message
	Operations  []*Operation
	Variants    []*Variant
	Assumptions []string
	Measured    []*Binding

	nslots int
	slots  map[string]int
}

// Param is a model parameter.
type Param struct {
	Name        string
	Description string
	Unit        string
	Default     float64
	// DefaultSource is where the default comes from, when it is a fact
	// rather than a setting.
	DefaultSource string
	Min, Max      float64
	HasRange      bool
	// Values are the values worth trying (a study's), for --vary NAME.
	Values  []float64
	Integer bool
	// From selects a measured metric that replaces the default with
	// --inputs RUN.json (a TLS lab run's byte counts).
	From *Selector

	slot int
	line int
}

// Definition is a named intermediate expression.
type Definition struct {
	Name    string
	Formula *Formula
	slot    int
}

// Formula is a compiled expression with where it was written.
type Formula struct {
	Text  string
	Field string // "messages.2.bits"
	Line  int
	fn    evalFn
	// direct is 1 + the slot of a formula that is one name (bits:
	// p1_bits), read in place without a call; 0 for any other.
	direct int
}

// Message is a per-node message event: Count messages per unit of work,
// each Bits long, sent or received, in packets with Overhead bits each.
type Message struct {
	Name        string
	Description string
	Send        bool
	Bits        *Formula
	Count       *Formula
	Overhead    *Formula // per packet; nil: none
	// Ack is the size of the acknowledgement each packet gets, in the
	// other direction (802.15.4 MAC ACKs); nil: none.
	Ack        *Formula
	MaxPayload *Formula // bits per packet; nil: unbounded
	Fragment   bool     // split a message larger than MaxPayload
	// FragmentFirst and FragmentNext are the message bits the first and
	// each following fragment carry (nil: MaxPayload); FragmentHeaderFirst
	// and FragmentHeaderNext are header bits fragments add (nil: none).
	FragmentFirst, FragmentNext             *Formula
	FragmentHeaderFirst, FragmentHeaderNext *Formula
	Packets                                 *Formula // explicit packet count per message; overrides MaxPayload
}

// Direction is "send" or "receive".
func (m *Message) Direction() string {
	if m.Send {
		return "send"
	}
	return "receive"
}

// Operation is a per-node computation priced from a cost table.
type Operation struct {
	Name        string
	Description string
	Cost        string // cost table key, unless a variant binds another
	Count       *Formula
	// pos is "file:line: operations.N.cost", for errors about the cost.
	pos string
}

// Variant is a named protocol variant: parameter settings and operation
// costs (SecSyWiSe with RSA-1024 signatures).
type Variant struct {
	Name        string
	Description string
	Set         []Setting
	Costs       map[string]string // operation name -> cost table key
	// costPos locates each of Costs in the file, for errors.
	costPos map[string]string
}

// Setting is a parameter value.
type Setting struct {
	Param string
	Value float64
}

// Binding says which measured metric an output of the model is compared
// with (model compare --measured).
type Binding struct {
	Output string
	// Variant limits the binding to one variant ("" for all).
	Variant  string
	Selector Selector
	Note     string
}

// Selector picks a metric from a run: results of Kind whose subject name
// matches the Subject glob and whose Params match, metric Metric.
// {variant} and {PARAM} in Subject and Params are replaced by the
// variant's name and the parameter's value.
type Selector struct {
	Kind    string
	Subject string
	Params  map[string]string
	Metric  string
}

// Param returns the parameter named name, or nil.
func (m *Model) Param(name string) *Param {
	for _, p := range m.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Variant returns the variant named name (case-insensitive), or nil.
func (m *Model) Variant(name string) *Variant {
	for _, v := range m.Variants {
		if strings.EqualFold(v.Name, name) {
			return v
		}
	}
	return nil
}

// ParamNames lists the parameters, for messages.
func (m *Model) ParamNames() []string {
	var out []string
	for _, p := range m.Params {
		out = append(out, p.Name)
	}
	return out
}

// VariantNames lists the variants, for messages.
func (m *Model) VariantNames() []string {
	var out []string
	for _, v := range m.Variants {
		out = append(out, v.Name)
	}
	return out
}

// Check reports whether v is an allowed value of p.
func (p *Param) Check(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("parameter %s: %v is not a number", p.Name, v)
	}
	if p.Integer && v != math.Trunc(v) {
		return fmt.Errorf("parameter %s must be a whole number, not %s", p.Name, formatNumber(v))
	}
	if p.HasRange && (v < p.Min || v > p.Max) {
		return fmt.Errorf("parameter %s = %s is outside its range %s..%s", p.Name, formatNumber(v), formatNumber(p.Min), formatNumber(p.Max))
	}
	return nil
}

// RangeString is "2..14", or "" without a range.
func (p *Param) RangeString() string {
	if !p.HasRange {
		return ""
	}
	return formatNumber(p.Min) + ".." + formatNumber(p.Max)
}

// formatNumber prints v compactly: 2.5, 20, 0.000153, 1e+06.
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// quantityValue converts a quantity to unit when both are catalog units;
// a quantity without a unit is taken to be in unit already.
func quantityValue(q catalog.Quantity, unit string) (float64, error) {
	if q.Unit == "" || q.Unit == unit || unit == "" {
		return q.Value, nil
	}
	v, err := q.In(unit)
	if err != nil {
		return 0, fmt.Errorf("%v: the parameter's unit is %s", err, unit)
	}
	return v, nil
}
