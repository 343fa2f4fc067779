package link

import (
	"embed"
	"fmt"
	"sync"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/radio"
)

// builtinFS holds the built-in links, one file each (links/*.yaml); adding
// a link is adding a file. Each names its radio profile (radio:) or says
// it is wired (wired: true); the radio's technology is the link's, so a
// link is bound to its radio by that name and nothing else.
//
//go:embed links/*.yaml
var builtinFS embed.FS

// file is a link profile as written.
type file struct {
	Name        string           `yaml:"name"`
	Aliases     []string         `yaml:"aliases"`
	Description string           `yaml:"description"`
	Radio       string           `yaml:"radio"`
	Wired       bool             `yaml:"wired"`
	Latency     catalog.Quantity `yaml:"latency"`
	RateUp      catalog.Quantity `yaml:"rate_up"`
	RateDown    catalog.Quantity `yaml:"rate_down"`
	Loss        catalog.Quantity `yaml:"loss"`
	MTU         catalog.Quantity `yaml:"mtu"`
}

var (
	loadOnce sync.Once
	loaded   *registry.Registry[Profile]
	loadErr  error
)

// profiles returns the registry of built-in links, loaded on first use (no
// work at init). A broken built-in file is a bug caught by any test: it
// panics.
func profiles() *registry.Registry[Profile] {
	loadOnce.Do(func() { loaded, loadErr = loadBuiltins() })
	if loadErr != nil {
		panic(loadErr)
	}
	return loaded
}

func loadBuiltins() (*registry.Registry[Profile], error) {
	names, err := catalog.Files(builtinFS, "links")
	if err != nil {
		return nil, err
	}
	r := registry.New[Profile]("link")
	for _, name := range names {
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := Parse("link/"+name, data)
		if err != nil {
			return nil, fmt.Errorf("built-in link: %w", err)
		}
		if err := r.Add(p.Name, p, p.Aliases...); err != nil {
			return nil, fmt.Errorf("link/%s: %w", name, err)
		}
	}
	return r, nil
}

// Parse decodes and checks one link profile (YAML or JSON): its numbers'
// units, and its radio, which must be a built-in radio profile (or
// wired: true, for a link without one).
func Parse(name string, data []byte) (Profile, error) {
	var f file
	n, err := catalog.Parse(name, data, &f)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{Name: f.Name, Aliases: f.Aliases, Description: f.Description, Latency: f.Latency,
		RateUp: f.RateUp, RateDown: f.RateDown, Loss: f.Loss, MTU: f.MTU, File: name}
	switch {
	case f.Name == "":
		return p, n.Errorf("name", "missing: the --link name, such as \"LTE\"")
	case f.Wired && f.Radio != "":
		return p, n.Errorf("radio", "%q on a wired link: give one of radio: or wired: true", f.Radio)
	case !f.Wired && f.Radio == "":
		return p, n.Errorf("radio", "missing: the radio profile that prices the link's traffic (cryptocost radio list), or wired: true")
	case f.Radio != "":
		rp, err := radio.Lookup(f.Radio)
		if err != nil {
			return p, n.Errorf("radio", "%v", err)
		}
		p.Radio, p.Technology = rp.Name, rp.Technology
	}
	if _, err := p.Params(); err != nil {
		return p, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}
