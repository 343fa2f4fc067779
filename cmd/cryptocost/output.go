package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

// outputFlags are --format and -o, shared by every command that writes runs.
type outputFlags struct {
	format string
	out    string
	// own are a command's formats beside the result package's (energy
	// battery's text and markdown), the first the default.
	own []result.Format
}

// names are the formats --format takes, the default first.
func (o *outputFlags) names() []string {
	var names []string
	for _, f := range o.own {
		names = append(names, f.Name())
	}
	return append(names, result.FormatNames()...)
}

func (o *outputFlags) register(cmd *cobra.Command) {
	def := "table"
	if len(o.own) > 0 {
		def = o.own[0].Name()
	}
	cmd.Flags().StringVar(&o.format, "format", def, "output format: "+strings.Join(o.names(), ", "))
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
}

// resolve checks the format before any work starts: the one --format
// resolver (a command's own formats, then the result package's).
func (o *outputFlags) resolve(cmd *cobra.Command) (result.Format, error) {
	name := o.name(cmd)
	for _, f := range o.own {
		if strings.EqualFold(f.Name(), name) {
			return f, nil
		}
	}
	f, err := result.FormatByName(name)
	if err != nil && len(o.own) > 0 {
		return nil, fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(o.names(), ", "))
	}
	return f, err
}

// name is --format, or -o's extension's format (.json, .csv) when
// --format is not given: the rule of every command that writes files.
func (o *outputFlags) name(cmd *cobra.Command) string {
	if !cmd.Flags().Changed("format") && o.out != "" {
		switch strings.ToLower(filepath.Ext(o.out)) {
		case ".json":
			return "json"
		case ".csv":
			return "csv"
		}
	}
	return o.format
}

// write writes the run to stdout or to the -o file (writeOut).
func (o *outputFlags) write(cmd *cobra.Command, f result.Format, run *result.Run) error {
	return writeOut(cmd, o.out, func(w io.Writer) error { return f.Write(w, run) })
}

// writeOut writes to stdout or, atomically, to file: a regular file is
// either the complete output or untouched, even if cryptocost is killed;
// a device or pipe (-o /dev/null) is written in place (atomicfile). A
// write cut short by Ctrl-C (context.Canceled) still keeps what it wrote
// — an interrupted stream's points — and returns the cancellation.
func writeOut(cmd *cobra.Command, file string, fn func(w io.Writer) error) error {
	if file == "" {
		return fn(cmd.OutOrStdout())
	}
	var canceled error
	err := atomicfile.Write(file, func(w io.Writer) error {
		if err := fn(w); err != nil && !errors.Is(err, context.Canceled) {
			return err
		} else if err != nil {
			canceled = err
		}
		return nil
	})
	if err != nil {
		return err
	}
	return canceled
}
