package measure

import "time"

// Clock is what the engine reads time from. The real clock is the
// monotonic wall clock and the thread's CPU clock; tests substitute a
// synthetic clock whose operations have exactly known costs.
type Clock interface {
	// Now returns monotonic wall time in nanoseconds.
	Now() int64
	// ThreadCPU returns the CPU time consumed by the calling OS thread in
	// nanoseconds, and false if the platform cannot say.
	ThreadCPU() (int64, bool)
	// Name describes the clock for the method record.
	Name() string
}

// SwitchCounter is a Clock that can also count the calling OS thread's
// context switches. With the CPU-time statistic the engine leaves out the
// samples during which the thread was switched out, or that began less
// than settleNs after it was switched back in: their CPU time includes
// refilling the caches, TLB and branch predictors the other work left
// cold — a cost of the load, not of the operation.
type SwitchCounter interface {
	ContextSwitches() (int64, bool)
}

// RealClock reads time.Now's monotonic clock and the thread CPU clock.
type RealClock struct{}

var epoch = time.Now()

// Now returns nanoseconds on the monotonic clock since process start.
func (RealClock) Now() int64 { return int64(time.Since(epoch)) }

// ThreadCPU returns the CPU time of the calling thread.
func (RealClock) ThreadCPU() (int64, bool) { return threadCPU() }

// ContextSwitches returns the calling thread's context switches,
// voluntary and involuntary (Linux getrusage RUSAGE_THREAD; false
// elsewhere).
func (RealClock) ContextSwitches() (int64, bool) { return threadSwitches() }

// Name describes the real clock.
func (RealClock) Name() string { return "monotonic wall clock (time.Now) and thread CPU clock" }
