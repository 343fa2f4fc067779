package result

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
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
	for _, r := range runs {
		sanitize(r)
	}
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
		if err := run.Validate(); err != nil {
			return nil, fmt.Errorf("run %d: %w", i, err)
		}
	}
	return runs, nil
}

// sanitize replaces infinities (an unbounded CI) with a JSON-representable
// marker: JSON has no Inf, so ci_low/ci_high become 0 and the summary's N
// (below 6) tells readers the interval is undefined.
func sanitize(r *Run) {
	for i := range r.Results {
		for j := range r.Results[i].Metrics {
			s := &r.Results[i].Metrics[j].Summary
			if math.IsInf(s.CILow, 0) || math.IsNaN(s.CILow) {
				s.CILow = 0
			}
			if math.IsInf(s.CIHigh, 0) || math.IsNaN(s.CIHigh) {
				s.CIHigh = 0
			}
		}
	}
}
