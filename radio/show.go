package radio

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteProfile is radio show's text: the profile's name, aliases, file
// and sources, then each parameter with its value and source, marking
// the unverified ones.
func WriteProfile(w io.Writer, p *Profile) error {
	fmt.Fprintf(w, "%s (%s): %s\n", p.Name, p.Technology, p.Description)
	if len(p.Aliases) > 0 {
		fmt.Fprintf(w, "aliases: %s\n", strings.Join(p.Aliases, ", "))
	}
	fmt.Fprintf(w, "file: %s\n\nsources:\n", p.File)
	for _, s := range p.Sources {
		fmt.Fprintf(w, "  %s\n", s)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PARAMETER\tVALUE\tSOURCE")
	for _, q := range p.Params {
		mark := ""
		if q.Quantity.Unverified() {
			mark = " (!)"
		}
		fmt.Fprintf(tw, "%s\t%s %s%s\t%s\n", strings.TrimPrefix(q.Field, "params."),
			strconv.FormatFloat(q.Quantity.Value, 'g', -1, 64), q.Quantity.Unit, mark, q.Quantity.Source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if p.Unverified() {
		fmt.Fprintln(w, "\n(!) unverified: recalled from a paper or assumed; check it, or measure and override with --radio-file.")
	}
	return nil
}
