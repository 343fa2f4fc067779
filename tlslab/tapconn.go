package tlslab

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// tapConn is the tap on the lab's fast path: without link emulation an
// in-process client dials the server itself, with no relay between them,
// and the tap records at the client's socket what it wrote (up, when it
// began writing) and read (down, when the bytes were read) — the client's
// view that the relay's segments give on loopback, without the second TCP
// connection and the relay's four goroutines in the path. Each write and
// read is cut into segments of the MSS as the relay cuts what it reads,
// so the packet model sees the same segments. On Close it reads the
// socket's own counters (TCP_INFO) for the independent byte check.
type tapConn struct {
	*net.TCPConn
	capture *Capture // nil: time and count, do not record (--no-tap)
	start   time.Time
	mss     int
	// meter, when set, reads the socket (threadMeter.read): the client's
	// goroutine lets its OS thread go while a read waits.
	meter *threadMeter

	mu               sync.Mutex
	upSeq, downSeq   int64
	upSegs, downSegs int
	upFIN, downFIN   time.Duration
	kernel           SocketCount
	closed           bool
}

func newTapConn(c *net.TCPConn, capture *Capture, start time.Time, mss int) *tapConn {
	return &tapConn{TCPConn: c, capture: capture, start: start, mss: mss, upFIN: -1, downFIN: -1}
}

func (t *tapConn) Write(p []byte) (int, error) {
	at := time.Since(t.start)
	n, err := t.TCPConn.Write(p)
	t.record(result.Up, p[:n], at)
	return n, err
}

func (t *tapConn) Read(p []byte) (int, error) {
	var n int
	var err error
	if t.meter != nil {
		n, err = t.meter.read(t.TCPConn, p)
	} else {
		n, err = t.TCPConn.Read(p)
	}
	at := time.Since(t.start)
	t.record(result.Down, p[:n], at)
	if errors.Is(err, io.EOF) {
		t.mu.Lock()
		if t.downFIN < 0 {
			t.downFIN = at
		}
		t.mu.Unlock()
	}
	return n, err
}

// record observes b as segments of at most the MSS, sent (up) or
// received (down) at at.
func (t *tapConn) record(d result.Direction, b []byte, at time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	seq, segs := &t.upSeq, &t.upSegs
	if d == result.Down {
		seq, segs = &t.downSeq, &t.downSegs
	}
	for len(b) > 0 {
		k := min(len(b), t.mss)
		if t.capture != nil {
			t.capture.Observe(link.Segment{Dir: d, Start: at, End: at, Arrive: at, Seq: *seq, Payload: b[:k],
				WireBytes: k + link.TCPSegmentOverhead})
		}
		*seq += int64(k)
		*segs++
		b = b[k:]
	}
}

// CloseWrite half-closes the socket: the client's FIN.
func (t *tapConn) CloseWrite() error {
	t.finUp()
	return t.TCPConn.CloseWrite()
}

// Close first taps what the socket received and the client never read
// (the relay forwards everything until the server's FIN: bytes after a
// close_notify, the FIN itself), then reads the socket's counters, then
// closes it (the client's FIN, unless CloseWrite sent it).
func (t *tapConn) Close() error {
	t.mu.Lock()
	closed := t.closed
	t.closed = true
	t.mu.Unlock()
	if !closed {
		t.kernel = t.settledCounts()
	}
	t.finUp()
	return t.TCPConn.Close()
}

// settledCounts drains what the socket holds unread into the tap and
// reads the kernel's counters (socketCounts), then checks that nothing
// arrived in between: a read after the counters that finds neither data
// nor a FIN it had not seen means the counters hold exactly what the tap
// recorded (what the kernel has received, a read returns). Otherwise it
// records what came and reads again.
func (t *tapConn) settledCounts() SocketCount {
	// Usually nothing is left to read: a close_notify, a ticket. The
	// buffer is pooled: the socket's read closure would move a local one
	// to the heap for every connection.
	bp := drainBufs.Get().(*[2048]byte)
	defer drainBufs.Put(bp)
	buf := bp[:]
	t.drain(buf)
	for range 8 {
		t.mu.Lock()
		finIn, finOut := t.downFIN >= 0, t.upFIN >= 0
		t.mu.Unlock()
		k := socketCounts(t.TCPConn, finIn, finOut)
		if !t.drain(buf) {
			return k
		}
	}
	return SocketCount{} // still receiving: no check
}

// drainBufs are settledCounts' read buffers.
var drainBufs = sync.Pool{New: func() any { return new([2048]byte) }}

// drain records what the socket has received and the client did not
// read, without waiting, and reports whether there was anything new: data
// or a FIN not seen before.
func (t *tapConn) drain(buf []byte) (news bool) {
	for {
		n, eof := drainNow(t.TCPConn, buf)
		at := time.Since(t.start)
		t.record(result.Down, buf[:n], at)
		news = news || n > 0
		if eof {
			t.mu.Lock()
			if t.downFIN < 0 {
				t.downFIN, news = at, true
			}
			t.mu.Unlock()
		}
		if n == 0 {
			return news
		}
	}
}

func (t *tapConn) finUp() {
	t.mu.Lock()
	if t.upFIN < 0 {
		t.upFIN = time.Since(t.start)
	}
	t.mu.Unlock()
}

// stats is the link view of what the tap counted, as the relay's
// StreamStats gives it (no modelled TCP handshake: there is no link).
func (t *tapConn) stats() link.StreamStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return link.StreamStats{UpBytes: t.upSeq, DownBytes: t.downSeq, UpSegments: t.upSegs, DownSegments: t.downSegs,
		UpFIN: t.upFIN, DownFIN: t.downFIN}
}

// tapDialer taps the connection an in-process client dials.
type tapDialer struct {
	capture *Capture
	start   time.Time
	mss     int
	mu      sync.Mutex
	conn    *tapConn // nil: not tapped
	dialed  bool
}

// wrap returns c tapped; the lab reads the tap's counts after the
// connection. Without a capture (--no-tap) it returns c as it is, noting
// only that the client dialled.
func (d *tapDialer) wrap(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok || d.capture == nil {
		d.mu.Lock()
		d.dialed = true
		d.mu.Unlock()
		return c
	}
	t := newTapConn(tc, d.capture, d.start, d.mss)
	d.mu.Lock()
	d.conn, d.dialed = t, true
	d.mu.Unlock()
	return t
}

// tapped returns the tap, nil when there was none, and whether the
// client dialled the server.
func (d *tapDialer) tapped() (*tapConn, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.conn, d.dialed
}
