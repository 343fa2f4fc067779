package link

import (
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Segment is one TCP segment the emulator carried, with the times of the
// model. Times are offsets from the start of the connection (the client's
// SYN).
type Segment struct {
	Dir result.Direction
	// Start and End bound the segment's transmission at the sender;
	// Arrive is when its last bit reaches the receiver (End + latency).
	Start, End, Arrive time.Duration
	// Seq is the offset of the payload's first byte in its direction's
	// byte stream.
	Seq int64
	// Payload is valid only during the Observer call: copy what you keep.
	Payload []byte
	// WireBytes is the payload plus the modelled TCP/IPv4 headers.
	WireBytes int
	// Lost: this copy was lost on the link; the same bytes follow in a
	// segment with Retransmission set.
	Lost, Retransmission bool
}

// AtClient is when the client (the device whose radio a trace describes)
// sees the segment: when it starts sending it, or when it has received it.
func (s Segment) AtClient() time.Duration {
	if s.Dir == result.Up {
		return s.Start
	}
	return s.Arrive
}

// Observer receives every segment as the emulator schedules it, in order
// within a direction, from the goroutine that read it. It must not block.
type Observer func(Segment)

// lane is one direction of an emulated stream: it cuts what the sender
// wrote into segments, schedules them on the link, and writes each to the
// receiver when it arrives.
type lane struct {
	dir     result.Direction
	p       Params
	rate    float64 // bit/s of this direction; 0 = unlimited
	mss     int
	rng     *rand.Rand
	obs     Observer
	start   time.Time
	dst     io.Writer
	spin    time.Duration
	maxBuf  int
	passive bool // no emulation: forward at once

	mu        sync.Mutex
	cond      *sync.Cond
	queue     []delivery
	queued    int  // bytes in queue
	closed    bool // no more pushes
	werr      error
	busyUntil time.Duration
	lastArr   time.Duration
	notBefore time.Duration
	seq       int64
	segments  int
	bytes     int64
	finAt     time.Duration // when the sender's FIN left, once closed
}

type delivery struct {
	at   time.Duration
	data []byte
}

func newLane(dir result.Direction, p Params, obs Observer, start time.Time, seed uint64, dst io.Writer, maxBuf int, passive bool) *lane {
	l := &lane{dir: dir, p: p, mss: p.MSS(), obs: obs, start: start, dst: dst, maxBuf: maxBuf, passive: passive,
		rng: rand.New(rand.NewPCG(seed, uint64(len(dir))))}
	l.rate = p.RateUp
	if dir == result.Down {
		l.rate = p.RateDown
	}
	if p.Latency < spinLatency {
		l.spin = spinWindow
	}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// serialise is the transmission time of n wire bytes.
func (l *lane) serialise(n int) time.Duration {
	if l.rate <= 0 {
		return 0
	}
	return time.Duration(float64(n) * 8 / l.rate * 1e9)
}

// rto is the retransmission timeout of the model: RTT + 200 ms (Linux's
// tcp_rto_min; RFC 6298 §2 gives RTO = SRTT + max(G, 4·RTTVAR), and with a
// constant RTT the variance term is Linux's 200 ms floor).
func (l *lane) rto() time.Duration { return l.p.RTT() + 200*time.Millisecond }

// push schedules p, read from the sender at now. It blocks while the lane
// holds more than maxBuf undelivered bytes, so a fast sender is held back
// by the link as TCP's window would hold it, and memory stays bounded.
func (l *lane) push(p []byte, now time.Duration) error {
	for len(p) > 0 {
		n := min(len(p), l.mss)
		if err := l.pushSegment(p[:n], now); err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

func (l *lane) pushSegment(p []byte, now time.Duration) error {
	l.mu.Lock()
	for l.queued > l.maxBuf && l.werr == nil {
		l.cond.Wait()
	}
	if l.werr != nil {
		l.mu.Unlock()
		return l.werr
	}
	wire := len(p) + TCPSegmentOverhead
	seg := Segment{Dir: l.dir, Seq: l.seq, Payload: p, WireBytes: wire}
	if l.passive {
		seg.Start, seg.End, seg.Arrive = now, now, now
	} else {
		seg.Start = max(now, l.busyUntil, l.notBefore)
		seg.End = seg.Start + l.serialise(wire)
		seg.Arrive = seg.End + l.p.Latency
		l.busyUntil = seg.End
		if l.p.Loss > 0 && l.rng.Float64() < l.p.Loss {
			lost := seg
			lost.Lost = true
			l.obs.call(lost)
			l.segments++
			// The transmitter waits for the timeout and sends the segment
			// again; what follows queues behind it.
			seg.Retransmission = true
			seg.Start = seg.End + l.rto()
			seg.End = seg.Start + l.serialise(wire)
			seg.Arrive = seg.End + l.p.Latency
			l.busyUntil = seg.End
		}
		seg.Arrive = max(seg.Arrive, l.lastArr) // in-order delivery
	}
	l.lastArr = seg.Arrive
	l.seq += int64(len(p))
	l.segments++
	l.bytes += int64(len(p))
	l.obs.call(seg)
	l.queue = append(l.queue, delivery{at: seg.Arrive, data: append([]byte(nil), p...)})
	l.queued += len(p)
	l.cond.Broadcast()
	l.mu.Unlock()
	return nil
}

func (o Observer) call(s Segment) {
	if o != nil {
		o(s)
	}
}

// close marks the end of the sender's stream at now: its FIN is sent
// after the data, and the deliverer returns when the queue is empty.
func (l *lane) close(now time.Duration) {
	l.mu.Lock()
	l.closed = true
	l.finAt = max(now, l.busyUntil, l.notBefore)
	l.cond.Broadcast()
	l.mu.Unlock()
}

// deliver writes queued segments to the receiver at their arrival times,
// until the lane is closed and empty or a write fails. Segments due at
// the same moment are written together.
func (l *lane) deliver() error {
	precise()
	var batch []byte
	for {
		l.mu.Lock()
		for len(l.queue) == 0 && !l.closed {
			l.cond.Wait()
		}
		if len(l.queue) == 0 {
			l.mu.Unlock()
			return nil
		}
		next := l.queue[0].at
		l.mu.Unlock()
		if !l.passive {
			sleepUntil(l.start.Add(next), l.spin)
		}
		now := time.Since(l.start)
		l.mu.Lock()
		batch = batch[:0]
		n := 0
		for n < len(l.queue) && (l.passive || l.queue[n].at <= now) {
			batch = append(batch, l.queue[n].data...)
			n++
		}
		l.queue = l.queue[n:]
		l.mu.Unlock()
		_, err := l.dst.Write(batch)
		l.mu.Lock()
		l.queued -= len(batch)
		if err != nil {
			l.werr = err
		}
		l.cond.Broadcast()
		l.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

// fail unblocks a pusher when the other side is gone.
func (l *lane) fail(err error) {
	l.mu.Lock()
	if l.werr == nil {
		l.werr = err
	}
	l.closed = true
	l.queue = nil
	l.cond.Broadcast()
	l.mu.Unlock()
}
