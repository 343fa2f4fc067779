package model

import (
	"embed"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/registry"
	"go.yaml.in/yaml/v3"
)

// The built-in models and cost tables are YAML files embedded in the
// binary: adding one is adding a file to models/ or costs/.
//
//go:embed models/*.yaml costs/*.yaml reference/*.json
var builtinFS embed.FS

var builtins struct {
	once   sync.Once
	models *registry.Registry[*Model]     // by name, in name order
	costs  *registry.Registry[*CostTable] // by name, in name order
	err    error
}

func loadBuiltins() {
	b := &builtins
	b.models, b.costs = registry.New[*Model]("model"), registry.New[*CostTable]("cost table")
	var models []*Model
	var costs []*CostTable
	files, err := catalog.Files(builtinFS, "models")
	if err != nil {
		b.err = err
		return
	}
	for _, f := range files {
		data, _ := builtinFS.ReadFile(f)
		m, err := Parse("builtin:"+f, data)
		if err != nil {
			b.err = fmt.Errorf("built-in model: %w", err)
			return
		}
		models = append(models, m)
	}
	files, err = catalog.Files(builtinFS, "costs")
	if err != nil {
		b.err = err
		return
	}
	for _, f := range files {
		data, _ := builtinFS.ReadFile(f)
		t, err := ParseCostTable("builtin:"+f, data)
		if err != nil {
			b.err = fmt.Errorf("built-in cost table: %w", err)
			return
		}
		costs = append(costs, t)
	}
	sort.Slice(models, func(i, j int) bool { return models[i].Name < models[j].Name })
	sort.Slice(costs, func(i, j int) bool { return costs[i].Name < costs[j].Name })
	for _, m := range models {
		if b.err = b.models.Add(m.Name, m); b.err != nil {
			return
		}
	}
	for _, t := range costs {
		if b.err = b.costs.Add(t.Name, t); b.err != nil {
			return
		}
	}
}

func builtinState() error {
	builtins.once.Do(loadBuiltins)
	return builtins.err
}

// Builtins returns the built-in models, sorted by name.
func Builtins() ([]*Model, error) {
	if err := builtinState(); err != nil {
		return nil, err
	}
	return builtins.models.Values(), nil
}

// BuiltinCostTables returns the built-in cost tables, sorted by name.
func BuiltinCostTables() ([]*CostTable, error) {
	if err := builtinState(); err != nil {
		return nil, err
	}
	return builtins.costs.Values(), nil
}

// BuiltinSource returns the YAML text of a built-in model or cost table.
func BuiltinSource(file string) ([]byte, error) {
	return builtinFS.ReadFile(strings.TrimPrefix(file, "builtin:"))
}

// Open returns the built-in model named arg, or reads arg as a model file.
// A name that is neither says which names and files would work.
func Open(arg string) (*Model, error) {
	if err := builtinState(); err != nil {
		return nil, err
	}
	if m, ok := builtins.models.Lookup(arg); ok {
		return m, nil
	}
	if looksLikeFile(arg) {
		data, err := readFile(arg)
		if err != nil {
			return nil, err
		}
		return Parse(arg, data)
	}
	names := builtinNames()
	msg := fmt.Sprintf("no model %q: give a model file (.yaml or .json) or a built-in model (%s)", arg, strings.Join(names, ", "))
	if c := closest(arg, names); c != "" {
		msg = fmt.Sprintf("no model %q; did you mean %s? Give a model file (.yaml or .json) or a built-in model (%s)", arg, c, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%s", msg)
}

// OpenCosts returns the built-in cost table named arg, or reads arg as a
// cost table file.
func OpenCosts(arg string) (*CostTable, error) {
	if err := builtinState(); err != nil {
		return nil, err
	}
	if t, ok := builtins.costs.Lookup(arg); ok {
		return t, nil
	}
	if looksLikeFile(arg) {
		data, err := readFile(arg)
		if err != nil {
			return nil, err
		}
		return ParseCostTable(arg, data)
	}
	names := builtins.costs.Names()
	return nil, fmt.Errorf("no cost table %q: give a cost table file (.yaml or .json) or a built-in one (%s)", arg, strings.Join(names, ", "))
}

func builtinNames() []string { return builtins.models.Names() }

// maxFileBytes caps model and cost table files: they are written by hand,
// and a larger one is a mistake (or hostile).
const maxFileBytes = 1 << 20

// readFile reads a user's model or cost table file, refusing huge ones
// before reading them.
func readFile(name string) ([]byte, error) {
	if st, err := os.Stat(name); err == nil && st.Size() > maxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes is too large for a model or cost table (at most %d)", name, st.Size(), maxFileBytes)
	}
	return catalog.ReadUserFile(name)
}

// looksLikeFile reports whether arg names a file rather than a built-in.
func looksLikeFile(arg string) bool {
	if strings.ContainsAny(arg, `/\`) {
		return true
	}
	switch strings.ToLower(path.Ext(arg)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

// OpenAny opens a model or a cost table (for model show): built-in names
// first, then a file, told apart by its content (a cost table has radio:,
// cpu: or operations: as a mapping; a model has messages: or operations:
// as a list).
func OpenAny(arg string) (*Model, *CostTable, error) {
	if err := builtinState(); err != nil {
		return nil, nil, err
	}
	if !looksLikeFile(arg) {
		if m, err := Open(arg); err == nil {
			return m, nil, nil
		}
		if t, err := OpenCosts(arg); err == nil {
			return nil, t, nil
		}
		costs := builtins.costs.Names()
		return nil, nil, fmt.Errorf("no model or cost table %q: built-in models are %s; cost tables %s; or give a file", arg,
			strings.Join(builtinNames(), ", "), strings.Join(costs, ", "))
	}
	data, err := readFile(arg)
	if err != nil {
		return nil, nil, err
	}
	var top map[string]yaml.Node
	if err := yaml.Unmarshal(data, &top); err == nil {
		ops, hasOps := top["operations"]
		_, hasRadio := top["radio"]
		_, hasCPU := top["cpu"]
		if hasRadio || hasCPU || (hasOps && ops.Kind == yaml.MappingNode) {
			t, err := ParseCostTable(arg, data)
			return nil, t, err
		}
	}
	m, err := Parse(arg, data)
	return m, nil, err
}

// BuiltinNames are the built-in models' names, from their registry (nil
// if a built-in file is broken, which the package's tests catch).
func BuiltinNames() []string {
	if builtinState() != nil {
		return nil
	}
	return builtinNames()
}

// CostTableNames are the built-in cost tables' names, from their registry.
func CostTableNames() []string {
	if builtinState() != nil {
		return nil
	}
	return builtins.costs.Names()
}
