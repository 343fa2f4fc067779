package model

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"go.yaml.in/yaml/v3"
)

// The model file format, as decoded from YAML (docs/model.md is the
// reference). Validation and compilation are in load.go.

type modelFile struct {
	Name        string             `yaml:"name"`
	Title       string             `yaml:"title"`
	Description string             `yaml:"description"`
	Source      string             `yaml:"source"`
	Per         string             `yaml:"per"`
	Costs       string             `yaml:"costs"`
	Parameters  ordered[paramSpec] `yaml:"parameters"`
	Define      ordered[exprText]  `yaml:"define"`
	Packet      packetSpec         `yaml:"packet"`
	Messages    []messageSpec      `yaml:"messages"`
	Operations  []operationSpec    `yaml:"operations"`
	Variants    []variantSpec      `yaml:"variants"`
	Assumptions []string           `yaml:"assumptions"`
	Measured    []measuredSpec     `yaml:"measured"`
}

type paramSpec struct {
	Default     *catalog.Quantity `yaml:"default"`
	Unit        string            `yaml:"unit"`
	Range       string            `yaml:"range"`
	Values      []float64         `yaml:"values"`
	Integer     bool              `yaml:"integer"`
	Description string            `yaml:"description"`
	From        *selectorSpec     `yaml:"from"`
}

type packetSpec struct {
	Overhead     *exprText `yaml:"overhead"`
	Ack          *exprText `yaml:"ack"`
	MaxPayload   *exprText `yaml:"max_payload"`
	Fragment     bool      `yaml:"fragment"`
	fragmentSpec `yaml:",inline"`
}

// fragmentSpec describes fragments that carry less than max_payload or add
// their own headers (6LoWPAN FRAG1/FRAGN, RFC 4944 §5.3).
type fragmentSpec struct {
	FragmentFirst       *exprText `yaml:"fragment_first"`
	FragmentNext        *exprText `yaml:"fragment_next"`
	FragmentHeaderFirst *exprText `yaml:"fragment_header_first"`
	FragmentHeaderNext  *exprText `yaml:"fragment_header_next"`
}

type messageSpec struct {
	Name         string    `yaml:"name"`
	Description  string    `yaml:"description"`
	Dir          string    `yaml:"dir"`
	Bits         *exprText `yaml:"bits"`
	Count        *exprText `yaml:"count"`
	Overhead     *exprText `yaml:"overhead"`
	Ack          *exprText `yaml:"ack"`
	MaxPayload   *exprText `yaml:"max_payload"`
	Fragment     *bool     `yaml:"fragment"`
	Packets      *exprText `yaml:"packets"`
	fragmentSpec `yaml:",inline"`
}

type operationSpec struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Cost        string    `yaml:"cost"`
	Count       *exprText `yaml:"count"`
}

type variantSpec struct {
	Name        string                    `yaml:"name"`
	Description string                    `yaml:"description"`
	Set         ordered[catalog.Quantity] `yaml:"set"`
	Costs       map[string]string         `yaml:"costs"`
}

// selectorSpec picks one metric of one result in a run: a parameter's
// measured value (--inputs) or the measurement an output is compared with
// (--measured).
type selectorSpec struct {
	Kind    string            `yaml:"kind"`
	Subject string            `yaml:"subject"`
	Params  map[string]string `yaml:"params"`
	Metric  string            `yaml:"metric"`
}

type measuredSpec struct {
	Output       string `yaml:"output"`
	Variant      string `yaml:"variant"`
	selectorSpec `yaml:",inline"`
	Note         string `yaml:"note"`
}

// exprText is an expression as written in the file, with its line.
type exprText struct {
	Text string
	Line int
}

func (e *exprText) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want an expression (a number or a formula such as \"8 * payload_bytes\"), not a %s", n.Line, kindName(n))
	}
	e.Text, e.Line = n.Value, n.Line
	return nil
}

// ordered is a YAML mapping kept in file order, each value with its line.
type ordered[T any] []entry[T]

type entry[T any] struct {
	Name  string
	Value T
	Line  int
}

func (o *ordered[T]) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping of names to values, not a %s", n.Line, kindName(n))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var e entry[T]
		e.Name, e.Line = k.Value, k.Line
		if err := strictDecode(v, &e.Value); err != nil {
			return err
		}
		*o = append(*o, e)
	}
	return nil
}

// strictDecode is n.Decode(v) refusing unknown fields, as the top-level
// decoder does: yaml.v3 does not carry KnownFields into custom
// unmarshalers, so ordered mappings check their values' keys here.
func strictDecode(n *yaml.Node, v any) error {
	if err := checkFields(n, reflect.TypeOf(v)); err != nil {
		return err
	}
	return n.Decode(v)
}

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// checkFields refuses mapping keys that name no field of t, recursively.
func checkFields(n *yaml.Node, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		if reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(unmarshalerType) {
			return nil
		}
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil // the type checks its own fields
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := map[string]reflect.Type{}
		collectFields(t, fields)
		for i := 0; i+1 < len(n.Content); i += 2 {
			ft, ok := fields[n.Content[i].Value]
			if !ok {
				return fmt.Errorf("line %d: field %s not found in type %s", n.Content[i].Line, n.Content[i].Value, "model."+t.Name())
			}
			if err := checkFields(n.Content[i+1], ft); err != nil {
				return err
			}
		}
	case (t.Kind() == reflect.Slice) && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if err := checkFields(c, t.Elem()); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if err := checkFields(n.Content[i], t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

func collectFields(t reflect.Type, into map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			collectFields(f.Type, into)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		into[name] = f.Type
	}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "value"
}
