//go:build linux || darwin || freebsd || netbsd || openbsd

package measure

import "golang.org/x/sys/unix"

// threadCPU reads CLOCK_THREAD_CPUTIME_ID: the engine locks its goroutine to
// one OS thread while measuring, so this is the CPU time of the measured
// code (plus any GC assist it does), not of other goroutines.
func threadCPU() (int64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return ts.Nano(), true
}

// peakRSS returns the process's resident-set high-water mark in bytes.
func peakRSS() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return maxrssBytes(int64(ru.Maxrss)), true
}
