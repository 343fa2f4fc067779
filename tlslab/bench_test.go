package tlslab

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/stats"
)

// BenchmarkTapOverhead measures what the wire tap costs: connections
// (dial, TLS 1.3 handshake, close, over loopback: the direct path, no
// relay) alternate between a lab whose tap records every read and write
// and one without the tap (--no-tap), in the same run, so the machine's
// drift affects both alike. It reports handshakes
// per second of each and the recording's overhead in percent (what the
// tap adds to measured connections), and the analysis after each
// connection (attribution, decryption, packet model) as its own cost and
// as the overhead of the whole tap.
//
//	go test -run XXX -bench TapOverhead -benchtime 2000x ./tlslab/
func BenchmarkTapOverhead(b *testing.B) {
	c := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2,
		Resumption: ResumeNone, Direction: Down, Server: "go", Client: "go"}
	tap, err := New(Options{Repeat: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer tap.Close()
	noTap, err := New(Options{Repeat: 1, NoTap: true})
	if err != nil {
		b.Fatal(err)
	}
	defer noTap.Close()
	noTap.env.PKI = tap.env.PKI // the same keys and certificates
	type side struct {
		lab    *Lab
		server Server
		client Client
		total  time.Duration
	}
	var analysis time.Duration
	var sides [2]*side
	for i, l := range []*Lab{tap, noTap} {
		s, err := goPeer{}.StartServer(context.Background(), l.env, c)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		cl, err := goPeer{}.NewClient(l.env, c)
		if err != nil {
			b.Fatal(err)
		}
		sides[i] = &side{lab: l, server: s, client: cl}
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		for k := range 2 {
			s := sides[(i+k)%2] // alternate which goes first
			t0 := time.Now()
			conn, err := s.lab.conn(ctx, c, s.server, s.client, ConnPlan{Cell: c}, uint64(i))
			if err != nil {
				b.Fatal(err)
			}
			s.total += time.Since(t0)
			if s.lab == tap {
				t1 := time.Now()
				if err := tap.account(c, conn); err != nil {
					b.Fatal(err)
				}
				analysis += time.Since(t1)
			}
		}
	}
	withTap := float64(b.N) / sides[0].total.Seconds()
	without := float64(b.N) / sides[1].total.Seconds()
	b.ReportMetric(withTap, "handshakes/s-tap")
	b.ReportMetric(without, "handshakes/s-notap")
	b.ReportMetric(100*(without/withTap-1), "%-recording-overhead")
	b.ReportMetric(float64(analysis)/float64(b.N), "ns-analysis/conn")
	whole := float64(b.N) / (sides[0].total + analysis).Seconds()
	b.ReportMetric(100*(without/whole-1), "%-tap-overhead-with-analysis")
}

// BenchmarkLabVsPlain measures the lab's fast path against a plain
// crypto/tls loop on the same cell (TLS 1.3, X25519, ECDSA P-256 chain of
// 2, no resumption, no payload, Go both sides, loopback without link
// emulation): per round, 50 connections of each — Lab.Run with the tap
// (every connection analysed and checked, as `cryptocost tls` does), Lab.Run
// without it (--no-tap), and a loop that dials a tls.Listener, handshakes
// and closes — rotating which goes first, so the machine's drift affects
// all alike. It asserts nothing about time: the figures are for
// docs/tls.md § Benchmarks. It reports each one's connections per second over all rounds
// and, as the medians of the rounds' ratios, the lab's share of the plain
// loop's rate and what the tap costs.
//
//	go test -run XXX -bench LabVsPlain -benchtime 20x ./tlslab/
func BenchmarkLabVsPlain(b *testing.B) {
	c := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2,
		Resumption: ResumeNone, Direction: Down, Server: "go", Client: "go"}
	const conns = 50
	tap, err := New(Options{Repeat: conns})
	if err != nil {
		b.Fatal(err)
	}
	defer tap.Close()
	noTap, err := New(Options{Repeat: conns, NoTap: true})
	if err != nil {
		b.Fatal(err)
	}
	defer noTap.Close()
	noTap.env.PKI = tap.env.PKI
	plain, err := newPlainTLSLoop(tap.env.PKI, c)
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	ctx := context.Background()
	// Warm up: keys generated, code paged in.
	if r := tap.Run(ctx, c); r.Err != nil {
		b.Fatal(r.Err)
	}
	var total [3]time.Duration // tap, no tap, plain
	var labShare, noTapShare, tapCost []float64
	b.ResetTimer()
	for i := range b.N {
		var round [3]time.Duration
		for k := range 3 {
			which := (i + k) % 3
			t0 := time.Now()
			switch which {
			case 0:
				if r := tap.Run(ctx, c); r.Err != nil {
					b.Fatal(r.Err)
				}
			case 1:
				if r := noTap.Run(ctx, c); r.Err != nil {
					b.Fatal(r.Err)
				}
			case 2:
				if err := plain.Run(conns); err != nil {
					b.Fatal(err)
				}
			}
			round[which] = time.Since(t0)
			total[which] += round[which]
		}
		// Rates are conns / time, so a ratio of rates is the inverse
		// ratio of times.
		labShare = append(labShare, round[2].Seconds()/round[0].Seconds())
		noTapShare = append(noTapShare, round[2].Seconds()/round[1].Seconds())
		tapCost = append(tapCost, round[0].Seconds()/round[1].Seconds()-1)
	}
	n := float64(b.N * conns)
	b.ReportMetric(n/total[2].Seconds(), "conns/s-plain")
	b.ReportMetric(n/total[0].Seconds(), "conns/s-lab")
	b.ReportMetric(n/total[1].Seconds(), "conns/s-lab-notap")
	b.ReportMetric(100*stats.Summarize(labShare).Median, "%-lab-of-plain")
	b.ReportMetric(100*stats.Summarize(noTapShare).Median, "%-notap-of-plain")
	b.ReportMetric(100*stats.Summarize(tapCost).Median, "%-tap-cost")
}

// plainTLSLoop is the baseline: crypto/tls on both sides in process, with
// the lab's configuration of the cell, and nothing else.
type plainTLSLoop struct {
	ln     net.Listener
	client *tls.Config
	done   chan error
}

func newPlainTLSLoop(pki *PKI, c Cell) (*plainTLSLoop, error) {
	chain, err := pki.Server(c.Cert, c.Chain)
	if err != nil {
		return nil, err
	}
	scfg := goConfig(c, nil)
	scfg.Certificates = []tls.Certificate{chain.Certificate}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", scfg)
	if err != nil {
		return nil, err
	}
	ccfg := goConfig(c, nil)
	ccfg.RootCAs, ccfg.ServerName = chain.Roots, "localhost"
	p := &plainTLSLoop{ln: ln, client: ccfg, done: make(chan error, 1)}
	return p, nil
}

// Run makes n connections: dial, handshake, close_notify both ways.
func (p *plainTLSLoop) Run(n int) error {
	go func() {
		for range n {
			conn, err := p.ln.Accept()
			if err != nil {
				p.done <- err
				return
			}
			tc := conn.(*tls.Conn)
			if err := tc.Handshake(); err != nil {
				p.done <- err
				return
			}
			io.Copy(io.Discard, tc)
			tc.Close()
		}
		p.done <- nil
	}()
	for range n {
		conn, err := tls.Dial("tcp", p.ln.Addr().String(), p.client)
		if err != nil {
			return err
		}
		conn.CloseWrite()
		io.Copy(io.Discard, conn)
		conn.Close()
	}
	return <-p.done
}

func (p *plainTLSLoop) Close() error { return p.ln.Close() }
