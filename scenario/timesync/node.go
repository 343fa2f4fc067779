package timesync

import (
	"context"
	"errors"
	"net"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/measure"
)

// Clock is a receiver's simulated local clock: it runs at 1 + Drift of
// real time and is Offset ahead of the source's, which counts real time
// from the run's start. Synchronising sets Offset.
type Clock struct {
	Start  time.Time
	Offset time.Duration
	Drift  float64 // e.g. 30e-6: 30 ppm fast
}

// Read is the local time at t, as a duration since the run's start.
func (c *Clock) Read(t time.Time) time.Duration {
	real := t.Sub(c.Start)
	return time.Duration(float64(real)*(1+c.Drift)) + c.Offset
}

// Set makes the local time at t equal v.
func (c *Clock) Set(t time.Time, v time.Duration) {
	c.Offset += v - c.Read(t)
}

// unwrap turns a 32-bit µs timestamp into the full time nearest to near
// (the receiver's own estimate): 2^32 µs is 71.6 minutes.
func unwrap(ts uint32, near time.Duration) time.Duration {
	const period = int64(1) << 32
	n := near.Microseconds()
	base := n - n%period
	best := base + int64(ts)
	for _, c := range []int64{best - period, best + period} {
		if abs(c-n) < abs(best-n) {
			best = c
		}
	}
	return time.Duration(best) * time.Microsecond
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// Outcome is what a receiver did with a datagram.
type Outcome int

const (
	Accepted  Outcome = iota // verified: the clock was set
	Malformed                // wrong length for the suite
	Foreign                  // another source's ID
	Replayed                 // counter not newer than the last accepted: dropped unverified
	Skipped                  // a forgery already cost this interval's verification: dropped unverified
	Forged                   // verification failed
)

var outcomeNames = [...]string{"accepted", "malformed", "foreign", "replayed", "skipped", "forged"}

func (o Outcome) String() string { return outcomeNames[o] }

// Verification is one signature check a receiver made.
type Verification struct {
	// Window is the interval of the node's timer the message arrived in;
	// At the arrival on that timer (since Clock.Start).
	Window    int64
	At        time.Duration
	Wall, CPU time.Duration
	CPUKnown  bool
	OK        bool
}

// Node is one receiver (a sensor node).
//
// The flood defence. S003 verifies at most one signature per interval, so
// a flood of forged messages costs a sync, not the battery. Spending the
// interval on any verification, as S003 describes it, also spends it on a
// genuine message, and then scheduling jitter that puts two genuine
// messages in one interval of the receiver's timer (one late, the next on
// time: seen under host load) drops the second one unverified. So here a
// window is spent only by a verification that FAILED: a forgery costs at
// most one verification per interval of the receiver's own timer, whatever
// counter it carries (an unverified counter opens nothing), and the
// messages after it in that interval — the genuine one too — are dropped
// unverified, as in S003. A message that verifies costs its own
// verification and spends nothing: only the source can make one, and only
// one per counter (replays are dropped by the counter before any
// verification), so over any interval a receiver verifies at most one
// forgery plus the fresh genuine messages that arrived in it, however the
// host delays them.
type Node struct {
	ID       int
	SourceID uint16
	Suite    Suite
	Key      Key // the source's verification key
	// Interval is the synchronisation interval: at most one failed
	// verification per interval of the node's own timer, which starts with
	// Clock.Start.
	Interval time.Duration
	Clock    Clock
	// Now reads the node's timer: arrivals (Serve) and the deviation after
	// a sync. nil: time.Now. Tests give a clock that moves only when told.
	Now func() time.Time

	conn net.PacketConn

	mu          sync.Mutex
	lastCounter uint32
	haveCounter bool
	// forgedWindow is the last window a failed verification spent;
	// haveForged says there was one.
	forgedWindow  int64
	haveForged    bool
	Outcomes      [len(outcomeNames)]int
	Verifications []Verification
	// Deviations are |local − source| right after each accepted sync.
	Deviations []time.Duration
	// Initial is |local − source| before the first sync.
	Initial   time.Duration
	Received  int
	Bytes     int
	Datagrams []link.Datagram // what its link carried (the observer)
}

func (n *Node) now() time.Time {
	if n.Now != nil {
		return n.Now()
	}
	return time.Now()
}

// window is the interval of the node's timer t falls in (floored, so a
// time before Clock.Start is in a negative window, not window 0).
func (n *Node) window(t time.Time) int64 {
	d := t.Sub(n.Clock.Start)
	w := int64(d / n.Interval)
	if d < 0 && d%n.Interval != 0 {
		w--
	}
	return w
}

// Handle applies the defences and, for a message that verifies, sets the
// clock. The order is S003's: cheap checks first (length, source,
// counter), then the flood defence (see Node), then the verification.
func (n *Node) Handle(b []byte, at time.Time) Outcome {
	n.mu.Lock()
	n.Received++
	n.Bytes += len(b)
	n.mu.Unlock()
	m, err := Parse(b, n.Suite.SigBytes)
	if err != nil {
		return n.count(Malformed)
	}
	if m.NodeID != n.SourceID {
		return n.count(Foreign)
	}
	n.mu.Lock()
	replay := n.haveCounter && m.Counter <= n.lastCounter
	w := n.window(at)
	spent := n.haveForged && n.forgedWindow == w
	n.mu.Unlock()
	if replay {
		return n.count(Replayed)
	}
	if spent {
		return n.count(Skipped)
	}
	var clk measure.RealClock
	c0, ok0 := clk.ThreadCPU()
	t0 := time.Now()
	ok := n.Key.Verify(m.Signed(), m.Signature)
	wall := time.Since(t0)
	c1, ok1 := clk.ThreadCPU()
	v := Verification{Window: w, At: at.Sub(n.Clock.Start), Wall: wall, OK: ok}
	if ok0 && ok1 {
		v.CPU, v.CPUKnown = time.Duration(c1-c0), true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.Verifications = append(n.Verifications, v)
	if !ok {
		n.forgedWindow, n.haveForged = w, true
		n.Outcomes[Forged]++
		return Forged
	}
	n.lastCounter, n.haveCounter = m.Counter, true
	// The message's timestamp was the source's clock when it was built;
	// the local clock is set so that it read that at the arrival, so the
	// verification's own time is not lost. What remains is the delay from
	// stamping to arrival (signing, sending, the link).
	src := unwrap(m.Timestamp, n.Clock.Read(at))
	n.Clock.Set(at, src)
	now := n.now()
	n.Deviations = append(n.Deviations, absDur(n.Clock.Read(now)-now.Sub(n.Clock.Start)))
	n.Outcomes[Accepted]++
	return Accepted
}

func (n *Node) count(o Outcome) Outcome {
	n.mu.Lock()
	n.Outcomes[o]++
	n.mu.Unlock()
	return o
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// observe records a datagram the node's link carried.
func (n *Node) observe(d link.Datagram) {
	n.mu.Lock()
	n.Datagrams = append(n.Datagrams, d)
	n.mu.Unlock()
}

// Serve reads datagrams until ctx ends or the connection closes, on a
// goroutine locked to its OS thread (the thread CPU clock then reads the
// verifications). Datagrams larger than any message are read whole and
// rejected as malformed: a hostile sender cannot make it allocate more
// than one 64 KiB buffer.
func (n *Node) Serve(ctx context.Context) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	buf := make([]byte, 64<<10)
	for ctx.Err() == nil {
		n.conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		k, _, err := n.conn.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				continue
			}
			return
		}
		n.Handle(buf[:k], n.now())
	}
}

// Snapshot returns the counts under the lock.
func (n *Node) Snapshot() (received int, outcomes [len(outcomeNames)]int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.Received, n.Outcomes
}
