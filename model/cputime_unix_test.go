//go:build unix

package model

import (
	"syscall"
	"time"
)

// processCPU is the process's CPU time so far, user + system: what a
// benchmark on a busy machine can report when its wall time is mostly
// waiting for a CPU (docs/benchmarks.md § Model sweeps).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
