package link

import (
	"bytes"
	"context"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// TestBREDRDerivation (fast tier) recomputes the Bluetooth-BR/EDR profile
// from its sources: one segment is one 990-B RFCOMM frame (Android's
// default), and at the profile's rate a segment with the model's 52 B of
// headers takes the 7.5 ms (12 slots of 625 µs: two 2-DH5 packets and
// their return slots) the baseband needs for a 999-B L2CAP frame.
func TestBREDRDerivation(t *testing.T) {
	p, err := Lookup("bluetooth-bredr")
	if err != nil {
		t.Fatal(err)
	}
	par, err := p.Params()
	if err != nil {
		t.Fatal(err)
	}
	const rfcommFrame, l2capFrame, dh5Payload = 990, 990 + 5 + 4, 679
	if par.MSS() != rfcommFrame {
		t.Errorf("MSS %d, want one RFCOMM frame of %d B", par.MSS(), rfcommFrame)
	}
	packets := (l2capFrame + dh5Payload - 1) / dh5Payload
	air := time.Duration(packets*6) * 625 * time.Microsecond
	seg := time.Duration(float64(par.MSS()+TCPSegmentOverhead) * 8 / par.RateUp * 1e9)
	if d := seg - air; d < -10*time.Microsecond || d > 10*time.Microsecond {
		t.Errorf("a full segment takes %v at %g bit/s, the baseband %v", seg, par.RateUp, air)
	}
}

func TestProfiles(t *testing.T) {
	want := []string{"LAN", "WiFi-802.11g", "3G", "LTE", "BLE", "Bluetooth-BR/EDR", "802.15.4", "LoRaWAN"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, p := range Profiles() {
		par, err := p.Params()
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if par.Latency <= 0 || par.RateUp <= 0 || par.RateDown <= 0 || par.MTU < 576 {
			t.Errorf("%s: implausible parameters %+v", p.Name, par)
		}
		for _, s := range p.Sources() {
			if !strings.Contains(s, "[") {
				t.Errorf("%s: %q has no source", p.Name, s)
			}
		}
	}
	for alias, name := range map[string]string{"wifi": "WiFi-802.11g", "802.11g": "WiFi-802.11g", "lte": "LTE",
		"ieee802154": "802.15.4", "Ble": "BLE", "hsdpa": "3G", "bluetooth-bredr": "Bluetooth-BR/EDR", "rfcomm": "Bluetooth-BR/EDR"} {
		p, err := Lookup(alias)
		if err != nil || p.Name != name {
			t.Errorf("Lookup(%q) = %q, %v; want %s", alias, p.Name, err, name)
		}
	}
	if _, err := Lookup("5g"); err == nil || !strings.Contains(err.Error(), "LAN, WiFi-802.11g") {
		t.Errorf("Lookup(5g) error %v, want the list of links", err)
	}
}

func TestParseSpec(t *testing.T) {
	p, err := Lookup("latency=20ms,up=1Mbit/s,down=10Mbit/s,loss=1%,mtu=1280")
	if err != nil {
		t.Fatal(err)
	}
	par, _ := p.Params()
	if par.Latency != 20*time.Millisecond || par.RateUp != 1e6 || par.RateDown != 1e7 || par.Loss != 0.01 || par.MTU != 1280 {
		t.Errorf("params %+v", par)
	}
	for spec, want := range map[string]string{
		"latency=fast":        "latency=fast",
		"rate=fast":           "want a rate",
		"rate=10kg/s":         "unknown unit",
		"loss=1.5":            "probability",
		"mtu=20":              "MTU",
		"jitter=3ms":          "unknown key",
		"latency=1ms,rate":    "not key=value",
		"latency=-1ms":        "non-negative",
		"rate=10Mbit/s,up=0":  "positive rate",
		"latency=1ms,mtu=1e6": "mtu=1e6",
	} {
		if _, err := ParseSpec(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%q) error %v, want %q", spec, err, want)
		}
	}
}

func TestFragments(t *testing.T) {
	for _, tc := range []struct{ n, mtu, frags, wire int }{
		{0, 1500, 1, 28},
		{1472, 1500, 1, 1500},
		{1473, 1500, 2, 1521}, // 1480 + 1 bytes of IP payload, two IPv4 headers
		{3000, 1500, 3, 3068},
		{100, 127, 1, 128}, // 108 B of IP payload fits 104? no: 127-20 = 107 → 104 per fragment
	} {
		frags, wire := Fragments(tc.n, tc.mtu)
		if tc.n == 100 {
			// (127−20)&^7 = 104 bytes per fragment; 108 B → 2 fragments.
			tc.frags, tc.wire = 2, 148
		}
		if frags != tc.frags || wire != tc.wire {
			t.Errorf("Fragments(%d, %d) = %d, %d; want %d, %d", tc.n, tc.mtu, frags, wire, tc.frags, tc.wire)
		}
	}
}

// TestLaneSchedule checks the model's arithmetic on a lane without a
// network: 8 Mbit/s is one byte per µs.
func TestLaneSchedule(t *testing.T) {
	p := Params{Latency: 10 * time.Millisecond, RateUp: 8e6, RateDown: 8e6, MTU: 1500}
	var segs []Segment
	l := newLane(result.Up, p, func(s Segment) { s.Payload = nil; segs = append(segs, s) }, time.Now(), 1, io.Discard, 1<<30, false)
	if err := l.push(make([]byte, 3000), 0); err != nil {
		t.Fatal(err)
	}
	if err := l.push(make([]byte, 10), 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	us := time.Microsecond
	want := []Segment{
		{Dir: result.Up, Start: 0, End: 1500 * us, Arrive: 11500 * us, Seq: 0, WireBytes: 1500},
		{Dir: result.Up, Start: 1500 * us, End: 3000 * us, Arrive: 13000 * us, Seq: 1448, WireBytes: 1500},
		{Dir: result.Up, Start: 3000 * us, End: 3156 * us, Arrive: 13156 * us, Seq: 2896, WireBytes: 156},
		{Dir: result.Up, Start: 10000 * us, End: 10062 * us, Arrive: 20062 * us, Seq: 3000, WireBytes: 62},
	}
	if !slices.EqualFunc(segs, want, func(a, b Segment) bool {
		return a.Dir == b.Dir && a.Start == b.Start && a.End == b.End && a.Arrive == b.Arrive && a.Seq == b.Seq && a.WireBytes == b.WireBytes
	}) {
		t.Errorf("segments\n got %+v\nwant %+v", segs, want)
	}
}

// TestLaneLoss: a lost segment is sent again one RTO later and what
// follows waits for it.
func TestLaneLoss(t *testing.T) {
	p := Params{Latency: 10 * time.Millisecond, RateUp: 8e6, RateDown: 8e6, MTU: 1500, Loss: 0.5}
	var segs []Segment
	l := newLane(result.Up, p, func(s Segment) { s.Payload = nil; segs = append(segs, s) }, time.Now(), 42, io.Discard, 1<<30, false)
	for i := range 20 {
		l.push(make([]byte, 100), time.Duration(i)*time.Millisecond)
	}
	lost := 0
	var last time.Duration
	for i, s := range segs {
		if s.Lost {
			lost++
			r := segs[i+1]
			if !r.Retransmission || r.Seq != s.Seq || r.Start != s.End+l.rto() {
				t.Errorf("segment %d lost at %v, then %+v; want its retransmission at End + %v", i, s.End, r, l.rto())
			}
			continue
		}
		if s.Arrive < last {
			t.Errorf("segment %d arrives at %v before its predecessor (%v)", i, s.Arrive, last)
		}
		last = s.Arrive
	}
	if lost < 4 || lost > 16 {
		t.Errorf("%d of 20 lost at p=0.5", lost)
	}
}

// pair returns the two ends of a loopback TCP connection relayed over an
// emulated link: client → relay → server.
func pair(t *testing.T, cfg StreamConfig) (client, server net.Conn, done <-chan StreamStats) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	rl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer rl.Close()
	ch := make(chan StreamStats, 1)
	go func() {
		c, err := rl.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			c.Close()
			return
		}
		st, err := Relay(context.Background(), c, s, cfg)
		if err != nil {
			t.Errorf("relay: %v", err)
		}
		ch <- st
	}()
	client, err = net.Dial("tcp", rl.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	return client, server, ch
}

// TestRelayAccuracy measures round trips and throughput through the
// emulator and compares them with what the link is configured to do. The
// emulator controls these times (it sleeps until each arrival), so the
// ratio is asserted, with a tolerance for scheduling on a shared machine;
// it can only err late, never early.
func TestRelayAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	p := Params{Latency: 20 * time.Millisecond, RateUp: 10e6, RateDown: 10e6, MTU: 1500}
	client, server, done := pair(t, StreamConfig{Params: p})
	// Echo one byte.
	go func() {
		b := make([]byte, 1)
		for {
			if _, err := server.Read(b); err != nil {
				return
			}
			server.Write(b)
		}
	}()
	b := []byte{1}
	client.Write(b) // the first byte also waits for the TCP handshake
	client.Read(b)
	var rtts []float64
	for range 20 {
		t0 := time.Now()
		client.Write(b)
		if _, err := io.ReadFull(client, b); err != nil {
			t.Fatal(err)
		}
		rtts = append(rtts, float64(time.Since(t0)))
	}
	slices.Sort(rtts)
	wire := time.Duration(float64(1+TCPSegmentOverhead) * 8 / 10e6 * 1e9)
	wantRTT := float64(2*p.Latency + 2*wire)
	// The fastest round trip is the emulator's own accuracy; the median
	// adds what a loaded machine's scheduler adds (logged, not asserted).
	ratio := rtts[0] / wantRTT
	t.Logf("RTT min %v, median %v, configured %v: ratio %.4f (median %.4f)", time.Duration(rtts[0]),
		time.Duration(rtts[len(rtts)/2]), time.Duration(wantRTT), ratio, rtts[len(rtts)/2]/wantRTT)
	if ratio < 0.995 || ratio > 1.05 {
		t.Errorf("RTT ratio %.4f, want within [0.995, 1.05]", ratio)
	}
	client.Close()
	server.Close()
	<-done

	for _, rate := range []float64{10e6, 20e6} {
		p.RateDown = rate
		// The schedule: every segment serialised back to back at the
		// rate, the last one arriving one latency later. Scheduling
		// delays can only make a measurement slower: the best of two is
		// asserted.
		const n = 512 << 10
		segs := (n + p.MSS() - 1) / p.MSS()
		wire := n + segs*TCPSegmentOverhead
		want := time.Duration(float64(wire)*8/rate*1e9) + p.Latency
		best := 0.0
		for range 2 {
			elapsed := timeDownload(t, p, n)
			ratio := float64(want) / float64(elapsed)
			t.Logf("rate %.0f: %d B in %v, the link's schedule says %v: ratio %.4f", rate, n, elapsed, want, ratio)
			best = max(best, ratio)
		}
		if best < 0.93 || best > 1.01 {
			t.Errorf("throughput ratio %.4f at %.0f bit/s, want within [0.93, 1.01]", best, rate)
		}
	}
}

// timeDownload sends n bytes from server to client over the link and
// returns the time from the server's first write to the client's EOF.
func timeDownload(t *testing.T, p Params, n int) time.Duration {
	client, server, done := pair(t, StreamConfig{Params: p})
	started := make(chan time.Time, 1)
	go func() {
		buf := make([]byte, n)
		server.Read(buf[:1]) // wait for the client's hello
		started <- time.Now()
		server.Write(buf)
		server.Close()
	}()
	client.Write([]byte{1})
	got, _ := io.ReadAll(client)
	elapsed := time.Since(<-started)
	client.Close()
	<-done
	if len(got) != n {
		t.Fatalf("received %d of %d bytes", len(got), n)
	}
	return elapsed
}

// TestRelayBytes: every byte arrives, in order, and the observer and the
// relay's own counters agree with what was sent.
func TestRelayBytes(t *testing.T) {
	var mu sync.Mutex
	var up, down bytes.Buffer
	obs := func(s Segment) {
		mu.Lock()
		defer mu.Unlock()
		if s.Lost {
			return
		}
		if s.Dir == result.Up {
			up.Write(s.Payload)
		} else {
			down.Write(s.Payload)
		}
	}
	p := Params{Latency: time.Millisecond, RateUp: 100e6, RateDown: 100e6, MTU: 576, Loss: 0.02}
	client, server, done := pair(t, StreamConfig{Params: p, Observer: obs, Seed: 3})
	msg := bytes.Repeat([]byte("0123456789abcdef"), 2048)
	go func() {
		got, _ := io.ReadAll(server)
		server.Write(got)
		server.Close()
	}()
	client.Write(msg)
	client.(*net.TCPConn).CloseWrite()
	echo, err := io.ReadAll(client)
	if err != nil {
		t.Fatal(err)
	}
	client.Close()
	st := <-done
	if !bytes.Equal(echo, msg) {
		t.Fatalf("echo of %d bytes returned %d bytes (or different ones)", len(msg), len(echo))
	}
	if !bytes.Equal(up.Bytes(), msg) || !bytes.Equal(down.Bytes(), msg) {
		t.Errorf("observer saw %d up and %d down bytes, want %d each, equal to what was sent", up.Len(), down.Len(), len(msg))
	}
	if st.UpBytes != int64(len(msg)) || st.DownBytes != int64(len(msg)) {
		t.Errorf("relay counted %d up, %d down; want %d", st.UpBytes, st.DownBytes, len(msg))
	}
	if st.UpFIN < 0 || st.DownFIN < 0 {
		t.Errorf("FIN times %v %v, want both", st.UpFIN, st.DownFIN)
	}
}

// TestWrap: a wrapped connection sees the link's delay.
func TestWrap(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		io.Copy(c, c)
		c.Close()
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	p := Params{Latency: 15 * time.Millisecond, MTU: 1500}
	c := Wrap(raw, StreamConfig{Params: p})
	t0 := time.Now()
	c.Write([]byte("ping"))
	b := make([]byte, 4)
	if _, err := io.ReadFull(c, b); err != nil || string(b) != "ping" {
		t.Fatalf("read %q, %v", b, err)
	}
	// Handshake RTT plus one RTT.
	if d := time.Since(t0); d < 4*p.Latency {
		t.Errorf("echo took %v, want at least %v (TCP handshake + one round trip)", d, 4*p.Latency)
	}
	c.Close()
	if _, err, ok := LinkStats(c); !ok || err != nil {
		t.Errorf("LinkStats: ok %v, err %v", ok, err)
	}
}

func TestPacketLink(t *testing.T) {
	a, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var mu sync.Mutex
	var seen []Datagram
	p := Params{Latency: 10 * time.Millisecond, RateUp: 1e6, RateDown: 1e6, MTU: 1280, Loss: 0.2}
	dev := WrapPacket(a, PacketConfig{Params: p, Seed: 9, Observer: func(d Datagram) {
		mu.Lock()
		seen = append(seen, d)
		mu.Unlock()
	}})
	defer dev.Close()
	const n = 200
	t0 := time.Now()
	for i := range n {
		dev.WriteTo([]byte{byte(i), 1, 2, 3}, b.LocalAddr())
	}
	got := 0
	b.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 64)
	var first time.Duration
	for {
		_, _, err := b.ReadFrom(buf)
		if err != nil {
			break
		}
		if got == 0 {
			first = time.Since(t0)
		}
		got++
		if got+lostCount(&mu, seen) == n {
			break
		}
	}
	lost := lostCount(&mu, seen)
	if got+lost != n {
		t.Errorf("%d received + %d lost, want %d sent", got, lost, n)
	}
	// p = 0.2 per fragment, one fragment each: expect 40 ± 3σ (σ ≈ 5.7).
	if lost < 23 || lost > 57 {
		t.Errorf("%d of %d lost at p = 0.2", lost, n)
	}
	if first < p.Latency {
		t.Errorf("first datagram after %v, before the %v latency", first, p.Latency)
	}
	// Downlink: the device reads after the latency too.
	b.WriteTo([]byte("down"), a.LocalAddr())
	dev.SetReadDeadline(time.Now().Add(time.Second))
	t1 := time.Now()
	for {
		k, _, err := dev.ReadFrom(buf)
		if err != nil {
			// A loss at p = 0.2 is possible; the seed makes it reproducible.
			t.Logf("downlink datagram: %v", err)
			break
		}
		if string(buf[:k]) == "down" {
			if d := time.Since(t1); d < p.Latency {
				t.Errorf("downlink datagram after %v, want at least %v", d, p.Latency)
			}
			break
		}
	}
}

func lostCount(mu *sync.Mutex, ds []Datagram) int {
	mu.Lock()
	defer mu.Unlock()
	n := 0
	for _, d := range ds {
		if d.Lost {
			n++
		}
	}
	return n
}

// TestWrapPeerClosesFirst (fast tier): the peer sends and closes before
// the device end does — a TLS server answering close_notify with its FIN —
// so the relay closes Wrap's pipe while its uplink read is pending. That is
// the connection's end, not a link failure (it was reported as "read/write
// on closed pipe", failing remote-sign cells on a loaded machine). The
// order is fixed: the device end never writes or closes before the peer.
func TestWrapPeerClosesFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Write([]byte("hello"))
		c.Close()
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	w := Wrap(raw, StreamConfig{Passive: true, Start: time.Now()})
	defer w.Close()
	b, err := io.ReadAll(w)
	if err != nil || string(b) != "hello" {
		t.Fatalf("read %q, %v", b, err)
	}
	st, err, _ := LinkStats(w)
	if err != nil {
		t.Fatalf("the peer closing first is an error: %v", err)
	}
	if st.DownBytes != 5 || st.UpBytes != 0 {
		t.Errorf("carried %d B down, %d B up; want 5 and 0", st.DownBytes, st.UpBytes)
	}
}
