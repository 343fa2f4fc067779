package mcu

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// Target is a microcontroller cryptocost builds firmware for and simulates.
type Target struct {
	// Name is the --target value: "atmega328p".
	Name string
	// Board is the board people know it from.
	Board string
	// MCU is the part name avr-gcc (-mmcu) and simavr (-m) take.
	MCU string
	// Clock is the CPU clock the simulator runs and times are computed at.
	Clock catalog.Quantity
	// Flash and SRAM are what an image and its run must fit in.
	Flash, SRAM catalog.Quantity
}

// Describe is the target in one line: "atmega328p (Arduino Uno): 16 MHz,
// 32 KiB flash, 2 KiB SRAM".
func (t Target) Describe() string {
	return fmt.Sprintf("%s (%s): %s, %s flash, %s SRAM", t.Name, t.Board, plain(t.Clock), plain(t.Flash), plain(t.SRAM))
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

// targets is the registry; adding a part is adding a value (and checking
// its harness: UART0, Timer1 and the avr-libc names harness.c uses).
var targets = []Target{
	{
		Name:  "atmega328p",
		Board: "Arduino Uno",
		MCU:   "atmega328p",
		// The Uno's 16 MHz crystal (Arduino Uno Rev3 schematic); S004's
		// figures are at 16 MHz too.
		Clock: catalog.Q(16, "MHz", "Arduino Uno Rev3 schematic: 16 MHz crystal"),
		// ATmega328P datasheet (DS40002061B) §1 "Features": 32 KiB of
		// flash, 2 KiB of SRAM. The Uno's optiboot bootloader takes 512 B
		// of the flash; images here run without a bootloader.
		Flash: catalog.Q(32, "KiB", "ATmega328P datasheet DS40002061B §1"),
		SRAM:  catalog.Q(2, "KiB", "ATmega328P datasheet DS40002061B §1"),
	},
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
	return Target{}, fmt.Errorf("unknown target %q: want one of %s", name, strings.Join(names, ", "))
}
