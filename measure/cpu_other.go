//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package measure

func threadCPU() (int64, bool) { return 0, false }
func peakRSS() (int64, bool)   { return 0, false }
