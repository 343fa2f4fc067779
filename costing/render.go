package costing

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
)

// WriteEnergyTable writes the figures Price added to primitive results,
// one row per result, with each figure's label, rung and a footnote per
// distinct method; results it could not price say why.
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
				if strings.HasPrefix(warn, "not priced") {
					fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\tnot priced%s\n", r.Subject.Name, mark(warn))
				}
			}
			continue
		}
		devTime := "this run"
		if t := r.Metric("device-time"); t != nil {
			how := string(t.Label) + ", " + t.Source
			if strings.HasPrefix(t.Source, string(t.Label)) {
				how = t.Source // the rung's own name leads it
			}
			devTime = result.DisplayMetric(t) + mark(how+": "+t.Method)
		} else if t := r.Metric("time"); t != nil {
			devTime = result.DisplayMetric(t)
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
	if x := perSubjectTime.FindStringSubmatchIndex(m); x != nil {
		return m[:x[1]-len(m[x[2]:x[1]])] + " × the device's time"
	}
	return m
}

// perSubjectTime is the time factor of "E = V·I·t: V × I × 13.17 s (…)".
var perSubjectTime = regexp.MustCompile(`^E = V·I·t: .*?( × [0-9.e+-]+ s \(.*)$`)
