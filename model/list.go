package model

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// WriteList writes model list's table: the built-in models, then the
// built-in cost tables.
func WriteList(w io.Writer) error {
	ms, err := Builtins()
	if err != nil {
		return err
	}
	ts, err := BuiltinCostTables()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tPER\tPARAMETERS\tVARIANTS\tCOSTS\tTITLE")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", m.Name, m.Per, len(m.Params), strings.Join(m.VariantNames(), ", "), m.DefaultCosts, m.Title)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "COST TABLE\tDEVICE\tOPERATIONS\tTITLE")
	for _, t := range ts {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", t.Name, t.Device, len(t.Ops), t.Title)
	}
	return tw.Flush()
}

// WriteSource writes the YAML source of a model or cost table: a
// built-in's embedded file ("builtin:..."), or the file it was read from.
func WriteSource(w io.Writer, file string) error {
	var data []byte
	var err error
	if strings.HasPrefix(file, "builtin:") {
		data, err = BuiltinSource(file)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
