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

// RealClock reads time.Now's monotonic clock and the thread CPU clock.
type RealClock struct{}

var epoch = time.Now()

// Now returns nanoseconds on the monotonic clock since process start.
func (RealClock) Now() int64 { return int64(time.Since(epoch)) }

// ThreadCPU returns the CPU time of the calling thread.
func (RealClock) ThreadCPU() (int64, bool) { return threadCPU() }

// Name describes the real clock.
func (RealClock) Name() string { return "monotonic wall clock (time.Now) and thread CPU clock" }
