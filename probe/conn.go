package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Limits bound what one server can cost the probe, so a slow, broken or
// hostile server never hangs it or exhausts its memory.
type Limits struct {
	// Timeout bounds each connection: dial, ClientHello, the server's
	// answer (a server that drips one byte a second hits it).
	Timeout time.Duration
	// MaxRecord is the largest record payload accepted: 2^14 + 2048, the
	// largest TLSCiphertext RFC 5246 §6.2.3 allows.
	MaxRecord int
	// MaxMessage is the largest handshake message accepted: 256 KiB, as
	// crypto/tls's maxHandshakeCertificateMsg (a certificate chain that
	// large is already absurd on a battery).
	MaxMessage int
	// MaxConnBytes is the most the probe reads from one connection.
	MaxConnBytes int
	// MaxUseless is how many records that carry nothing (empty records,
	// warning alerts, HelloRequests) are tolerated per connection; a
	// server renegotiating endlessly stops there. crypto/tls uses 16
	// (maxUselessRecords in conn.go).
	MaxUseless int
}

// DefaultLimits are the limits a probe uses unless told otherwise.
func DefaultLimits() Limits {
	return Limits{
		Timeout:      10 * time.Second,
		MaxRecord:    1<<14 + 2048,
		MaxMessage:   256 << 10,
		MaxConnBytes: 1 << 20,
		MaxUseless:   16,
	}
}

// ioEvent is one read or write on a connection.
type ioEvent struct {
	at   time.Duration // since the dial started
	dir  result.Direction
	data []byte
}

// tapConn records every read and write with its time, and refuses to read
// more than max bytes: the probe's own byte-stream tap (the TLS lab's tap
// is being built separately; the probe does not depend on it).
type tapConn struct {
	net.Conn
	start time.Time
	max   int

	mu     sync.Mutex
	events []ioEvent
	read   int
}

var errTooMuch = errors.New("read limit reached")

func (c *tapConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	left := c.max - c.read
	c.mu.Unlock()
	if left <= 0 {
		return 0, fmt.Errorf("server sent more than %d bytes on one connection: %w", c.max, errTooMuch)
	}
	if len(b) > left {
		b = b[:left]
	}
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.mu.Lock()
		c.read += n
		c.events = append(c.events, ioEvent{time.Since(c.start), result.Down, clone(b[:n])})
		c.mu.Unlock()
	}
	return n, err
}

func (c *tapConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if n > 0 {
		c.mu.Lock()
		c.events = append(c.events, ioEvent{time.Since(c.start), result.Up, clone(b[:n])})
		c.mu.Unlock()
	}
	return n, err
}

// snapshot returns the events so far.
func (c *tapConn) snapshot() []ioEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ioEvent(nil), c.events...)
}

// dialer opens the probe's connections, no more than a fixed number at a
// time, each bounded by the limits and by the probe's context.
type dialer struct {
	addr   string
	limits Limits
	slots  chan struct{}
	dial   func(ctx context.Context, network, addr string) (net.Conn, error)

	mu    sync.Mutex
	count int // connections opened
	most  int // the most bytes read on one connection
}

func newDialer(addr string, limits Limits, concurrency int) *dialer {
	var d net.Dialer
	return &dialer{addr: addr, limits: limits, slots: make(chan struct{}, max(concurrency, 1)), dial: d.DialContext}
}

// conn is one open connection with its tap; close releases its slot.
type conn struct {
	*tapConn
	connectNs int64 // TCP connect time
	release   func()
	stop      func() bool
}

// open dials the target; the connection's deadline is the sooner of the
// per-connection timeout and the context's deadline, and cancelling the
// context (Ctrl-C, the total time bound) unblocks any read or write.
func (d *dialer) open(ctx context.Context) (*conn, error) {
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("not started: %w", context.Cause(ctx))
	}
	release := func() { <-d.slots }
	deadline := time.Now().Add(d.limits.Timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	start := time.Now()
	nc, err := d.dial(dctx, "tcp", d.addr)
	if err != nil {
		release()
		return nil, fmt.Errorf("connect %s: %w", d.addr, err)
	}
	connectNs := time.Since(start).Nanoseconds()
	if err := nc.SetDeadline(deadline); err != nil {
		nc.Close()
		release()
		return nil, err
	}
	d.mu.Lock()
	d.count++
	d.mu.Unlock()
	tc := &tapConn{Conn: nc, start: start, max: d.limits.MaxConnBytes}
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	return &conn{tapConn: tc, connectNs: connectNs, release: release, stop: stop}, nil
}

func (c *conn) Close() error {
	c.stop()
	err := c.tapConn.Close()
	c.release()
	return err
}

// done records the connection's byte count and closes it.
func (d *dialer) done(c *conn) {
	c.mu.Lock()
	read := c.read
	c.mu.Unlock()
	d.mu.Lock()
	d.most = max(d.most, read)
	d.mu.Unlock()
	c.Close()
}

// tlsCloser is a finished client connection: crypto/tls's and zcrypto's
// Conn both have these.
type tlsCloser interface {
	CloseWrite() error
	Read([]byte) (int, error)
}

// closeGrace bounds how long the probe waits, after its close_notify, for
// the server's. OpenSSL answers at once; a server that never answers costs
// this much per real handshake, never more.
const closeGrace = time.Second

// closeTLS ends a finished handshake's connection as a real client does
// (s_client, browsers): close_notify (RFC 8446 §6.1, RFC 5246 §7.2.1),
// TCP FIN, then reading to the server's close_notify before the socket is
// closed. Closing with unread bytes — the server's close_notify, TLS 1.3
// tickets — makes the kernel send an RST, and OpenSSL treats a connection
// that ends without close_notify as a fatal error and drops its session
// from the cache (ssl3_send_alert → SSL_CTX_remove_session): a session-ID
// or stateful-ticket resumption of it then fails. The read is bounded by
// closeGrace and by the connection's byte limit.
func closeTLS(c *conn, tc tlsCloser, limits Limits) {
	c.SetDeadline(time.Now().Add(min(closeGrace, limits.Timeout)))
	if err := tc.CloseWrite(); err != nil {
		return
	}
	if hc, ok := c.tapConn.Conn.(interface{ CloseWrite() error }); ok {
		hc.CloseWrite()
	}
	buf := make([]byte, 4096)
	for {
		if _, err := tc.Read(buf); err != nil {
			return // io.EOF: the server's close_notify
		}
	}
}

// describeErr says in a user's words what a network error was.
func describeErr(err error, limits Limits) string {
	var ne net.Error
	var alert Alert
	switch {
	case err == nil:
		return ""
	case errors.As(err, &alert):
		return alert.Error()
	case errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Sprintf("no complete answer within the %v connection timeout (or the probe's time limit)", limits.Timeout)
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset by the server"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed by the server"
	}
	return err.Error()
}
