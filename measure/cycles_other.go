//go:build !linux

package measure

import (
	"errors"
	"runtime"
)

func openCycleCounter() (CycleCounter, error) {
	return nil, errors.New("no cycle counter: cryptocost reads hardware counters through Linux perf_event only, and this is " + runtime.GOOS)
}
