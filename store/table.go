package store

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteSummaries writes runs as the runs command's table, one line each,
// or says that none match in the store at path.
func WriteSummaries(w io.Writer, path string, runs []Summary) error {
	if len(runs) == 0 {
		fmt.Fprintf(w, "no runs match in %s\n", path)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tKIND\tSTATUS\tSTARTED\tHOST\tDEVICE\tPLATFORM\tRESULTS\tORIGIN\tTAGS")
	for _, r := range runs {
		// The words --origin filters on: local (made by this
		// cryptocost's commands) or imported.
		origin := Local
		if r.Origin.Kind == Imported {
			origin = Imported
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s/%s\t%d\t%s\t%s\n", r.ID, r.Kind, r.Status,
			r.Started.UTC().Format("2006-01-02 15:04Z"), r.Hostname, r.Device, r.GOOS, r.GOARCH, r.Results,
			origin, strings.Join(r.Tags, ","))
	}
	return tw.Flush()
}

// WriteDevices writes the fleet's devices as runs --by device's table, or
// says that no runs match in the store at path.
func WriteDevices(w io.Writer, path string, devs []DeviceSummary) error {
	if len(devs) == 0 {
		fmt.Fprintf(w, "no runs match in %s\n", path)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tRUNS\tMACHINES\tHOSTS\tKINDS\tPLATFORMS\tFIRST\tLAST")
	for _, d := range devs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", d.Device, d.Runs, d.Machines, strings.Join(d.Hosts, ","),
			strings.Join(d.Kinds, ","), strings.Join(d.Platforms, ","), d.First.UTC().Format("2006-01-02 15:04Z"),
			d.Last.UTC().Format("2006-01-02 15:04Z"))
	}
	return tw.Flush()
}
