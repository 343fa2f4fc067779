package energy

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/cryptocost/cryptocost/device"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// WriteList and WriteDevice moved to package device.
var (
	WriteList   = device.WriteList
	WriteDevice = device.WriteDevice
)

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
