//go:build !linux

package measure

// threadSwitches is unknown here: only Linux counts a thread's own context
// switches (RUSAGE_THREAD).
func threadSwitches() (int64, bool) { return 0, false }
