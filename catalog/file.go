package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Decode reads YAML or JSON (JSON is YAML) from data into v, rejecting
// unknown fields. Errors name the file and line: "telosb.yaml:12: ...".
func Decode(name string, data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return located(name, yamlError(err))
	}
	return nil
}

// located prefixes err with the file name, as "file:line: msg" when err
// starts with a line number.
func located(name string, err error) error {
	msg := err.Error()
	if msg != "" && msg[0] >= '0' && msg[0] <= '9' {
		return fmt.Errorf("%s:%s", name, msg)
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// yamlError rewrites yaml.v3's "line N: msg" errors as "N: msg" so they read
// file:line: msg after the file name.
func yamlError(err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		var msgs []string
		for _, e := range te.Errors {
			msgs = append(msgs, strings.TrimPrefix(e, "line "))
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	return errors.New(strings.TrimPrefix(strings.TrimPrefix(err.Error(), "yaml: "), "line "))
}

// Node locates a field in a decoded file for validation messages: the
// file name and the YAML node tree.
type Node struct {
	File string
	root *yaml.Node
}

// Parse decodes data into v (unknown fields rejected) and keeps the node
// tree so validation errors can point at the line of a field.
func Parse(name string, data []byte, v any) (*Node, error) {
	if err := Decode(name, data, v); err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, located(name, yamlError(err))
	}
	return &Node{File: name, root: &root}, nil
}

// Errorf returns an error for the field at dotted path ("battery.capacity",
// "states.0.current"): "file:line: battery.capacity: message".
func (n *Node) Errorf(field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if n == nil {
		return fmt.Errorf("%s: %s", field, msg)
	}
	if line := n.line(field); line > 0 {
		return fmt.Errorf("%s:%d: %s: %s", n.File, line, field, msg)
	}
	return fmt.Errorf("%s: %s: %s", n.File, field, msg)
}

// line returns the line of the deepest node along path that exists.
func (n *Node) line(field string) int {
	cur := n.root
	if cur.Kind == yaml.DocumentNode && len(cur.Content) > 0 {
		cur = cur.Content[0]
	}
	line := cur.Line
	for _, key := range strings.Split(field, ".") {
		next := child(cur, key)
		if next == nil {
			return line
		}
		cur, line = next, next.Line
	}
	return line
}

func child(n *yaml.Node, key string) *yaml.Node {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		var i int
		if _, err := fmt.Sscan(key, &i); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}

// Files lists the .yaml, .yml and .json files of dir in fsys, sorted.
func Files(fsys fs.FS, dir string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		switch strings.ToLower(path.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				out = append(out, path.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadUserFile reads a user's data file, with an error that says what to do
// when it is missing.
func ReadUserFile(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file (give a path to a .yaml or .json file)", name)
	}
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
	default:
		if !json.Valid(data) && !bytes.Contains(data, []byte(":")) {
			return nil, fmt.Errorf("%s: not YAML or JSON", name)
		}
	}
	return data, nil
}
