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

// socketCounts reads a client socket's TCP_INFO before it closes, for the
// tap's byte check on the direct path: what the client received, less the
// server's FIN when finIn (tcpi_bytes_received advances with rcv_nxt, and
// a FIN takes a sequence number), and what the server acknowledged of what
// the client sent, less the SYN and, once sent, the client's FIN when
// finOut (tcpi_bytes_acked advances with snd_una; Linux
// include/uapi/linux/tcp.h, RFC 4898) — counted only when nothing is
// unacknowledged (tcpi_unacked = 0), so no byte is still in flight; OK is
// false otherwise. The caller knows whether each FIN has passed: it sent
// its own, and read the server's (a read returning 0). Measured on
// loopback: 1000 B sent and 5000 B received read 1001 and 5000 before
// the FINs, 1002 and 5001 after.
func socketCounts(c *net.TCPConn, finIn, finOut bool) (sc SocketCount) {
	raw, err := c.SyscallConn()
	if err != nil {
		return sc
	}
	raw.Control(func(fd uintptr) {
		info, err := unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
		if err == nil && info.Unacked == 0 {
			sc = SocketCount{DownFromServer: info.Bytes_received - b2u(finIn), UpFromClient: info.Bytes_acked - 1 - b2u(finOut), OK: true}
		}
	})
	return sc
}

// drainNow reads what the socket has received and the client did not
// read, without waiting: data (n > 0), the server's FIN (eof), or nothing.
func drainNow(c *net.TCPConn, buf []byte) (n int, eof bool) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, false
	}
	raw.Read(func(fd uintptr) bool {
		k, err := unix.Read(int(fd), buf)
		switch {
		case err != nil:
		case k == 0:
			eof = true
		default:
			n = k
		}
		return true // one attempt: never wait
	})
	return n, eof
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
