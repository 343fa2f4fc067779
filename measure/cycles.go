package measure

import "fmt"

// CycleCounter counts CPU cycles of the calling thread.
type CycleCounter interface {
	// Cycles returns the count so far.
	Cycles() (uint64, error)
	Close() error
}

// OpenCycleCounter opens the hardware cycle counter for the calling OS
// thread (the caller must have locked its goroutine to the thread). It
// fails where perf_event is unavailable: not Linux, no PMU exposed to a
// virtual machine, or perf_event_paranoid forbids it; the error says which.
func OpenCycleCounter() (CycleCounter, error) { return openCycleCounter() }

// ClockEstimate converts nanoseconds to cycles at a nominal clock, for
// machines without a readable cycle counter. The result is an estimate:
// it assumes the core ran at MHz the whole time (no turbo, no throttling).
type ClockEstimate struct {
	MHz    float64
	Source string // where the clock rate came from
}

// Cycles returns the estimated cycles for ns nanoseconds.
func (c ClockEstimate) Cycles(ns float64) float64 { return ns * c.MHz / 1000 }

// Method describes the estimate for a metric's method field.
func (c ClockEstimate) Method() string {
	return fmt.Sprintf("wall time × %.0f MHz (%s), assuming a constant clock", c.MHz, c.Source)
}
