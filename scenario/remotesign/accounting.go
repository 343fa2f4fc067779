package remotesign

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// Accounting attributes every byte a connection's link carried. Per
// request, the stream bytes each way are the link's data segments inside
// the request's round trip (the client writes nothing else meanwhile, and
// the signer writes only the response); the TCP/IPv4 wire bytes add the
// link model's 52 B per segment (link.TCPSegmentOverhead).
type Accounting struct {
	// Per request, in order, from the signer's point of view: received =
	// the request (client → signer), sent = the response.
	StreamReceived, StreamSent     []int
	WireReceived, WireSent         []int
	SegmentsReceived, SegmentsSent []int
	// Connection totals: every byte of each direction's stream; TLS
	// handshake records (post-handshake NewSessionTicket included),
	// alerts, application-data records and their plaintext.
	StreamUp, StreamDown       int
	HandshakeUp, HandshakeDown int
	AlertUp, AlertDown         int
	AppUp, AppDown             int
	PayloadUp, PayloadDown     int
	RecordsUp, RecordsDown     int
}

// Account attributes the connection's bytes and checks that they are
// exactly the messages' encodings: plain, the streams are the frames
// byte for byte (parsed back and re-marshalled); over TLS, the decrypted
// application data adds up to the frames' sizes and every TLS byte is
// attributed. Any difference is an error: a number that does not add up
// is not reported.
func (c *Conn) Account() (*Accounting, error) {
	a := &Accounting{}
	up, down := c.Capture.Streams()
	a.StreamUp, a.StreamDown = len(up), len(down)
	if int64(len(up)) != c.Stats.UpBytes || int64(len(down)) != c.Stats.DownBytes {
		return nil, fmt.Errorf("the tap recorded %d B up and %d B down, the link relayed %d and %d", len(up), len(down), c.Stats.UpBytes, c.Stats.DownBytes)
	}
	wantUp, wantDown := c.KeyRequestBytes, c.KeyResponseBytes
	for _, r := range c.Requests {
		wantUp += r.RequestBytes
		wantDown += r.ResponseBytes
	}
	segs := c.Capture.Segments()
	for i, r := range c.Requests {
		var sr, ss, wr, ws, nr, ns int
		for _, s := range segs {
			n := s.WireBytes - link.TCPSegmentOverhead
			if s.Dir == result.Up && s.Start >= r.SentAt && s.Start <= r.DoneAt {
				wr += s.WireBytes
				nr++
				if !s.Lost {
					sr += n
				}
			}
			if s.Dir == result.Down && !s.Lost && s.Arrive > r.SentAt && s.Arrive <= r.DoneAt {
				ws += s.WireBytes
				ns++
				ss += n
			}
		}
		// Lost downlink copies are retransmitted: the signer sent them too.
		for _, s := range segs {
			if s.Dir == result.Down && s.Lost && s.Start >= r.SentAt && s.Start <= r.DoneAt {
				ws += s.WireBytes
				ns++
			}
		}
		if !c.TLS && (sr != r.RequestBytes || ss != r.ResponseBytes) {
			return nil, fmt.Errorf("request %d: the link carried %d B up and %d B down in its round trip; its frames are %d and %d B",
				i+1, sr, ss, r.RequestBytes, r.ResponseBytes)
		}
		if c.TLS && (sr <= r.RequestBytes || ss <= r.ResponseBytes) {
			return nil, fmt.Errorf("request %d: %d B up and %d B down of TLS records for frames of %d and %d B: records cannot be smaller than their plaintext",
				i+1, sr, ss, r.RequestBytes, r.ResponseBytes)
		}
		a.StreamReceived = append(a.StreamReceived, sr)
		a.StreamSent = append(a.StreamSent, ss)
		a.WireReceived = append(a.WireReceived, wr)
		a.WireSent = append(a.WireSent, ws)
		a.SegmentsReceived = append(a.SegmentsReceived, nr)
		a.SegmentsSent = append(a.SegmentsSent, ns)
	}
	if !c.TLS {
		if err := checkFrames(up, c.KeyRequestBytes, c.Requests, true); err != nil {
			return nil, fmt.Errorf("client → signer stream: %w", err)
		}
		if err := checkFrames(down, c.KeyResponseBytes, c.Requests, false); err != nil {
			return nil, fmt.Errorf("signer → client stream: %w", err)
		}
		a.AppUp, a.AppDown, a.PayloadUp, a.PayloadDown = len(up), len(down), len(up), len(down)
		return a, nil
	}
	an := c.Analysis
	if an == nil {
		return nil, fmt.Errorf("no TLS accounting")
	}
	if an.Up.All() != len(up) || an.Down.All() != len(down) {
		return nil, fmt.Errorf("TLS records account for %d B up and %d B down of streams of %d and %d B", an.Up.All(), an.Down.All(), len(up), len(down))
	}
	if an.Up.Encrypted+an.Down.Encrypted > 0 || !an.Decrypted {
		return nil, fmt.Errorf("%d TLS bytes did not decrypt with the logged keys: %v", an.Up.Encrypted+an.Down.Encrypted, an.Notes)
	}
	if an.Up.AppPayload != wantUp || an.Down.AppPayload != wantDown {
		return nil, fmt.Errorf("the decrypted application data is %d B up and %d B down; the frames sent are %d and %d B",
			an.Up.AppPayload, an.Down.AppPayload, wantUp, wantDown)
	}
	a.HandshakeUp, a.HandshakeDown = an.Up.HandshakeBytes(), an.Down.HandshakeBytes()
	a.AlertUp, a.AlertDown = an.Up.Alert, an.Down.Alert
	a.AppUp, a.AppDown = an.Up.ApplicationData, an.Down.ApplicationData
	a.PayloadUp, a.PayloadDown = an.Up.AppPayload, an.Down.AppPayload
	a.RecordsUp, a.RecordsDown = an.Up.Records, an.Down.Records
	return a, nil
}

// checkFrames parses a plain stream into frames and checks it is the key
// frame then one frame per request, each re-marshalling to its bytes.
func checkFrames(stream []byte, keyBytes int, reqs []Request, requests bool) error {
	r := bytes.NewReader(stream)
	for i := 0; i <= len(reqs); i++ {
		off := len(stream) - r.Len()
		body, err := ReadFrame(r, MaxFrameBytes)
		if err != nil {
			return fmt.Errorf("frame %d at offset %d: %w", i+1, off, err)
		}
		m, err := ParseBody(body)
		if err != nil {
			return fmt.Errorf("frame %d at offset %d: %w", i+1, off, err)
		}
		again, err := m.Marshal()
		if err != nil || !bytes.Equal(again, stream[off:off+FrameHeaderBytes+len(body)]) {
			return fmt.Errorf("frame %d at offset %d does not re-marshal to its bytes", i+1, off)
		}
		want := keyBytes
		if i > 0 {
			want = reqs[i-1].ResponseBytes
			if requests {
				want = reqs[i-1].RequestBytes
			}
		}
		if len(again) != want {
			return fmt.Errorf("frame %d is %d B, the client counted %d", i+1, len(again), want)
		}
	}
	if r.Len() != 0 {
		return fmt.Errorf("%d bytes after the last frame", r.Len())
	}
	return nil
}

// SignerTrace is the connection's packet trace as the signer's interface
// sees it (the device under study is the signer, S001's phone): the link
// model's TCP/IPv4 packets (link.ModelTCP) are built from the client's
// side, where the emulator taps, so each is turned around — what the
// client sent arrives at the signer after its serialisation and the
// link's latency and is "down"; what the client received left the signer
// that much earlier and is "up".
func (c *Conn) SignerTrace(linkName string) *result.Trace {
	p := c.Params
	ser := func(rate float64, n int) time.Duration {
		if rate <= 0 {
			return 0
		}
		return time.Duration(float64(n) * 8 / rate * 1e9)
	}
	pkts := link.ModelTCP(c.Capture.Segments(), c.Stats, p)
	t := &result.Trace{Link: linkName, Transport: result.TransportTCP, HeaderModel: link.HeaderModel +
		"; at the signer (the TCP server): the client's packets arrive serialisation + latency after it sends them"}
	for _, pk := range pkts {
		rp := result.Packet{Bytes: pk.WireBytes, Payload: pk.Len, Label: link.FlagsLabel(pk)}
		if pk.Dir == result.Up {
			rp.Dir = result.Down
			rp.TimeNs = int64(pk.At + ser(p.RateUp, pk.WireBytes) + p.Latency)
		} else {
			rp.Dir = result.Up
			rp.TimeNs = int64(max(pk.At-ser(p.RateDown, pk.WireBytes)-p.Latency, 0))
		}
		t.Packets = append(t.Packets, rp)
	}
	slices.SortStableFunc(t.Packets, func(a, b result.Packet) int { return cmp.Compare(a.TimeNs, b.TimeNs) })
	return t
}
