package device

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteListAs writes devs in format: "table" (WriteList) or "json" (the
// profiles as JSON, what `cryptocost devices --format json` prints).
func WriteListAs(w io.Writer, format string, devs []*Device) error {
	switch format {
	case "table":
		return WriteList(w, devs)
	case "json":
		return writeJSON(w, devs)
	}
	return fmt.Errorf("unknown --format %q: want table or json", format)
}

// WriteAs writes one profile in format: "text" (WriteDevice, the source
// of every number) or "json".
func WriteAs(w io.Writer, format string, d *Device) error {
	switch format {
	case "text":
		return WriteDevice(w, d)
	case "json":
		return writeJSON(w, d)
	}
	return fmt.Errorf("unknown --format %q: want text or json", format)
}

// Show writes the profile name or file names (Resolve) in format
// (WriteAs): what `cryptocost devices show` prints.
func Show(w io.Writer, name, file, format string) error {
	d, err := Resolve(name, file)
	if err != nil {
		return err
	}
	return WriteAs(w, format, d)
}

// writeJSON writes v indented by two spaces, <, > and & as they are.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
