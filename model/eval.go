package model

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Outputs are what one node spends per unit of work at one point of a
// model: bits and packets each way, radio and computation time, energy.
// Times are in seconds and energies in joules; Output converts them to
// the reported units.
type Outputs struct {
	BitsSent, BitsReceived       float64
	PacketsSent, PacketsReceived float64
	// PayloadSent and PayloadReceived are the messages' own bits, without
	// packet overhead, fragment headers or acknowledgements.
	PayloadSent, PayloadReceived float64
	TimeTx, TimeRx, TimeOps      float64
	EnergyTx, EnergyRx           float64
	// EnergyOps is NaN when an operation's cost has no energy.
	EnergyOps float64
	Messages  []MessageOutput
	Ops       []OpOutput
}

// MessageOutput is one message event at a point.
type MessageOutput struct {
	Bits     float64 // per message, without per-packet overhead
	Count    float64 // messages per unit of work
	Packets  float64 // packets per message
	Overhead float64 // bits per packet
	// FragmentHeaders are the fragment header bits per message.
	FragmentHeaders float64
	WireBits        float64 // Count × (Bits + FragmentHeaders + Packets × Overhead)
	// AckBits are the acknowledgements of the message's packets, in the
	// other direction: Count × Packets × ack size.
	AckBits float64
	// PayloadBits are Count × Bits: the protocol's own bytes, without
	// packet overhead, fragment headers or acknowledgements.
	PayloadBits float64
}

// OpOutput is one operation at a point.
type OpOutput struct {
	Count        float64
	TimeSeconds  float64 // Count × time of one
	EnergyJoules float64 // Count × energy of one (NaN if unknown)
}

// TimeTotal is radio time plus computation time, in seconds.
func (o *Outputs) TimeTotal() float64 { return o.TimeTx + o.TimeRx + o.TimeOps }

// EnergyTotal is TX + RX + operations, in joules (NaN if an operation's
// energy is unknown).
func (o *Outputs) EnergyTotal() float64 { return o.EnergyTx + o.EnergyRx + o.EnergyOps }

// Output is a quantity a model reports, in its reporting unit.
type Output struct {
	Name string
	// Unit is the base unit the value is in (the result vocabulary's).
	Unit        string
	Description string
	Value       func(*Outputs) float64
}

// Display is the unit tables and plots show the output in: S003 reported
// energies in mJ and times in ms.
func (o Output) Display() string {
	switch o.Unit {
	case "J":
		return "mJ"
	case "s":
		return "ms"
	}
	return o.Unit
}

// Shown is v (in the base unit) in the display unit.
func (o Output) Shown(v float64) float64 { return result.ConvertTo(v, o.Unit, o.Display()) }

// outputs are the model outputs, in reporting order. Metric names follow
// the result model's: energy and time per node per unit of work.
var outputs = []Output{
	{"energy", "J", "energy per node: radio TX + RX + operations", func(o *Outputs) float64 { return o.EnergyTotal() }},
	{"time", "s", "time per node: radio busy sending and receiving + operations", func(o *Outputs) float64 { return o.TimeTotal() }},
	{"bits-sent", "bit", "bits sent: messages with their packet overhead and fragment headers, and acknowledgements of packets received", func(o *Outputs) float64 { return o.BitsSent }},
	{"bits-received", "bit", "bits received: messages with their packet overhead and fragment headers, and acknowledgements of packets sent", func(o *Outputs) float64 { return o.BitsReceived }},
	{"bytes-sent", "B", "bits sent / 8", func(o *Outputs) float64 { return o.BitsSent / 8 }},
	{"bytes-received", "B", "bits received / 8", func(o *Outputs) float64 { return o.BitsReceived / 8 }},
	{"payload-bytes-sent", "B", "the messages' own bytes sent, without packet overhead, fragment headers or acknowledgements", func(o *Outputs) float64 { return o.PayloadSent / 8 }},
	{"payload-bytes-received", "B", "the messages' own bytes received, without packet overhead, fragment headers or acknowledgements", func(o *Outputs) float64 { return o.PayloadReceived / 8 }},
	{"packets-sent", "packets", "packets sent", func(o *Outputs) float64 { return o.PacketsSent }},
	{"packets-received", "packets", "packets received", func(o *Outputs) float64 { return o.PacketsReceived }},
	{"energy-tx", "J", "radio energy sending", func(o *Outputs) float64 { return o.EnergyTx }},
	{"energy-rx", "J", "radio energy receiving", func(o *Outputs) float64 { return o.EnergyRx }},
	{"energy-ops", "J", "energy of the operations", func(o *Outputs) float64 { return o.EnergyOps }},
	{"time-radio", "s", "radio time sending and receiving", func(o *Outputs) float64 { return o.TimeTx + o.TimeRx }},
	{"time-ops", "s", "time of the operations", func(o *Outputs) float64 { return o.TimeOps }},
}

// OutputList returns the outputs every model reports.
func OutputList() []Output { return append([]Output(nil), outputs...) }

// OutputNames lists the output names, for help and errors.
func OutputNames() []string {
	var out []string
	for _, o := range outputs {
		out = append(out, o.Name)
	}
	return out
}

func outputByName(name string) *Output {
	for i := range outputs {
		if outputs[i].Name == name {
			return &outputs[i]
		}
	}
	return nil
}

// LookupOutput returns the named output, with an error listing the names.
func LookupOutput(name string) (Output, error) {
	if o := outputByName(name); o != nil {
		return *o, nil
	}
	return Output{}, fmt.Errorf("unknown output %q: want one of %s", name, strings.Join(OutputNames(), ", "))
}

// Evaluator evaluates a model priced with given costs. It is not safe for
// concurrent use: it owns the evaluation frame.
type Evaluator struct {
	m     *Model
	radio BitCost
	// ops[v][i] is operation i's cost under variant v.
	ops      [][]OpCost
	opSource [][]string
	variants []*Variant
	fr       frame
}

// NewEvaluator resolves the costs of the model's operations under each of
// variants (nil: the model's operations as declared) before any work, so
// a missing price is an error now, not after a long sweep.
func NewEvaluator(m *Model, c *Costs, variants []*Variant) (*Evaluator, error) {
	ev := &Evaluator{m: m, variants: variants, fr: frame{vals: make([]float64, m.nslots)}}
	if len(ev.variants) == 0 {
		ev.variants = []*Variant{nil}
	}
	if len(m.Messages) > 0 {
		if c.Radio == nil {
			return nil, fmt.Errorf("model %s sends and receives messages, but the costs have no radio: use a cost table with a radio: section (--costs)", m.Name)
		}
		bc, err := c.Radio.BitCost()
		if err != nil {
			return nil, err
		}
		ev.radio = bc
	}
	for _, v := range ev.variants {
		var ops []OpCost
		var srcs []string
		for _, op := range m.Operations {
			key := op.Cost
			if v != nil && v.Costs[op.Name] != "" {
				key = v.Costs[op.Name]
			}
			oc, src, ok := c.OpCost(key)
			if !ok {
				return nil, missingCostError(m, v, op, key, c)
			}
			if math.IsNaN(oc.TimeSeconds) {
				return nil, fmt.Errorf("model %s: operation %s: %s prices %s without a time: add time: to it", m.Name, op.Name, src.Describe(), key)
			}
			ops = append(ops, oc)
			srcs = append(srcs, src.Describe())
		}
		ev.ops = append(ev.ops, ops)
		ev.opSource = append(ev.opSource, srcs)
	}
	return ev, nil
}

func missingCostError(m *Model, v *Variant, op *Operation, key string, c *Costs) error {
	where := ""
	if v != nil {
		where = " (variant " + v.Name + ")"
	}
	names := c.opNames()
	pos := op.pos
	if v != nil && v.costPos[op.Name] != "" {
		pos = v.costPos[op.Name]
	}
	msg := fmt.Sprintf("%s: model %s: operation %s%s needs the cost of %s, which %s does not have", pos, m.Name, op.Name, where, key, describeSources(c))
	for _, s := range c.Ops {
		if x, ok := s.(OpCostExplainer); ok {
			if why := x.WhyNot(key); why != "" {
				msg += " (" + why + ")"
			}
		}
	}
	if cl := closest(key, names); cl != "" {
		msg += fmt.Sprintf("; did you mean %s?", cl)
	}
	if len(names) > 0 {
		msg += fmt.Sprintf(" (priced: %s)", strings.Join(names, ", "))
	}
	return errors.New(msg + "; give a cost table that has it with --costs FILE, or a bench run with --op-times RUN.json")
}

func describeSources(c *Costs) string {
	var s []string
	for _, o := range c.Ops {
		s = append(s, o.Describe())
	}
	if len(s) == 0 {
		return "the costs"
	}
	return strings.Join(s, " or ")
}

// Radio is the per-bit cost the evaluator prices messages with.
func (ev *Evaluator) Radio() BitCost { return ev.radio }

// OpCost is the cost of operation i under variant v.
func (ev *Evaluator) OpCost(v, i int) (OpCost, string) { return ev.ops[v][i], ev.opSource[v][i] }

// EvalError is an evaluation that failed at a point: a division by zero,
// a negative size, a message that does not fit its packet.
type EvalError struct {
	File  string
	Line  int
	Field string
	At    string // the point: "n=2, d=20"
	Err   error
}

func (e *EvalError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.At == "" {
		return fmt.Sprintf("%s: %s: %v", loc, e.Field, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v (at %s)", loc, e.Field, e.Err, e.At)
}

func (e *EvalError) Unwrap() error { return e.Err }

// Eval computes the outputs at the parameter values vals (one per
// m.Params, in order) under the evaluator's variant v. out is reused: its
// slices are resized, not reallocated, so a sweep does not allocate.
func (ev *Evaluator) Eval(v int, vals []float64, out *Outputs) error {
	if ev.evalFast(v, vals, out) {
		return nil
	}
	return ev.evalChecked(v, vals, out)
}

// evalFast is Eval without its errors, for sweeps of millions of points:
// the same arithmetic in the same order as evalChecked, with every check
// folded into one verdict at the end instead of an error at each value.
// It reports false when a check would fail — a fault, a value that is
// not finite, a negative size or count — and then evalChecked, which
// computes the point again (evaluation is pure), says which, where.
// Messages with a maximum payload (fragmentation) go through
// evalChecked's code. TestSweepGolden holds the outputs to those of the
// checked evaluation before this path existed, bit for bit.
func (ev *Evaluator) evalFast(v int, vals []float64, out *Outputs) bool {
	m, fr := ev.m, &ev.fr
	copy(fr.vals, vals)
	fr.fault = nil
	// nonFinite sums x·0 over the values: ±0 while they are finite, NaN
	// once one is ±Inf or NaN.
	nonFinite, negative := 0.0, false
	for _, d := range m.Definitions {
		x := fr.num(d.Formula)
		nonFinite += x * 0
		fr.vals[d.slot] = x
	}
	*out = Outputs{Messages: resize(out.Messages, len(m.Messages)), Ops: resize(out.Ops, len(m.Operations))}
	for i, msg := range m.Messages {
		mo := &out.Messages[i]
		if msg.MaxPayload != nil {
			if ev.message(msg, mo) != nil {
				return false
			}
		} else {
			bits, count := fr.num(msg.Bits), fr.num(msg.Count)
			*mo = MessageOutput{Bits: bits, Count: count, Packets: 1}
			nonFinite += bits*0 + count*0
			negative = negative || bits < 0 || count < 0
			if msg.Overhead != nil {
				mo.Overhead = fr.num(msg.Overhead)
				nonFinite += mo.Overhead * 0
				negative = negative || mo.Overhead < 0
			}
			if msg.Packets != nil {
				mo.Packets = fr.num(msg.Packets)
				nonFinite += mo.Packets * 0
				negative = negative || mo.Packets < 0
			}
			mo.WireBits = mo.Count * (mo.Bits + mo.FragmentHeaders + mo.Packets*mo.Overhead)
			mo.PayloadBits = mo.Count * mo.Bits
			if msg.Ack != nil {
				ack := fr.num(msg.Ack)
				nonFinite += ack * 0
				negative = negative || ack < 0
				mo.AckBits = mo.Count * mo.Packets * ack
			}
		}
		out.count(msg.Send, mo)
	}
	if len(m.Messages) > 0 {
		ev.radioTotals(out)
	}
	for i := range m.Operations {
		n := fr.num(m.Operations[i].Count)
		nonFinite += n * 0
		negative = negative || n < 0
		ev.opTotals(out, v, i, n)
	}
	return !negative && nonFinite == 0 && fr.fault == nil
}

// count adds one message's bits and packets to the totals.
func (out *Outputs) count(send bool, mo *MessageOutput) {
	acks := 0.0
	if mo.AckBits > 0 {
		acks = mo.Count * mo.Packets
	}
	if send {
		out.BitsSent += mo.WireBits
		out.PacketsSent += mo.Count * mo.Packets
		out.PayloadSent += mo.PayloadBits
		out.BitsReceived += mo.AckBits
		out.PacketsReceived += acks
	} else {
		out.BitsReceived += mo.WireBits
		out.PacketsReceived += mo.Count * mo.Packets
		out.PayloadReceived += mo.PayloadBits
		out.BitsSent += mo.AckBits
		out.PacketsSent += acks
	}
}

// radioTotals prices the bits sent and received on the radio.
func (ev *Evaluator) radioTotals(out *Outputs) {
	out.TimeTx = out.BitsSent / ev.radio.RateBitsPerSecond
	out.TimeRx = out.BitsReceived / ev.radio.RateBitsPerSecond
	out.EnergyTx = out.BitsSent * ev.radio.TxJoulesPerBit
	out.EnergyRx = out.BitsReceived * ev.radio.RxJoulesPerBit
}

// opTotals prices operation i, done n times, under variant v.
func (ev *Evaluator) opTotals(out *Outputs, v, i int, n float64) {
	c := &ev.ops[v][i]
	oo := &out.Ops[i]
	*oo = OpOutput{Count: n, TimeSeconds: n * c.TimeSeconds, EnergyJoules: n * c.EnergyJoules}
	if n == 0 {
		oo.EnergyJoules = 0 // an unknown energy done zero times costs nothing
	}
	out.TimeOps += oo.TimeSeconds
	out.EnergyOps += oo.EnergyJoules
}

// evalChecked is Eval checking each value as it is computed, stopping at
// the first that fails with an error naming it and the point.
func (ev *Evaluator) evalChecked(v int, vals []float64, out *Outputs) error {
	m, fr := ev.m, &ev.fr
	copy(fr.vals, vals)
	fr.fault = nil
	for _, d := range m.Definitions {
		x, err := ev.value(d.Formula)
		if err != nil {
			return err
		}
		fr.vals[d.slot] = x
	}
	*out = Outputs{Messages: resize(out.Messages, len(m.Messages)), Ops: resize(out.Ops, len(m.Operations))}
	for i, msg := range m.Messages {
		mo := &out.Messages[i]
		if err := ev.message(msg, mo); err != nil {
			return err
		}
		out.count(msg.Send, mo)
	}
	if len(m.Messages) > 0 {
		ev.radioTotals(out)
	}
	for i, op := range m.Operations {
		n, err := ev.value(op.Count)
		if err != nil {
			return err
		}
		if n < 0 {
			return ev.errorf(op.Count, "operation %s is done %s times: a count must not be negative", op.Name, formatNumber(n))
		}
		ev.opTotals(out, v, i, n)
	}
	return nil
}

func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// message computes one message event into mo (written in place: a
// returned MessageOutput was most of an evaluation's cost).
func (ev *Evaluator) message(msg *Message, mo *MessageOutput) error {
	*mo = MessageOutput{}
	var err error
	if mo.Bits, err = ev.value(msg.Bits); err != nil {
		return err
	}
	if mo.Bits < 0 {
		return ev.errorf(msg.Bits, "message %s is %s bits long: sizes must not be negative", msg.Name, formatNumber(mo.Bits))
	}
	if mo.Count, err = ev.value(msg.Count); err != nil {
		return err
	}
	if mo.Count < 0 {
		return ev.errorf(msg.Count, "message %s is sent %s times: a count must not be negative", msg.Name, formatNumber(mo.Count))
	}
	if msg.Overhead != nil {
		if mo.Overhead, err = ev.value(msg.Overhead); err != nil {
			return err
		}
		if mo.Overhead < 0 {
			return ev.errorf(msg.Overhead, "message %s: per-packet overhead %s bits is negative", msg.Name, formatNumber(mo.Overhead))
		}
	}
	mo.Packets = 1
	switch {
	case msg.Packets != nil:
		if mo.Packets, err = ev.value(msg.Packets); err != nil {
			return err
		}
		if mo.Packets < 0 {
			return ev.errorf(msg.Packets, "message %s: %s packets is negative", msg.Name, formatNumber(mo.Packets))
		}
	case msg.MaxPayload != nil:
		mp, err := ev.value(msg.MaxPayload)
		if err != nil {
			return err
		}
		if mp <= 0 {
			return ev.errorf(msg.MaxPayload, "message %s: max payload %s bits: it must be positive", msg.Name, formatNumber(mp))
		}
		if mo.Bits > mp {
			if !msg.Fragment {
				return ev.errorf(msg.Bits, "message %s is %s bits, more than the maximum payload of %s bits: set fragment: true to split it into packets, or raise max_payload", msg.Name, formatNumber(mo.Bits), formatNumber(mp))
			}
			if err := ev.fragments(msg, mo, mp); err != nil {
				return err
			}
		}
	}
	mo.WireBits = mo.Count * (mo.Bits + mo.FragmentHeaders + mo.Packets*mo.Overhead)
	mo.PayloadBits = mo.Count * mo.Bits
	if msg.Ack != nil {
		ack, err := ev.value(msg.Ack)
		if err != nil {
			return err
		}
		if ack < 0 {
			return ev.errorf(msg.Ack, "message %s: acknowledgement size %s bits is negative", msg.Name, formatNumber(ack))
		}
		mo.AckBits = mo.Count * mo.Packets * ack
	}
	return nil
}

// fragments splits a message larger than its maximum payload mp: the
// first fragment carries FragmentFirst bits of it (default mp), each
// following one FragmentNext (default mp); fragments add their headers.
func (ev *Evaluator) fragments(msg *Message, mo *MessageOutput, mp float64) error {
	first, next := mp, mp
	var err error
	for _, f := range []struct {
		formula *Formula
		dst     *float64
		what    string
	}{{msg.FragmentFirst, &first, "fragment_first"}, {msg.FragmentNext, &next, "fragment_next"}} {
		if f.formula == nil {
			continue
		}
		if *f.dst, err = ev.value(f.formula); err != nil {
			return err
		}
		if *f.dst <= 0 {
			return ev.errorf(f.formula, "message %s: %s is %s bits: a fragment must carry some of the message", msg.Name, f.what, formatNumber(*f.dst))
		}
	}
	mo.Packets = 1 + math.Ceil(math.Max(0, mo.Bits-first)/next)
	var hf, hn float64
	if msg.FragmentHeaderFirst != nil {
		if hf, err = ev.value(msg.FragmentHeaderFirst); err != nil {
			return err
		}
	}
	if msg.FragmentHeaderNext != nil {
		if hn, err = ev.value(msg.FragmentHeaderNext); err != nil {
			return err
		}
	}
	if hf < 0 || hn < 0 {
		return ev.errorf(msg.Bits, "message %s: fragment headers must not be negative", msg.Name)
	}
	mo.FragmentHeaders = hf + (mo.Packets-1)*hn
	return nil
}

// value evaluates a formula, turning faults and non-numbers into errors
// that say where and at which point.
func (ev *Evaluator) value(f *Formula) (float64, error) {
	x := ev.fr.num(f)
	if ev.fr.fault != nil || x-x != 0 { // x − x is NaN for ±Inf and NaN
		return 0, ev.valueError(f, x)
	}
	return x, nil
}

// valueError is value's error, out of its way so that value inlines.
func (ev *Evaluator) valueError(f *Formula, x float64) error {
	if ev.fr.fault != nil {
		return ev.errorf(f, "%v", ev.fr.fault)
	}
	return ev.errorf(f, "%q is %v, not a finite number (an overflow, or a power of a negative number?)", f.Text, x)
}

func (ev *Evaluator) errorf(f *Formula, format string, args ...any) error {
	return &EvalError{File: ev.m.File, Line: f.Line, Field: f.Field, At: ev.pointString(), Err: fmt.Errorf(format, args...)}
}

// pointString describes the current parameter values: "n=2, d=20".
func (ev *Evaluator) pointString() string {
	var parts []string
	for _, p := range ev.m.Params {
		parts = append(parts, p.Name+"="+formatNumber(ev.fr.vals[p.slot]))
	}
	return strings.Join(parts, ", ")
}

// clone returns an evaluator sharing ev's compiled model and costs with a
// frame of its own, for another goroutine: the compiled expressions keep
// no state outside the frame they are given.
func (ev *Evaluator) clone() *Evaluator {
	c := *ev
	c.fr = frame{vals: make([]float64, len(ev.fr.vals))}
	return &c
}
