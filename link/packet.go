package link

import (
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Datagram is one UDP datagram the emulator carried (or lost).
type Datagram struct {
	Dir result.Direction
	// Start, End and Arrive as for Segment; Arrive is meaningless when Lost.
	Start, End, Arrive time.Duration
	// Bytes is the UDP payload; WireBytes adds the IPv4 and UDP headers
	// of every fragment.
	Bytes, WireBytes int
	// Fragments is the number of IPv4 fragments (1 if it fits the MTU).
	Fragments int
	// Lost: a fragment was lost on the link, or the queue was full.
	Lost bool
	// Reason says why it was lost ("link loss", "queue full").
	Reason string
	// Data is the UDP payload (a copy the observer may keep). The
	// observer sees it with the datagram, so it never has to pair
	// payloads with datagrams by order (a race with the reader).
	Data []byte
	Peer net.Addr
}

// AtClient is when the device sees the datagram (see Segment.AtClient).
func (d Datagram) AtClient() time.Duration {
	if d.Dir == result.Up {
		return d.Start
	}
	return d.Arrive
}

// Fragments returns how many IPv4 fragments a UDP payload of n bytes needs
// on a link with this MTU, and its bytes on the wire. Every fragment
// carries an IPv4 header; fragment payloads are multiples of 8 bytes
// (RFC 791 §3.2); the UDP header travels once.
func Fragments(n, mtu int) (frags, wire int) {
	per := (mtu - IPv4HeaderBytes) &^ 7
	if per <= 0 {
		per = 8
	}
	ip := n + UDPHeaderBytes
	frags = max(1, (ip+per-1)/per)
	return frags, ip + frags*IPv4HeaderBytes
}

// PacketConfig configures an emulated datagram link.
type PacketConfig struct {
	Params   Params
	Observer func(Datagram)
	Seed     uint64
	// QueuePackets bounds the datagrams waiting in each direction (default
	// 1024); beyond it datagrams are dropped, as a router queue drops them.
	QueuePackets int
	Start        time.Time
}

// WrapPacket returns a PacketConn whose datagrams cross the emulated link:
// WriteTo sends over the uplink (delayed, maybe lost), ReadFrom returns
// datagrams after the downlink's delays and losses. The device is this end.
func WrapPacket(pc net.PacketConn, cfg PacketConfig) net.PacketConn {
	if cfg.QueuePackets <= 0 {
		cfg.QueuePackets = 1024
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Now()
	}
	if cfg.Params.MTU == 0 {
		cfg.Params.MTU = DefaultMTU
	}
	w := &packetLink{PacketConn: pc, cfg: cfg,
		rng:    rand.New(rand.NewPCG(cfg.Seed, 7)),
		out:    make(chan queued, cfg.QueuePackets),
		in:     make(chan queued, cfg.QueuePackets),
		ready:  make(chan queued, cfg.QueuePackets),
		closed: make(chan struct{}),
	}
	w.spin = 0
	if cfg.Params.Latency < spinLatency {
		w.spin = spinWindow
	}
	go w.send()
	go w.receive()
	go w.arrive()
	return w
}

type queued struct {
	at   time.Duration
	data []byte
	addr net.Addr
}

type packetLink struct {
	net.PacketConn
	cfg  PacketConfig
	spin time.Duration

	mu       sync.Mutex
	rng      *rand.Rand
	upBusy   time.Duration
	downBusy time.Duration
	deadline time.Time

	out, in, ready chan queued
	// observed is held while a datagram is queued and observed; the
	// goroutines that deliver it take it first, so the observer always
	// sees a datagram before its receiver can (and can answer it): a
	// caller counting datagrams between two events never misses one
	// that crossed in between.
	observed  sync.Mutex
	closeOnce sync.Once
	closed    chan struct{}
}

// schedule places a datagram on a direction and decides its fate.
func (w *packetLink) schedule(dir result.Direction, n int, now time.Duration, peer net.Addr) Datagram {
	w.mu.Lock()
	defer w.mu.Unlock()
	frags, wire := Fragments(n, w.cfg.Params.MTU)
	d := Datagram{Dir: dir, Bytes: n, WireBytes: wire, Fragments: frags, Peer: peer}
	busy, rate := &w.upBusy, w.cfg.Params.RateUp
	if dir == result.Down {
		busy, rate = &w.downBusy, w.cfg.Params.RateDown
	}
	d.Start = max(now, *busy)
	d.End = d.Start
	if rate > 0 {
		d.End += time.Duration(float64(wire) * 8 / rate * 1e9)
	}
	*busy = d.End
	d.Arrive = d.End + w.cfg.Params.Latency
	for range frags {
		if w.cfg.Params.Loss > 0 && w.rng.Float64() < w.cfg.Params.Loss {
			d.Lost, d.Reason = true, "link loss"
		}
	}
	return d
}

func (w *packetLink) observe(d Datagram) {
	if w.cfg.Observer != nil {
		w.cfg.Observer(d)
	}
}

func (w *packetLink) now() time.Duration { return time.Since(w.cfg.Start) }

// WriteTo sends p over the uplink. Like UDP, it does not report loss.
func (w *packetLink) WriteTo(p []byte, addr net.Addr) (int, error) {
	select {
	case <-w.closed:
		return 0, net.ErrClosed
	default:
	}
	w.observed.Lock()
	defer w.observed.Unlock()
	d := w.schedule(result.Up, len(p), w.now(), addr)
	d.Data = append([]byte(nil), p...)
	if !d.Lost {
		select {
		case w.out <- queued{at: d.Arrive, data: d.Data, addr: addr}:
		default:
			d.Lost, d.Reason = true, "queue full"
		}
	}
	w.observe(d)
	return len(p), nil
}

func (w *packetLink) send() {
	precise()
	for {
		select {
		case q := <-w.out:
			sleepUntil(w.cfg.Start.Add(q.at), w.spin)
			w.observed.Lock() // its WriteTo has observed it
			w.observed.Unlock()
			w.PacketConn.WriteTo(q.data, q.addr)
		case <-w.closed:
			return
		}
	}
}

// receive reads datagrams from the real socket and schedules them on the
// downlink.
func (w *packetLink) receive() {
	buf := make([]byte, 64<<10)
	for {
		n, addr, err := w.PacketConn.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				w.Close()
				return
			}
			select {
			case <-w.closed:
				return
			default:
				continue
			}
		}
		w.observed.Lock()
		d := w.schedule(result.Down, n, w.now(), addr)
		d.Data = append([]byte(nil), buf[:n]...)
		if !d.Lost {
			select {
			case w.in <- queued{at: d.Arrive, data: d.Data, addr: addr}:
			default:
				d.Lost, d.Reason = true, "queue full"
			}
		}
		w.observe(d)
		w.observed.Unlock()
	}
}

// arrive releases received datagrams at their arrival times.
func (w *packetLink) arrive() {
	precise()
	for {
		select {
		case q := <-w.in:
			sleepUntil(w.cfg.Start.Add(q.at), w.spin)
			w.observed.Lock() // receive has observed it
			w.observed.Unlock()
			select {
			case w.ready <- q:
			case <-w.closed:
				return
			}
		case <-w.closed:
			return
		}
	}
}

// ReadFrom returns the next datagram that has crossed the downlink.
func (w *packetLink) ReadFrom(p []byte) (int, net.Addr, error) {
	w.mu.Lock()
	deadline := w.deadline
	w.mu.Unlock()
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		d := time.Until(deadline)
		if d <= 0 {
			return 0, nil, os.ErrDeadlineExceeded
		}
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case q := <-w.ready:
		return copy(p, q.data), q.addr, nil
	case <-timeout:
		return 0, nil, os.ErrDeadlineExceeded
	case <-w.closed:
		return 0, nil, net.ErrClosed
	}
}

func (w *packetLink) SetDeadline(t time.Time) error {
	w.SetReadDeadline(t)
	return w.PacketConn.SetWriteDeadline(t)
}

func (w *packetLink) SetReadDeadline(t time.Time) error {
	w.mu.Lock()
	w.deadline = t
	w.mu.Unlock()
	return nil
}

func (w *packetLink) Close() error {
	var err error
	w.closeOnce.Do(func() {
		close(w.closed)
		err = w.PacketConn.Close()
	})
	return err
}
