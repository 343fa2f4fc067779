// Package procnet tells whether a process listens on a loopback TCP port,
// from Linux's /proc (proc(5): /proc/net/tcp, /proc/PID/fd). Tests and the
// TLS lab start openssl s_server on a port they picked free a moment
// before; on a shared machine another process can take it in between, and
// a plain "is something listening" check then passes for the wrong
// process while s_server fails to bind. Asking whose socket listens closes
// that gap. No library offers this small lookup.
package procnet

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrUnsupported: no /proc/net/tcp here (not Linux).
var ErrUnsupported = errors.New("procnet: /proc/net/tcp is not available")

// Listening reports whether process pid has a socket in LISTEN state on
// TCP port (IPv4 or IPv6, any local address: s_server's "-accept PORT"
// listens on [::]).
func Listening(pid, port int) (bool, error) {
	want := fmt.Sprintf(":%04X", port)
	var inodes []string
	read := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		read++
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			f := strings.Fields(sc.Text())
			if len(f) > 9 && strings.HasSuffix(f[1], want) && f[3] == "0A" {
				inodes = append(inodes, "socket:["+f[9]+"]")
			}
		}
	}
	if read == 0 {
		return false, ErrUnsupported
	}
	if len(inodes) == 0 {
		return false, nil
	}
	fds, err := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	if err != nil {
		return false, err
	}
	for _, fd := range fds {
		link, err := os.Readlink(fd)
		if err != nil {
			continue
		}
		for _, in := range inodes {
			if link == in {
				return true, nil
			}
		}
	}
	return false, nil
}
