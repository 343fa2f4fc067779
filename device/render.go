package device

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteList writes one line per device: the figures the energy model
// uses, "?" where a figure is unknown.
func WriteList(w io.Writer, devs []*Device) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDEVICE\tCPU\tCLOCK\tSUPPLY\tACTIVE\tSLEEP\tBATTERY\tRADIOS\tOPS")
	for _, d := range devs {
		battery := "-"
		if d.Battery != nil {
			battery = short(d.Battery.Capacity)
		}
		radios := strings.Join(d.Radios, ",")
		if radios == "" {
			radios = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", d.Name, d.Title, d.CPU.Arch, short(d.CPU.Clock),
			short(d.Supply.Voltage), short(d.Power["active"]), short(d.Power["sleep"]), battery, radios, len(d.Operations))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "? = unknown (never invented); * = unverified. cryptocost devices show NAME gives every source.")
	return err
}

// Short is "1.8 mA", "?" for unknown or absent, with "*" for unverified.
func Short(v Value) string { return short(v) }

// short is "1.8 mA", "?" for unknown or absent, with "*" for unverified.
func short(v Value) string {
	if !v.Known() {
		if v.Unknown != "" || v == (Value{}) {
			return "?"
		}
	}
	s := strings.TrimSpace(fmt.Sprintf("%g %s", v.Value, v.Unit))
	if v.Unverified() || strings.Contains(strings.ToLower(v.Source), "assumption") {
		s += "*"
	}
	return s
}

// WriteDevice prints a profile with the source of every number.
func WriteDevice(w io.Writer, d *Device) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("%s — %s\n", d.Name, d.Title)
	if d.Description != "" {
		p("  %s\n", d.Description)
	}
	if len(d.Aliases) > 0 {
		p("  aliases: %s\n", strings.Join(d.Aliases, ", "))
	}
	p("  profile: %s\n", d.Source())
	p("\nCPU\n")
	p("  model:      %s\n", d.CPU.Model)
	p("  arch:       %s", d.CPU.Arch)
	if len(d.CPU.GOARCH) > 0 {
		p(" (cryptocost runs there as GOARCH %s)", strings.Join(d.CPU.GOARCH, " or "))
	} else {
		p(" (no Go port: times come from the literature or estimates)")
	}
	p("\n  clock:      %s\n  cores:      %s\n", d.CPU.Clock, d.CPU.Cores)
	if d.CPU.WordBits.Given() {
		p("  word bits:  %s\n", d.CPU.WordBits)
	}
	if d.Memory != (Memory{}) {
		p("\nMemory\n")
		for _, m := range []struct {
			name string
			v    Value
		}{{"RAM", d.Memory.RAM}, {"flash", d.Memory.Flash}, {"storage", d.Memory.Storage}} {
			if m.v.Given() {
				p("  %-10s  %s\n", m.name+":", m.v)
			}
		}
	}
	p("\nSupply\n  voltage:    %s\n", d.Supply.Voltage)
	p("\nPower by state (the model uses active, and idle or sleep as the baseline)\n")
	for _, s := range d.States() {
		p("  %-11s %s\n", s+":", d.Power[s])
	}
	if b := d.BaselineState(); b != "" {
		p("  net energy is reported net of: %s\n", b)
	}
	if d.Battery != nil {
		p("\nBattery\n  chemistry:  %s\n  capacity:   %s\n  nominal:    %s\n  usable:     %s\n",
			d.Battery.Chemistry, d.Battery.Capacity, d.Battery.NominalVoltage, d.Battery.Usable)
	} else {
		p("\nBattery\n  none in the profile (give --capacity to the battery command)\n")
	}
	if len(d.Radios) > 0 {
		p("\nRadios (priced by the radio profiles)\n  %s\n", strings.Join(d.Radios, ", "))
	}
	if len(d.Operations) > 0 {
		p("\nOperations measured on this device by others (imported; key for --algo in parentheses)\n")
		for _, o := range d.Operations {
			var costs []string
			for _, c := range []struct {
				name string
				v    Value
			}{{"time", o.Time}, {"energy", o.Energy}, {"current", o.Current}, {"per byte", o.EnergyPerByte}} {
				if c.v.Given() {
					costs = append(costs, c.name+" "+c.v.String())
				}
			}
			p("  %s (%s)\n      %s\n", o.Name, o.Key(), strings.Join(costs, "; "))
			if o.Note != "" {
				p("      note: %s\n", o.Note)
			}
		}
	}
	if len(d.Notes) > 0 {
		p("\nNotes\n")
		for _, n := range d.Notes {
			p("  - %s\n", n)
		}
	}
	return nil
}
