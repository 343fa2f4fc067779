package measure

// maxrssBytes converts getrusage's ru_maxrss, which Linux reports in KiB.
func maxrssBytes(v int64) int64 { return v * 1024 }
