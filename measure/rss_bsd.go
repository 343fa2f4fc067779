//go:build darwin || freebsd || netbsd || openbsd

package measure

// maxrssBytes converts getrusage's ru_maxrss: bytes on macOS, KiB on the BSDs.
func maxrssBytes(v int64) int64 {
	if isDarwin {
		return v
	}
	return v * 1024
}
