package tlslab

import (
	"fmt"
	"io"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// WriteList writes what a run can name (`cryptocost tls --list`): the
// presets with their cell counts, the links with their sources, and the
// peers.
func WriteList(w io.Writer) error {
	fmt.Fprintln(w, "Presets:")
	for _, p := range Presets {
		fmt.Fprintf(w, "  %-18s %d cells: %s\n", p.Name, len(p.Dimensions.Cells()), p.Description)
	}
	fmt.Fprintln(w, "\nLinks (--link):")
	fmt.Fprintln(w, "  none               loopback, no emulation (the default)")
	for _, p := range link.Profiles() {
		fmt.Fprintf(w, "  %-18s %s\n", p.Name, p.Description)
		for _, s := range p.Sources() {
			fmt.Fprintf(w, "  %-18s   %s\n", "", s)
		}
	}
	fmt.Fprintln(w, "\nPeers (--server, --client):")
	for _, p := range Peers() {
		fmt.Fprintf(w, "  %-18s %s\n", p.Name(), p.Description())
	}
	return nil
}

// TableFormat is the table format of TLS runs (a result.Format): the
// lab's study-shaped tables (WriteTables), run after run.
type TableFormat struct{ Options TableOptions }

// Name is the format's name: table.
func (TableFormat) Name() string { return "table" }

// Description says what the format writes.
func (TableFormat) Description() string { return "the TLS lab's tables" }

// Write writes each run's tables.
func (t TableFormat) Write(w io.Writer, runs ...*result.Run) error {
	for _, r := range runs {
		if err := WriteTables(w, r, t.Options); err != nil {
			return err
		}
	}
	return nil
}
