package tlslab

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU reads another process's CPU-time clock: clock_gettime(2) with
// the clock id MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) = (^pid << 3) | 2
// (Linux include/linux/posix-timers.h, what clock_getcpuclockid(3)
// returns): the scheduler's nanosecond runtime of all its threads.
func processCPU(pid int) (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32((^pid)<<3|2), &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// threadCPU reads the calling thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID); callers lock their goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

const processCPUMethod = "the peer process's CPU-time clock (clock_gettime of clock_getcpuclockid(pid)), " +
	"from the relay's accept to the end of the connection, plus getrusage at exit for a client process"
const threadCPUMethod = "the peer goroutine's thread CPU clock (CLOCK_THREAD_CPUTIME_ID, goroutine locked to its OS thread); " +
	"excludes the Go runtime's background GC work"
