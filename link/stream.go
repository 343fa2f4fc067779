package link

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// StreamConfig configures an emulated stream link.
type StreamConfig struct {
	// Params of the link; Passive forwards without delays (segments are
	// still cut and observed, so byte accounting works on a bare loopback).
	Params  Params
	Passive bool
	// Observer sees every segment (may be nil).
	Observer Observer
	// Seed makes the loss pattern reproducible.
	Seed uint64
	// BufferBytes bounds the undelivered bytes per direction (default
	// 1 MiB): a peer that sends faster than the link is held back, and a
	// hostile one cannot make the emulator buffer without limit.
	BufferBytes int
	// Start is time zero of the segment times (default: when Run starts).
	Start time.Time
}

// StreamStats is what the relay counted, independently of its Observer.
type StreamStats struct {
	// Bytes and Segments carried each way (lost copies count as segments).
	UpBytes, DownBytes       int64
	UpSegments, DownSegments int
	// UpFIN and DownFIN are when each direction's sender closed its
	// stream (its FIN left), or -1 if it did not.
	UpFIN, DownFIN time.Duration
	// Handshake is the modelled TCP handshake: the client's first data
	// waits this long after the SYN.
	Handshake time.Duration
}

// Relay carries bytes between a client and a server connection over an
// emulated link, until both directions are closed, an error occurs or ctx
// ends. Time zero is the client's SYN: its first data leaves one modelled
// round trip (SYN, SYN-ACK) later.
func Relay(ctx context.Context, client, server net.Conn, cfg StreamConfig) (StreamStats, error) {
	if cfg.BufferBytes <= 0 {
		cfg.BufferBytes = 1 << 20
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Now()
	}
	if cfg.Params.MTU == 0 {
		cfg.Params.MTU = DefaultMTU
	}
	up := newLane(result.Up, cfg.Params, cfg.Observer, cfg.Start, cfg.Seed, server, cfg.BufferBytes, cfg.Passive)
	down := newLane(result.Down, cfg.Params, cfg.Observer, cfg.Start, cfg.Seed+1, client, cfg.BufferBytes, cfg.Passive)
	stats := StreamStats{UpFIN: -1, DownFIN: -1}
	if !cfg.Passive {
		// SYN up, SYN-ACK down: the client's ACK and first data leave then.
		stats.Handshake = up.serialise(TCPSYNOverhead) + down.serialise(TCPSYNOverhead) + 2*cfg.Params.Latency
		up.notBefore = stats.Handshake
		// The server's first data leaves once the client's ACK has
		// reached it (its socket is established only then).
		down.notBefore = stats.Handshake + up.serialise(TCPSegmentOverhead) + cfg.Params.Latency
	}

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		// Unblock reads and writes on both sides.
		client.SetDeadline(time.Now())
		server.SetDeadline(time.Now())
	}()

	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	fail := func(err error) {
		once.Do(func() { firstErr = err })
		cancel()
	}
	// shut marks a side that closeWrite had to close whole (a net.Pipe end,
	// Wrap's, cannot half-close): a read pending on it then fails with
	// io.ErrClosedPipe, which is this relay's own close ending the
	// direction — the peer closed first — not a failure of the link.
	var clientShut, serverShut atomic.Bool
	pump := func(src net.Conn, l *lane, fin *time.Duration, shut *atomic.Bool) {
		defer wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				if perr := l.push(buf[:n], time.Since(cfg.Start)); perr != nil {
					l.fail(perr)
					fail(perr)
					return
				}
			}
			if err != nil {
				ours := errors.Is(err, io.ErrClosedPipe) && shut.Load()
				if !errors.Is(err, io.EOF) && !ours {
					l.fail(err)
					fail(err)
					return
				}
				l.close(time.Since(cfg.Start))
				l.mu.Lock()
				*fin = l.finAt
				l.mu.Unlock()
				return
			}
		}
	}
	drain := func(l *lane, dst net.Conn, shut *atomic.Bool) {
		defer wg.Done()
		if err := l.deliver(); err != nil {
			fail(err)
			return
		}
		// The sender's FIN reaches the receiver after its data.
		closeWrite(dst, shut)
	}
	wg.Add(4)
	go pump(client, up, &stats.UpFIN, &clientShut)
	go pump(server, down, &stats.DownFIN, &serverShut)
	go drain(up, server, &serverShut)
	go drain(down, client, &clientShut)
	wg.Wait()
	client.Close()
	server.Close()

	stats.UpBytes, stats.UpSegments = up.bytes, up.segments
	stats.DownBytes, stats.DownSegments = down.bytes, down.segments
	if parent.Err() != nil {
		return stats, fmt.Errorf("link relay: %w", parent.Err())
	}
	if firstErr != nil {
		return stats, fmt.Errorf("link relay: %w", firstErr)
	}
	return stats, nil
}

// closeWrite half-closes a connection (a TCP FIN), or closes it if it
// cannot be half-closed, marking shut first.
func closeWrite(c net.Conn, shut *atomic.Bool) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		return
	}
	shut.Store(true)
	c.Close()
}

// Wrap returns a connection whose traffic with c's peer crosses the
// emulated link: what is written is delivered to c after the uplink's
// delays, and what c receives is readable after the downlink's. The
// device is this end. Closing the returned connection closes c.
func Wrap(c net.Conn, cfg StreamConfig) net.Conn {
	app, inner := net.Pipe()
	w := &wrapped{Conn: app, under: c, done: make(chan struct{})}
	go func() {
		w.stats, w.err = Relay(context.Background(), inner, c, cfg)
		close(w.done)
	}()
	return w
}

type wrapped struct {
	net.Conn
	under net.Conn
	done  chan struct{}
	stats StreamStats
	err   error
}

func (w *wrapped) LocalAddr() net.Addr  { return w.under.LocalAddr() }
func (w *wrapped) RemoteAddr() net.Addr { return w.under.RemoteAddr() }

// Stats waits for the link to finish (both directions closed) and returns
// what it carried.
func (w *wrapped) Stats() (StreamStats, error) {
	<-w.done
	return w.stats, w.err
}

// LinkStats returns the stats of a connection made by Wrap, waiting for
// its link to finish; ok is false for other connections.
func LinkStats(c net.Conn) (s StreamStats, err error, ok bool) {
	w, ok := c.(*wrapped)
	if !ok {
		return StreamStats{}, nil, false
	}
	s, err = w.Stats()
	return s, err, true
}
