package remotesign

import (
	"bytes"
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/tlslab"
)

// Request is one signature request as the client measured it.
type Request struct {
	// Latency is the client's round trip: from just before writing the
	// request to the response's last byte read.
	Latency time.Duration
	// Hash, Sign, CPU, Server are the signer's own timings (SignResponse).
	Hash, Sign, CPU, Server time.Duration
	// SentAt and DoneAt are the round trip's ends since the connection's
	// time zero (the link's, the client's SYN).
	SentAt, DoneAt time.Duration
	// RequestBytes and ResponseBytes are the frames' encodings;
	// Signature the signature's length.
	RequestBytes, ResponseBytes, Signature int
}

// Transfer is the part of the round trip the signer did not spend
// answering: the link both ways, the client's and the kernel's work, and
// TLS record protection. The client's clock measures the round trip and
// the signer's its own share, so no clocks are compared across machines.
func (r Request) Transfer() time.Duration { return max(r.Latency-r.Server, 0) }

// SignerOther is the signer's time answering that is neither hashing nor
// signing: parsing the request, building and writing the response's
// encoding up to its timestamp. With Hash, Sign and Transfer it
// decomposes the request's latency exactly (Split).
func (r Request) SignerOther() time.Duration { return max(r.Server-r.Hash-r.Sign, 0) }

// Split is one request's latency decomposed into parts that add up:
// Latency = Hash + Sign + SignerOther + Transfer, to the nanosecond (the
// parts are differences of the same request's timestamps).
type Split struct {
	Latency, Hash, Sign, SignerOther, Transfer time.Duration
}

// Split decomposes the request's latency.
func (r Request) Split() Split {
	return Split{Latency: r.Latency, Hash: r.Hash, Sign: r.Sign, SignerOther: r.SignerOther(), Transfer: r.Transfer()}
}

// Sum is the parts' total; it equals Latency for every request the signer
// answered inside the client's round trip.
func (s Split) Sum() time.Duration { return s.Hash + s.Sign + s.SignerOther + s.Transfer }

// Conn is one measured connection: R requests for one document size with
// one scheme, plain or over TLS.
type Conn struct {
	Scheme string
	TLS    bool
	Doc    int
	// Requests in order.
	Requests []Request
	// KeyRequestBytes and KeyResponseBytes are the key exchange's frames,
	// sent once per connection before the requests.
	KeyRequestBytes, KeyResponseBytes int
	// PublicKey is what the signer sent; every signature was checked
	// against it with the scheme's Verify.
	PublicKey crypto.PublicKey
	// Handshake is the TLS handshake at the client: from the first byte it
	// could send (after the emulated TCP handshake) to Handshake's return.
	Handshake time.Duration
	// Signer is what the signer measured on the connection.
	Signer *ConnStats
	// Capture holds the bytes and segments the link carried; Stats what
	// the link counted; Analysis the TLS accounting (TLS only); KeyLog the
	// TLS secrets that let the tap decrypt the records.
	Capture  *tlslab.Capture
	Stats    link.StreamStats
	Params   link.Params
	Analysis *tlslab.Analysis
	// Err is why the connection failed; an ErrInterrupted when the run
	// was interrupted, with the requests measured before it kept.
	Err error
	// SignerProcess says the signer ran as its own process (its memory is
	// then its resident set, not the shared Go heap).
	SignerProcess bool

	signatures     [][]byte
	hsStart, hsEnd time.Duration // the TLS handshake at the client, since time zero
}

// ConnConfig says how to make one connection.
type ConnConfig struct {
	Addr    string
	Key     *Key // the scheme (its registry name and Verify)
	TLS     *tls.Config
	Doc     []byte
	Repeats int
	// Link is the emulated link; Passive forwards without delays (bytes
	// are still observed).
	Link    link.Params
	Passive bool
	Seed    uint64
	// Timeout bounds each frame's wait (default 60 s).
	Timeout time.Duration
	// MaxResponse bounds a response frame (default 1 MiB: signatures are
	// kilobytes at most).
	MaxResponse int

	// afterRequest, if set, is called after each request is written
	// (RequestWritten) and after its response is read (ResponseRead), with
	// the request's number: the tests cancel the run there, an explicit
	// event instead of a timer.
	afterRequest func(step RequestStep, n int)
}

// RequestStep is where in a request afterRequest is called.
type RequestStep int

const (
	RequestWritten RequestStep = iota
	ResponseRead
)

// ErrInterrupted is the error of a connection cut short by the run's
// interrupt (Ctrl-C): errors.Is(c.Err, ErrInterrupted).
var ErrInterrupted = errors.New("interrupted")

// interrupted names the interrupt instead of what it did to the socket
// (the deadline the interrupt sets makes a pending read fail with "i/o
// timeout"), saying how far the connection got.
func interrupted(ctx context.Context, done, of int) error {
	cause := context.Cause(ctx)
	return fmt.Errorf("%w (%v) after %d of %d requests", ErrInterrupted, cause, done, of)
}

// Measure makes one connection through the emulated link and sends
// cfg.Repeats signature requests for cfg.Doc, one after another.
// Signatures are verified with the scheme's Verify after the timing. On
// an error the requests measured so far are kept.
func Measure(ctx context.Context, cfg ConnConfig, server SignerStats) *Conn {
	c := &Conn{Scheme: cfg.Key.Name(), TLS: cfg.TLS != nil, Doc: len(cfg.Doc), Params: cfg.Link, Capture: &tlslab.Capture{}}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = 1 << 20
	}
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", cfg.Addr)
	if err != nil {
		c.Err = fmt.Errorf("dial the signer: %w", err)
		return c
	}
	start := time.Now()
	wrapped := link.Wrap(raw, link.StreamConfig{Params: cfg.Link, Passive: cfg.Passive,
		Observer: c.Capture.Observe, Seed: cfg.Seed, Start: start})
	remote := raw.LocalAddr().String()
	stop := context.AfterFunc(ctx, func() { wrapped.SetDeadline(time.Now()) })
	defer stop()

	var conn net.Conn = wrapped
	var keys tlslab.KeyLogBuffer
	if cfg.TLS != nil {
		tc := cfg.TLS.Clone()
		tc.KeyLogWriter = &keys
		tconn := tls.Client(wrapped, tc)
		wrapped.SetDeadline(time.Now().Add(cfg.Timeout))
		c.hsStart = time.Since(start)
		if err := tconn.HandshakeContext(ctx); err != nil {
			c.Err = fmt.Errorf("TLS handshake: %w", err)
			if ctx.Err() != nil {
				c.Err = interrupted(ctx, 0, cfg.Repeats)
			}
			c.finish(ctx, wrapped, server, remote, &keys)
			return c
		}
		c.hsEnd = time.Since(start)
		conn = tconn
	}
	c.Err = c.exchange(ctx, conn, cfg, start)
	if c.Err != nil && ctx.Err() != nil {
		c.Err = interrupted(ctx, len(c.Requests), cfg.Repeats)
	}
	if cfg.TLS != nil {
		conn.Close() // close_notify, then the TCP close
	}
	c.finish(ctx, wrapped, server, remote, &keys)
	if c.Err == nil || errors.Is(c.Err, ErrInterrupted) {
		// The requests kept from an interrupted connection are checked too.
		if err := c.verify(cfg); err != nil {
			c.Err = err
		}
	}
	return c
}

// exchange fetches the public key, then sends the requests.
func (c *Conn) exchange(ctx context.Context, conn net.Conn, cfg ConnConfig, start time.Time) error {
	name := cfg.Key.Name()
	deadline := func() { conn.SetDeadline(time.Now().Add(cfg.Timeout)) }
	deadline()
	n, err := WriteMessage(conn, KeyRequest{Scheme: name})
	if err != nil {
		return fmt.Errorf("key request: %w", err)
	}
	c.KeyRequestBytes = n
	m, size, err := readResponse(conn, cfg.MaxResponse)
	if err != nil {
		return fmt.Errorf("key response: %w", err)
	}
	kr, ok := m.(KeyResponse)
	if !ok || kr.Status != StatusOK {
		return fmt.Errorf("key response: %s", describe(m))
	}
	c.KeyResponseBytes = size
	if c.PublicKey, err = x509.ParsePKIXPublicKey(kr.PublicKey); err != nil {
		return fmt.Errorf("key response: the public key does not parse: %w", err)
	}
	for i := range cfg.Repeats {
		if err := ctx.Err(); err != nil {
			return err
		}
		req := SignRequest{ID: uint32(i + 1), Scheme: name, Document: cfg.Doc}
		frame, err := req.Marshal()
		if err != nil {
			return err
		}
		deadline()
		t0 := time.Now()
		if _, err := conn.Write(frame); err != nil {
			return fmt.Errorf("request %d: %w", i+1, err)
		}
		if cfg.afterRequest != nil {
			cfg.afterRequest(RequestWritten, i+1)
		}
		m, size, err := readResponse(conn, cfg.MaxResponse)
		t1 := time.Now()
		if err != nil {
			return fmt.Errorf("response %d: %w", i+1, err)
		}
		sr, ok := m.(SignResponse)
		if !ok || sr.Status != StatusOK {
			return fmt.Errorf("response %d: %s", i+1, describe(m))
		}
		if sr.ID != req.ID {
			return fmt.Errorf("response %d: carries id %d, want %d", i+1, sr.ID, req.ID)
		}
		c.Requests = append(c.Requests, Request{
			Latency: t1.Sub(t0), Hash: time.Duration(sr.HashNs), Sign: time.Duration(sr.SignNs),
			CPU: time.Duration(sr.CPUNs), Server: time.Duration(sr.ServerNs),
			SentAt: t0.Sub(start), DoneAt: t1.Sub(start),
			RequestBytes: len(frame), ResponseBytes: size, Signature: len(sr.Signature),
		})
		c.signatures = append(c.signatures, sr.Signature)
		if cfg.afterRequest != nil {
			cfg.afterRequest(ResponseRead, i+1)
		}
	}
	return nil
}

// readResponse reads one frame; size is its encoding's length.
func readResponse(conn net.Conn, limit int) (Message, int, error) {
	body, err := ReadFrame(conn, limit)
	if err != nil {
		return nil, 0, err
	}
	m, err := ParseBody(body)
	return m, FrameHeaderBytes + len(body), err
}

func describe(m Message) string {
	switch m := m.(type) {
	case KeyResponse:
		return fmt.Sprintf("%s: %s", m.Status, m.Error)
	case SignResponse:
		return fmt.Sprintf("%s: %s", m.Status, m.Error)
	}
	return fmt.Sprintf("unexpected %s", typeName(m.Type()))
}

// finish closes the connection, waits for the link and the signer to be
// done with it, and does the TLS accounting.
func (c *Conn) finish(ctx context.Context, wrapped net.Conn, server SignerStats, remote string, keys *tlslab.KeyLogBuffer) {
	wrapped.Close()
	stats, err, _ := link.LinkStats(wrapped)
	c.Stats = stats
	if c.hsEnd > 0 {
		// The ClientHello could leave only after the modelled TCP
		// handshake (link.Relay delays the first data by it).
		c.Handshake = c.hsEnd - max(c.hsStart, stats.Handshake)
	}
	if err != nil && c.Err == nil && !errors.Is(err, net.ErrClosed) {
		c.Err = fmt.Errorf("link: %w", err)
	}
	if server != nil {
		// Not cut by the interrupt: the connection is closed, so the
		// signer's figures for the requests kept arrive at once.
		wait, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		st, err := server.Stats(wait, remote)
		cancel()
		if err == nil {
			c.Signer = st
		} else if c.Err == nil {
			c.Err = err
		}
	}
	if c.TLS {
		kl, err := tlslab.ParseKeyLog(keys.Bytes())
		if err == nil {
			c.Analysis, err = tlslab.Analyze(c.Capture, kl)
		}
		if err != nil && c.Err == nil {
			c.Err = fmt.Errorf("TLS accounting: %w", err)
		}
	}
}

// verify checks every signature with the scheme's own Verify (the one its
// known-answer test vouches for) and the public key the signer sent.
func (c *Conn) verify(cfg ConnConfig) error {
	for i, sig := range c.signatures {
		if !cfg.Key.Scheme.Verify(c.PublicKey, cfg.Doc, sig) {
			return fmt.Errorf("signature %d does not verify with %s's Verify", i+1, c.Scheme)
		}
	}
	// A signature of another document must not verify either: a signer
	// that signed something else would otherwise pass.
	if len(c.signatures) > 0 {
		other := append(bytes.Clone(cfg.Doc), 1)
		if cfg.Key.Scheme.Verify(c.PublicKey, other, c.signatures[0]) {
			return fmt.Errorf("signature 1 also verifies for another document: the check is broken")
		}
	}
	return nil
}
