package main

import (
	"context"
	"errors"
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
}

func (o *outputFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.format, "format", "table", "output format: "+strings.Join(result.FormatNames(), ", "))
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
}

// resolve checks the format before any work starts.
func (o *outputFlags) resolve(cmd *cobra.Command) (result.Format, error) {
	name := o.format
	if !cmd.Flags().Changed("format") && o.out != "" {
		switch strings.ToLower(filepath.Ext(o.out)) {
		case ".json":
			name = "json"
		case ".csv":
			name = "csv"
		}
	}
	return result.FormatByName(name)
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
