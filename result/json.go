package result

import (
	"encoding/json"
	"fmt"
	"io"
)

func init() { registerFormat(jsonFormat{}) }

type jsonFormat struct{}

func (jsonFormat) Name() string { return "json" }
func (jsonFormat) Description() string {
	return "the full result model with raw samples (schema: docs/result-schema.md)"
}

// Write writes one run as an object, several as an array.
func (jsonFormat) Write(w io.Writer, runs ...*Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if len(runs) == 1 {
		return enc.Encode(runs[0])
	}
	return enc.Encode(runs)
}

// ReadJSON reads a run (or an array of runs) written by the json format.
func ReadJSON(r io.Reader) ([]*Run, error) {
	dec := json.NewDecoder(r)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not cryptocost JSON: %w", err)
	}
	var runs []*Run
	if len(raw) > 0 && raw[0] == '[' {
		if err := json.Unmarshal(raw, &runs); err != nil {
			return nil, fmt.Errorf("not a cryptocost run array: %w", err)
		}
	} else {
		var run Run
		if err := json.Unmarshal(raw, &run); err != nil {
			return nil, fmt.Errorf("not a cryptocost run: %w", err)
		}
		runs = []*Run{&run}
	}
	for i, run := range runs {
		if isLegacySchema(run.Schema) {
			Upgrade(run)
		}
		if err := run.Validate(); err != nil {
			return nil, fmt.Errorf("run %d: %w", i, err)
		}
	}
	return runs, nil
}
