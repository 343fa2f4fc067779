package mcu

import (
	"embed"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// Target is a microcontroller cryptocost builds firmware for and runs in a
// simulator: the part (or the part an emulated board stands for), its core,
// clock and memories, how its firmware is built and how it is simulated.
// Targets are data: one file per target in targets/, every number with its
// source. Adding a target on a supported core is adding a file.
type Target struct {
	// Name is the --target value: "atmega328p", "cortex-m4".
	Name string `yaml:"name"`
	// Part is the microcontroller: "ATmega328P", "nRF52840".
	Part string `yaml:"part"`
	// Board is the board people know the part from.
	Board string `yaml:"board"`
	// Device is the device profile of the part's board (device/devices),
	// "" when there is none, recorded in each result's params. It does
	// not price anything: the costing stage prices a target's results on
	// the device whose profile names the target as its simulation.
	Device string `yaml:"device"`
	// Core is the processor core: "Cortex-M4 (ARMv7E-M)".
	Core string `yaml:"core"`
	// Proxy says how the emulated board stands for the part when the
	// simulator does not model the part itself ("" when it does, as
	// simavr models the AVRs).
	Proxy string `yaml:"proxy"`
	// Clock is the part's CPU clock: time = cycles ÷ Clock.
	Clock catalog.Quantity `yaml:"clock"`
	// Flash and SRAM are what an image and its run must fit in.
	Flash catalog.Quantity `yaml:"flash"`
	SRAM  catalog.Quantity `yaml:"sram"`
	// Simulator is how the firmware runs.
	Simulator Simulation `yaml:"simulator"`
	// Build is how the firmware is built.
	Build BuildSpec `yaml:"build"`
}

// Simulation is the simulator a target runs in and what its counter counts.
type Simulation struct {
	// Name is the simulator's command: simavr, qemu-system-arm,
	// qemu-system-riscv32.
	Name string `yaml:"name"`
	// Machine is simavr's -m or QEMU's -machine.
	Machine string `yaml:"machine"`
	// Counter is the counter the harness reads around each operation.
	Counter string `yaml:"counter"`
	// Counts is what it counts: "cycles" (simavr: the part's cycles) or
	// "instructions" (QEMU: instructions executed, exactly).
	Counts string `yaml:"counts"`
	// Tick is the clock of a board timer that counts QEMU's virtual time
	// (zero when the counter counts cycles or instructions directly).
	// Under -icount shift=K each instruction advances virtual time by 2^K
	// ns, so the timer counts Tick × 2^K ns ticks per instruction.
	Tick catalog.Quantity `yaml:"tick"`
	// IcountShift is QEMU's -icount shift.
	IcountShift int `yaml:"icount_shift"`
	// CycleRule names the per-instruction-class cycle rule (cycles.go)
	// that estimates cycles from the executed instructions; "" for none.
	CycleRule string `yaml:"cycle_rule"`
}

// BuildSpec is how a target's firmware is built.
type BuildSpec struct {
	// Toolchain names the compiler and binutils (toolchain.go): avr,
	// arm-none-eabi, riscv64-unknown-elf.
	Toolchain string `yaml:"toolchain"`
	// Platform is the harness's platform file: kernels/platform_NAME.c.
	Platform string `yaml:"platform"`
	// Flags are the target's compiler flags (-mmcu=, -mcpu=, -march=).
	Flags []string `yaml:"flags"`
	// FlashOrigin and RAMOrigin are where the board's memory map puts
	// code and data (kernels/link.ld); unused for the AVRs, whose
	// avr-libc linker scripts know the part.
	FlashOrigin uint64 `yaml:"flash_origin"`
	RAMOrigin   uint64 `yaml:"ram_origin"`
}

// Describe is the target in one line: "atmega328p (Arduino Uno): 16 MHz,
// 32 KiB flash, 2 KiB SRAM".
func (t Target) Describe() string {
	s := fmt.Sprintf("%s (%s): %s, %s flash, %s SRAM", t.Name, t.boardName(), plain(t.Clock), plain(t.Flash), plain(t.SRAM))
	if t.Proxy != "" {
		s += fmt.Sprintf("; %s, emulated by QEMU %s", t.Core, t.Simulator.Machine)
	}
	return s
}

// boardName is the board with the part when they are not the same name.
func (t Target) boardName() string {
	if strings.Contains(t.Board, t.Part) {
		return t.Board
	}
	return t.Board + ", " + t.Part
}

// plain is a quantity without its source: "16 MHz".
func plain(q catalog.Quantity) string {
	return strconv.FormatFloat(q.Value, 'g', -1, 64) + " " + q.Unit
}

// ClockHz is the clock in hertz.
func (t Target) ClockHz() float64 { return t.Clock.MustIn("Hz") }

// FlashBytes and SRAMBytes are the memory sizes in bytes.
func (t Target) FlashBytes() int { return int(t.Flash.MustIn("B")) }
func (t Target) SRAMBytes() int  { return int(t.SRAM.MustIn("B")) }

// CountsCycles reports whether the counter counts the part's cycles
// (simavr) rather than instructions (QEMU).
func (t Target) CountsCycles() bool { return t.Simulator.Counts == "cycles" }

// Unit is what the counts are in: "cycles" or "instructions".
func (t Target) Unit() string { return t.Simulator.Counts }

// TicksPerUnit is how many counter ticks one cycle or instruction makes:
// 1 for Timer1 and minstret, Tick × 2^shift ns for a board timer counting
// QEMU's virtual time (3.2 for 25 MHz at shift 7).
func (t Target) TicksPerUnit() float64 {
	if t.Simulator.Tick.IsZero() {
		return 1
	}
	return t.Simulator.Tick.MustIn("Hz") * math.Ldexp(1, t.Simulator.IcountShift) * 1e-9
}

// IsAVR reports whether the target is an AVR built with avr-gcc.
func (t Target) IsAVR() bool { return t.Build.Toolchain == "avr" }

// targetFiles are the target definitions.
//
//go:embed targets/*.yaml
var targetFiles embed.FS

// targets is the registry, in the order lists show them: the AVRs, then
// the 32-bit cores from the smallest.
var targets []Target

func init() {
	names, err := catalog.Files(targetFiles, "targets")
	if err != nil {
		panic(err)
	}
	for _, name := range names {
		data, err := targetFiles.ReadFile(name)
		if err != nil {
			panic(err)
		}
		t, err := parseTarget(name, data)
		if err != nil {
			panic(err) // built-in data; TestTargetsAreValid says which
		}
		targets = append(targets, t)
	}
	order := []string{"avr", "arm-none-eabi", "riscv64-unknown-elf"}
	slices.SortStableFunc(targets, func(a, b Target) int {
		if d := slices.Index(order, a.Build.Toolchain) - slices.Index(order, b.Build.Toolchain); d != 0 {
			return d
		}
		return int(a.SRAM.MustIn("B") - b.SRAM.MustIn("B"))
	})
}

// parseTarget reads and checks one target file.
func parseTarget(name string, data []byte) (Target, error) {
	var t Target
	n, err := catalog.Parse(name, data, &t)
	if err != nil {
		return t, err
	}
	if want := strings.TrimSuffix(path.Base(name), path.Ext(name)); t.Name != want {
		return t, n.Errorf("name", "%q, want the file's name %q", t.Name, want)
	}
	for _, f := range []struct {
		field string
		value string
	}{{"part", t.Part}, {"board", t.Board}, {"core", t.Core}, {"simulator.machine", t.Simulator.Machine},
		{"simulator.counter", t.Simulator.Counter}, {"build.platform", t.Build.Platform}} {
		if f.value == "" {
			return t, n.Errorf(f.field, "missing")
		}
	}
	for _, q := range []struct {
		field string
		q     catalog.Quantity
		unit  string
	}{{"clock", t.Clock, "Hz"}, {"flash", t.Flash, "B"}, {"sram", t.SRAM, "B"}} {
		if v, err := q.q.In(q.unit); err != nil || v <= 0 {
			return t, n.Errorf(q.field, "want a positive %s with its source, such as \"16 MHz [datasheet]\"", q.unit)
		}
		if q.q.Source == "" {
			return t, n.Errorf(q.field, "no source: say where the number comes from in [brackets]")
		}
	}
	if _, ok := simulators[t.Simulator.Name]; !ok {
		return t, n.Errorf("simulator.name", "unknown simulator %q: want one of %s", t.Simulator.Name, strings.Join(simulatorNames(), ", "))
	}
	if _, ok := toolchainSpecs[t.Build.Toolchain]; !ok {
		return t, n.Errorf("build.toolchain", "unknown toolchain %q: want one of %s", t.Build.Toolchain, strings.Join(toolchainNames(), ", "))
	}
	switch t.Simulator.Counts {
	case "cycles", "instructions":
	default:
		return t, n.Errorf("simulator.counts", "%q: want cycles or instructions", t.Simulator.Counts)
	}
	if !t.Simulator.Tick.IsZero() {
		if v, err := t.Simulator.Tick.In("Hz"); err != nil || v <= 0 || t.Simulator.Tick.Source == "" {
			return t, n.Errorf("simulator.tick", "want the timer's clock with its source, such as \"25 MHz [QEMU hw/arm/mps2.c]\"")
		}
		// Rounding ticks to instructions is exact only with more than two
		// ticks per instruction (each reading is off by less than one).
		if t.TicksPerUnit() <= 2 {
			return t, n.Errorf("simulator.icount_shift", "%d gives %.3g ticks per instruction: want more than 2", t.Simulator.IcountShift, t.TicksPerUnit())
		}
	}
	if r := t.Simulator.CycleRule; r != "" {
		if _, ok := cycleRules[r]; !ok {
			return t, n.Errorf("simulator.cycle_rule", "unknown rule %q: want one of %s", r, strings.Join(cycleRuleNames(), ", "))
		}
	}
	if _, err := kernelSources.ReadFile("kernels/platform_" + t.Build.Platform + ".c"); err != nil {
		return t, n.Errorf("build.platform", "no kernels/platform_%s.c", t.Build.Platform)
	}
	return t, nil
}

// Targets returns every target.
func Targets() []Target { return slices.Clone(targets) }

// TargetByName returns the named target (case-insensitive).
func TargetByName(name string) (Target, error) {
	var names []string
	for _, t := range targets {
		if strings.EqualFold(t.Name, name) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return Target{}, fmt.Errorf("unknown target %q: want one of %s (or all)", name, strings.Join(names, ", "))
}

// SelectTargets resolves --target values: names, or "all".
func SelectTargets(names []string) ([]Target, error) {
	var out []Target
	for _, n := range names {
		n = strings.TrimSpace(n)
		if strings.EqualFold(n, "all") {
			return Targets(), nil
		}
		t, err := TargetByName(n)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(out, func(o Target) bool { return o.Name == t.Name }) {
			out = append(out, t)
		}
	}
	return out, nil
}
