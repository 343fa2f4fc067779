//go:build !linux

package measure

// threadPreemptions is unknown here: only Linux counts a thread's own
// involuntary context switches (RUSAGE_THREAD).
func threadPreemptions() (int64, bool) { return 0, false }
