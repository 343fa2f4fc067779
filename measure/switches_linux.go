package measure

import "golang.org/x/sys/unix"

// threadSwitches reads the calling thread's context switches (getrusage
// RUSAGE_THREAD, ru_nvcsw + ru_nivcsw; Linux only): how often it gave up
// or lost its CPU.
func threadSwitches() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return int64(ru.Nvcsw) + int64(ru.Nivcsw), true // int32 on 32-bit targets
}
