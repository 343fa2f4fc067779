package tlslab

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"time"
)

func init() { registerPeer(goPeer{}) }

// goPeer is Go's crypto/tls, in process. For psk-ke cells its client
// resumes with the lab's own psk_ke client (pskke.go): crypto/tls makes
// the priming full handshake, and offers psk_dhe_ke only.
type goPeer struct{}

func (goPeer) Name() string { return "go" }
func (goPeer) Description() string {
	return "Go crypto/tls in the cryptocost process (" + runtime.Version() + "); psk-ke resumptions by the lab's own psk_ke client"
}

func (goPeer) Supports(r Role, c Cell) error {
	switch {
	case c.KeyExchange == KexDHE:
		return errors.New("crypto/tls has no finite-field DHE: --kex dhe needs OpenSSL on both sides (--server openssl --client openssl)")
	case c.Resumption == ResumeSessionID:
		return errors.New("crypto/tls resumes only with tickets, not session IDs (a server-side session cache)")
	case c.Resumption == ResumePSKOnly && r == RoleServer:
		return errors.New("a crypto/tls server accepts only psk_dhe_ke: PSK without (EC)DHE needs --server openssl")
	}
	if c.Version == TLS13 {
		// crypto/tls does not let TLS 1.3 suites be configured: two Go
		// peers agree on AES-128-GCM when both have AES hardware. Another
		// suite needs a peer on the other side that offers or accepts only
		// it (OpenSSL's -ciphersuites).
		other := c.Client
		if r == RoleClient {
			other = c.Server
		}
		s, _ := c.Suite()
		if s.ID != TLS_AES_128_GCM_SHA256 && other == "go" {
			return fmt.Errorf("crypto/tls does not let TLS 1.3 cipher suites be configured; %s needs OpenSSL on the other side", c.Bulk)
		}
	}
	return nil
}

// curves are the Go key-exchange preferences of a cell.
func (c Cell) curves() []tls.CurveID {
	switch c.KeyExchange {
	case KexP256:
		return []tls.CurveID{tls.CurveP256}
	case KexX25519:
		return []tls.CurveID{tls.X25519}
	case KexX25519MLKEM768:
		return []tls.CurveID{tls.X25519MLKEM768}
	}
	return nil
}

// goConfig is the tls.Config both Go sides share for a cell.
func goConfig(c Cell, keys io.Writer) *tls.Config {
	s, _ := c.Suite()
	cfg := &tls.Config{
		MinVersion:       c.Version.wire(),
		MaxVersion:       c.Version.wire(),
		CurvePreferences: c.curves(),
		KeyLogWriter:     keys,
	}
	if !s.TLS13 {
		cfg.CipherSuites = []uint16{s.ID}
	}
	if c.Resumption == ResumeNone {
		// A cell without resumption measures a connection that neither
		// uses nor receives a ticket.
		cfg.SessionTicketsDisabled = true
	}
	return cfg
}

type goServer struct {
	ln      net.Listener
	cfg     *tls.Config
	keys    KeyLogBuffer
	plans   chan ConnPlan
	results chan PeerConn
	done    chan struct{}
}

func (goPeer) StartServer(ctx context.Context, env *Env, c Cell) (Server, error) {
	chain, err := env.PKI.Server(c.Cert, c.Chain)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &goServer{ln: ln, plans: make(chan ConnPlan, 1), results: make(chan PeerConn, 1), done: make(chan struct{})}
	s.cfg = goConfig(c, &s.keys)
	s.cfg.Certificates = []tls.Certificate{chain.Certificate}
	if c.ClientAuth {
		client, err := env.PKI.Client(c.Cert)
		if err != nil {
			ln.Close()
			return nil, err
		}
		s.cfg.ClientAuth = tls.RequireAndVerifyClientCert
		s.cfg.ClientCAs = client.Roots
	}
	go s.serve()
	return s, nil
}

func (s *goServer) Addr() string { return s.ln.Addr().String() }

func (s *goServer) serve() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			close(s.done)
			return
		}
		var plan ConnPlan
		select {
		case plan = <-s.plans:
		default:
			conn.Close() // nobody announced it
			continue
		}
		s.results <- s.handle(conn, plan)
	}
}

// handle runs the server side of one connection, its CPU time counted on
// its OS thread's clock while it runs (threadMeter).
func (s *goServer) handle(raw net.Conn, plan ConnPlan) (pc PeerConn) {
	m := newThreadMeter()
	pc.CPUMethod = threadCPUMethod
	defer func() { pc.CPU = m.stop() }()
	raw = m.meter(raw)
	raw.SetDeadline(time.Now().Add(10 * time.Minute)) // the lab's context ends it sooner
	conn := tls.Server(raw, s.cfg)
	defer conn.Close()
	if err := conn.Handshake(); err != nil {
		pc.Err = fmt.Errorf("go server handshake: %w", err)
		return pc
	}
	if plan.Payload > 0 && plan.Cell.Direction == Down {
		if _, err := conn.Write(payload(plan.Payload)); err != nil {
			pc.Err = fmt.Errorf("go server write: %w", err)
			return pc
		}
	}
	// The client ends the connection (close_notify); read until then.
	n, err := io.Copy(io.Discard, conn)
	pc.Received = n
	if err != nil {
		pc.Err = fmt.Errorf("go server read: %w", err)
	}
	return pc
}

func (s *goServer) Begin(plan ConnPlan, _ *Watch) { s.plans <- plan }

func (s *goServer) End(ctx context.Context) PeerConn {
	select {
	case r := <-s.results:
		return r
	case <-ctx.Done():
		return PeerConn{Err: fmt.Errorf("go server: %w", ctx.Err())}
	}
}

func (s *goServer) KeyLogLen() int              { return s.keys.Len() }
func (s *goServer) KeyLogSince(from int) []byte { return s.keys.Since(from) }
func (s *goServer) Stderr() string              { return "" }
func (s *goServer) Close() error {
	err := s.ln.Close()
	<-s.done
	return err
}

type goClient struct {
	cfg  *tls.Config
	keys KeyLogBuffer
	// tickets holds the priming connection's session for the psk_ke
	// client (psk-ke cells only).
	tickets *ticketCache
}

func (goPeer) NewClient(env *Env, c Cell) (Client, error) {
	server, err := env.PKI.Server(c.Cert, c.Chain)
	if err != nil {
		return nil, err
	}
	cl := &goClient{}
	cl.cfg = goConfig(c, &cl.keys)
	cl.cfg.RootCAs = server.Roots
	cl.cfg.ServerName = "localhost"
	if c.ClientAuth {
		client, err := env.PKI.Client(c.Cert)
		if err != nil {
			return nil, err
		}
		cl.cfg.Certificates = []tls.Certificate{client.Certificate}
	}
	switch c.Resumption {
	case ResumeNone:
	case ResumePSKOnly:
		cl.tickets = &ticketCache{}
		cl.cfg.ClientSessionCache = cl.tickets
	default:
		cl.cfg.ClientSessionCache = tls.NewLRUClientSessionCache(4)
	}
	return cl, nil
}

// clientConn is a client's connection after its handshake: a *tls.Conn, or
// the psk_ke client's *PSKConn.
type clientConn interface {
	io.ReadWriteCloser
	CloseWrite() error
}

// Run makes one connection, its CPU time counted on its OS thread's clock
// while it runs (threadMeter): dial, handshake, send or receive the payload, then
// close_notify and read until the server closes. The measured connection
// of a psk-ke cell resumes with the psk_ke client; every other handshake
// is crypto/tls's.
func (cl *goClient) Run(ctx context.Context, addr string, plan ConnPlan, w *Watch) (pc PeerConn) {
	m := newThreadMeter()
	pc.CPUMethod = threadCPUMethod
	defer func() { pc.CPU = m.stop() }()
	t0 := time.Now()
	raw, stop, err := dialLab(ctx, addr, w, m)
	if err != nil {
		pc.Err = fmt.Errorf("go client: %w", err)
		return pc
	}
	defer stop()
	var conn clientConn
	who := "go client"
	if cl.tickets != nil && !plan.Prime {
		who = "psk_ke client"
		sess, err := cl.tickets.Session()
		if err == nil {
			conn, err = ResumePSKKE(ctx, raw, sess, PSKConfig{ServerName: cl.cfg.ServerName, KeyLog: &cl.keys})
		}
		if err != nil {
			raw.Close()
			pc.Err = fmt.Errorf("%s handshake: %w", who, err)
			return pc
		}
	} else {
		tc := tls.Client(raw, cl.cfg)
		if err := tc.Handshake(); err != nil { // ctx ends it through dialLab's deadline
			tc.Close()
			pc.Err = fmt.Errorf("%s handshake: %w", who, ctxErr(ctx, err))
			return pc
		}
		conn = tc
	}
	defer conn.Close()
	pc.HandshakeWall = time.Since(t0)
	if cpu, ok := m.elapsed(); ok {
		pc.HandshakeCPU = cpu
	}
	if plan.Payload > 0 {
		switch plan.Cell.Direction {
		case Up:
			if _, err := conn.Write(payload(plan.Payload)); err != nil {
				pc.Err = fmt.Errorf("%s write: %w", who, ctxErr(ctx, err))
				return pc
			}
		case Down:
			n, err := io.CopyN(io.Discard, conn, int64(plan.Payload))
			pc.Received = n
			if err != nil {
				pc.Err = fmt.Errorf("%s read after %d of %d bytes: %w", who, n, plan.Payload, ctxErr(ctx, err))
				return pc
			}
		}
	}
	if err := conn.CloseWrite(); err != nil {
		pc.Err = fmt.Errorf("%s close_notify: %w", who, err)
		return pc
	}
	// Reading to the end processes what the server still sends: TLS 1.3
	// tickets, its close_notify.
	n, err := io.Copy(io.Discard, conn)
	pc.Received += n
	if err != nil {
		pc.Err = fmt.Errorf("%s read: %w", who, ctxErr(ctx, err))
	}
	return pc
}

// dialLab dials the server for an in-process client, through the lab's
// tap (w.Tap) and the client's CPU meter (m), with ctx's deadline on the connection, and ctx's
// cancellation ending it: stop releases that. It does not hand ctx to the
// dialer or to crypto/tls's HandshakeContext, each of which would start a
// goroutine per connection to watch it — and a goroutine the client's
// locked OS thread must wait for on a busy machine (docs/tls.md §
// Benchmarks); context.AfterFunc starts one only if ctx ends. The dial
// itself waits for the connection without parking the locked goroutine
// (connectLocked).
func dialLab(ctx context.Context, addr string, w *Watch, m *threadMeter) (net.Conn, func() bool, error) {
	dl, _ := ctx.Deadline()
	d := net.Dialer{Deadline: dl, Control: connectLocked}
	raw, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, nil, ctxErr(ctx, err)
	}
	raw = m.meter(w.Tap(raw))
	raw.SetDeadline(dl)
	stop := context.AfterFunc(ctx, func() { raw.SetDeadline(time.Unix(1, 0)) })
	return raw, stop, nil
}

// ctxErr adds ctx's error to err when ctx ended: a deadline set by
// dialLab's AfterFunc reads as an I/O timeout otherwise.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	return err
}

func (cl *goClient) KeyLogLen() int              { return cl.keys.Len() }
func (cl *goClient) KeyLogSince(from int) []byte { return cl.keys.Since(from) }
func (cl *goClient) Stderr() string              { return "" }
func (cl *goClient) Close() error                { return nil }
