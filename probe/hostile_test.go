package probe

// A hostile-server fixture: each behaviour is a way a broken or malicious
// server could try to hang the probe or exhaust its memory. The probe must
// return, say what happened, and read no more than its limits allow.

import (
	"bytes"
	"cmp"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// hostile serves one behaviour on a loopback port until the test ends; it
// counts connections and the most open at once.
type hostile struct {
	addr string
	mu   sync.Mutex
	open int
	most int
	// hellos are the ClientHellos received (parsed), for checks on what
	// clients offered.
	hellos []*ClientHello
}

func startHostile(t *testing.T, behave func(h *hostile, c net.Conn)) *hostile {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &hostile{addr: l.Addr().String()}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			h.mu.Lock()
			h.open++
			h.most = max(h.most, h.open)
			h.mu.Unlock()
			wg.Go(func() {
				defer func() {
					c.Close()
					h.mu.Lock()
					h.open--
					h.mu.Unlock()
				}()
				// Bounded, like every test server here: a minute at most.
				c.SetDeadline(time.Now().Add(time.Minute))
				go func() { <-stop; c.Close() }()
				behave(h, c)
			})
		}
	})
	return h
}

// readHello reads the client's first ClientHello.
func (h *hostile) readHello(c net.Conn) *ClientHello {
	rr := newRecordReader(c, DefaultLimits())
	msg, err := rr.readHandshake()
	if err != nil {
		return nil
	}
	var ch ClientHello
	if ch.Unmarshal(msg) != nil {
		return nil
	}
	h.mu.Lock()
	h.hellos = append(h.hellos, &ch)
	h.mu.Unlock()
	return &ch
}

// endless writes chunk until the connection fails.
func endless(c net.Conn, chunk []byte, pause time.Duration) {
	for {
		if _, err := c.Write(chunk); err != nil {
			return
		}
		if pause > 0 {
			time.Sleep(pause)
		}
	}
}

func serverHello12(suite uint16) []byte {
	sh := &ServerHello{Version: TLS12, CipherSuite: suite, RenegotiationInfo: []byte{}}
	b, _ := sh.Marshal()
	return marshalRecords(recordHandshake, TLS12, b)
}

func TestHostileServers(t *testing.T) {
	hsRecord := func(p []byte) []byte { return marshalRecords(recordHandshake, TLS12, p) }
	tests := []struct {
		name   string
		behave func(h *hostile, c net.Conn)
		// want is in every tested version's evidence.
		want string
		// timeout is the probe's connection timeout: 500 ms where it is
		// what must end the connection, else long enough that a loaded
		// host still sees the server's answer first (0: 30 s).
		timeout time.Duration
	}{
		{"silent", func(h *hostile, c net.Conn) { h.readHello(c); c.Read(make([]byte, 1)) },
			"no complete answer within the 500ms connection timeout", 500 * time.Millisecond},
		{"slow drip", func(h *hostile, c net.Conn) {
			h.readHello(c)
			c.Write([]byte{22, 3, 3, 0x40, 0})         // a record of 16 KiB...
			endless(c, []byte{2}, 20*time.Millisecond) // ...a byte every 20 ms
		}, "no complete answer within the 500ms connection timeout", 500 * time.Millisecond},
		{"garbage", func(h *hostile, c net.Conn) {
			h.readHello(c)
			endless(c, bytes.Repeat([]byte{0xab}, 4096), 0)
		}, "not TLS: the server's first bytes are ab ab ab ab ab", 0},
		{"reset", func(h *hostile, c net.Conn) {
			h.readHello(c)
			c.(*net.TCPConn).SetLinger(0)
		}, "connection reset by the server", 0},
		{"close", func(h *hostile, c net.Conn) { h.readHello(c) }, "connection closed by the server", 0},
		{"gigantic record", func(h *hostile, c net.Conn) {
			h.readHello(c)
			c.Write([]byte{22, 3, 3, 0xff, 0xff})
			endless(c, make([]byte, 4096), 0)
		}, "record of 65535 bytes exceeds the 18432-byte limit", 0},
		{"gigantic message", func(h *hostile, c net.Conn) {
			h.readHello(c)
			c.Write(hsRecord([]byte{typeCertificate, 0xff, 0xff, 0xff}))
			endless(c, hsRecord(make([]byte, 16000)), 0)
		}, "Certificate of 16777215 bytes exceeds the 262144-byte limit", 0},
		{"endless HelloRequests", func(h *hostile, c net.Conn) {
			h.readHello(c)
			endless(c, hsRecord([]byte{typeHelloRequest, 0, 0, 0}), 0)
		}, "more than 16 records that carry nothing (last: HelloRequest)", 0},
		{"endless warnings", func(h *hostile, c net.Conn) {
			h.readHello(c)
			endless(c, marshalRecords(recordAlert, TLS12, []byte{1, 112}), 0)
		}, "more than 16 records that carry nothing (last: warning alert unrecognized_name)", 0},
		{"http", func(h *hostile, c net.Conn) {
			h.readHello(c)
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
		}, `("HTTP/")`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := startHostile(t, tt.behave)
			timeout := cmp.Or(tt.timeout, 30*time.Second)
			opts := Options{Limits: Limits{Timeout: timeout}, TimeLimit: 2 * time.Minute}
			r := runProbe(t, h.addr, opts)
			if r.Status != result.Failed {
				t.Errorf("status %s, want failed", r.Status)
			}
			for _, v := range r.Versions {
				if v.Accepted || !strings.Contains(v.Evidence.Response, tt.want) {
					t.Errorf("%s: accepted=%v, evidence %q, want %q", v.Version, v.Accepted, v.Evidence.Response, tt.want)
				}
			}
			if len(r.Errors) == 0 || !strings.Contains(r.Errors[0], "could not probe") && !strings.Contains(r.Errors[0], "accepted none") {
				t.Errorf("errors %q", r.Errors)
			}
			if r.MostBytesRead > DefaultLimits().MaxConnBytes {
				t.Errorf("read %d bytes from one connection, over the %d limit", r.MostBytesRead, DefaultLimits().MaxConnBytes)
			}
		})
	}
}

// TestHostileGiganticFlight: a server whose first flight has every message
// a little under the 256 KiB message limit (a 250 KB certificate chain, a
// 250 KB ServerKeyExchange, ...): over the connection limit together.
func TestHostileGiganticFlight(t *testing.T) {
	big := func(typ uint8) []byte {
		body := make([]byte, 250<<10)
		return marshalRecords(recordHandshake, TLS12, append([]byte{typ, byte(len(body) >> 16), byte(len(body) >> 8), byte(len(body))}, body...))
	}
	h := startHostile(t, func(h *hostile, c net.Conn) {
		ch := h.readHello(c)
		if ch == nil || ch.Version != TLS12 || len(ch.SupportedVersions) > 0 {
			c.Write(marshalRecords(recordAlert, TLS12, []byte{2, 70}))
			return
		}
		c.Write(serverHello12(ch.CipherSuites[0]))
		der := bytes.Repeat([]byte{0x30}, 250<<10)
		cert, _ := (&Certificate{Entries: []CertificateEntry{{DER: der}}}).Marshal()
		c.Write(marshalRecords(recordHandshake, TLS12, cert))
		for _, typ := range []uint8{typeServerKeyExchange, typeCertificateRequest} {
			if _, err := c.Write(big(typ)); err != nil {
				return
			}
		}
	})
	limit := 600 << 10
	r := runProbe(t, h.addr, Options{Versions: []Version{TLS12}, Suites: []uint16{0x002f},
		Limits: Limits{Timeout: 10 * time.Second, MaxConnBytes: limit}})
	check(t, "versions", acceptedVersions(r), []Version{TLS12})
	first := r.Suites[0].Suites[0].Evidence.Response
	if !strings.Contains(first, "more than 614400 bytes on one connection") {
		t.Errorf("first flight: %q", first)
	}
	if r.MostBytesRead > limit {
		t.Errorf("read %d bytes from one connection", r.MostBytesRead)
	}
}

// TestHostileAfterHello: a server that answers the probe's hellos like a
// TLS 1.2 server, then sends HelloRequests forever. The real clients
// (crypto/tls) and the probe's own readers must all give up.
func TestHostileAfterHello(t *testing.T) {
	h := startHostile(t, func(h *hostile, c net.Conn) {
		ch := h.readHello(c)
		if ch == nil || len(ch.SupportedVersions) > 0 && ch.SupportedVersions[0] == TLS13 {
			c.Write(marshalRecords(recordAlert, TLS12, []byte{2, 70}))
			return
		}
		suite := ch.CipherSuites[0]
		for _, s := range ch.CipherSuites {
			if s == 0xc02f {
				suite = s
			}
		}
		c.Write(serverHello12(suite))
		endless(c, marshalRecords(recordHandshake, TLS12, []byte{typeHelloRequest, 0, 0, 0}), time.Millisecond)
	})
	r := runProbe(t, h.addr, Options{Limits: Limits{Timeout: 2 * time.Second}, Versions: []Version{TLS12, TLS13}})
	check(t, "versions", acceptedVersions(r), []Version{TLS12})
	if c := pick(r, "go-default"); c.Error == "" {
		t.Errorf("go-default completed a handshake with a server that sends only HelloRequests")
	}
	for _, s := range r.Resumption {
		if s.Error == "" {
			t.Errorf("%s: no error", s.Mechanism)
		}
	}
	if len(r.Run.Results) != 0 {
		t.Errorf("%d cost results from a server that never finished a handshake", len(r.Run.Results))
	}
}

// TestSSL3Only: SSL 3.0 is detected (OpenSSL 3 has none, so a fixture
// plays the server) and no mobile client ever offers it.
func TestSSL3Only(t *testing.T) {
	h := startHostile(t, func(h *hostile, c net.Conn) {
		ch := h.readHello(c)
		if ch == nil || ch.Version != SSL30 {
			c.Write(marshalRecords(recordAlert, TLS10, []byte{2, 70}))
			return
		}
		sh, _ := (&ServerHello{Version: SSL30, CipherSuite: ch.CipherSuites[0], NoExtensions: true}).Marshal()
		c.Write(marshalRecords(recordHandshake, SSL30, append(sh, typeServerHelloDone, 0, 0, 0)))
	})
	r := runProbe(t, h.addr, Options{})
	check(t, "versions", acceptedVersions(r), []Version{SSL30})
	if !strings.Contains(r.Versions[0].Note, "never offered") {
		t.Errorf("SSL 3.0 note %q", r.Versions[0].Note)
	}
	// The probe's own SSL 3.0 hellos (the version question and the suite
	// scan) carry no extensions; the mobile clients' hellos all do, and
	// none of them offered SSL 3.0.
	ssl3, mobile := 0, 0
	for _, ch := range h.hellos {
		switch {
		case ch.Version == SSL30 && !ch.NoExtensions:
			t.Errorf("an SSL 3.0 hello with extensions: %+v", ch)
		case ch.Version == SSL30:
			ssl3++
		case len(ch.SupportedVersions) > 0 && slices.Contains(ch.SupportedVersions, SSL30):
			t.Errorf("a client offered SSL 3.0 in supported_versions")
		case slices.Equal(ch.CipherSuites, s000Suites) || len(ch.SupportedVersions) > 0:
			mobile++
		}
	}
	if ssl3 == 0 || mobile == 0 {
		t.Errorf("%d SSL 3.0 hellos, %d mobile-client hellos", ssl3, mobile)
	}
	// No real client completes (or attempts) an SSL 3.0 handshake.
	check(t, "cost results", len(r.Run.Results), 0)
	if c := pick(r, "s000-era"); c.Error == "" {
		t.Errorf("s000-era negotiated with an SSL 3.0-only server: %+v", c)
	}
}

func TestConcurrencyAndTimeLimit(t *testing.T) {
	t.Run("concurrency", func(t *testing.T) {
		// Counted from a ClientHello's arrival to the server's answer: the
		// probe cannot close a connection (and open another in its slot)
		// before it has the answer, so these intervals overlap no more
		// than the probe's connections do. The first hello is held until a
		// second one arrives (an event, not a pause: a slow host cannot
		// make them miss each other), then every answer goes at once; a
		// probe that never overlaps leaves it waiting 30 s and fails.
		var mu sync.Mutex
		waiting, most := 0, 0
		paired := make(chan struct{})
		h := startHostile(t, func(h *hostile, c net.Conn) {
			if h.readHello(c) == nil {
				return // the probe's address check sends nothing
			}
			mu.Lock()
			waiting++
			most = max(most, waiting)
			if most == 2 && waiting == 2 {
				close(paired)
			}
			mu.Unlock()
			select {
			case <-paired:
			case <-time.After(30 * time.Second):
			}
			mu.Lock()
			waiting--
			mu.Unlock()
			c.Write(marshalRecords(recordAlert, TLS12, []byte{2, 40}))
		})
		r := runProbe(t, h.addr, Options{Concurrency: 2})
		check(t, "connections", r.Connections, 5)
		mu.Lock()
		defer mu.Unlock()
		if most != 2 {
			t.Errorf("%d connections waiting at once, want 2 (the limit, reached with 5 versions to ask about)", most)
		}
	})
	t.Run("time limit", func(t *testing.T) {
		h := startHostile(t, func(h *hostile, c net.Conn) { h.readHello(c); c.Read(make([]byte, 1)) })
		r := runProbe(t, h.addr, Options{Limits: Limits{Timeout: time.Minute}, TimeLimit: 300 * time.Millisecond})
		check(t, "status", r.Status, result.Interrupted)
		if !strings.Contains(strings.Join(r.Errors, "\n"), "time limit") {
			t.Errorf("errors %q", r.Errors)
		}
	})
}
