package meter

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

func init() {
	register("power_supply", "Linux battery gauge (/sys/class/power_supply): voltage × current sampled and integrated", openPowerSupply)
}

// powerSupplyDir is the power_supply class: one directory per supply.
// include/linux/power_supply.h: "All voltages, currents, charges,
// energies ... in µV, µA, µAh, µWh ... unless otherwise stated"; drivers
// differ in the sign of current_now (some report a discharging battery as
// negative, others as positive) and a few report mV or mA.
const powerSupplyDir = "sys/class/power_supply"

type powerSupply struct {
	cfg  Config
	dir  string // the battery's directory
	name string
	// what the gauge offers
	hasVI, hasPower, hasEnergy, hasCharge bool
}

func openPowerSupply(cfg Config) (Meter, error) {
	root := filepath.Join(cfg.Root, powerSupplyDir)
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, &UnavailableError{"power_supply", err.Error(), ""}
	}
	var batteries []string
	for _, e := range entries {
		typ, err := readString(filepath.Join(root, e.Name(), "type"))
		if err == nil && typ == "Battery" {
			batteries = append(batteries, e.Name())
		}
	}
	sort.Strings(batteries)
	if len(batteries) == 0 {
		return nil, &UnavailableError{"power_supply", "no battery under /" + powerSupplyDir + " (a desktop, a server or a virtual machine)",
			"run on a laptop, phone or board with a fuel gauge, or measure with an external meter and import its trace (cryptocost energy trace)"}
	}
	name := batteries[0]
	if cfg.Supply != "" {
		name = ""
		for _, b := range batteries {
			if b == cfg.Supply {
				name = b
			}
		}
		if name == "" {
			return nil, &UnavailableError{"power_supply", fmt.Sprintf("no battery %q", cfg.Supply), "batteries here: " + strings.Join(batteries, ", ")}
		}
	}
	p := &powerSupply{cfg: cfg, dir: filepath.Join(root, name), name: name}
	exists := func(f string) bool { _, err := os.Stat(filepath.Join(p.dir, f)); return err == nil }
	p.hasVI = exists("voltage_now") && exists("current_now")
	p.hasPower = exists("power_now")
	p.hasEnergy = exists("energy_now")
	p.hasCharge = exists("charge_now")
	if !p.hasVI && !p.hasPower {
		return nil, &UnavailableError{"power_supply", "battery " + name + " reports neither voltage_now and current_now nor power_now",
			"its gauge cannot be sampled; use an external meter"}
	}
	switch cfg.CurrentSign {
	case "auto", "discharge-positive", "discharge-negative":
	default:
		return nil, fmt.Errorf("current sign %q: want auto, discharge-positive or discharge-negative", cfg.CurrentSign)
	}
	switch cfg.CurrentUnit {
	case "auto", "uA", "µA", "mA":
	default:
		return nil, fmt.Errorf("current unit %q: want auto, uA or mA", cfg.CurrentUnit)
	}
	// A first read now, so a permission or format problem shows before a
	// run starts.
	if _, err := p.read(); err != nil {
		return nil, &UnavailableError{"power_supply", err.Error(), ""}
	}
	return p, nil
}

func (p *powerSupply) Name() string { return "power_supply" }

// Detail says which battery and files.
func (p *powerSupply) Detail() string {
	var has []string
	for _, f := range []struct {
		ok   bool
		name string
	}{{p.hasVI, "voltage_now+current_now"}, {p.hasPower, "power_now"}, {p.hasEnergy, "energy_now"}, {p.hasCharge, "charge_now"}} {
		if f.ok {
			has = append(has, f.name)
		}
	}
	return "battery " + p.name + ": " + strings.Join(has, ", ")
}

// gaugeRead is one raw read, in the files' units.
type gaugeRead struct {
	status             string
	volts, amps, watts float64 // NaN when absent
	energyJ, chargeC   float64 // NaN when absent
}

func (p *powerSupply) read() (gaugeRead, error) {
	g := gaugeRead{volts: math.NaN(), amps: math.NaN(), watts: math.NaN(), energyJ: math.NaN(), chargeC: math.NaN()}
	g.status, _ = readString(filepath.Join(p.dir, "status"))
	get := func(f string) (float64, error) {
		v, err := readInt(filepath.Join(p.dir, f))
		return float64(v), err
	}
	if p.hasVI {
		v, err := get("voltage_now")
		if err != nil {
			return g, err
		}
		g.volts = normaliseVolts(v)
		if g.amps, err = get("current_now"); err != nil {
			return g, err
		}
	}
	if p.hasPower {
		w, err := get("power_now")
		if err != nil {
			return g, err
		}
		g.watts = w * 1e-6
	}
	if p.hasEnergy {
		if e, err := get("energy_now"); err == nil {
			g.energyJ = e * 1e-6 * 3600 // µWh
		}
	}
	if p.hasCharge {
		if c, err := get("charge_now"); err == nil {
			g.chargeC = c * 1e-6 * 3600 // µAh
		}
	}
	return g, nil
}

// normaliseVolts reads a voltage written in µV (the ABI), mV or V by its
// magnitude: a battery is between 1 and 60 V, so the three ranges cannot
// be confused.
func normaliseVolts(raw float64) float64 {
	switch a := math.Abs(raw); {
	case a >= 1e5:
		return raw * 1e-6
	case a >= 100:
		return raw * 1e-3
	}
	return raw
}

func (p *powerSupply) Start(ctx context.Context) (Session, error) {
	s := &gaugeSession{p: p, start: time.Now(), done: make(chan struct{}), stopped: make(chan struct{})}
	if err := s.sample(time.Now()); err != nil {
		return nil, err
	}
	go s.loop(ctx)
	return s, nil
}

type gaugeSession struct {
	p       *powerSupply
	start   time.Time
	mu      sync.Mutex
	raw     []gaugeRead
	times   []float64 // seconds since start
	err     error
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func (s *gaugeSession) loop(ctx context.Context) {
	defer close(s.stopped)
	t := time.NewTicker(s.p.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.sample(now)
		}
	}
}

// sample reads the gauge at time now.
func (s *gaugeSession) sample(now time.Time) error {
	g, err := s.p.read()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return err
	}
	s.raw = append(s.raw, g)
	s.times = append(s.times, now.Sub(s.start).Seconds())
	return nil
}

func (s *gaugeSession) Stop() (Reading, error) {
	s.once.Do(func() { close(s.done) })
	<-s.stopped
	s.sample(time.Now())
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.raw) < 2 {
		return Reading{}, fmt.Errorf("power_supply: fewer than two gauge reads: %v", s.err)
	}
	return s.p.reading(s.raw, s.times)
}

// reading normalises the raw reads (unit, sign) and integrates the power.
func (p *powerSupply) reading(raw []gaugeRead, times []float64) (Reading, error) {
	r := Reading{Meter: "power_supply", Seconds: times[len(times)-1] - times[0], Samples: len(raw)}
	sign, signHow := p.currentSign(raw)
	scale, unitHow, unitWarn := p.currentScale(raw)
	if unitWarn != "" {
		r.Warnings = append(r.Warnings, unitWarn)
	}
	samples := make([]Sample, len(raw))
	charging := false
	for i, g := range raw {
		s := Sample{T: times[i], Volts: g.volts, Amps: math.NaN()}
		if p.hasVI {
			s.Amps = g.amps * scale * sign
			s.Watts = s.Volts * s.Amps
		} else {
			s.Watts = math.Abs(g.watts) // power_now: a magnitude on every driver we know of
			if g.status == "Charging" {
				s.Watts = -s.Watts
			}
		}
		if g.status == "Charging" {
			charging = true
		}
		samples[i] = s
	}
	if charging {
		r.Warnings = append(r.Warnings, "the battery was charging: the gauge measures what flows into the battery, not what the device draws; unplug the charger")
	}
	r.Joules = Integrate(samples)
	src := "voltage_now × current_now"
	if !p.hasVI {
		src = "power_now"
	}
	r.Method = fmt.Sprintf("battery %s: %s sampled every %v and at start and stop, integrated by the trapezoidal rule; voltage µV/mV/V by magnitude; %s; %s",
		p.name, src, p.cfg.Interval, unitHow, signHow)
	first, last := raw[0], raw[len(raw)-1]
	if !isNaN(first.energyJ) && !isNaN(last.energyJ) {
		r.Domains = append(r.Domains, Domain{Name: "gauge energy_now decrease (coarse cross-check)", Joules: first.energyJ - last.energyJ})
	}
	if !isNaN(first.chargeC) && !isNaN(last.chargeC) && p.hasVI {
		v := (first.volts + last.volts) / 2
		r.Domains = append(r.Domains, Domain{Name: "gauge charge_now decrease × mean voltage (coarse cross-check)", Joules: (first.chargeC - last.chargeC) * v})
	}
	if r.Seconds < 10*p.cfg.Interval.Seconds() {
		r.Warnings = append(r.Warnings, fmt.Sprintf("only %d gauge reads over %.3g s: gauges update every few seconds, so a short run reads one value; measure for minutes, or repeat the operation", len(raw), r.Seconds))
	}
	return r, nil
}

// currentSign returns the factor that makes a discharging current
// positive, and how it was chosen: the override, else the status file (a
// "Discharging" battery with a negative current_now reports discharge as
// negative), else the magnitude with a warning in the method text.
func (p *powerSupply) currentSign(raw []gaugeRead) (float64, string) {
	switch p.cfg.CurrentSign {
	case "discharge-positive":
		return 1, "current sign given: discharge positive"
	case "discharge-negative":
		return -1, "current sign given: discharge negative"
	}
	for _, g := range raw {
		if isNaN(g.amps) || g.amps == 0 {
			continue
		}
		switch g.status {
		case "Discharging":
			if g.amps < 0 {
				return -1, "current sign detected: this gauge reports discharge as negative (status Discharging)"
			}
			return 1, "current sign detected: this gauge reports discharge as positive (status Discharging)"
		case "Charging":
			if g.amps > 0 {
				return -1, "current sign detected: this gauge reports charge as positive (status Charging)"
			}
			return 1, "current sign detected: this gauge reports charge as negative (status Charging)"
		}
	}
	// No status to tell: a device running on its battery draws current,
	// so take the magnitude's sign from the first nonzero read.
	for _, g := range raw {
		if g.amps < 0 {
			return -1, "current sign assumed from the reads (no Charging/Discharging status): negative read as discharge; override with --current-sign"
		}
		if g.amps > 0 {
			break
		}
	}
	return 1, "current sign assumed (no Charging/Discharging status): positive read as discharge; override with --current-sign"
}

// currentScale returns the factor from current_now's unit to amperes: the
// override, else µA (the ABI) unless power_now shows the driver writes mA
// (V·I off by 1000 from P).
func (p *powerSupply) currentScale(raw []gaugeRead) (float64, string, string) {
	switch p.cfg.CurrentUnit {
	case "uA", "µA":
		return 1e-6, "current unit given: µA", ""
	case "mA":
		return 1e-3, "current unit given: mA", ""
	}
	if p.hasVI && p.hasPower {
		for _, g := range raw {
			if g.amps == 0 || isNaN(g.watts) || g.watts == 0 {
				continue
			}
			viMicro := math.Abs(g.volts * g.amps * 1e-6)
			ratio := viMicro / math.Abs(g.watts)
			switch {
			case ratio > 0.5 && ratio < 2:
				return 1e-6, "current unit µA (the ABI), confirmed by power_now", ""
			case ratio > 0.5e-3 && ratio < 2e-3:
				return 1e-3, "current unit mA, detected: voltage × current_now in µA is 1000× below power_now", ""
			}
			return 1e-6, "current unit µA (the ABI)", fmt.Sprintf("voltage × current_now (%.3g W as µA) disagrees with power_now (%.3g W) by %.3g×: check --current-unit", viMicro, math.Abs(g.watts), ratio)
		}
	}
	warn := ""
	for _, g := range raw {
		if !isNaN(g.amps) && g.amps != 0 && math.Abs(g.amps) < 1000 {
			warn = fmt.Sprintf("current_now %.0f read as µA is %.3g mA, little for a running device: if this driver writes mA, give --current-unit mA", g.amps, math.Abs(g.amps)*1e-3)
			break
		}
	}
	return 1e-6, "current unit µA (the ABI; no power_now to confirm)", warn
}
