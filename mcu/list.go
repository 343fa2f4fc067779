package mcu

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/catalog"
)

// QuickKernels are the kernels a quick run measures: the symmetric ones,
// each a fraction of a second of simulation.
func QuickKernels() []string {
	var names []string
	for _, k := range Kernels() {
		switch k.Family {
		case "block", "stream", "aead", "hash", "mac":
			names = append(names, k.Name)
		}
	}
	return names
}

// FastKernels are the kernels a study's rows name that are not slow: a
// slow one (RSA-2048) runs only when the user names it.
func (ref *Reference) FastKernels() []string {
	var names []string
	for _, name := range ref.Kernels() {
		if k, ok := KernelByName(name); ok && !k.Slow {
			names = append(names, name)
		}
	}
	return names
}

// WriteTargets writes the targets table of mcu list.
func WriteTargets(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TARGET\tPART\tBOARD\tCORE\tCLOCK\tFLASH\tSRAM\tSIMULATOR\tCOUNTS\tDEBIAN PACKAGES")
	for _, t := range Targets() {
		counts := t.Unit()
		if t.Simulator.CycleRule != "" {
			counts += ", cycles estimated"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s %s\t%s\t%s\n", t.Name, t.Part, t.Board, t.Core,
			quantity(t.Clock), quantity(t.Flash), quantity(t.SRAM), t.Simulator.Name, t.Simulator.Machine, counts, strings.Join(Packages(t), " "))
	}
	return tw.Flush()
}

// WriteKernels writes the kernels table of mcu list.
func WriteKernels(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KERNEL\tALGORITHM\tFAMILY\tSECURITY\tSOURCES\tNOTE")
	for _, k := range Kernels() {
		note := k.Label
		if k.Slow {
			note += "; slow: runs only when named"
		}
		sec := fmt.Sprint(k.SecurityBits)
		if k.SecurityBits == 0 {
			sec = "<80"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.Name, k.Algorithm, k.Family, sec, strings.Join(k.Sources, ","), note)
	}
	return tw.Flush()
}

// quantity is a number and its unit without the source: "16 MHz".
func quantity(q catalog.Quantity) string {
	return strconv.FormatFloat(q.Value, 'g', -1, 64) + " " + q.Unit
}
