package tlslab

import (
	"net"
	"runtime"
	"time"
)

// threadMeter is one peer goroutine's CPU time, read from its OS thread's
// CPU clock (threadCPU) while the goroutine is locked to that thread — but
// only while it runs: a read that would wait for the network lets the
// thread go (pause) and locks the goroutine to whichever thread runs it
// next (resume). A goroutine locked across its waits costs every wake-up a
// hand-off of its P to that one thread and back (the Go scheduler's
// stoplockedm/startlockedm), ≈ 4 % of a loopback handshake's rate on a
// busy machine (docs/tls.md § Benchmarks); between waits nothing else can
// run on the thread, so the sum of the spans is this goroutine's CPU time,
// the read system calls included (only the waiting is left out).
//
// A meter belongs to one goroutine: start it, use it for every read of
// that goroutine's connection (meter), and stop it on the same goroutine.
type threadMeter struct {
	total time.Duration
	t0    time.Duration
	on    bool // locked and counting
	ok    bool // every clock read worked
}

func newThreadMeter() *threadMeter {
	m := &threadMeter{ok: true}
	m.resume()
	return m
}

// resume locks the goroutine to its current thread and starts a span.
func (m *threadMeter) resume() {
	if m.on {
		return
	}
	runtime.LockOSThread()
	t, ok := threadCPU()
	m.t0, m.on, m.ok = t, true, m.ok && ok
}

// pause ends the span and lets the thread go.
func (m *threadMeter) pause() {
	if !m.on {
		return
	}
	t, ok := threadCPU()
	m.total += t - m.t0
	m.on, m.ok = false, m.ok && ok
	runtime.UnlockOSThread()
}

// elapsed is the CPU time so far.
func (m *threadMeter) elapsed() (time.Duration, bool) {
	if !m.on {
		return m.total, m.ok
	}
	t, ok := threadCPU()
	return m.total + t - m.t0, m.ok && ok
}

// stop ends the meter and returns its CPU time (0 when the clock could
// not be read).
func (m *threadMeter) stop() time.Duration {
	m.pause()
	if !m.ok {
		return 0
	}
	return m.total
}

// meter makes c's reads pause m while they wait: a tapped connection
// (tapConn) reads through m, a plain TCP connection is wrapped; any other
// connection is returned as it is (its goroutine then stays locked while
// it waits, which costs time but counts the same).
func (m *threadMeter) meter(c net.Conn) net.Conn {
	switch c := c.(type) {
	case *tapConn:
		c.meter = m
		return c
	case *net.TCPConn:
		return &meteredConn{TCPConn: c, m: m}
	}
	return c
}

// meteredConn is a TCP connection whose reads pause its meter while they
// wait.
type meteredConn struct {
	*net.TCPConn
	m *threadMeter
}

func (c *meteredConn) Read(p []byte) (int, error) { return c.m.read(c.TCPConn, p) }
