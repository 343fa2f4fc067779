package tlslab

import (
	"net"

	"golang.org/x/sys/unix"
)

// infoConn snapshots the kernel's TCP_INFO counters just before the relay
// closes the socket.
type infoConn struct {
	*net.TCPConn
	info tcpInfo
	ok   bool
}

// tcpInfo is what the lab reads of TCP_INFO.
type tcpInfo struct{ Bytes_received uint64 }

func (c *infoConn) Close() error {
	if raw, err := c.TCPConn.SyscallConn(); err == nil {
		raw.Control(func(fd uintptr) {
			if info, err := unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO); err == nil {
				c.info, c.ok = tcpInfo{Bytes_received: info.Bytes_received}, true
			}
		})
	}
	return c.TCPConn.Close()
}
