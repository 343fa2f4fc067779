package device

import (
	"embed"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// builtin holds the built-in profiles, one file per device; adding a device
// is adding a file (the registry rule of docs/ARCHITECTURE.md).
//
//go:embed devices/*.yaml
var builtin embed.FS

// devices is the registry, filled at init and read-only afterwards.
var devices []*Device

func init() {
	files, err := catalog.Files(builtin, "devices")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		data, err := builtin.ReadFile(f)
		if err != nil {
			panic(err)
		}
		d, err := Parse("device/"+f, data)
		if err != nil {
			panic("built-in device profile: " + err.Error()) // caught by any test
		}
		if d.Name == "host" {
			fillHost(d)
		}
		for _, other := range devices {
			for _, k := range d.keys() {
				if other.matches(k) {
					panic(fmt.Sprintf("device %s: name %q already names %s", d.Name, k, other.Name))
				}
			}
		}
		devices = append(devices, d)
	}
	sort.Slice(devices, func(i, j int) bool { return devices[i].Name < devices[j].Name })
}

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
func All() []*Device { return append([]*Device(nil), devices...) }

// Lookup finds a built-in device by name or alias, ignoring case and
// punctuation ("TelosB", "tmote-sky", "Pi Zero 2 W").
func Lookup(name string) (*Device, error) {
	for _, d := range devices {
		if d.matches(name) {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown device %q: want one of %s (cryptocost devices lists them; --device-file FILE reads your own)", name, strings.Join(Names(), ", "))
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
	for _, d := range devices {
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
func Names() []string {
	var out []string
	for _, d := range devices {
		out = append(out, d.Name)
	}
	return out
}

func (d *Device) keys() []string { return append([]string{d.Name}, d.Aliases...) }

func (d *Device) matches(name string) bool {
	for _, k := range d.keys() {
		if fold(k) == fold(name) {
			return true
		}
	}
	return false
}

// fold drops case and punctuation: "Pi Zero 2 W" = "pi-zero-2w".
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
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
