package sensor

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// Relay is the radio link between a sensor and the proxy: a UDP forwarder
// on loopback whose proxy side is wrapped by the link emulator
// (link.WrapPacket), so every datagram the sensor sends or receives
// crosses the emulated link (latency, rate, loss, MTU) and is recorded
// with its bytes, its time as the sensor sees it, and its contents.
//
// The CoAP and DTLS stacks need real UDP sockets (go-coap takes a
// *net.UDPConn), so the sensor talks to the relay's front socket and the
// relay forwards to the proxy: the sensor and proxy are unchanged, real
// stacks.
type Relay struct {
	front  net.PacketConn // the sensor's side
	back   net.PacketConn // through the emulated link to the proxy
	target net.Addr
	start  time.Time

	mu     sync.Mutex
	sensor net.Addr
	log    []Datagram
	tamper func([]byte) []byte
	done   sync.WaitGroup
}

// Datagram is one datagram the relay carried, as the sensor's radio saw
// it.
type Datagram struct {
	Dir result.Direction
	// At is when the sensor began sending it (up) or had received it
	// (down), since the relay started.
	At time.Duration
	// Bytes is the UDP payload; WireBytes adds IPv4 and UDP headers per
	// the link emulator's model.
	Bytes, WireBytes, Fragments int
	Lost                        bool
	// Data is the UDP payload (nil for a lost downlink datagram).
	Data []byte
}

// maxDatagram bounds what the relay reads: the largest UDP payload.
const maxDatagram = 65535

// NewRelay starts a relay to target over a link with params.
func NewRelay(target net.Addr, params link.Params, seed uint64) (*Relay, error) {
	front, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	backRaw, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		front.Close()
		return nil, fmt.Errorf("relay: %w", err)
	}
	r := &Relay{front: front, target: target, start: time.Now()}
	r.back = link.WrapPacket(backRaw, link.PacketConfig{Params: params, Seed: seed, Start: r.start, Observer: r.observe})
	r.done.Add(2)
	go r.uplink()
	go r.downlink()
	return r, nil
}

// Addr is where the sensor sends.
func (r *Relay) Addr() net.Addr { return r.front.LocalAddr() }

// BackAddr is the address the proxy sees the sensor's traffic come from.
func (r *Relay) BackAddr() net.Addr { return r.back.LocalAddr() }

// Start is the time the relay's clock counts from.
func (r *Relay) Start() time.Time { return r.start }

// SetTamper makes the relay pass every uplink datagram through f before
// forwarding it (an attacker on the radio; nil: none). f returns what is
// sent.
func (r *Relay) SetTamper(f func([]byte) []byte) {
	r.mu.Lock()
	r.tamper = f
	r.mu.Unlock()
}

// Inject sends data uplink to the proxy as if the sensor had sent it (an
// attacker replaying or forging a datagram).
func (r *Relay) Inject(data []byte) error {
	return r.send(append([]byte(nil), data...))
}

// send writes data uplink; the observer records it with its contents.
func (r *Relay) send(data []byte) error {
	_, err := r.back.WriteTo(data, r.target)
	return err
}

// observe is the link emulator's observer: it records each datagram with
// the contents the emulator hands it (none for a lost downlink datagram:
// the sensor never received it).
func (r *Relay) observe(d link.Datagram) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := Datagram{Dir: d.Dir, At: d.AtClient(), Bytes: d.Bytes, WireBytes: d.WireBytes, Fragments: d.Fragments, Lost: d.Lost, Data: d.Data}
	if d.Dir == result.Down && d.Lost {
		g.Data = nil
	}
	r.log = append(r.log, g)
}

func (r *Relay) uplink() {
	defer r.done.Done()
	buf := make([]byte, maxDatagram)
	for {
		n, from, err := r.front.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		data := append([]byte(nil), buf[:n]...)
		r.mu.Lock()
		r.sensor = from
		tamper := r.tamper
		r.mu.Unlock()
		if tamper != nil {
			data = tamper(data)
		}
		if err := r.send(data); errors.Is(err, net.ErrClosed) {
			return
		}
	}
}

func (r *Relay) downlink() {
	defer r.done.Done()
	buf := make([]byte, maxDatagram)
	for {
		n, _, err := r.back.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		data := append([]byte(nil), buf[:n]...)
		r.mu.Lock()
		to := r.sensor
		r.mu.Unlock()
		if to != nil {
			r.front.WriteTo(data, to)
		}
	}
}

// Mark returns the number of datagrams recorded so far, to cut the log
// into exchanges.
func (r *Relay) Mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.log)
}

// Datagrams returns the recorded datagrams [from, to).
func (r *Relay) Datagrams(from, to int) []Datagram {
	r.mu.Lock()
	defer r.mu.Unlock()
	to = min(to, len(r.log))
	if from >= to {
		return nil
	}
	return append([]Datagram(nil), r.log[from:to]...)
}

// Close stops the relay.
func (r *Relay) Close() {
	r.front.Close()
	r.back.Close()
	r.done.Wait()
}
