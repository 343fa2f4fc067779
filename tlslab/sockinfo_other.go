//go:build !linux

package tlslab

import "net"

// infoConn has no kernel byte counters off Linux: the accounting check
// against them is skipped (SocketCount.OK is false).
type infoConn struct {
	*net.TCPConn
	info tcpInfo
	ok   bool
}

type tcpInfo struct{ Bytes_received uint64 }

// socketCounts has no kernel counters to read off Linux.
func socketCounts(*net.TCPConn, bool, bool) SocketCount { return SocketCount{} }

// drainNow reads nothing off Linux: the check it serves is not made.
func drainNow(*net.TCPConn, []byte) (int, bool) { return 0, false }
