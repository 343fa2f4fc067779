package result

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format writes runs in one output format.
type Format interface {
	// Name is the --format value.
	Name() string
	// Description is one line for --help.
	Description() string
	Write(w io.Writer, runs ...*Run) error
}

var formats []Format

func registerFormat(f Format) { formats = append(formats, f) }

// Formats returns every output format, in registration order.
func Formats() []Format { return slices.Clone(formats) }

// FormatNames returns the names of the formats, for help and errors.
func FormatNames() []string {
	var names []string
	for _, f := range formats {
		names = append(names, f.Name())
	}
	return names
}

// FormatByName returns the named format.
func FormatByName(name string) (Format, error) {
	for _, f := range formats {
		if strings.EqualFold(f.Name(), name) {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(FormatNames(), ", "))
}
