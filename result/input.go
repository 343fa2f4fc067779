package result

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Input is a data file a run's figures were computed from — the device
// profile it was priced on, the calibration whose times it used — carried
// whole in the run: a run read later on another machine, from a file or a
// shared results store, has what it was priced with even where that
// profile has since changed or never existed. The costing stage fills
// Inputs; the store indexes them (kind, name, SHA-256) with the run.
type Input struct {
	// Kind is what the file is: "device-profile", "calibration",
	// "radio-profile", "link-profile".
	Kind string `json:"kind"`
	// Name is the profile's or calibration's name: "pi-zero-2w".
	Name string `json:"name"`
	// Source is where it was read: "builtin:energy/devices/pi-zero-2w.yaml",
	// a file path, a calibration directory.
	Source string `json:"source,omitempty"`
	// Format is the content's syntax: "yaml" or "json".
	Format string `json:"format"`
	// SHA256 is the hex SHA-256 of Content's bytes.
	SHA256 string `json:"sha256"`
	// Content is the file's bytes as they were read.
	Content string `json:"content"`
}

// NewInput makes an Input of content, with its hash.
func NewInput(kind, name, source, format string, content []byte) Input {
	sum := sha256.Sum256(content)
	return Input{Kind: kind, Name: name, Source: source, Format: format, SHA256: hex.EncodeToString(sum[:]), Content: string(content)}
}

// Check verifies that the input is named and its hash is its content's.
func (in Input) Check() error {
	if in.Kind == "" || in.Name == "" {
		return fmt.Errorf("input %q of kind %q: an input needs a kind and a name", in.Name, in.Kind)
	}
	sum := sha256.Sum256([]byte(in.Content))
	if hex.EncodeToString(sum[:]) != in.SHA256 {
		return fmt.Errorf("input %s %s: its sha256 %s is not its content's (the content was changed after it was recorded)", in.Kind, in.Name, in.SHA256)
	}
	return nil
}

// AddInput records in on the run, once: the same kind, name and content
// added again is a no-op.
func (r *Run) AddInput(in Input) {
	for _, have := range r.Inputs {
		if have.Kind == in.Kind && have.Name == in.Name && have.SHA256 == in.SHA256 {
			return
		}
	}
	r.Inputs = append(r.Inputs, in)
}

// Input returns the run's input of that kind and name, or nil.
func (r *Run) Input(kind, name string) *Input {
	for i := range r.Inputs {
		if r.Inputs[i].Kind == kind && r.Inputs[i].Name == name {
			return &r.Inputs[i]
		}
	}
	return nil
}
