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
