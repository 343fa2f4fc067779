package remotesign

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/measure"
)

// Server is the signing service (S001's phone): it answers KeyRequests
// and SignRequests on stream connections, in plain TCP or as the TLS
// server (S001's phone answered the PC over TLS). A hostile or broken
// client cannot hang or exhaust it: every read has a deadline, a frame
// longer than MaxFrame is refused before it is read, and connections
// beyond MaxConns are closed at once.
type Server struct {
	Signer *Signer
	// TLS, if set, makes every connection a TLS server connection.
	TLS *tls.Config
	// MaxFrame bounds a request frame (default 16 MiB); MaxDocument the
	// documents it signs (default: what MaxFrame leaves).
	MaxFrame, MaxDocument int
	// IdleTimeout bounds the wait for each frame and the TLS handshake
	// (default 30 s).
	IdleTimeout time.Duration
	// MaxConns bounds concurrent connections (default 64).
	MaxConns int
	// MeasureRSS makes the server read its process's resident set on each
	// connection (memory.go): set when the signer runs as its own
	// process, where the resident set is the signer's alone.
	MeasureRSS bool
	// OnDone, if set, is called with each connection's stats when it ends,
	// before Stats returns them.
	OnDone func(remote string, st *ConnStats)

	mu     sync.Mutex
	stats  map[string]*ConnStats
	ln     net.Listener
	wg     sync.WaitGroup
	sem    chan struct{}
	closed bool
}

// DefaultMaxFrame is a server's default frame limit: 16 MiB documents.
const DefaultMaxFrame = 16 << 20

// ConnStats is what the signer measured on one connection.
type ConnStats struct {
	// Handshake is the TLS handshake's wall time at the signer, and
	// HandshakeCPU the handling thread's CPU time for it (CPUKnown false
	// where there is no thread clock).
	Handshake, HandshakeCPU time.Duration
	CPUKnown                bool
	Version, CipherSuite    uint16
	Requests                int
	// Err is why the connection ended, if not by the client's close.
	Err error
	// HeapListening is the Go heap's object bytes when the connection was
	// accepted, HeapSigning the most read after any of its responses
	// (memory.go; the whole signer process's heap).
	HeapListening, HeapSigning uint64
	// RSSListening is the process's resident set at accept and RSSSigning
	// its peak over the connection (MeasureRSS only; 0 otherwise).
	RSSListening, RSSSigning uint64
	// MemoryErr says why the resident set could not be read.
	MemoryErr string
	done      chan struct{}
}

// Serve accepts connections on ln until Close. It returns nil after Close.
func (s *Server) Serve(ln net.Listener) error {
	if s.MaxFrame <= 0 {
		s.MaxFrame = DefaultMaxFrame
	}
	if s.MaxDocument <= 0 {
		s.MaxDocument = s.MaxFrame - SignRequestFixedBytes - 255
	}
	if s.IdleTimeout <= 0 {
		s.IdleTimeout = 30 * time.Second
	}
	if s.MaxConns <= 0 {
		s.MaxConns = 64
	}
	s.mu.Lock()
	s.ln, s.stats, s.sem = ln, map[string]*ConnStats{}, make(chan struct{}, s.MaxConns)
	s.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			return fmt.Errorf("signer: accept: %w", err)
		}
		select {
		case s.sem <- struct{}{}:
		default:
			c.Close() // over the limit: refuse rather than queue
			continue
		}
		st := &ConnStats{done: make(chan struct{})}
		s.mu.Lock()
		s.stats[c.RemoteAddr().String()] = st
		s.mu.Unlock()
		s.wg.Add(1)
		remote := c.RemoteAddr().String()
		go func() {
			defer s.wg.Done()
			defer func() { <-s.sem }()
			defer close(st.done)
			s.memoryAtAccept(st)
			st.Err = s.handle(c, st)
			s.memoryAtEnd(st)
			if s.OnDone != nil {
				s.OnDone(remote, st)
			}
		}()
	}
}

// Stats waits for the connection from remote (the client's local
// address) to end and returns what the signer measured on it.
func (s *Server) Stats(ctx context.Context, remote string) (*ConnStats, error) {
	s.mu.Lock()
	st, ok := s.stats[remote]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("signer: no connection from %s", remote)
	}
	select {
	case <-st.done:
		s.mu.Lock()
		delete(s.stats, remote)
		s.mu.Unlock()
		return st, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close stops accepting and waits for the connections to end (their
// deadlines bound the wait).
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	ln := s.ln
	s.mu.Unlock()
	var err error
	if ln != nil {
		err = ln.Close()
	}
	s.wg.Wait()
	return err
}

// handle serves one connection on a goroutine locked to its OS thread, so
// the thread CPU clock reads this connection's signing and handshake work.
func (s *Server) handle(raw net.Conn, st *ConnStats) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer raw.Close()
	conn := raw
	if s.TLS != nil {
		tc := tls.Server(raw, s.TLS)
		var clk measure.RealClock
		raw.SetDeadline(time.Now().Add(s.IdleTimeout))
		cpu0, ok0 := clk.ThreadCPU()
		t0 := time.Now()
		if err := tc.Handshake(); err != nil {
			return fmt.Errorf("TLS handshake: %w", err)
		}
		st.Handshake = time.Since(t0)
		cpu1, ok1 := clk.ThreadCPU()
		if ok0 && ok1 {
			st.HandshakeCPU, st.CPUKnown = time.Duration(cpu1-cpu0), true
		}
		cs := tc.ConnectionState()
		st.Version, st.CipherSuite = cs.Version, cs.CipherSuite
		conn = tc
	}
	for {
		conn.SetReadDeadline(time.Now().Add(s.IdleTimeout))
		body, err := ReadFrame(conn, s.MaxFrame)
		received := time.Now()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the client closed
			}
			if errors.Is(err, ErrFrameTooLarge) {
				// Say why before closing: the rest of the frame is not read.
				s.reply(conn, SignResponse{Status: StatusTooLarge, Error: err.Error()})
			}
			return err
		}
		m, err := ParseBody(body)
		if err != nil {
			s.reply(conn, SignResponse{Status: StatusBadRequest, Error: err.Error()})
			return err
		}
		resp := s.Signer.Answer(m, received, s.MaxDocument)
		if resp == nil {
			return fmt.Errorf("a client sent a %s, which only a signer sends", typeName(m.Type()))
		}
		if err := s.reply(conn, resp); err != nil {
			return err
		}
		// After the response is written, outside every timed span: the
		// heap still holds what signing allocated.
		st.HeapSigning = max(st.HeapSigning, heapBytes())
		st.Requests++
	}
}

func (s *Server) reply(conn net.Conn, m Message) error {
	conn.SetWriteDeadline(time.Now().Add(s.IdleTimeout))
	_, err := WriteMessage(conn, m)
	return err
}

// memoryAtAccept reads the signer's memory as it listens, before the
// connection does any work.
func (s *Server) memoryAtAccept(st *ConnStats) {
	st.HeapListening = heapBytes()
	st.HeapSigning = st.HeapListening
	if !s.MeasureRSS {
		return
	}
	if err := resetPeakRSS("self"); err != nil {
		st.MemoryErr = err.Error()
		return
	}
	m, err := readProcessMemory("self")
	if err != nil {
		st.MemoryErr = err.Error()
		return
	}
	st.RSSListening = m.RSS
}

// memoryAtEnd reads the resident set's peak over the connection.
func (s *Server) memoryAtEnd(st *ConnStats) {
	if !s.MeasureRSS || st.MemoryErr != "" {
		return
	}
	m, err := readProcessMemory("self")
	if err != nil {
		st.MemoryErr = err.Error()
		return
	}
	// The kernel keeps VmHWM from its approximate (per-CPU batched) RSS
	// counter and VmRSS from the exact sum, so a peak can read a few
	// pages below a resident set read inside its window; the peak is at
	// least every value seen in it.
	st.RSSSigning = max(m.PeakRSS, m.RSS, st.RSSListening)
}
