package result

import (
	"io"

	"github.com/cryptocost/cryptocost/internal/registry"
)

// Format writes runs in one output format.
type Format interface {
	// Name is the --format value.
	Name() string
	// Description is one line for --help.
	Description() string
	Write(w io.Writer, runs ...*Run) error
}

// formats is the registry of output formats, in registration order (the
// order help lists them).
var formats = registry.New[Format]("format")

func registerFormat(f Format) { formats.MustAdd(f.Name(), f) }

// Formats returns every output format, in registration order.
func Formats() []Format { return formats.Values() }

// FormatNames returns the names of the formats, for help and errors.
func FormatNames() []string { return formats.Names() }

// FormatByName returns the named format.
func FormatByName(name string) (Format, error) { return formats.Get(name) }
