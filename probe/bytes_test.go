package probe

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// countingProxy forwards connections to target and counts the bytes each
// way on each one: a count independent of the probe's own tap.
type countingProxy struct {
	addr   string
	mu     sync.Mutex
	counts [][2]int64 // up, down, per finished connection
	done   chan struct{}
}

func startCountingProxy(t *testing.T, target string) *countingProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{addr: l.Addr().String(), done: make(chan struct{}, 16)}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer s.Close()
				var up, down int64
				var wg sync.WaitGroup
				wg.Go(func() { down, _ = io.Copy(c, s) })
				up, _ = io.Copy(s, c) // until the probe closes its side
				s.Close()
				wg.Wait()
				p.mu.Lock()
				p.counts = append(p.counts, [2]int64{up, down})
				p.mu.Unlock()
				p.done <- struct{}{}
			}()
		}
	}()
	return p
}

func (p *countingProxy) next(t *testing.T) [2]int64 {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the proxy saw no connection end")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[len(p.counts)-1]
}

func testProber(t *testing.T, addr string) *prober {
	t.Helper()
	opts := Options{}
	if err := opts.Validate(); err != nil {
		t.Fatal(err)
	}
	p := &prober{target: addr, opts: opts, limits: opts.Limits, accepted: map[Version]bool{}, suiteSet: map[Version][]uint16{},
		flights: map[Version]*answer{}, report: &Report{}}
	p.dialer = newDialer(addr, opts.Limits, 1)
	return p
}

// TestByteCountsMatchProxy checks the tap's byte counts against a proxy's,
// for a full TLS 1.2 handshake and a TLS 1.3 one with its ticket.
func TestByteCountsMatchProxy(t *testing.T) {
	p := sharedPKI(t)
	for _, tt := range []struct {
		name string
		max  uint16
		cl   clientSpec
	}{
		{"tls12", tls.VersionTLS12, clientSpec{name: "go-tls12", version: TLS12, suites: []uint16{0xc02f}}},
		{"tls13 with ticket", tls.VersionTLS13, clientSpec{name: "go-default", waitTicket: 5 * time.Second}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			server := startGoServer(t, &tls.Config{Certificates: []tls.Certificate{p.tlsCert(true)}, MaxVersion: tt.max})
			proxy := startCountingProxy(t, server)
			pr := testProber(t, proxy.addr)
			hr := pr.handshake(context.Background(), tt.cl, newSession())
			if hr.err != nil {
				t.Fatal(hr.err)
			}
			got := proxy.next(t)
			c := hr.cost
			// post: the tickets and both close_notify alerts (issue 15).
			if int64(c.bytesUp+c.postUp) != got[0] || int64(c.bytesDown+c.postDown) != got[1] {
				t.Errorf("tap: %d+%d up, %d+%d down; proxy: %d up, %d down", c.bytesUp, c.postUp, c.bytesDown, c.postDown, got[0], got[1])
			}
			// crypto/tls servers send the TLS 1.3 ticket with their first
			// flight; it must have been read and decrypted.
			if tt.max == tls.VersionTLS13 && (hr.server13 == nil || len(hr.server13.tickets) != 1) {
				t.Errorf("TLS 1.3 tickets: %+v (decrypt error %v)", hr.server13, hr.decrypt)
			}
			// The trace's payloads add up to the same bytes.
			var up, down int
			for _, pk := range c.trace.Packets {
				if pk.Dir == "up" {
					up += pk.Payload
				} else {
					down += pk.Payload
				}
			}
			if int64(up) != got[0] || int64(down) != got[1] {
				t.Errorf("trace payloads %d up, %d down; proxy %d, %d", up, down, got[0], got[1])
			}
		})
	}
}
