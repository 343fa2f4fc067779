//go:build unix

package tlslab

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// BenchmarkAnalysis measures the tap's analysis of one connection (the
// default cell's: TLS 1.3, X25519, ECDSA P-256 chain of 2, Go both sides):
// the packet model, the key log, record attribution and decryption — what
// Lab.account does after each connection. Besides the wall time per
// connection it reports the process's CPU time per connection
// (getrusage, user + system, the garbage collector's work included),
// which a busy machine disturbs far less.
//
//	go test -run XXX -bench 'Analysis$' -benchmem -benchtime 3000x -count 3 ./tlslab/
func BenchmarkAnalysis(b *testing.B) {
	c := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2,
		Resumption: ResumeNone, Direction: Down, Server: "go", Client: "go"}
	l, err := New(Options{Repeat: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	run := l.Run(context.Background(), c)
	if run.Err != nil {
		b.Fatal(run.Err)
	}
	conn := run.Conns[0]
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPUTime()
	for range b.N {
		if err := l.account(c, conn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// processCPUTime is this process's user + system time.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
