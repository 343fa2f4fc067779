//go:build !linux

package tlslab

import (
	"net"
	"syscall"
	"time"
)

func processCPU(pid int) (time.Duration, bool) { return 0, false }
func threadCPU() (time.Duration, bool)         { return 0, false }

const processCPUMethod = "not available on this OS"
const threadCPUMethod = "not available on this OS"

// read pauses m around the read: without a thread CPU clock there is
// nothing to count.
func (m *threadMeter) read(c *net.TCPConn, p []byte) (int, error) {
	m.pause()
	defer m.resume()
	return c.Read(p)
}

// connectLocked leaves the connect to the dialer off Linux.
func connectLocked(network, address string, rc syscall.RawConn) error { return nil }
