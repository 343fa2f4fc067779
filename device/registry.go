package device

import (
	"embed"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/internal/registry"
)

// builtin holds the built-in profiles, one file per device; adding a device
// is adding a file (the registry rule of docs/ARCHITECTURE.md).
//
//go:embed devices/*.yaml
var builtin embed.FS

// devices is the registry, filled at init and read-only afterwards;
// host is the profile marked host: true (exactly one).
var (
	devices = registry.New[*Device]("device")
	host    *Device
)

func init() {
	files, err := catalog.Files(builtin, "devices")
	if err != nil {
		panic(err)
	}
	var all []*Device
	for _, f := range files {
		data, err := builtin.ReadFile(f)
		if err != nil {
			panic(err)
		}
		d, err := Parse("device/"+f, data)
		if err != nil {
			panic("built-in device profile: " + err.Error()) // caught by any test
		}
		if d.Host {
			if host != nil {
				panic(fmt.Sprintf("devices %s and %s both say host: true", host.Name, d.Name))
			}
			host = d
			fillHost(d)
		}
		all = append(all, d)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	for _, d := range all {
		devices.MustAdd(d.Name, d, d.Aliases...)
	}
	if host == nil {
		panic("no built-in device says host: true")
	}
}

// Host is the built-in profile of the machine cryptocost runs on (the one
// whose file says host: true).
func Host() *Device { return host }

// Parse decodes and validates a profile (YAML or JSON); errors name the
// file, line and field.
func Parse(file string, data []byte) (*Device, error) {
	var d Device
	n, err := catalog.Parse(file, data, &d)
	if err != nil {
		return nil, err
	}
	if err := d.validate(n); err != nil {
		return nil, err
	}
	d.File, d.content = file, data
	return &d, nil
}

// LoadFile reads a user's profile.
func LoadFile(name string) (*Device, error) {
	data, err := catalog.ReadUserFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// All returns the built-in devices in name order.
func All() []*Device { return devices.Values() }

// Lookup finds a built-in device by name or alias, ignoring case and
// punctuation ("TelosB", "tmote-sky", "Pi Zero 2 W").
func Lookup(name string) (*Device, error) {
	if d, ok := devices.Lookup(name); ok {
		return d, nil
	}
	msg := devices.Unknown(name).Error()
	return nil, fmt.Errorf("%s (cryptocost devices lists them; --device-file FILE reads your own)", msg)
}

// Resolve is what --device NAME and --device-file FILE mean together: the
// file when given, else the named built-in. Neither given is an error.
func Resolve(name, file string) (*Device, error) {
	switch {
	case file != "" && name != "":
		d, err := LoadFile(file)
		if err != nil {
			return nil, err
		}
		if !d.matches(name) {
			return nil, fmt.Errorf("--device %s and --device-file %s (device %s) disagree: give one", name, file, d.Name)
		}
		return d, nil
	case file != "":
		return LoadFile(file)
	case name != "":
		return Lookup(name)
	}
	return nil, fmt.Errorf("no device: give --device NAME (one of %s) or --device-file FILE", strings.Join(Names(), ", "))
}

// ForTarget is the built-in device whose profile names target (an mcu
// target) as its simulation, preferring the device that is the part over
// one it is a proxy for; nil when none does.
func ForTarget(target string) *Device {
	var proxy *Device
	for _, d := range devices.Values() {
		if d.Simulation != nil && strings.EqualFold(d.Simulation.Target, target) {
			if !d.Simulation.Proxy {
				return d
			}
			if proxy == nil {
				proxy = d
			}
		}
	}
	return proxy
}

// Names lists the built-in device names.
func Names() []string { return devices.Names() }

func (d *Device) keys() []string { return append([]string{d.Name}, d.Aliases...) }

func (d *Device) matches(name string) bool {
	for _, k := range d.keys() {
		if registry.Fold(k) == registry.Fold(name) {
			return true
		}
	}
	return false
}

// Source is the profile's file for citations: "device/devices/telosb.yaml".
func (d *Device) Source() string {
	if d.File == "" {
		return "device " + d.Name
	}
	return path.Clean(d.File)
}

// fillHost completes the host profile from the running process: what
// this machine is, not what it draws (unknown unless a meter measures it).
func fillHost(d *Device) {
	d.CPU.Arch = runtime.GOARCH
	d.CPU.GOARCH = []string{runtime.GOARCH}
	d.CPU.Cores = V(float64(runtime.NumCPU()), "", "runtime.NumCPU() on this machine")
}
