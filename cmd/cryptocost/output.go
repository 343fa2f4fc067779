package main

import (
	"io"
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

func (o *outputFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.format, "format", result.DefaultFormatName(o.own), "output format: "+strings.Join(result.FormatNamesWith(o.own), ", "))
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "write to `FILE` instead of stdout (format from the extension .json or .csv unless --format is given)")
}

// resolve checks the format before any work starts: the one --format
// resolver (a command's own formats, then the result package's;
// result.FormatWith).
func (o *outputFlags) resolve(cmd *cobra.Command) (result.Format, error) {
	return result.FormatWith(o.name(cmd), o.own)
}

// name is --format, or -o's extension's format (.json, .csv) when
// --format is not given: the rule of every command that writes files
// (result.FormatForFile).
func (o *outputFlags) name(cmd *cobra.Command) string {
	return result.FormatForFile(o.format, cmd.Flags().Changed("format"), o.out)
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
	return atomicfile.WriteInterrupted(file, fn)
}
