package meter

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// Marker is one line of a JSONL marker file: the start or end of a
// measured phase, at time T in seconds on the trace's clock. A runner
// writes them (MarkerWriter) the way S003 toggled an LED pin that the
// oscilloscope recorded beside the shunt voltage.
//
//	{"t": 1.250, "phase": "sign", "event": "start"}
//	{"t": 1.731, "phase": "sign", "event": "end"}
//
// A line may instead give a whole phase: {"phase": "sign", "start": 1.25,
// "end": 1.731}. Times may be given in nanoseconds as "t_ns".
type Marker struct {
	T     *float64 `json:"t,omitempty"`
	TNs   *int64   `json:"t_ns,omitempty"`
	Phase string   `json:"phase"`
	Event string   `json:"event,omitempty"` // start, end
	Start *float64 `json:"start,omitempty"`
	End   *float64 `json:"end,omitempty"`
	// Clock describes the time base (written by MarkerWriter in its first
	// line; informational).
	Clock string `json:"clock,omitempty"`
}

// Phase is one occurrence of a measured phase.
type Phase struct {
	Name       string
	Start, End float64 // seconds
	Line       int     // the marker line that started it
}

// Duration in seconds.
func (p Phase) Duration() float64 { return p.End - p.Start }

// ReadMarkers reads a JSONL marker file into phases in time order, with
// offset added to every time (to move markers onto the trace's clock).
// Unmatched or overlapping markers are errors naming the line.
func ReadMarkers(name string, r io.Reader, offset float64) ([]Phase, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	open := map[string]Phase{}
	var phases []Phase
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		var m Marker
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("%s:%d: %v (want {\"t\": 1.25, \"phase\": \"sign\", \"event\": \"start\"})", name, line, err)
		}
		if m.Phase == "" {
			if m.Clock != "" {
				continue // the writer's header line
			}
			return nil, fmt.Errorf("%s:%d: no phase name", name, line)
		}
		if m.Start != nil || m.End != nil {
			if m.Start == nil || m.End == nil {
				return nil, fmt.Errorf("%s:%d: a whole phase needs both start and end", name, line)
			}
			p := Phase{Name: m.Phase, Start: *m.Start + offset, End: *m.End + offset, Line: line}
			if !(p.End > p.Start) {
				return nil, fmt.Errorf("%s:%d: phase %q ends (%.9g s) before it starts (%.9g s)", name, line, p.Name, p.End, p.Start)
			}
			phases = append(phases, p)
			continue
		}
		var t float64
		switch {
		case m.T != nil:
			t = *m.T
		case m.TNs != nil:
			t = float64(*m.TNs) * 1e-9
		default:
			return nil, fmt.Errorf("%s:%d: no time: give \"t\" (seconds) or \"t_ns\"", name, line)
		}
		t += offset
		switch m.Event {
		case "start":
			if p, ok := open[m.Phase]; ok {
				return nil, fmt.Errorf("%s:%d: phase %q starts again before its start on line %d ended", name, line, m.Phase, p.Line)
			}
			open[m.Phase] = Phase{Name: m.Phase, Start: t, Line: line}
		case "end":
			p, ok := open[m.Phase]
			if !ok {
				return nil, fmt.Errorf("%s:%d: phase %q ends but never started", name, line, m.Phase)
			}
			delete(open, m.Phase)
			p.End = t
			if !(p.End > p.Start) {
				return nil, fmt.Errorf("%s:%d: phase %q ends (%.9g s) before it starts (%.9g s, line %d)", name, line, p.Name, p.End, p.Start, p.Line)
			}
			phases = append(phases, p)
		default:
			return nil, fmt.Errorf("%s:%d: event %q: want start or end", name, line, m.Event)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, p := range open {
		return nil, fmt.Errorf("%s:%d: phase %q starts but never ends", name, p.Line, p.Name)
	}
	if len(phases) == 0 {
		return nil, fmt.Errorf("%s: no phases", name)
	}
	sort.Slice(phases, func(i, j int) bool { return phases[i].Start < phases[j].Start })
	for i := 1; i < len(phases); i++ {
		if a, b := phases[i-1], phases[i]; b.Start < a.End {
			return nil, fmt.Errorf("%s:%d: phase %q (%.9g–%.9g s) overlaps %q (%.9g–%.9g s, line %d): phases must not overlap, or their energy is counted twice",
				name, b.Line, b.Name, b.Start, b.End, a.Name, a.Start, a.End, a.Line)
		}
	}
	return phases, nil
}

// MarkerWriter writes a marker file as a run goes: Start and End around
// each measured phase. Times are seconds on the monotonic clock since the
// writer was made; put the trace on the same clock (or find the offset
// from a marker visible in the trace, as S003's LED pin was).
type MarkerWriter struct {
	mu sync.Mutex
	w  io.Writer
	t0 time.Time
}

// NewMarkerWriter starts a marker file on w with a header line saying its
// clock.
func NewMarkerWriter(w io.Writer) (*MarkerWriter, error) {
	mw := &MarkerWriter{w: w, t0: time.Now()}
	clock := "seconds since " + mw.t0.UTC().Format(time.RFC3339Nano) + " (monotonic)"
	if err := mw.write(Marker{Clock: clock}); err != nil {
		return nil, err
	}
	return mw, nil
}

// Start marks the start of phase now.
func (mw *MarkerWriter) Start(phase string) error { return mw.event(phase, "start") }

// End marks the end of phase now.
func (mw *MarkerWriter) End(phase string) error { return mw.event(phase, "end") }

func (mw *MarkerWriter) event(phase, event string) error {
	t := time.Since(mw.t0).Seconds()
	return mw.write(Marker{T: &t, Phase: phase, Event: event})
}

func (mw *MarkerWriter) write(m Marker) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	mw.mu.Lock()
	defer mw.mu.Unlock()
	_, err = mw.w.Write(append(b, '\n'))
	return err
}

// Phases are energy attribute's phases of t: from the trace's digital
// channel when digital is named (its warnings added to t's), else from the
// markers file, offset seconds added to every marker time. source says
// where they came from, for AttributionResults.
func Phases(t *Trace, markers, digital string, offset float64) (phases []Phase, source string, err error) {
	if digital != "" {
		phases, warns, err := t.DigitalPhases(digital)
		if err != nil {
			return nil, "", err
		}
		t.Warnings = append(t.Warnings, warns...)
		return phases, "digital channel " + digital, nil
	}
	mf, err := os.Open(markers)
	if err != nil {
		return nil, "", fmt.Errorf("--markers: %w", err)
	}
	defer mf.Close()
	phases, err = ReadMarkers(markers, mf, offset)
	return phases, markers, err
}
