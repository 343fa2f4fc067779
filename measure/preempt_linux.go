package measure

import "golang.org/x/sys/unix"

// threadPreemptions reads the calling thread's involuntary context
// switches (getrusage RUSAGE_THREAD, ru_nivcsw; Linux only): how often
// the scheduler took its CPU away for other work.
func threadPreemptions() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return ru.Nivcsw, true
}
