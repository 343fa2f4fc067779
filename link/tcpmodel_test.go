package link

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// capture records segments and the two byte streams, as a tap does.
type capture struct {
	mu       sync.Mutex
	segs     []Segment
	up, down []byte
}

func (c *capture) observe(s Segment) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !s.Lost {
		if s.Dir == result.Up && int64(len(c.up)) == s.Seq {
			c.up = append(c.up, s.Payload...)
		} else if s.Dir == result.Down && int64(len(c.down)) == s.Seq {
			c.down = append(c.down, s.Payload...)
		}
	}
	s.Payload = nil
	c.segs = append(c.segs, s)
}

// TestModelAndPcap runs a request/response over the emulator, models the
// TCP connection, writes it as pcapng and reads it back: the file's counts
// (from gopacket's decoding of its headers) must equal the model's, and
// its payload streams must equal what the peers sent.
func TestModelAndPcap(t *testing.T) {
	var cap capture
	p := Params{Latency: 5 * time.Millisecond, RateUp: 50e6, RateDown: 50e6, MTU: 1500, Loss: 0.15}
	client, server, done := pair(t, StreamConfig{Params: p, Observer: cap.observe, Seed: 11})
	req := bytes.Repeat([]byte("q"), 300)
	resp := bytes.Repeat([]byte("r"), 20000)
	go func() {
		b := make([]byte, len(req))
		io.ReadFull(server, b)
		server.Write(resp)
		io.Copy(io.Discard, server)
		server.Close()
	}()
	client.Write(req)
	b := make([]byte, len(resp))
	if _, err := io.ReadFull(client, b); err != nil {
		t.Fatal(err)
	}
	client.(*net.TCPConn).CloseWrite()
	io.Copy(io.Discard, client)
	client.Close()
	st := <-done

	lost := 0
	for _, s := range cap.segs {
		if s.Lost {
			lost++
		}
	}
	if lost == 0 {
		t.Fatalf("no segment lost at p = 0.15 with this seed: the test would not exercise retransmissions")
	}
	pkts := ModelTCP(cap.segs, st, p)
	var up, down, upPk, downPk, syn, fin int
	for _, pk := range pkts {
		if pk.Dir == result.Up {
			up += pk.WireBytes
			upPk++
		} else {
			down += pk.WireBytes
			downPk++
		}
		if pk.Flags&FlagSYN != 0 {
			syn++
		}
		if pk.Flags&FlagFIN != 0 {
			fin++
		}
	}
	if syn != 2 || fin != 2 {
		t.Errorf("%d SYNs and %d FINs, want 2 and 2", syn, fin)
	}
	// 20000 B down in segments of at most 1448 B: at least 14 segments,
	// and the client acknowledges at least every second one.
	if downPk < 14+2 || upPk < 14/2 {
		t.Errorf("%d packets down, %d up: too few for 20000 B down", downPk, upPk)
	}
	var buf bytes.Buffer
	if err := WritePcapng(&buf, pkts, cap.up, cap.down, PcapOptions{Start: time.Unix(1700000000, 0)}); err != nil {
		t.Fatal(err)
	}
	c, err := ReadPcapng(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if c.UpWireBytes != int64(up) || c.DownWireBytes != int64(down) || c.UpPackets != upPk || c.DownPackets != downPk {
		t.Errorf("pcap counts %d B/%d pkts up, %d B/%d pkts down; model %d/%d, %d/%d",
			c.UpWireBytes, c.UpPackets, c.DownWireBytes, c.DownPackets, up, upPk, down, downPk)
	}
	if !bytes.Equal(c.Up, req) || !bytes.Equal(c.Down, resp) {
		t.Errorf("pcap streams %d up, %d down bytes, want the %d and %d bytes sent", len(c.Up), len(c.Down), len(req), len(resp))
	}
	tr := TraceOf(pkts, "test", nil)
	tu, td, _, _ := tr.Totals()
	if tu != up || td != down {
		t.Errorf("trace totals %d/%d, model %d/%d", tu, td, up, down)
	}
}
