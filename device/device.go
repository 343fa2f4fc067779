package device

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// Device is a device power profile: what a CPU-bound operation costs there
// in current, power and battery. Every number carries its source
// (catalog.Quantity); numbers nobody knows say so (Value.Unknown).
type Device struct {
	// Name is the lookup key ("telosb"); Aliases are other keys.
	Name    string   `json:"name" yaml:"name"`
	Aliases []string `json:"aliases,omitempty" yaml:"aliases,omitempty"`
	// Host says the profile is the machine cryptocost runs on: its CPU is
	// read from the running process, a run made here is a run on it (the
	// costing stage's "measured" rung), and any architecture is its own.
	Host bool `json:"host,omitempty" yaml:"host,omitempty"`
	// Title is the human name ("TelosB / Tmote Sky").
	Title       string `json:"title" yaml:"title"`
	Description string `json:"description,omitempty" yaml:"description,omitempty"`
	CPU         CPU    `json:"cpu" yaml:"cpu"`
	Memory      Memory `json:"memory,omitempty" yaml:"memory,omitempty"`
	Supply      Supply `json:"supply" yaml:"supply"`
	// Power is the current (or power) drawn in each state: "active" (CPU
	// running), "idle" (the baseline energy is reported net of), "sleep"
	// (between duty-cycle events), and any other named state the sources
	// give ("typical", "listening", "storage-read").
	Power map[string]Value `json:"power" yaml:"power"`
	// Battery is absent for mains-powered devices.
	Battery *Battery `json:"battery,omitempty" yaml:"battery,omitempty"`
	// Radios names radio profiles (package radio prices them): the radios
	// the device has, one per technology; a link is priced on the one of
	// its technology, and a device without one is refused on that link.
	Radios []string `json:"radios,omitempty" yaml:"radios,omitempty"`
	// Simulation names the microcontroller target (package mcu) whose
	// simulated times stand for this device's CPU, and says how close the
	// simulated part is: the device's own part (an Arduino Uno's
	// ATmega328P in simavr) or a proxy (an nRF52840's Cortex-M4 as QEMU's
	// mps2-an386).
	Simulation *Simulation `json:"simulation,omitempty" yaml:"simulation,omitempty"`
	// Estimate opts the device into an estimation rule that needs saying
	// in the profile (the host-time lower bound for a phone whose SoC is
	// unknown).
	Estimate *Estimate `json:"estimate,omitempty" yaml:"estimate,omitempty"`
	// Operations are per-operation costs measured on this device by others
	// (the literature), labelled imported wherever they are used.
	Operations []Operation `json:"operations,omitempty" yaml:"operations,omitempty"`
	Notes      []string    `json:"notes,omitempty" yaml:"notes,omitempty"`

	// File is where the profile was read from (embedded path or user file).
	File string `json:"file,omitempty" yaml:"-"`
	// content is the file's bytes as Parse read them (Content).
	content []byte
}

// Content is the profile's file as it was read, and its syntax ("yaml" or
// "json"): what a run priced on the device carries (result.Input), so it
// prices the same wherever it is read later. Nil for a profile built in
// code.
func (d *Device) Content() (data []byte, format string) {
	if len(d.content) == 0 {
		return nil, ""
	}
	format = "yaml"
	if t := strings.TrimSpace(string(d.content)); strings.HasPrefix(t, "{") {
		format = "json"
	}
	return d.content, format
}

// CPU is the processor.
type CPU struct {
	Model string `json:"model" yaml:"model"`
	// Arch is the instruction set: a GOARCH name where Go has one ("arm64",
	// "amd64"), otherwise the common name ("msp430", "avr", "xtensa").
	Arch string `json:"arch" yaml:"arch"`
	// GOARCH lists the Go architectures whose binaries run on this device
	// (cryptocost can then be run there and calibrated); empty for
	// microcontrollers Go does not target.
	GOARCH []string `json:"goarch,omitempty" yaml:"goarch,omitempty"`
	Clock  Value    `json:"clock" yaml:"clock"`
	Cores  Value    `json:"cores" yaml:"cores"`
	// WordBits is the native word size.
	WordBits Value `json:"word_bits,omitempty" yaml:"word_bits,omitempty"`
}

// Memory sizes, where known.
type Memory struct {
	RAM     Value `json:"ram,omitempty" yaml:"ram,omitempty"`
	Flash   Value `json:"flash,omitempty" yaml:"flash,omitempty"`
	Storage Value `json:"storage,omitempty" yaml:"storage,omitempty"`
}

// Supply is the voltage the states' currents are drawn at.
type Supply struct {
	Voltage Value `json:"voltage" yaml:"voltage"`
}

// Battery is the cell or pack and how much of it can be used.
type Battery struct {
	Chemistry string `json:"chemistry" yaml:"chemistry"`
	// Capacity is the rated charge (mAh) or energy (Wh).
	Capacity       Value `json:"capacity" yaml:"capacity"`
	NominalVoltage Value `json:"nominal_voltage" yaml:"nominal_voltage"`
	// Usable is the fraction of the rated capacity the device gets before
	// its cut-off voltage (dimensionless, 0 < usable ≤ 1).
	Usable Value `json:"usable" yaml:"usable"`
}

// Simulation binds a device to a simulated microcontroller target.
type Simulation struct {
	// Target is an mcu target name ("atmega328p", "cortex-m4").
	Target string `json:"target" yaml:"target"`
	// Proxy is true when the target stands in for the device's part
	// rather than being it; Note says how they differ.
	Proxy bool   `json:"proxy,omitempty" yaml:"proxy,omitempty"`
	Note  string `json:"note,omitempty" yaml:"note,omitempty"`
}

// Estimate names an estimation rule the profile opts into, and why.
type Estimate struct {
	// Rule is "host-lower-bound": the run machine's own time, unscaled,
	// as a lower bound on the device's (a phone core is slower than a
	// server or laptop core).
	Rule string `json:"rule" yaml:"rule"`
	Why  string `json:"why" yaml:"why"`
}

// EstimateRules are the rules a profile can opt into (Estimate.Rule).
var EstimateRules = []string{"host-lower-bound"}

// Operation is one operation's cost measured on the device by a study.
type Operation struct {
	// Name as the source calls it: "ECDSA secp160r1 sign (TinyECC)".
	Name string `json:"name" yaml:"name"`
	// Family and Bits place the operation for key-size scaling: "ECDSA"
	// 160, "RSA" 1024.
	Family    string `json:"family" yaml:"family"`
	Bits      int    `json:"bits,omitempty" yaml:"bits,omitempty"`
	Operation string `json:"operation" yaml:"operation"` // sign, verify, encrypt, ...
	// Scheme is the registry scheme this is exactly (same algorithm and
	// parameters), if any; empty when the source's algorithm is not one.
	// Schemes lists several when the figure covers them all (S000's AES
	// per byte for AES-128-CBC encryption and decryption); Operations the
	// registry operations it covers when they are not Operation.
	Scheme         string   `json:"scheme,omitempty" yaml:"scheme,omitempty"`
	Schemes        []string `json:"schemes,omitempty" yaml:"schemes,omitempty"`
	Operations     []string `json:"operations,omitempty" yaml:"operations,omitempty"`
	Implementation string   `json:"implementation,omitempty" yaml:"implementation,omitempty"`
	// InputBytes, when set, is the one input size the figure is for (an
	// AES engine's 16-byte block): the figure prices that size only. Zero:
	// the figure does not depend on the input (a signature) or is per byte.
	InputBytes int `json:"input_bytes,omitempty" yaml:"input_bytes,omitempty"`
	// Time per operation, Energy per operation, Current while it runs,
	// EnergyPerByte for bulk operations: whichever the source gives.
	Time          Value `json:"time,omitempty" yaml:"time,omitempty"`
	Energy        Value `json:"energy,omitempty" yaml:"energy,omitempty"`
	Current       Value `json:"current,omitempty" yaml:"current,omitempty"`
	EnergyPerByte Value `json:"energy_per_byte,omitempty" yaml:"energy_per_byte,omitempty"`
	// PerBattery is how many operations a full battery pays for, as the
	// source claims it (a lower bound: S001's "more than 10,000 RSA
	// signatures to drain the battery").
	PerBattery Value  `json:"per_battery,omitempty" yaml:"per_battery,omitempty"`
	Note       string `json:"note,omitempty" yaml:"note,omitempty"`
	// Residual makes a whole measured energy (S000's handshake energy)
	// price the one component of a matching run's work that the profile
	// has no figure for, as the study split it: the whole, less the
	// operations named in Minus, less the components priced.
	Residual *Residual `json:"residual,omitempty" yaml:"residual,omitempty"`
}

// Residual says which run a whole-energy figure stands for and which
// component it prices by difference.
type Residual struct {
	// Component is the work component left to price ("asymmetric").
	Component string `json:"component" yaml:"component"`
	// Match are subject parameters a run's result must have, all of them
	// (version "1.0", kex "rsa", client_auth "false", resumption "none").
	Match map[string]string `json:"match" yaml:"match"`
	// Minus names the profile's operations whose energy the study took
	// off the whole as other parts (the plain TCP connection: the
	// network's share).
	Minus []string `json:"minus,omitempty" yaml:"minus,omitempty"`
}

// Covers reports whether the figure is for exactly this registry scheme
// and operation.
func (o Operation) Covers(scheme, op string) bool {
	schemeOK := o.Scheme != "" && strings.EqualFold(o.Scheme, scheme)
	for _, s := range o.Schemes {
		schemeOK = schemeOK || strings.EqualFold(s, scheme)
	}
	if !schemeOK {
		return false
	}
	if strings.EqualFold(o.Operation, op) {
		return true
	}
	for _, x := range o.Operations {
		if strings.EqualFold(x, op) {
			return true
		}
	}
	return false
}

// Key is how the battery command and lookups name an operation:
// "ECDSA-160/sign".
func (o Operation) Key() string {
	if o.Bits > 0 {
		return fmt.Sprintf("%s-%d/%s", o.Family, o.Bits, o.Operation)
	}
	return o.Family + "/" + o.Operation
}

var (
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	stateRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// Plausible ranges: wide enough for a coin-cell mote and a laptop, narrow
// enough to catch a unit slip (mA written as A, MHz as Hz).
var (
	limVoltage  = limit{"voltage", "V", 0.5, 60}
	limCurrent  = limit{"current", "A", 1e-9, 50}
	limPower    = limit{"power", "W", 1e-9, 1000}
	limClock    = limit{"frequency", "Hz", 1e3, 10e9}
	limCount    = limit{"dimensionless", "", 1, 1024}
	limWord     = limit{"dimensionless", "", 4, 128}
	limBytes    = limit{"bytes", "B", 16, 1e13}
	limCharge   = limit{"charge", "mAh", 1, 1e6}
	limEnergyWh = limit{"energy", "Wh", 1e-3, 1e4}
	limFraction = limit{"dimensionless", "", 1e-3, 1}
	limOpTime   = limit{"time", "s", 1e-12, 1e5}
	limOpEnergy = limit{"energy", "J", 1e-15, 1e4}
	limPerByte  = limit{"energy-per-byte", "µJ/B", 1e-9, 1e6}
	limOps      = limit{"dimensionless", "", 1, 1e12}
)

// fieldCheck is one field to validate.
type fieldCheck struct {
	v        Value
	field    string
	required bool
	lims     []limit
}

// validate checks a decoded profile; n locates fields for messages.
func (d *Device) validate(n *catalog.Node) error {
	if !nameRE.MatchString(d.Name) {
		return n.Errorf("name", "%q: want lower-case letters, digits and '-', such as \"my-board\"", d.Name)
	}
	for i, a := range d.Aliases {
		if !nameRE.MatchString(a) {
			return n.Errorf(fmt.Sprintf("aliases.%d", i), "%q: want lower-case letters, digits and '-'", a)
		}
	}
	if strings.TrimSpace(d.Title) == "" {
		return n.Errorf("title", "missing: a human name such as \"TelosB / Tmote Sky\"")
	}
	if d.CPU.Arch == "" {
		return n.Errorf("cpu.arch", "missing: the instruction set, such as arm64, amd64, msp430")
	}
	checks := []fieldCheck{
		{d.CPU.Clock, "cpu.clock", true, []limit{limClock}},
		{d.CPU.Cores, "cpu.cores", true, []limit{limCount}},
		{d.CPU.WordBits, "cpu.word_bits", false, []limit{limWord}},
		{d.Memory.RAM, "memory.ram", false, []limit{limBytes}},
		{d.Memory.Flash, "memory.flash", false, []limit{limBytes}},
		{d.Memory.Storage, "memory.storage", false, []limit{limBytes}},
		{d.Supply.Voltage, "supply.voltage", true, []limit{limVoltage}},
	}
	if d.Battery != nil {
		b := d.Battery
		if strings.TrimSpace(b.Chemistry) == "" {
			return n.Errorf("battery.chemistry", "missing: such as \"alkaline AA ×2\" or \"Li-ion\"")
		}
		checks = append(checks,
			fieldCheck{b.Capacity, "battery.capacity", true, []limit{limCharge, limEnergyWh}},
			fieldCheck{b.NominalVoltage, "battery.nominal_voltage", true, []limit{limVoltage}},
			fieldCheck{b.Usable, "battery.usable", true, []limit{limFraction}},
		)
	}
	for _, c := range checks {
		if err := c.v.check(n, c.field, c.required, c.lims...); err != nil {
			return err
		}
	}
	if _, ok := d.Power["active"]; !ok {
		return n.Errorf("power.active", "missing: the current (or power) with the CPU running, or \"unknown [why]\"")
	}
	for _, state := range d.States() {
		if !stateRE.MatchString(state) {
			return n.Errorf("power."+state, "state name %q: want lower-case letters, digits and '-'", state)
		}
		if err := d.Power[state].check(n, "power."+state, true, limCurrent, limPower); err != nil {
			return err
		}
	}
	if s := d.Simulation; s != nil && s.Target == "" {
		return n.Errorf("simulation.target", "missing: an mcu target such as atmega328p (cryptocost mcu list --targets)")
	}
	if e := d.Estimate; e != nil && !slices.Contains(EstimateRules, e.Rule) {
		return n.Errorf("estimate.rule", "%q: want one of %s", e.Rule, strings.Join(EstimateRules, ", "))
	}
	for i, op := range d.Operations {
		f := fmt.Sprintf("operations.%d", i)
		if op.Name == "" || op.Family == "" || op.Operation == "" {
			return n.Errorf(f, "an operation needs name, family and operation (such as family: ECDSA, bits: 160, operation: sign)")
		}
		if op.Bits < 0 || op.Bits > 100000 {
			return n.Errorf(f+".bits", "%d is implausible", op.Bits)
		}
		if op.InputBytes < 0 {
			return n.Errorf(f+".input_bytes", "%d: want the input size in bytes the figure is for, or none", op.InputBytes)
		}
		if !op.Time.Given() && !op.Energy.Given() && !op.Current.Given() && !op.EnergyPerByte.Given() {
			return n.Errorf(f, "%q has no cost: give time, energy, current or energy_per_byte", op.Name)
		}
		if r := op.Residual; r != nil {
			if r.Component == "" || len(r.Match) == 0 || !op.Energy.Given() {
				return n.Errorf(f+".residual", "a residual needs the operation's energy, a component and the subject parameters it matches (match: {version: \"1.0\", kex: rsa})")
			}
			for _, m := range r.Minus {
				if d.Operation(m) == nil {
					return n.Errorf(f+".residual.minus", "%q is no operation of %s", m, d.Name)
				}
			}
		}
		for _, c := range []struct {
			v     Value
			field string
			lims  []limit
		}{
			{op.Time, ".time", []limit{limOpTime}},
			{op.Energy, ".energy", []limit{limOpEnergy}},
			{op.Current, ".current", []limit{limCurrent}},
			{op.EnergyPerByte, ".energy_per_byte", []limit{limPerByte}},
			{op.PerBattery, ".per_battery", []limit{limOps}},
		} {
			if err := c.v.check(n, f+c.field, false, c.lims...); err != nil {
				return err
			}
		}
	}
	return nil
}

// States lists the power states: active, idle, sleep first, then the rest
// in name order.
func (d *Device) States() []string {
	var out []string
	for _, s := range []string{"active", "idle", "sleep"} {
		if _, ok := d.Power[s]; ok {
			out = append(out, s)
		}
	}
	var rest []string
	for s := range d.Power {
		if !slices.Contains(out, s) {
			rest = append(rest, s)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// Volts is the supply voltage.
func (d *Device) Volts() (float64, error) {
	if !d.Supply.Voltage.Known() {
		return 0, fmt.Errorf("device %s: %w", d.Name, errUnknown("supply voltage", d.Supply.Voltage))
	}
	return d.Supply.Voltage.MustIn("V"), nil
}

// StateCurrent is the current drawn in state, in amperes, converting a
// power figure at the supply voltage (I = P / V); how says which.
func (d *Device) StateCurrent(state string) (amps float64, how string, err error) {
	v, ok := d.Power[state]
	if !ok || !v.Known() {
		return 0, "", fmt.Errorf("device %s: %w", d.Name, errUnknown(state+" current", v))
	}
	if dim, _ := v.Dimension(); dim == "power" {
		volts, err := d.Volts()
		if err != nil {
			return 0, "", err
		}
		w := v.MustIn("W")
		return w / volts, fmt.Sprintf("%s %s / %s", state, describe(v), describe(d.Supply.Voltage)), nil
	}
	return v.MustIn("A"), state + " " + describe(v), nil
}

// StatePower is the power drawn in state, in watts: P = V·I for a current
// figure, the figure itself for a power.
func (d *Device) StatePower(state string) (watts float64, how string, err error) {
	v, ok := d.Power[state]
	if !ok || !v.Known() {
		return 0, "", fmt.Errorf("device %s: %w", d.Name, errUnknown(state+" current", v))
	}
	if dim, _ := v.Dimension(); dim == "power" {
		return v.MustIn("W"), state + " " + describe(v), nil
	}
	volts, err := d.Volts()
	if err != nil {
		return 0, "", err
	}
	return volts * v.MustIn("A"), fmt.Sprintf("%s × %s %s", describe(d.Supply.Voltage), state, describe(v)), nil
}

// BaselineState is the state energy is reported net of: "idle" when the
// profile has it, else "sleep" (a microcontroller sleeps when it is not
// working), else "".
func (d *Device) BaselineState() string {
	for _, s := range []string{"idle", "sleep"} {
		if v, ok := d.Power[s]; ok && v.Known() {
			return s
		}
	}
	return ""
}

// RunsGo reports whether cryptocost built for goarch runs on the device.
// Operation is the profile's operation of that name, or nil.
func (d *Device) Operation(name string) *Operation {
	for i := range d.Operations {
		if d.Operations[i].Name == name {
			return &d.Operations[i]
		}
	}
	return nil
}

// Residuals are the whole-energy figures that price a component by
// difference, in profile order.
func (d *Device) Residuals() []Operation {
	var out []Operation
	for _, o := range d.Operations {
		if o.Residual != nil {
			out = append(out, o)
		}
	}
	return out
}

func (d *Device) RunsGo(goarch string) bool { return slices.Contains(d.CPU.GOARCH, goarch) }

// OperationsFor returns the device's literature costs for family and
// operation (case-insensitive), largest key first.
func (d *Device) OperationsFor(family, op string) []Operation {
	var out []Operation
	for _, o := range d.Operations {
		if strings.EqualFold(o.Family, family) && strings.EqualFold(o.Operation, op) {
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Bits > out[j].Bits })
	return out
}

// FindOperation finds a literature cost by key ("ECDSA-160/sign"), by
// registry scheme and operation, or by name, case-insensitively.
func (d *Device) FindOperation(name, op string) (Operation, bool) {
	for _, o := range d.Operations {
		if (strings.EqualFold(o.Key(), name+"/"+op) || strings.EqualFold(o.Key(), name)) ||
			(o.Scheme != "" && strings.EqualFold(o.Scheme, name) && strings.EqualFold(o.Operation, op)) ||
			strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Operation{}, false
}
