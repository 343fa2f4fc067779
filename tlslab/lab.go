package tlslab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// Options configure a lab.
type Options struct {
	// Repeat is the number of measured connections per cell (default 3).
	Repeat int
	// Link is the emulated link; nil runs over loopback without delays
	// (the tap still records and segments the streams). Without a link
	// and with an in-process client (Go, plain TCP) there is no relay:
	// the client dials the server and the tap records at its socket.
	Link *link.Profile
	// Timeout bounds each connection (default 2 minutes, plus the time
	// the transfer needs at the link's rate).
	Timeout time.Duration
	// NoTap measures without recording (--no-tap: timing-only runs, the
	// tap-overhead benchmark); cells then have no wire accounting.
	NoTap bool
	// Seed makes link losses reproducible.
	Seed uint64
}

// Lab runs cells. It owns a PKI (keys generated once per lab) and a
// scratch directory for OpenSSL's files.
type Lab struct {
	opts    Options
	params  link.Params
	passive bool
	env     *Env
}

// New makes a lab. Close removes its scratch files.
func New(opts Options) (*Lab, error) {
	if opts.Repeat <= 0 {
		opts.Repeat = 3
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Minute
	}
	l := &Lab{opts: opts, passive: opts.Link == nil}
	if opts.Link != nil {
		p, err := opts.Link.Params()
		if err != nil {
			return nil, err
		}
		l.params = p
	} else {
		l.params = link.Params{MTU: link.DefaultMTU}
	}
	dir, err := os.MkdirTemp("", "cryptocost-tls-")
	if err != nil {
		return nil, err
	}
	l.env = &Env{PKI: NewPKI(), parent: dir}
	return l, nil
}

// Close removes the lab's scratch directory.
func (l *Lab) Close() error { return os.RemoveAll(l.env.parent) }

// PKI returns the lab's PKI.
func (l *Lab) PKI() *PKI { return l.env.PKI }

// LinkName names the lab's link ("loopback" without emulation).
func (l *Lab) LinkName() string {
	if l.opts.Link == nil {
		return "loopback"
	}
	return l.opts.Link.Name
}

// LinkParams are the emulated link's parameters.
func (l *Lab) LinkParams() link.Params { return l.params }

// Conn is one measured connection.
type Conn struct {
	Capture  *Capture
	Analysis *Analysis // nil for plain TCP or without the tap
	Link     link.StreamStats
	// Packets is the modelled TCP/IPv4 view (link.ModelTCP).
	Packets        []link.Packet
	Client, Server PeerConn
	KeyLog         []byte
	// Kernel are the relay sockets' own byte counters (TCP_INFO), an
	// account of the bytes independent of the tap.
	Kernel SocketCount
	// Payload moved, and when its last byte reached the receiver (from
	// the client's SYN); ConnEnd is when both FINs had been sent.
	Payload     int
	PayloadDone time.Duration
	// Wall is the relay's time from accept to the end of the connection
	// (on the direct path, from just before the client dials).
	Wall time.Duration
}

// SocketCount holds the kernel's TCP_INFO counters of the relay's two
// sockets: the bytes each peer put on the wire, counted by the kernel
// independently of the tap.
type SocketCount struct {
	UpFromClient, DownFromServer uint64 // tcpi_bytes_received, less the FIN
	OK                           bool
}

// CellRun is the outcome of one cell.
type CellRun struct {
	Cell  Cell
	Conns []*Conn
	// Primes are the connections made only to obtain a session.
	Primes []*Conn
	Err    error
}

// Run measures a cell: Repeat connections (each preceded by a priming
// connection for resumption cells). It validates the cell first. On
// failure the error carries the peers' stderr; connections measured
// before it are kept.
func (l *Lab) Run(ctx context.Context, c Cell) *CellRun {
	run := &CellRun{Cell: c}
	if err := c.Validate(); err != nil {
		run.Err = err
		return run
	}
	var server Server
	var client Client
	if !c.Plain {
		sp, _ := PeerByName(c.Server)
		cp, _ := PeerByName(c.Client)
		// Each cell gets its own directory for its peers' files, so cells
		// can run concurrently.
		env := &Env{PKI: l.env.PKI, parent: l.env.parent}
		defer env.remove()
		var err error
		if server, err = sp.StartServer(ctx, env, c); err != nil {
			run.Err = fmt.Errorf("%s: starting the %s server: %w", c.Name(), c.Server, err)
			return run
		}
		defer server.Close()
		if client, err = cp.NewClient(env, c); err != nil {
			run.Err = fmt.Errorf("%s: preparing the %s client: %w", c.Name(), c.Client, err)
			return run
		}
		defer client.Close()
	} else {
		ps, err := startPlainServer()
		if err != nil {
			run.Err = err
			return run
		}
		defer ps.Close()
		server, client = ps, plainClient{}
	}
	// Measure first, analyse after: the first connection (and its prime)
	// is analysed and checked at once, so a cell that is not what it asked
	// for fails before the others run; the others' analysis waits until
	// the last connection is measured and then runs on every core, when
	// nothing is being timed (it would lengthen the connections measured
	// after it, or their number per second, otherwise).
	var later []pending
	for i := 0; i < l.opts.Repeat; i++ {
		var prime *Conn
		if c.Resumption != ResumeNone && !c.Plain {
			var err error
			prime, err = l.conn(ctx, c, server, client, ConnPlan{Cell: c, Prime: true}, uint64(2*i))
			if err == nil && i == 0 {
				err = l.account(c, prime)
			}
			if err != nil {
				run.Err = fmt.Errorf("%s: priming connection: %w", c.Name(), err)
				break
			}
		}
		conn, err := l.conn(ctx, c, server, client, ConnPlan{Cell: c, Payload: c.Transfer}, uint64(2*i+1))
		if err != nil {
			run.Err = fmt.Errorf("%s: %w", c.Name(), err)
			break
		}
		if i > 0 {
			later = append(later, pending{prime, conn})
			continue
		}
		if err = l.account(c, conn); err == nil {
			err = l.check(c, conn)
		}
		if err != nil {
			run.Err = fmt.Errorf("%s: %w", c.Name(), err)
			break
		}
		run.Primes = appendConn(run.Primes, prime)
		run.Conns = append(run.Conns, conn)
	}
	// What was measured is kept, an error or an interruption included.
	for i, err := range l.analyse(c, later) {
		if err != nil {
			run.Err = fmt.Errorf("%s: %w", c.Name(), err)
			break
		}
		run.Primes = appendConn(run.Primes, later[i].prime)
		run.Conns = append(run.Conns, later[i].conn)
	}
	return run
}

// pending is a measured connection, and its prime, not yet analysed.
type pending struct{ prime, conn *Conn }

// analyse accounts for and checks the measured connections on
// GOMAXPROCS goroutines, returning each one's error (a prime's names it).
func (l *Lab) analyse(c Cell, ps []pending) []error {
	errs := make([]error, len(ps))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ps)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if p := ps[i].prime; p != nil {
					if err := l.account(c, p); err != nil {
						errs[i] = fmt.Errorf("priming connection: %w", err)
						continue
					}
				}
				err := l.account(c, ps[i].conn)
				if err == nil {
					err = l.check(c, ps[i].conn)
				}
				errs[i] = err
			}
		}()
	}
	for i := range ps {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

func appendConn(list []*Conn, c *Conn) []*Conn {
	if c == nil {
		return list
	}
	return append(list, c)
}

// timeout is the per-connection bound: the configured one plus what the
// transfer needs at the link's slower rate, twice over.
func (l *Lab) timeout(c Cell) time.Duration {
	d := l.opts.Timeout
	rate := min(l.params.RateUp, l.params.RateDown)
	if rate > 0 && c.Transfer > 0 {
		d += 2 * time.Duration(float64(c.Transfer)*8/rate*float64(time.Second))
	}
	return d
}

// records reports whether the tap records cell c's connections: unless
// --no-tap, and always when an OpenSSL peer waits on the wire for its
// handshake to end (Watch.HandshakeDone); --no-tap then skips only the
// analysis.
func (l *Lab) records(c Cell) bool {
	return !l.opts.NoTap || c.Client == "openssl" || c.Server == "openssl"
}

// direct reports whether cell c's connections skip the relay: no link to
// emulate, and a client in this process whose socket the tap can wrap.
func (l *Lab) direct(c Cell) bool { return l.opts.Link == nil && (c.Plain || c.Client == "go") }

// conn makes one connection, through the relay or direct, and accounts
// for it.
func (l *Lab) conn(ctx context.Context, c Cell, server Server, client Client, plan ConnPlan, seq uint64) (*Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, l.timeout(c))
	defer cancel()
	if l.direct(c) {
		return l.connDirect(ctx, cancel, c, server, client, plan)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	conn := &Conn{Capture: &Capture{}, Payload: plan.Payload}
	// The peers' key logs only grow: this connection's secrets are what
	// is added during it.
	keys0c, keys0s := client.KeyLogLen(), server.KeyLogLen()
	w := &Watch{capture: conn.Capture, accepted: make(chan struct{}), rtt: l.params.RTT()}
	type relayed struct {
		stats link.StreamStats
		err   error
		began bool
	}
	relayDone := make(chan relayed, 1)
	go func() {
		cc, err := ln.Accept()
		if err != nil {
			relayDone <- relayed{err: err}
			return
		}
		start := time.Now()
		close(w.accepted)
		server.Begin(plan, w)
		sc, err := net.Dial("tcp", server.Addr())
		if err != nil {
			cc.Close()
			relayDone <- relayed{err: fmt.Errorf("relay: connecting to the server: %w", err), began: true}
			return
		}
		cfg := link.StreamConfig{Params: l.params, Passive: l.passive, Seed: l.opts.Seed + seq, Start: start}
		if l.records(c) {
			cfg.Observer = conn.Capture.Observe
		}
		ci, si := &infoConn{TCPConn: cc.(*net.TCPConn)}, &infoConn{TCPConn: sc.(*net.TCPConn)}
		st, err := link.Relay(ctx, ci, si, cfg)
		conn.Wall = time.Since(start)
		// tcpi_bytes_received advances with rcv_nxt, so it counts the
		// peer's FIN (one sequence number) as a byte. (The send-side
		// counters are no good here: tcpi_bytes_sent counts
		// retransmissions, which happen even on loopback, and
		// tcpi_bytes_acked counts the SYN and FIN; Linux
		// include/uapi/linux/tcp.h, RFC 4898.)
		conn.Kernel = SocketCount{UpFromClient: ci.info.Bytes_received - finCount(st.UpFIN),
			DownFromServer: si.info.Bytes_received - finCount(st.DownFIN), OK: ci.ok && si.ok}
		relayDone <- relayed{stats: st, err: err, began: true}
	}()
	conn.Client = client.Run(ctx, ln.Addr().String(), plan, w)
	var r relayed
	if conn.Client.Err != nil {
		ln.Close()
		cancel() // the relay and server give up too
	}
	select {
	case r = <-relayDone:
	case <-ctx.Done():
		r = <-relayDone
	}
	if r.began {
		conn.Server = server.End(ctx)
	}
	conn.Link = r.stats
	conn.KeyLog = append(client.KeyLogSince(keys0c), server.KeyLogSince(keys0s)...)
	if err := errors.Join(conn.Client.Err, conn.Server.Err, r.err); err != nil {
		if s := server.Stderr(); s != "" && conn.Server.Err == nil {
			err = fmt.Errorf("%w\n  %s server stderr: %s", err, c.Server, s)
		}
		return conn, err
	}
	return conn, nil
}

// connDirect makes one connection with no relay: the client dials the
// server, through a tap on its own socket (tapConn).
func (l *Lab) connDirect(ctx context.Context, cancel func(), c Cell, server Server, client Client, plan ConnPlan) (*Conn, error) {
	conn := &Conn{Capture: &Capture{}, Payload: plan.Payload}
	keys0c, keys0s := client.KeyLogLen(), server.KeyLogLen()
	start := time.Now()
	dialer := &tapDialer{start: start, mss: l.params.MSS()}
	if l.records(c) {
		dialer.capture = conn.Capture
	}
	accepted := make(chan struct{})
	close(accepted) // nothing to wait for: the client's dial is the connection
	w := &Watch{capture: conn.Capture, accepted: accepted, dial: dialer}
	server.Begin(plan, w)
	conn.Client = client.Run(ctx, server.Addr(), plan, w)
	if conn.Client.Err != nil {
		cancel() // the server gives up too
	}
	if tapped, dialed := dialer.tapped(); dialed { // a connection reached the server
		conn.Server = server.End(ctx)
		if tapped != nil {
			conn.Link, conn.Kernel = tapped.stats(), tapped.kernel
		}
	}
	conn.Wall = time.Since(start)
	conn.KeyLog = append(client.KeyLogSince(keys0c), server.KeyLogSince(keys0s)...)
	if err := errors.Join(conn.Client.Err, conn.Server.Err); err != nil {
		if s := server.Stderr(); s != "" && conn.Server.Err == nil {
			err = fmt.Errorf("%w\n  %s server stderr: %s", err, c.Server, s)
		}
		return conn, err
	}
	return conn, nil
}

// account is the tap's analysis of a finished connection: the modelled
// packets, the TLS attribution (with the connection's logged keys) and
// when the payload arrived. It runs after the connection, so it costs the
// measured times nothing.
func (l *Lab) account(c Cell, conn *Conn) error {
	if l.opts.NoTap {
		return nil
	}
	segs := conn.Capture.Segments()
	conn.Packets = link.ModelTCP(segs, conn.Link, l.params)
	if !c.Plain {
		keys, err := ParseKeyLog(conn.KeyLog)
		if err != nil {
			return err
		}
		if conn.Analysis, err = analyzeCapture(conn.Capture, segs, keys); err != nil {
			return err
		}
	}
	conn.PayloadDone = l.payloadDone(conn, c, segs)
	return nil
}

// payloadDone is when the last payload byte reached its receiver: the
// arrival of the segment holding the last application-data byte (for
// TLS, of its last application-data record).
func (l *Lab) payloadDone(conn *Conn, c Cell, segs []link.Segment) time.Duration {
	if conn.Payload == 0 {
		return 0
	}
	dir := dirOf(c.Direction)
	last := -1 // stream offset of the last payload byte
	if conn.Analysis == nil {
		up, down := conn.Capture.Streams()
		last = len(up) - 1
		if c.Direction == Down {
			last = len(down) - 1
		}
	} else {
		for _, m := range conn.Analysis.Messages {
			if m.Dir == dir && m.Name == "ApplicationData" {
				last = m.Offset + m.endOffsetDelta - 1
			}
		}
	}
	var at time.Duration
	for _, s := range segs {
		if s.Dir == dir && !s.Lost && s.Seq <= int64(last) && int64(last) < s.Seq+int64(s.WireBytes-link.TCPSegmentOverhead) {
			at = max(at, s.Arrive)
		}
	}
	return at
}

// check verifies that the connection is what the cell asked for, from the
// wire (not from the peers' own reports): version, suite, group,
// resumption, client authentication, payload, and byte counts that agree
// with the kernel's.
func (l *Lab) check(c Cell, conn *Conn) error {
	if conn.Kernel.OK && !l.opts.NoTap {
		up, down := conn.Capture.Streams()
		k := conn.Kernel
		if k.UpFromClient != uint64(len(up)) || k.DownFromServer != uint64(len(down)) {
			return fmt.Errorf("byte accounting: the tap saw %d B up and %d B down; the kernel's sockets received %d and %d",
				len(up), len(down), k.UpFromClient, k.DownFromServer)
		}
	}
	got := conn.Client.Received
	if c.Direction == Up {
		got = conn.Server.Received
	}
	if c.Transfer > 0 && got != int64(c.Transfer) {
		return fmt.Errorf("the receiver got %d payload bytes, want %d", got, c.Transfer)
	}
	a := conn.Analysis
	if a == nil || c.Plain {
		return nil
	}
	s, _ := c.Suite()
	switch {
	case a.Version != c.Version.wire():
		return fmt.Errorf("negotiated version %#04x, the cell asked for TLS %s", a.Version, c.Version)
	case a.CipherSuite != s.ID:
		return fmt.Errorf("negotiated %s, the cell asked for %s", SuiteName(a.CipherSuite), s.Name)
	case c.Resumption != ResumeNone && !a.Resumed:
		return fmt.Errorf("the connection did not resume its session (%s)", c.Resumption)
	case c.Resumption == ResumeNone && a.Resumed:
		return fmt.Errorf("the connection resumed a session, the cell asked for none")
	case c.ClientAuth && !a.CertRequested && !a.Resumed:
		return fmt.Errorf("the server did not request a client certificate")
	case a.HandshakeDone == 0:
		return fmt.Errorf("the tap did not see the handshake complete")
	}
	want := c.wantGroup()
	switch {
	case c.Resumption == ResumePSKOnly:
		if a.Group != "" {
			return fmt.Errorf("a key share (%s) in a psk_ke resumption", a.Group)
		}
	case a.Resumed && c.Version != TLS13:
		// An abbreviated TLS 1.2 handshake exchanges no keys.
	case want == "DH-":
		if !strings.HasPrefix(a.Group, "DH-") {
			return fmt.Errorf("key exchange %q on the wire, the cell asked for finite-field DHE", a.Group)
		}
	case want != "" && a.Group != want:
		return fmt.Errorf("key exchange group %q on the wire, the cell asked for %q", a.Group, want)
	}
	return nil
}

// dirOf is the link direction of a transfer direction.
func dirOf(d Direction) result.Direction {
	if d == Up {
		return result.Up
	}
	return result.Down
}

// wantGroup is the group name the tap should read for the cell's key
// exchange.
func (c Cell) wantGroup() string {
	switch c.KeyExchange {
	case KexP256:
		return "P-256"
	case KexX25519:
		return "X25519"
	case KexX25519MLKEM768:
		return "X25519MLKEM768"
	case KexDHE:
		if c.Version == TLS13 {
			return "ffdhe2048"
		}
		return "DH-"
	}
	return ""
}

func finCount(at time.Duration) uint64 {
	if at >= 0 {
		return 1
	}
	return 0
}

// plainServer and plainClient are the plain-TCP baseline: the same
// transfer without TLS, Go on both sides.
type plainServer struct {
	ln      net.Listener
	plans   chan ConnPlan
	results chan PeerConn
}

func startPlainServer() (*plainServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &plainServer{ln: ln, plans: make(chan ConnPlan, 1), results: make(chan PeerConn, 1)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			plan := <-s.plans
			go func() { s.results <- plainServe(c, plan) }()
		}
	}()
	return s, nil
}

func plainServe(c net.Conn, plan ConnPlan) (pc PeerConn) {
	m := newThreadMeter()
	pc.CPUMethod = threadCPUMethod
	defer func() { pc.CPU = m.stop() }()
	c = m.meter(c)
	defer c.Close()
	if plan.Cell.Direction == Down {
		if _, err := c.Write(payload(plan.Payload)); err != nil {
			pc.Err = err
			return pc
		}
	}
	n, err := io.Copy(io.Discard, c)
	pc.Received, pc.Err = n, err
	return pc
}

func (s *plainServer) Addr() string               { return s.ln.Addr().String() }
func (s *plainServer) Begin(p ConnPlan, _ *Watch) { s.plans <- p }
func (s *plainServer) End(ctx context.Context) PeerConn {
	select {
	case r := <-s.results:
		return r
	case <-ctx.Done():
		return PeerConn{Err: ctx.Err()}
	}
}
func (s *plainServer) KeyLogLen() int         { return 0 }
func (s *plainServer) KeyLogSince(int) []byte { return nil }
func (s *plainServer) Stderr() string         { return "" }
func (s *plainServer) Close() error           { return s.ln.Close() }

type plainClient struct{}

func (plainClient) Run(ctx context.Context, addr string, plan ConnPlan, w *Watch) (pc PeerConn) {
	m := newThreadMeter()
	pc.CPUMethod = threadCPUMethod
	defer func() { pc.CPU = m.stop() }()
	c, stop, err := dialLab(ctx, addr, w, m)
	if err != nil {
		pc.Err = err
		return pc
	}
	defer stop()
	defer c.Close()
	tc := c.(interface{ CloseWrite() error }) // a *net.TCPConn, tapped or not
	switch plan.Cell.Direction {
	case Up:
		if _, err := c.Write(payload(plan.Payload)); err != nil {
			pc.Err = err
			return pc
		}
		tc.CloseWrite()
		_, pc.Err = io.Copy(io.Discard, c)
	case Down:
		n, err := io.CopyN(io.Discard, c, int64(plan.Payload))
		pc.Received, pc.Err = n, err
		tc.CloseWrite()
		io.Copy(io.Discard, c)
	}
	return pc
}

func (plainClient) KeyLogLen() int         { return 0 }
func (plainClient) KeyLogSince(int) []byte { return nil }
func (plainClient) Stderr() string         { return "" }
func (plainClient) Close() error           { return nil }
