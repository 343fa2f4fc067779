package tlslab

import (
	"context"
	"testing"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// TestHandshakeTrackerAgreesWithAnalyze replays real connections' captures
// segment by segment into an empty capture and checks, after each segment,
// that the incremental tracker Watch.HandshakeDone uses says "done" exactly
// when a full Analyze without keys first does — over TLS 1.2 and 1.3, a
// resumption, client authentication and a transfer. Fast tier.
func TestHandshakeTrackerAgreesWithAnalyze(t *testing.T) {
	for _, c := range []Cell{
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumeNone, Transfer: 20000, Direction: Down, Server: "go", Client: "go"},
		{Version: TLS13, KeyExchange: KexP256, Bulk: BulkAES128GCM, Cert: CertEd25519, Chain: 1, ClientAuth: true, Resumption: ResumePSK, Direction: Up, Transfer: 3000, Server: "go", Client: "go"},
		{Version: TLS12, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertRSA2048, Chain: 2, Resumption: ResumeTicket, Direction: Down, Server: "go", Client: "go"},
	} {
		run := lab.Run(context.Background(), c)
		if run.Err != nil {
			t.Fatal(run.Err)
		}
		full := run.Conns[0].Capture
		up, down := full.Streams()
		replay := &Capture{}
		var tr handshakeTracker
		trackerDone, analyzeDone := -1, -1
		for i, s := range full.Segments() {
			if s.Lost {
				continue
			}
			stream := up
			if s.Dir == "down" {
				stream = down
			}
			s.Payload = stream[s.Seq : s.Seq+int64(s.WireBytes-52)]
			replay.Observe(s)
			if tr.update(replay) && trackerDone < 0 && tr.done(replay) {
				trackerDone = i
			}
			if a, err := Analyze(replay, nil); err == nil && a.HandshakeDone > 0 && analyzeDone < 0 {
				analyzeDone = i
			}
		}
		if trackerDone != analyzeDone || trackerDone < 0 {
			t.Errorf("%s: the tracker is done at segment %d, Analyze at %d", c.Name(), trackerDone, analyzeDone)
		}
	}
}

// TestDirectPath: without link emulation and with the Go or plain-TCP
// client there is no relay — the tap records at the client's socket — and
// a connection is accounted as through the relay: every byte attributed,
// the tap's counts equal to the socket's own (TCP_INFO, which Lab.check
// compares; here it must have been read), the packet model built; with
// --no-tap, nothing is recorded and the connection is still checked for
// its payload. Fast tier.
func TestDirectPath(t *testing.T) {
	noTap, err := New(Options{Repeat: 1, NoTap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer noTap.Close()
	noTap.env.PKI = lab.env.PKI
	for _, c := range []Cell{
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 2, Resumption: ResumeNone, Transfer: 70000, Direction: Up, Server: "go", Client: "go"},
		{Version: TLS12, KeyExchange: KexP256, Bulk: BulkAES128GCM, Cert: CertRSA2048, Chain: 1, Resumption: ResumeTicket, Transfer: 30000, Direction: Down, Server: "go", Client: "go"},
		{Plain: true, Transfer: 50000, Direction: Up},
		{Plain: true, Transfer: 50000, Direction: Down},
	} {
		if !lab.direct(c) {
			t.Fatalf("%s: no link, an in-process client, and not the direct path", c.Name())
		}
		run := lab.Run(context.Background(), c)
		if run.Err != nil {
			t.Fatal(run.Err)
		}
		conn := run.Conns[0]
		if !c.Plain {
			checkAccounting(t, conn)
		}
		if !conn.Kernel.OK || len(conn.Packets) == 0 || conn.Link.UpFIN < 0 || conn.Link.UpBytes+conn.Link.DownBytes < int64(c.Transfer) {
			t.Errorf("%s: kernel %+v, %d packets, link %+v", c.Name(), conn.Kernel, len(conn.Packets), conn.Link)
		}
		run = noTap.Run(context.Background(), c)
		if run.Err != nil {
			t.Fatal(run.Err)
		}
		got := run.Conns[0].Server.Received
		if c.Direction == Down {
			got = run.Conns[0].Client.Received
		}
		if up, down := run.Conns[0].Capture.Streams(); len(up)+len(down) != 0 || run.Conns[0].Analysis != nil || got < int64(c.Transfer) {
			t.Errorf("%s --no-tap: recorded %d B up, %d down; the receiver got %d B of %d", c.Name(), len(up), len(down), got, c.Transfer)
		}
	}
}

// TestCaptureWakesEveryWatcher: both peers of an OpenSSL–OpenSSL cell
// wait on the wire for the handshake's end (Watch.HandshakeDone), so a
// segment recorded must wake every watcher, not one (a wake-up token taken
// by one watcher left the other waiting until its deadline). Each watcher
// takes the channel before it looks at the capture; once Observe returns,
// every channel taken before it must be ready. Fast tier.
func TestCaptureWakesEveryWatcher(t *testing.T) {
	c := &Capture{}
	client, server := c.changed(), c.changed()
	c.Observe(link.Segment{Dir: result.Up, Payload: []byte{0x16, 3, 1, 0, 1, 1}, WireBytes: 6 + link.TCPSegmentOverhead})
	for name, ch := range map[string]<-chan struct{}{"client": client, "server": server} {
		select {
		case <-ch:
		default:
			t.Errorf("the %s's watch was not woken by the segment", name)
		}
	}
	select {
	case <-c.changed():
		t.Error("a channel taken after the segment is ready before the next one")
	default:
	}
}
