// Package meter measures energy: live meters read during a run (RAPL
// counters through powercap, a Linux battery gauge through power_supply),
// and traces exported by external meters, read as the instruments write
// them (formats.go: a registry of layouts — Nordic PPK2, Joulescope,
// Monsoon, Otii, INA219/INA226 serial logs, plain CSV — detected or named),
// integrated whole or per phase between markers or a digital channel's
// edges.
//
// Each live meter is one file implementing Meter, registered by name and
// failing alone with a reason and a fix (the node_exporter collector
// pattern): "no RAPL zones here (a virtual machine...)", "permission
// denied: root only since Linux 5.10 ...". Every meter reads its files
// under Config.Root, so tests (and users with a copied sysfs) point it at a
// directory tree of their own.
package meter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/internal/registry"
)

// Config is what every meter may need.
type Config struct {
	// Root is the filesystem root sysfs is read under ("/" by default).
	Root string
	// Interval between samples (power_supply) or counter reads (RAPL, to
	// see each wrap-around). Default 1 s.
	Interval time.Duration
	// Supply names the power_supply battery ("BAT0"); "" picks the first.
	Supply string
	// CurrentSign is how the gauge signs a discharging current:
	// "auto" (from the status file), "discharge-positive",
	// "discharge-negative".
	CurrentSign string
	// CurrentUnit overrides the gauge's current unit: "auto", "uA", "mA".
	CurrentUnit string
}

func (c Config) withDefaults() Config {
	if c.Root == "" {
		c.Root = "/"
	}
	if c.Interval <= 0 {
		c.Interval = time.Second
	}
	if c.CurrentSign == "" {
		c.CurrentSign = "auto"
	}
	if c.CurrentUnit == "" {
		c.CurrentUnit = "auto"
	}
	return c
}

// A Meter measures the energy drawn between Start and the session's Stop.
type Meter interface {
	Name() string
	// Start begins a measurement. ctx bounds the sampling goroutine, if
	// any: a cancelled context stops sampling and Stop returns what was
	// measured.
	Start(ctx context.Context) (Session, error)
}

// Session is a measurement in progress.
type Session interface {
	Stop() (Reading, error)
}

// Reading is what a meter measured.
type Reading struct {
	Meter   string  `json:"meter"`
	Joules  float64 `json:"joules"`
	Seconds float64 `json:"seconds"`
	// Domains are the parts a meter reports separately (RAPL package,
	// core, dram); Joules is their total as Method says.
	Domains  []Domain `json:"domains,omitempty"`
	Samples  int      `json:"samples"`
	Method   string   `json:"method"`
	Warnings []string `json:"warnings,omitempty"`
}

// Domain is one part's energy.
type Domain struct {
	Name   string  `json:"name"`
	Joules float64 `json:"joules"`
}

// Watts is the average power over the reading.
func (r Reading) Watts() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return r.Joules / r.Seconds
}

// UnavailableError says why a meter cannot measure here and how to fix it.
type UnavailableError struct {
	Meter string
	Why   string
	Fix   string
}

func (e *UnavailableError) Error() string {
	s := fmt.Sprintf("meter %s is not available here: %s", e.Meter, e.Why)
	if e.Fix != "" {
		s += "; " + e.Fix
	}
	return s
}

// IsUnavailable reports whether err says a meter is not available here.
func IsUnavailable(err error) bool {
	var u *UnavailableError
	return errors.As(err, &u)
}

type entry struct {
	name, description string
	open              func(Config) (Meter, error)
}

// meters lists the live meters (internal/registry); each file adds
// itself in init.
var meters = registry.New[entry]("meter")

func register(name, description string, open func(Config) (Meter, error)) {
	meters.MustAdd(name, entry{name, description, open})
}

// sortedMeters are the meters by name.
func sortedMeters() []entry {
	return meters.SortedValues()
}

// Names lists the live meters.
func Names() []string { return meters.Sorted() }

// Open opens the named meter; the error is an *UnavailableError when it
// cannot measure here.
func Open(name string, cfg Config) (Meter, error) {
	if e, ok := meters.Lookup(name); ok {
		return e.open(cfg.withDefaults())
	}
	u := meters.Unknown(name)
	u.Want = Names()
	return nil, fmt.Errorf("%v (or import an external meter's CSV: cryptocost energy trace)", u)
}

// Status is one meter's availability here.
type Status struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Available   bool   `json:"available"`
	// Detail is what it found (zones, battery) or why it is unavailable
	// and how to fix that.
	Detail string `json:"detail"`
}

// Probe opens every meter and reports which can measure here and why not.
func Probe(cfg Config) []Status {
	var out []Status
	for _, e := range sortedMeters() {
		s := Status{Name: e.name, Description: e.description}
		m, err := e.open(cfg.withDefaults())
		if err != nil {
			s.Detail = err.Error()
		} else {
			s.Available = true
			if d, ok := m.(interface{ Detail() string }); ok {
				s.Detail = d.Detail()
			}
		}
		out = append(out, s)
	}
	return out
}
