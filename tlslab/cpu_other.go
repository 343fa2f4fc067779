//go:build !linux

package tlslab

import "time"

func processCPU(pid int) (time.Duration, bool) { return 0, false }
func threadCPU() (time.Duration, bool)         { return 0, false }

const processCPUMethod = "not available on this OS"
const threadCPUMethod = "not available on this OS"
