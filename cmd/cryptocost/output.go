package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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

// write writes the run to stdout or, atomically, to the -o file: a regular
// file is either the complete output or untouched, even if cryptocost is
// killed. A device or pipe (-o /dev/null, -o /dev/stderr) is written
// directly: renaming over it would replace the device with a file.
func (o *outputFlags) write(cmd *cobra.Command, f result.Format, run *result.Run) error {
	if o.out == "" {
		return f.Write(cmd.OutOrStdout(), run)
	}
	if fi, err := os.Stat(o.out); err == nil && !fi.Mode().IsRegular() {
		w, err := os.OpenFile(o.out, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", o.out, err)
		}
		if err := writeAndClose(w, f, run); err != nil {
			return fmt.Errorf("writing %s: %w", o.out, err)
		}
		return nil
	}
	dir := filepath.Dir(o.out)
	tmp, err := os.CreateTemp(dir, ".cryptocost-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", o.out, err)
	}
	defer os.Remove(tmp.Name())
	if err := writeAndClose(tmp, f, run); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	// CreateTemp makes the file 0600; an output file is readable like one
	// os.Create makes (modulo umask, which 0644 already satisfies).
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	if err := os.Rename(tmp.Name(), o.out); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	return nil
}

func writeAndClose(w io.WriteCloser, f result.Format, run *result.Run) error {
	if err := f.Write(w, run); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
