package radio

import (
	"embed"
	"fmt"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/result"
	"go.yaml.in/yaml/v3"
)

// builtinFS holds the profiles that ship with cryptocost, one file per
// profile; each number carries its source.
//
//go:embed profiles/*.yaml
var builtinFS embed.FS

// Model is a radio state machine with its parameters, ready to price traces.
type Model interface {
	// Simulate walks the trace (validated first) and returns the timeline
	// and its energy split. It never changes t.
	Simulate(t *result.Trace, opt Options) (*Breakdown, error)
}

// Options change what a simulation covers.
type Options struct {
	// Until extends the simulation, with the radio idle after its tail, to
	// this time since the first packet, so traces of different lengths are
	// compared over the same window (idle paging and beacons included).
	// Zero ends the simulation when the radio is back to idle.
	Until time.Duration
	// Associate adds a WiFi profile's scan and association cost before the
	// first packet (a device that joins the network for this exchange).
	Associate bool
}

// Profile is a named radio model read from a data file.
type Profile struct {
	Name        string
	Aliases     []string
	Technology  string
	Description string
	// Sources are the references the quantities' sources abbreviate.
	Sources []string
	// File is where the profile came from: "builtin:profiles/lte-aro.yaml"
	// or a user's path.
	File string
	// Params lists every quantity of the file, for `radio show`.
	Params []Param
	// Data is the file itself (a template for --radio-file).
	Data  []byte
	Model Model
}

// Param is one quantity of a profile, by its dotted field path.
type Param struct {
	Field    string
	Quantity catalog.Quantity
}

// Unverified reports whether any quantity of the profile is marked
// unverified (recalled from a paper, or an assumption not yet checked).
func (p *Profile) Unverified() bool {
	for _, q := range p.Params {
		if q.Quantity.Unverified() {
			return true
		}
	}
	return false
}

// Simulate prices t on this profile.
func (p *Profile) Simulate(t *result.Trace, opt Options) (*Breakdown, error) {
	if err := CheckTrace(t); err != nil {
		return nil, err
	}
	if opt.Until < 0 {
		return nil, fmt.Errorf("until %v is negative", opt.Until)
	}
	b, err := p.Model.Simulate(t, opt)
	if err != nil {
		return nil, fmt.Errorf("radio %s: %w", p.Name, err)
	}
	b.Profile, b.Technology = p.Name, p.Technology
	return b, nil
}

// Method says how a breakdown from this profile was obtained, for a
// result's provenance.
func (p *Profile) Method() string {
	var keys []string
	for _, src := range p.Sources {
		k, _, _ := strings.Cut(src, ":")
		keys = append(keys, k)
	}
	m := fmt.Sprintf("%s state machine (cryptocost radio/%s) with profile %s (%s; sources %s)", p.Technology, p.Technology,
		p.Name, p.File, strings.Join(keys, ", "))
	if p.Unverified() {
		m += "; some parameters are unverified (see `cryptocost radio show " + p.Name + "`)"
	}
	return m
}

// Price prices a packet trace on the named radio profile ("lte", "3g",
// "wifi", "ble", "cc2420" or any name `cryptocost radio list` shows): the
// energy split into promotion, transfer, tail and idle, the time in each
// state and the timeline. It is Lookup(profile) then Simulate; the
// commands price through package costing, which chooses the device's
// radio for a link (costing.RadioFor) and calls Simulate.
func Price(t *result.Trace, profile string, opt Options) (*Breakdown, error) {
	p, err := Lookup(profile)
	if err != nil {
		return nil, err
	}
	return p.Simulate(t, opt)
}

// technology is a radio state machine family: it reads a profile file's
// params into a Model. Each technology file registers one.
type technology struct {
	name        string
	description string
	decode      func(file string, data []byte) (header, Model, []Param, error)
}

var technologies []technology

func registerTechnology(name, description string, decode func(file string, data []byte) (header, Model, []Param, error)) {
	technologies = append(technologies, technology{name, description, decode})
}

// Technologies lists the state machines, for help and errors.
func Technologies() []string {
	var names []string
	for _, t := range technologies {
		names = append(names, t.name)
	}
	sort.Strings(names)
	return names
}

// header is what every profile file has besides its params.
type header struct {
	Name        string   `yaml:"name"`
	Aliases     []string `yaml:"aliases"`
	Technology  string   `yaml:"technology"`
	Description string   `yaml:"description"`
	Sources     []string `yaml:"sources"`
}

// decodeFile reads a profile file of one technology: the header and the
// params of type P (unknown fields rejected), then build checks the params
// through v, which collects errors naming file, line and field.
func decodeFile[P any](file string, data []byte, build func(v *validator, p *P) Model) (header, Model, []Param, error) {
	var f struct {
		Header header `yaml:",inline"`
		Params P      `yaml:"params"`
	}
	node, err := catalog.Parse(file, data, &f)
	if err != nil {
		return header{}, nil, nil, err
	}
	v := &validator{node: node}
	if strings.TrimSpace(f.Header.Name) == "" {
		v.fail("name", "missing: give the profile a name, such as lte-mine")
	}
	if len(f.Header.Sources) == 0 {
		v.fail("sources", "missing: list the references the quantities' sources cite")
	}
	m := build(v, &f.Params)
	if err := v.err(); err != nil {
		return header{}, nil, nil, err
	}
	return f.Header, m, quantities(reflect.ValueOf(f.Params), "params"), nil
}

// Load reads a profile from data (YAML or JSON); file names it in errors.
func Load(file string, data []byte) (*Profile, error) {
	var peek struct {
		Technology string `yaml:"technology"`
	}
	if err := yaml.Unmarshal(data, &peek); err != nil {
		return nil, catalog.Decode(file, data, &peek)
	}
	var tech *technology
	for i := range technologies {
		if strings.EqualFold(technologies[i].name, peek.Technology) {
			tech = &technologies[i]
		}
	}
	if tech == nil {
		if peek.Technology == "" {
			return nil, fmt.Errorf("%s: technology: missing: want one of %s", file, strings.Join(Technologies(), ", "))
		}
		return nil, fmt.Errorf("%s: technology: unknown technology %q: want one of %s", file, peek.Technology, strings.Join(Technologies(), ", "))
	}
	h, m, params, err := tech.decode(file, data)
	if err != nil {
		return nil, err
	}
	return &Profile{Name: h.Name, Aliases: h.Aliases, Technology: tech.name, Description: h.Description,
		Sources: h.Sources, File: file, Params: params, Data: data, Model: m}, nil
}

// LoadFile reads a user's profile file (--radio-file).
func LoadFile(name string) (*Profile, error) {
	data, err := catalog.ReadUserFile(name)
	if err != nil {
		return nil, err
	}
	return Load(name, data)
}

var (
	loadOnce sync.Once
	loaded   *registry.Registry[*Profile]
	loadErr  error
)

// builtins loads the embedded profiles once, after every technology has
// registered itself.
func builtins() ([]*Profile, error) {
	loadOnce.Do(func() {
		files, err := catalog.Files(builtinFS, "profiles")
		if err != nil {
			loadErr = err
			return
		}
		var ps []*Profile
		for _, f := range files {
			data, err := builtinFS.ReadFile(f)
			if err != nil {
				loadErr = err
				return
			}
			p, err := Load("builtin:"+f, data)
			if err != nil {
				loadErr = err
				return
			}
			ps = append(ps, p)
		}
		slices.SortFunc(ps, func(a, b *Profile) int {
			if c := strings.Compare(a.Technology, b.Technology); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
		loaded, loadErr = index(ps)
	})
	if loadErr != nil {
		return nil, loadErr
	}
	return loaded.Values(), nil
}

// index registers every profile under its name and aliases; two
// profiles claiming one name are an error naming both files.
func index(ps []*Profile) (*registry.Registry[*Profile], error) {
	r := registry.New[*Profile]("radio")
	for _, p := range ps {
		if err := r.Add(p.Name, p, p.Aliases...); err != nil {
			for _, k := range append([]string{p.Name}, p.Aliases...) {
				if other, ok := r.Lookup(k); ok {
					return nil, fmt.Errorf("radio profiles %s and %s both claim the name %q", other.File, p.File, k)
				}
			}
			return nil, err
		}
	}
	return r, nil
}

// All returns the built-in profiles, by technology then name. A broken
// built-in profile is a bug caught by the package's tests; All panics on it.
func All() []*Profile {
	ps, err := builtins()
	if err != nil {
		panic(err)
	}
	return slices.Clone(ps)
}

// Lookup returns the built-in profile named name or one of its aliases
// (case and punctuation ignored: "LTE", "802.15.4", "umts-aro").
func Lookup(name string) (*Profile, error) {
	if _, err := builtins(); err != nil {
		return nil, err
	}
	if p, ok := loaded.Lookup(name); ok {
		return p, nil
	}
	return nil, fmt.Errorf("%s (`cryptocost radio list` describes them; --radio-file reads your own)", loaded.Unknown(name))
}

// quantities lists every non-zero catalog.Quantity in v (a params struct),
// by dotted YAML path, in field order.
func quantities(v reflect.Value, prefix string) []Param {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if q, ok := v.Interface().(catalog.Quantity); ok {
		if q.IsZero() {
			return nil
		}
		return []Param{{prefix, q}}
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var out []Param
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		out = append(out, quantities(v.Field(i), path.Join(prefix, tag))...)
	}
	for i := range out {
		out[i].Field = strings.ReplaceAll(out[i].Field, "/", ".")
	}
	return out
}

// Names are every name Lookup takes: each built-in profile's name, then
// its aliases.
func Names() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range All() {
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}
