package tlslab

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Role is the side a peer plays.
type Role int

const (
	RoleServer Role = iota
	RoleClient
)

func (r Role) String() string {
	if r == RoleServer {
		return "server"
	}
	return "client"
}

// Peer is a TLS implementation the lab runs on either side of a
// connection. Each implementation is a value in the peers registry
// (gopeer.go, openssl.go): adding one is adding a file.
type Peer interface {
	Name() string
	// Description is one line for --help.
	Description() string
	// Supports says whether the peer can play role r in cell c, or why not
	// (what it cannot do, never a silent fallback).
	Supports(r Role, c Cell) error
	// StartServer starts a server for cell c, ready to accept.
	StartServer(ctx context.Context, env *Env, c Cell) (Server, error)
	// NewClient prepares a client for cell c's connections.
	NewClient(env *Env, c Cell) (Client, error)
}

// Env is what the lab lends peers: the PKI and a scratch directory.
type Env struct {
	PKI *PKI
	// parent holds the scratch directory, made on the first Dir call: only
	// OpenSSL peers write files, and making and removing a directory costs
	// more here (≈ 0.7 ms on ext4) than a Go cell's three handshakes.
	parent string
	once   sync.Once
	dir    string
	err    error
}

// Dir returns the cell's scratch directory, making it on first use.
func (e *Env) Dir() (string, error) {
	e.once.Do(func() { e.dir, e.err = os.MkdirTemp(e.parent, "cell-") })
	return e.dir, e.err
}

// remove deletes the scratch directory if it was made.
func (e *Env) remove() {
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}

// ConnPlan is what one connection does.
type ConnPlan struct {
	Cell Cell
	// Prime: the first connection of a resumption cell, a handshake only,
	// made to obtain the session the measured connection resumes.
	Prime bool
	// Payload bytes the connection moves in Cell.Direction (0 for none).
	Payload int
}

// PeerConn is one side's account of a connection.
type PeerConn struct {
	// CPU is the CPU time the side spent on the connection; CPUMethod
	// says how it was read.
	CPU       time.Duration
	CPUMethod string
	// HandshakeCPU is the part of CPU spent until the handshake ended
	// (clients); HandshakeCPUEstimated says the split point was read when
	// the tap saw the handshake end, not by the peer itself.
	HandshakeCPU          time.Duration
	HandshakeCPUEstimated bool
	// HandshakeWall is the client's own clock from dialling to the end of
	// its handshake, where the peer can tell (0 otherwise).
	HandshakeWall time.Duration
	// Received application bytes.
	Received int64
	Err      error
}

// Server is a running server peer.
type Server interface {
	Addr() string
	// Begin is called when a client's connection reaches the relay, before
	// the relay connects to the server; End after the relay has finished
	// with it, and returns the server's account of the connection.
	Begin(plan ConnPlan, w *Watch)
	End(ctx context.Context) PeerConn
	keyLogger
	// Stderr is the server's diagnostics, for errors.
	Stderr() string
	Close() error
}

// Client is a client peer; Run makes one connection. A client in this
// process passes the connection it dials through w.Tap.
type Client interface {
	Run(ctx context.Context, addr string, plan ConnPlan, w *Watch) PeerConn
	keyLogger
	Stderr() string
	Close() error
}

// keyLogger is a peer's TLS key log (NSS format), which only grows over
// the peer's connections: a connection's secrets are what it gained
// during the connection.
type keyLogger interface {
	// KeyLogLen is the log's length in bytes.
	KeyLogLen() int
	// KeyLogSince returns what the log holds from byte offset from on
	// (all of it if it is now shorter: rewritten).
	KeyLogSince(from int) []byte
}

var peers []Peer

func registerPeer(p Peer) { peers = append(peers, p) }

// Peers returns the peer implementations.
func Peers() []Peer { return slices.Clone(peers) }

// PeerNames lists them.
func PeerNames() []string {
	var out []string
	for _, p := range peers {
		out = append(out, p.Name())
	}
	return out
}

// PeerByName finds a peer.
func PeerByName(name string) (Peer, error) {
	for _, p := range peers {
		if strings.EqualFold(p.Name(), name) {
			return p, nil
		}
	}
	return nil, fmt.Errorf("unknown peer %q: want one of %s", name, strings.Join(PeerNames(), ", "))
}

// Watch lets peers wait for what the tap sees on the wire: a peer
// process (OpenSSL) cannot tell the lab when its handshake is done. On
// the lab's direct path it also holds the tap an in-process client puts
// on the socket it dials (Tap).
type Watch struct {
	capture  *Capture
	accepted chan struct{}
	rtt      time.Duration
	dial     *tapDialer // nil: through the relay
}

// Tap returns the connection an in-process client dialled with the
// lab's tap on it when the lab has no relay, or c unchanged.
func (w *Watch) Tap(c net.Conn) net.Conn {
	if w == nil || w.dial == nil {
		return c
	}
	return w.dial.wrap(c)
}

// Accepted is closed when the relay has accepted the client's connection.
func (w *Watch) Accepted() <-chan struct{} { return w.accepted }

// HandshakeDone waits until the tap has seen both Finished messages (or,
// for TLS 1.3 without keys, both encrypted handshake flights), as Analyze
// decides it. It works as the tap records: woken by each new segment
// rather than a timer, it parses only the records the new bytes complete
// and attributes them only then — a handful of records until the
// handshake ends, whatever follows it.
func (w *Watch) HandshakeDone(ctx context.Context) error {
	var t handshakeTracker
	for {
		changed := w.capture.changed()
		if t.update(w.capture) && t.done(w.capture) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the handshake to complete on the wire: %w", ctx.Err())
		case <-changed:
		}
	}
}

// handshakeTracker parses the tap's streams into records incrementally.
type handshakeTracker struct {
	up, down recordStream
}

type recordStream struct {
	parsed int // stream bytes in recs
	recs   []Record
	bad    bool // not TLS: never done
}

// update parses the records completed since the last call and reports
// whether there were any.
func (t *handshakeTracker) update(c *Capture) bool {
	up, down := c.Streams()
	newUp := t.up.add(up)
	newDown := t.down.add(down)
	return newUp || newDown
}

func (r *recordStream) add(stream []byte) bool {
	if r.bad || len(stream) == r.parsed {
		return false
	}
	recs, tail, err := ParseRecords(stream[r.parsed:])
	if err != nil {
		r.bad = true
		return false
	}
	for _, rec := range recs {
		rec.Offset += r.parsed
		r.recs = append(r.recs, rec)
	}
	r.parsed = len(stream) - tail
	return len(recs) > 0
}

// done attributes the records so far.
func (t *handshakeTracker) done(c *Capture) bool {
	if t.up.bad || t.down.bad {
		return false
	}
	return analyzeRecords(t.up.recs, t.down.recs, 0, 0, c.Segments(), nil).HandshakeDone > 0
}

// Quiet waits until no segment has crossed the link for d (a peer's
// post-handshake messages, such as TLS 1.3 tickets, have arrived).
func (w *Watch) Quiet(ctx context.Context, d time.Duration) error {
	last, since := -1, time.Now()
	for {
		w.capture.mu.Lock()
		n := len(w.capture.segments)
		w.capture.mu.Unlock()
		if n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= d {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// payload returns n bytes of application data: printable, no newlines and
// no OpenSSL s_client/s_server command letters at line starts, so the same
// bytes work through OpenSSL's stdin.
func payload(n int) []byte {
	const pattern = "cryptocost-lab-payload-0123456789abcdefghijklmnopqrstuvwxyz-"
	b := make([]byte, n)
	for i := range b {
		b[i] = pattern[i%len(pattern)]
	}
	return b
}
