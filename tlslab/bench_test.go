package tlslab

import (
	"context"
	"testing"
	"time"
)

// BenchmarkTapOverhead measures what the wire tap costs: connections
// (dial, TLS 1.3 handshake, close, over loopback) alternate between a lab
// whose tap records every segment and one that only relays, in the same
// run, so the machine's drift affects both alike. It reports handshakes
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
