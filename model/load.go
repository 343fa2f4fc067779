package model

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/registry"
)

// modelNameRE is what a model's name must look like: it becomes part of
// result subject names and the CLI's NAME argument.
var modelNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Parse reads a model file (YAML or JSON) and compiles it. Every error
// names the file and line and says what would work.
func Parse(file string, data []byte) (*Model, error) {
	var mf modelFile
	node, err := catalog.Parse(file, data, &mf)
	if err != nil {
		return nil, err
	}
	l := &loader{file: file, node: node, mf: &mf}
	return l.load()
}

type loader struct {
	file string
	node *catalog.Node
	mf   *modelFile
	m    *Model
	// defs are the definitions by name with their parsed expressions.
	defs map[string]*pendingDef
}

type pendingDef struct {
	name  string
	expr  *expression
	text  exprText
	field string
}

// errAt is an error at an explicit line (expressions and ordered mapping
// entries know theirs).
func (l *loader) errAt(line int, field, format string, args ...any) error {
	if line > 0 {
		return fmt.Errorf("%s:%d: %s: %s", l.file, line, field, fmt.Sprintf(format, args...))
	}
	return l.node.Errorf(field, format, args...)
}

func (l *loader) load() (*Model, error) {
	mf := l.mf
	m := &Model{Name: mf.Name, Title: mf.Title, Description: strings.TrimSpace(mf.Description), Source: mf.Source,
		Per: mf.Per, DefaultCosts: mf.Costs, File: l.file, Assumptions: mf.Assumptions, slots: map[string]int{}}
	l.m = m
	if m.Name == "" {
		return nil, l.node.Errorf("name", "a model needs a name (letters, digits, - _ .), such as name: my-protocol")
	}
	if !modelNameRE.MatchString(m.Name) {
		return nil, l.node.Errorf("name", "bad model name %q: use letters, digits, - _ and . (such as my-protocol)", m.Name)
	}
	if err := l.params(); err != nil {
		return nil, err
	}
	if err := l.definitions(); err != nil {
		return nil, err
	}
	if err := l.messages(); err != nil {
		return nil, err
	}
	if err := l.operations(); err != nil {
		return nil, err
	}
	if len(m.Messages) == 0 && len(m.Operations) == 0 {
		return nil, l.node.Errorf("messages", "the model has no messages and no operations: it would cost nothing")
	}
	if err := l.variants(); err != nil {
		return nil, err
	}
	if err := l.measured(); err != nil {
		return nil, err
	}
	return m, nil
}

func (l *loader) params() error {
	m := l.m
	for _, e := range l.mf.Parameters {
		field := "parameters." + e.Name
		if err := checkName(e.Name); err != nil {
			return l.errAt(e.Line, field, "%v", err)
		}
		ps := e.Value
		p := &Param{Name: e.Name, Description: ps.Description, Unit: ps.Unit, Integer: ps.Integer, Values: ps.Values, line: e.Line}
		if ps.Default == nil {
			return l.errAt(e.Line, field, "parameter %s has no default: add default: VALUE (a number, or \"249 B [source]\" for a fact)", e.Name)
		}
		if p.Unit == "" {
			p.Unit = ps.Default.Unit
		}
		v, err := quantityValue(*ps.Default, p.Unit)
		if err != nil {
			return l.node.Errorf(field+".default", "%v", err)
		}
		p.Default, p.DefaultSource = v, ps.Default.Source
		if ps.Range != "" {
			lo, hi, err := parseRange(ps.Range)
			if err != nil {
				return l.node.Errorf(field+".range", "%v", err)
			}
			p.Min, p.Max, p.HasRange = lo, hi, true
		}
		if err := p.Check(p.Default); err != nil {
			return l.node.Errorf(field+".default", "%v", err)
		}
		for i, v := range p.Values {
			if err := p.Check(v); err != nil {
				return l.node.Errorf(fmt.Sprintf("%s.values.%d", field, i), "%v", err)
			}
		}
		if ps.From != nil {
			s, err := l.selector(*ps.From, field+".from")
			if err != nil {
				return err
			}
			p.From = &s
		}
		if m.Param(p.Name) != nil {
			return l.errAt(e.Line, field, "parameter %s is declared twice", p.Name)
		}
		p.slot = m.nslots
		m.slots[p.Name] = p.slot
		m.nslots++
		m.Params = append(m.Params, p)
	}
	return nil
}

// definitions parses the define section, checks names, and orders the
// definitions so each comes after those it uses (refusing loops).
func (l *loader) definitions() error {
	m := l.m
	l.defs = map[string]*pendingDef{}
	var order []string
	for _, e := range l.mf.Define {
		field := "define." + e.Name
		if err := checkName(e.Name); err != nil {
			return l.errAt(e.Line, field, "%v", err)
		}
		if m.Param(e.Name) != nil {
			return l.errAt(e.Line, field, "%s is both a parameter and a definition: rename one", e.Name)
		}
		if l.defs[e.Name] != nil {
			return l.errAt(e.Line, field, "%s is defined twice", e.Name)
		}
		x, err := parseExpression(e.Value.Text)
		if err != nil {
			return l.errAt(e.Value.Line, field, "%v", err)
		}
		l.defs[e.Name] = &pendingDef{name: e.Name, expr: x, text: e.Value, field: field}
		order = append(order, e.Name)
	}
	for _, name := range order {
		d := l.defs[name]
		if err := l.checkNames(d.expr, d.text, d.field); err != nil {
			return err
		}
	}
	sorted, err := l.topoSort(order)
	if err != nil {
		return err
	}
	for _, name := range sorted {
		m.slots[name] = m.nslots
		m.nslots++
	}
	for _, name := range sorted {
		d := l.defs[name]
		f, err := l.formula(d.expr, d.text, d.field)
		if err != nil {
			return err
		}
		m.Definitions = append(m.Definitions, &Definition{Name: name, Formula: f, slot: m.slots[name]})
	}
	return nil
}

// topoSort orders definitions so that each follows those it refers to; a
// loop is an error naming its members.
func (l *loader) topoSort(order []string) ([]string, error) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[string]int{}
	var out, stack []string
	var visit func(name string) error
	visit = func(name string) error {
		switch state[name] {
		case done:
			return nil
		case visiting:
			i := slices.Index(stack, name)
			loop := append(slices.Clone(stack[i:]), name)
			d := l.defs[loop[0]]
			return l.errAt(d.text.Line, d.field, "definitions refer to each other in a loop: %s; define one of them without the others (from parameters and numbers)", strings.Join(loop, " → "))
		}
		state[name] = visiting
		stack = append(stack, name)
		for _, ref := range l.defs[name].expr.names {
			if l.defs[ref] != nil {
				if err := visit(ref); err != nil {
					return err
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done
		out = append(out, name)
		return nil
	}
	for _, name := range order {
		if err := visit(name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// knownNames lists the names expressions may use, for messages.
func (l *loader) knownNames() []string {
	names := l.m.ParamNames()
	for name := range l.defs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// checkNames refuses names that are neither parameters nor definitions.
func (l *loader) checkNames(x *expression, t exprText, field string) error {
	for _, name := range x.names {
		if l.m.Param(name) != nil || l.defs[name] != nil {
			continue
		}
		msg := fmt.Sprintf("unknown name %s in %q", name, t.Text)
		if c := closest(name, l.knownNames()); c != "" {
			msg += fmt.Sprintf("; did you mean %s?", c)
		}
		known := l.knownNames()
		if len(known) == 0 {
			msg += " (the model declares no parameters or definitions: add it under parameters: or define:)"
		} else {
			msg += fmt.Sprintf(" (known: %s; declare new ones under parameters: or define:)", strings.Join(known, ", "))
		}
		return l.errAt(t.Line, field, "%s", msg)
	}
	return nil
}

// formula compiles a checked expression.
func (l *loader) formula(x *expression, t exprText, field string) (*Formula, error) {
	fn, err := x.compile(func(name string) int {
		if i, ok := l.m.slots[name]; ok {
			return i
		}
		return -1
	})
	if err != nil { // an unknown name, or a constant division by zero
		return nil, l.errAt(t.Line, field, "%v", err)
	}
	f := &Formula{Text: t.Text, Field: field, Line: t.Line, fn: fn}
	if name := x.bareName(); name != "" {
		f.direct = l.m.slots[name] + 1
	}
	return f, nil
}

// expr parses, checks and compiles one expression field.
func (l *loader) expr(t *exprText, field, deflt string) (*Formula, error) {
	if t == nil {
		if deflt == "" {
			return nil, nil
		}
		t = &exprText{Text: deflt}
	}
	x, err := parseExpression(t.Text)
	if err != nil {
		return nil, l.errAt(t.Line, field, "%v", err)
	}
	if err := l.checkNames(x, *t, field); err != nil {
		return nil, err
	}
	return l.formula(x, *t, field)
}

func (l *loader) messages() error {
	m, pk := l.m, l.mf.Packet
	seen := map[string]bool{}
	for i, ms := range l.mf.Messages {
		field := fmt.Sprintf("messages.%d", i)
		if ms.Name == "" {
			return l.node.Errorf(field, "a message needs a name: such as name: request")
		}
		if seen[ms.Name] {
			return l.node.Errorf(field+".name", "message %s is declared twice", ms.Name)
		}
		seen[ms.Name] = true
		msg := &Message{Name: ms.Name, Description: ms.Description}
		switch strings.ToLower(ms.Dir) {
		case "send", "sent", "tx":
			msg.Send = true
		case "receive", "received", "rx":
		case "":
			return l.node.Errorf(field, "message %s needs dir: send or dir: receive", ms.Name)
		default:
			return l.node.Errorf(field+".dir", "dir %q: want send or receive", ms.Dir)
		}
		if ms.Bits == nil {
			return l.node.Errorf(field, "message %s needs bits: SIZE (an expression in bits, such as 8 * 40 or payload_bits + 16)", ms.Name)
		}
		var err error
		if msg.Bits, err = l.expr(ms.Bits, field+".bits", ""); err != nil {
			return err
		}
		if msg.Count, err = l.expr(ms.Count, field+".count", "1"); err != nil {
			return err
		}
		overhead, maxPayload := ms.Overhead, ms.MaxPayload
		ofield, mfield := field+".overhead", field+".max_payload"
		if overhead == nil && pk.Overhead != nil {
			overhead, ofield = pk.Overhead, "packet.overhead"
		}
		if maxPayload == nil && pk.MaxPayload != nil && ms.Packets == nil {
			maxPayload, mfield = pk.MaxPayload, "packet.max_payload"
		}
		if msg.Overhead, err = l.expr(overhead, ofield, ""); err != nil {
			return err
		}
		ack, afield := ms.Ack, field+".ack"
		if ack == nil && pk.Ack != nil {
			ack, afield = pk.Ack, "packet.ack"
		}
		if msg.Ack, err = l.expr(ack, afield, ""); err != nil {
			return err
		}
		if ms.Packets != nil && ms.MaxPayload != nil {
			return l.node.Errorf(field+".packets", "give packets: or max_payload:, not both (packets: is an explicit packet count per message)")
		}
		if msg.MaxPayload, err = l.expr(maxPayload, mfield, ""); err != nil {
			return err
		}
		if msg.Packets, err = l.expr(ms.Packets, field+".packets", ""); err != nil {
			return err
		}
		msg.Fragment = pk.Fragment
		if ms.Fragment != nil {
			msg.Fragment = *ms.Fragment
		}
		frag := []struct {
			dst        **Formula
			own, deflt *exprText
			name       string
		}{
			{&msg.FragmentFirst, ms.FragmentFirst, pk.FragmentFirst, "fragment_first"},
			{&msg.FragmentNext, ms.FragmentNext, pk.FragmentNext, "fragment_next"},
			{&msg.FragmentHeaderFirst, ms.FragmentHeaderFirst, pk.FragmentHeaderFirst, "fragment_header_first"},
			{&msg.FragmentHeaderNext, ms.FragmentHeaderNext, pk.FragmentHeaderNext, "fragment_header_next"},
		}
		for _, fr := range frag {
			t, fld := fr.own, field+"."+fr.name
			if t == nil {
				t, fld = fr.deflt, "packet."+fr.name
			}
			if t == nil {
				continue
			}
			if ms.Packets != nil {
				return l.node.Errorf(field+".packets", "packets: is an explicit count: it cannot be combined with %s", fr.name)
			}
			if *fr.dst, err = l.expr(t, fld, ""); err != nil {
				return err
			}
		}
		if msg.Fragment && msg.MaxPayload == nil && msg.Packets == nil {
			return l.node.Errorf(field+".fragment", "fragment: true needs max_payload: BITS (here or under packet:)")
		}
		if !msg.Fragment && (msg.FragmentFirst != nil || msg.FragmentNext != nil || msg.FragmentHeaderFirst != nil || msg.FragmentHeaderNext != nil) {
			return l.node.Errorf(field, "fragment_first, fragment_next and fragment headers need fragment: true (here or under packet:)")
		}
		m.Messages = append(m.Messages, msg)
	}
	return nil
}

func (l *loader) operations() error {
	m := l.m
	seen := map[string]bool{}
	for i, os := range l.mf.Operations {
		field := fmt.Sprintf("operations.%d", i)
		if os.Name == "" {
			return l.node.Errorf(field, "an operation needs a name: such as name: verify")
		}
		if seen[os.Name] {
			return l.node.Errorf(field+".name", "operation %s is declared twice", os.Name)
		}
		seen[os.Name] = true
		op := &Operation{Name: os.Name, Description: os.Description, Cost: os.Cost, pos: l.pos(field + ".cost")}
		if op.Cost == "" {
			op.Cost = os.Name
		}
		var err error
		if op.Count, err = l.expr(os.Count, field+".count", "1"); err != nil {
			return err
		}
		m.Operations = append(m.Operations, op)
	}
	return nil
}

func (l *loader) variants() error {
	m := l.m
	for i, vs := range l.mf.Variants {
		field := fmt.Sprintf("variants.%d", i)
		if vs.Name == "" {
			return l.node.Errorf(field, "a variant needs a name: such as name: RSA-1024")
		}
		if strings.ContainsAny(vs.Name, "/,") {
			return l.node.Errorf(field+".name", "variant name %q may not contain / or ,", vs.Name)
		}
		if m.Variant(vs.Name) != nil {
			return l.node.Errorf(field+".name", "variant %s is declared twice", vs.Name)
		}
		v := &Variant{Name: vs.Name, Description: vs.Description, Costs: vs.Costs, costPos: map[string]string{}}
		for op := range vs.Costs {
			v.costPos[op] = l.pos(field + ".costs." + op)
		}
		for _, e := range vs.Set {
			p := m.Param(e.Name)
			if p == nil {
				return l.errAt(e.Line, field+".set."+e.Name, "variant %s sets %s, which is not a parameter (parameters: %s)", vs.Name, e.Name, strings.Join(m.ParamNames(), ", "))
			}
			x, err := quantityValue(e.Value, p.Unit)
			if err != nil {
				return l.errAt(e.Line, field+".set."+e.Name, "%v", err)
			}
			if err := p.Check(x); err != nil {
				return l.errAt(e.Line, field+".set."+e.Name, "%v", err)
			}
			v.Set = append(v.Set, Setting{Param: e.Name, Value: x})
		}
		for op := range vs.Costs {
			if !slices.ContainsFunc(m.Operations, func(o *Operation) bool { return o.Name == op }) {
				var names []string
				for _, o := range m.Operations {
					names = append(names, o.Name)
				}
				return l.node.Errorf(field+".costs."+op, "variant %s prices operation %s, which the model does not have (operations: %s)", vs.Name, op, strings.Join(names, ", "))
			}
		}
		m.Variants = append(m.Variants, v)
	}
	return nil
}

func (l *loader) selector(s selectorSpec, field string) (Selector, error) {
	if s.Metric == "" {
		return Selector{}, l.node.Errorf(field, "a measurement selector needs metric: NAME (such as bytes-up)")
	}
	if s.Subject == "" && s.Kind == "" && len(s.Params) == 0 {
		return Selector{}, l.node.Errorf(field, "a measurement selector needs subject: GLOB, kind: or params: to say which results to read")
	}
	return Selector(s), nil
}

func (l *loader) measured() error {
	for i, ms := range l.mf.Measured {
		field := fmt.Sprintf("measured.%d", i)
		if outputByName(ms.Output) == nil {
			return l.node.Errorf(field+".output", "unknown output %q: want one of %s", ms.Output, strings.Join(OutputNames(), ", "))
		}
		s, err := l.selector(ms.selectorSpec, field)
		if err != nil {
			return err
		}
		if ms.Variant != "" && l.m.Variant(ms.Variant) == nil {
			return l.node.Errorf(field+".variant", "no variant %q (variants: %s)", ms.Variant, strings.Join(l.m.VariantNames(), ", "))
		}
		l.m.Measured = append(l.m.Measured, &Binding{Output: ms.Output, Variant: ms.Variant, Selector: s, Note: ms.Note})
	}
	return nil
}

// pos is "file:line: field" for the dotted path, as errors start.
func (l *loader) pos(field string) string {
	return strings.TrimSuffix(l.node.Errorf(field, "-").Error(), ": -")
}

// parseRange parses "LO..HI" with both ends given.
func parseRange(s string) (lo, hi float64, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "..")
	if !ok {
		return 0, 0, fmt.Errorf("bad range %q: want LOW..HIGH, such as 2..14", s)
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == "" || b == "" {
		return 0, 0, fmt.Errorf("range %q has no %s: write both ends, such as 2..14", s, map[bool]string{true: "start", false: "end"}[a == ""])
	}
	lo, err1 := parseNumber(a)
	hi, err2 := parseNumber(b)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, fmt.Errorf("bad range %q: %v", s, err)
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("range %q runs backwards: write %s..%s", s, b, a)
	}
	return lo, hi, nil
}

// closest returns the name nearest to s (internal/registry's rule), if
// near enough.
func closest(s string, names []string) string {
	cands := make([]registry.Candidate, len(names))
	for i, n := range names {
		cands[i] = registry.Candidate{Name: n}
	}
	if c := registry.Closest(s, cands, 1); len(c) > 0 {
		return c[0]
	}
	return ""
}

// finite reports whether v is a usable number.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
