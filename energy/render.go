package energy

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
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

// NewRun starts a run of kind for results this package makes (battery
// arithmetic, trace attribution), with this machine's environment.
func NewRun(kind string, tool result.Tool, command []string) *result.Run {
	var b [4]byte
	_, _ = rand.Read(b[:])
	now := time.Now().UTC()
	return &result.Run{Schema: result.Schema, ID: now.Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:]),
		Kind: kind, Tool: tool, Command: command, Started: now, Finished: now, Status: result.Complete,
		Environment: measure.CaptureEnvironment()}
}

// WriteEnergyTable writes the energy figures Annotate added, one row per
// result, with each figure's label and a footnote per distinct method.
func WriteEnergyTable(w io.Writer, run *result.Run) error {
	fmt.Fprintf(w, "energy on %s · run %s (%s/%s)\n", run.Environment.Device, run.ID, run.Environment.OS, run.Environment.Arch)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SUBJECT\tTIME ON DEVICE\tENERGY/OP\tNET/OP\tPER BYTE\tCURRENT\tPOWER\tLABEL")
	notes := map[string]int{}
	var order []string
	mark := func(text string) string {
		n, ok := notes[text]
		if !ok {
			n = len(notes) + 1
			notes[text] = n
			order = append(order, text)
		}
		return fmt.Sprintf("[%d]", n)
	}
	val := func(m *result.Metric) string {
		if m == nil {
			return "-"
		}
		return result.DisplayMetric(m)
	}
	for i := range run.Results {
		r := &run.Results[i]
		e := r.Metric("energy")
		if e == nil {
			for _, warn := range r.Warnings {
				if strings.HasPrefix(warn, "no energy on") {
					fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\tnone%s\n", r.Subject.Name, mark(warn))
				}
			}
			continue
		}
		devTime := "this run"
		if t := r.Metric("device-time"); t != nil {
			devTime = fmtSeconds(t.Summary.Median) + mark(string(t.Label)+": "+t.Method)
		} else if t := r.Metric("time"); t != nil {
			devTime = fmtSeconds(t.Summary.Median)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n", r.Subject.Name, devTime, val(e), val(r.Metric("energy-net")),
			val(r.Metric("energy-per-byte")), val(r.Metric("current")), val(r.Metric("power")), e.Label,
			mark("energy: "+methodKind(e.Method)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, text := range order {
		fmt.Fprintf(w, "[%d] %s\n", notes[text], text)
	}
	return nil
}

// methodKind drops the per-subject time from an energy method, so a table
// gets one footnote per power figure rather than one per row.
func methodKind(m string) string {
	if i := strings.Index(m, " × time/op"); i > 0 {
		return m[:i] + " × time/op"
	}
	if i := strings.Index(m, " × by "); i > 0 {
		return m[:i] + " × the estimated time"
	}
	return m
}
