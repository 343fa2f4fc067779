package tlslab

import (
	"context"
	"testing"
)

// BenchmarkAnalysis measures the tap's analysis of one connection (the
// default cell's: TLS 1.3, X25519, ECDSA P-256 chain of 2, Go both sides):
// the packet model, the key log, record attribution and decryption — what
// Lab.account does after each connection.
//
//	go test -run XXX -bench Analysis -benchmem ./tlslab/
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
	for range b.N {
		if err := l.account(c, conn); err != nil {
			b.Fatal(err)
		}
	}
}
