package meter

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteMeters writes energy meters' answer: which live meters work here
// (statuses, from Probe) and why not, then the external meters' trace
// formats that energy trace and attribute read.
func WriteMeters(w io.Writer, statuses []Status) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METER\tAVAILABLE\tDETAIL")
	for _, s := range statuses {
		avail := "no"
		if s.Available {
			avail = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, avail, s.Detail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nExternal meters: their exports, read by cryptocost energy trace / attribute (--meter NAME, or detected):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TRACE FORMAT\tLAYOUT\tSOURCE")
	for _, f := range TraceFormats() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, f.Description, f.Source)
	}
	return tw.Flush()
}
