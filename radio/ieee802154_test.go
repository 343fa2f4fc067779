package radio

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

func model802154(t *testing.T, name string) *IEEE802154 {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.Model.(*IEEE802154)
}

// TestFragmentation counts frames by hand. 6LoWPAN in a 127-byte frame
// with a 9-byte MAC header and 2-byte FCS leaves 116 bytes: unfragmented,
// IPHC 2 + UDP NHC 7 + up to 107 bytes; fragmented, FRAG1 4 + 9 + 96
// bytes (the largest multiple of 8 that fits: 48 + 96 = 144 uncompressed
// bytes end on an 8-byte boundary), FRAGN 5 + 104 bytes, and the last
// FRAGN up to 111 bytes. A datagram carries at most 1280 − 48 = 1232
// payload bytes. TinyOS: 102 bytes per frame.
func TestFragmentation(t *testing.T) {
	lowpan := model802154(t, "802.15.4")
	tiny := model802154(t, "telosb-tinyos")
	for _, tc := range []struct {
		payload      int
		lowpan, tiny int
	}{
		{1, 1, 1},
		{64, 1, 1},      // ECDSA P-256 signature
		{102, 1, 1},     // TinyOS maximum
		{103, 1, 2},     //
		{107, 1, 2},     // 6LoWPAN unfragmented maximum
		{108, 2, 2},     // 96 + 12
		{128, 2, 2},     // RSA-1024 signature: 96 + 32
		{207, 2, 3},     // 96 + 111
		{208, 3, 3},     // 96 + 104 + 8
		{256, 3, 3},     // RSA-2048 signature: 96 + 104 + 56
		{1232, 12, 13},  // one full datagram: 96 + 10·104 + 96
		{1233, 13, 13},  // a second datagram for 1 byte
		{2420, 24, 24},  // ML-DSA-44 signature: 1232 (12) + 1188 (96 + 10·104 + 52: 12)
		{3309, 33, 33},  // ML-DSA-65 signature
		{4627, 45, 46},  // ML-DSA-87 signature
		{1000, 10, 10},  // 96 + 8·104 + 72
		{10000, 98, 99}, // 8 full datagrams (8·12 frames) and 144 B (96 + 48: 2)
	} {
		if got := len(lowpan.Frames(tc.payload)); got != tc.lowpan {
			t.Errorf("6LoWPAN %d B: %d frames, want %d", tc.payload, got, tc.lowpan)
		}
		if got := len(tiny.Frames(tc.payload)); got != tc.tiny {
			t.Errorf("TinyOS %d B: %d frames, want %d", tc.payload, got, tc.tiny)
		}
	}
	// The frames' MAC payloads for 108 B: FRAG1 4 + IPHC 2 + UDP 7 + 96, then
	// FRAGN 5 + 12.
	if got := lowpan.Frames(108); !slices.Equal(got, []int{109, 17}) {
		t.Errorf("108 B frames %v", got)
	}
	if got := lowpan.Frames(208); !slices.Equal(got, []int{109, 109, 13}) {
		t.Errorf("208 B frames %v", got)
	}
	// frameTotals counts what Frames builds.
	for _, m := range []*IEEE802154{lowpan, tiny} {
		for n := 1; n <= 6000; n++ {
			fr := m.Frames(n)
			sum := 0
			for _, f := range fr {
				sum += f
			}
			if c, b := m.frameTotals(n, result.TransportUDP); c != len(fr) || b != sum {
				t.Fatalf("frameTotals(%d) = %d, %d; Frames gives %d, %d", n, c, b, len(fr), sum)
			}
		}
	}
	// In one datagram, every frame fits in 127 bytes with the MAC header
	// and FCS, the fragments carry every payload byte once, and every
	// fragment but the last ends on an 8-byte boundary of the uncompressed
	// datagram.
	for n := 1; n <= 1232; n++ {
		fr := lowpan.Frames(n)
		carried := 0
		for i, f := range fr {
			if f+11 > 127 {
				t.Fatalf("%d B: frame %d has %d B of MAC payload", n, i, f)
			}
			var data int
			switch {
			case len(fr) == 1:
				data = f - 9
			case i == 0:
				data = f - 13
				if (48+data)%8 != 0 {
					t.Fatalf("%d B: FRAG1 ends at uncompressed offset %d", n, 48+data)
				}
			default:
				data = f - 5
				if i < len(fr)-1 && data%8 != 0 {
					t.Fatalf("%d B: FRAGN %d carries %d B", n, i, data)
				}
			}
			carried += data
		}
		if carried != n {
			t.Fatalf("%d B: the frames carry %d B", n, carried)
		}
	}
}

func TestIEEE802154Energy(t *testing.T) {
	// One 100-byte payload sent: one frame of 6 + 11 + 9 + 100 = 126 B on
	// air (1008 bits at 0.153 µJ), its ACK received (11 B, 88 bits at
	// 0.226 µJ) after the 192 µs turnaround spent listening (23 mA ×
	// 2.65 V), then 100 ms of listening: the tail.
	listenW := 0.023 * 2.65
	tr := &result.Trace{Packets: []result.Packet{{TimeNs: 0, Dir: up, Bytes: 128, Payload: 100}}}
	b := simulate(t, "802.15.4", tr, Options{})
	airtime := time.Duration(126+11)*32*time.Microsecond + 192*time.Microsecond
	phases(t, b,
		[4]float64{0, 1008*0.153e-6 + 88*0.226e-6 + 192e-6*listenW, 0.1 * listenW, 0},
		[4]time.Duration{0, airtime, 100 * time.Millisecond, 0})
	if b.FramesUp != 1 || b.FramesDown != 0 || b.DelayAdded != airtime {
		t.Errorf("frames %d/%d, delay %v", b.FramesUp, b.FramesDown, b.DelayAdded)
	}
	// The RSA-1024 signature received with TinyOS: 2 frames of 102 and 26 B
	// payload (+2 B header), ACKs sent, one LIFS between.
	tr = &result.Trace{Packets: []result.Packet{{TimeNs: 0, Dir: down, Bytes: 156, Payload: 128}}}
	b = simulate(t, "tinyos", tr, Options{})
	bits := float64(8 * (6 + 11 + 2 + 102 + 6 + 11 + 2 + 26))
	near(t, "TinyOS transfer", b.Energy(Transfer), bits*0.226e-6+2*88*0.153e-6+(2*192e-6+640e-6)*listenW)
	if b.FramesDown != 2 {
		t.Errorf("frames down %d", b.FramesDown)
	}
}

func TestIEEE802154ListenAndSleep(t *testing.T) {
	listenW, sleepW := 0.023*2.65, 1e-6*2.65
	one := func(ms float64) result.Packet {
		return result.Packet{TimeNs: int64(ms * 1e6), Dir: up, Bytes: 48, Payload: 20}
	}
	air := time.Duration(6+11+9+20+11)*32*time.Microsecond + 192*time.Microsecond
	// A reply 50 ms after the first frame ends: listening in between is
	// transfer. 500 ms later: 100 ms of tail, then sleep.
	b := simulate(t, "802.15.4", trace(one(0), one(50)), Options{})
	if got := b.Time(Transfer); got != 2*air+50*time.Millisecond {
		t.Errorf("transfer time %v", got)
	}
	b = simulate(t, "802.15.4", trace(one(0), one(500)), Options{})
	if got := b.Time(Tail); got != 200*time.Millisecond {
		t.Errorf("tail %v", got)
	}
	// The second packet is delayed by the first one's air time, so the
	// radio sleeps from 100 ms after the first frame to 500 ms after it.
	near(t, "idle", b.Energy(Idle), 0.4*sleepW)
	near(t, "tail", b.Energy(Tail), 0.2*listenW)
}

// TestPayloadSelection: with payloads known, TCP ACKs are not sent;
// without, whole packets are priced.
func TestPayloadSelection(t *testing.T) {
	tr := &result.Trace{Packets: []result.Packet{
		{TimeNs: 0, Dir: up, Bytes: 140, Payload: 100},
		{TimeNs: 1e6, Dir: down, Bytes: 40},
	}}
	b := simulate(t, "802.15.4", tr, Options{})
	if b.FramesUp != 1 || b.FramesDown != 0 {
		t.Errorf("frames %d/%d: want the ACK left out", b.FramesUp, b.FramesDown)
	}
	tr.Packets[0].Payload = 0
	b = simulate(t, "802.15.4", tr, Options{})
	if b.FramesUp != 2 || b.FramesDown != 1 {
		t.Errorf("frames %d/%d: want whole packets (140 B: 2 frames, 40 B: 1)", b.FramesUp, b.FramesDown)
	}
}

// TestTCPHeaderCompression (fast tier): issue 15. RFC 6282 has no NHC for
// TCP, so a TCP segment carries IPHC 2 B, the next-header byte and the
// 20-byte TCP header inline: 23 B, against IPHC + UDP NHC's 9 B. In the
// 116 bytes a frame leaves: unfragmented, up to 116 − 23 = 93 payload
// bytes; FRAG1 4 + 23 + 84 (60 uncompressed header bytes + 84 = 144, a
// multiple of 8), FRAGN 5 + 104, the last FRAGN up to 111; a datagram
// carries at most 1280 − 40 − 20 = 1220 payload bytes. By hand, 300 B:
// 84 + 104 + 104 + 8, frames of 111, 109, 109 and 13 B.
func TestTCPHeaderCompression(t *testing.T) {
	m := model802154(t, "802.15.4")
	tcp, udp := result.TransportTCP, result.TransportUDP
	for _, tc := range []struct {
		n         int
		transport string
		want      []int
	}{
		{0, tcp, []int{23}}, // a bare ACK
		{93, tcp, []int{116}},
		{94, tcp, []int{111, 15}},
		{300, tcp, []int{111, 109, 109, 13}},
		{300, udp, []int{109, 109, 105}}, // 96 + 104 + 100
		{300, "", []int{109, 109, 105}},  // unknown: UDP's, as before
	} {
		if got := m.FramesOf(tc.n, tc.transport); !slices.Equal(got, tc.want) {
			t.Errorf("%d B over %q: frames %v, want %v", tc.n, tc.transport, got, tc.want)
		}
	}
	if a, b := len(m.FramesOf(1220, tcp)), len(m.FramesOf(1221, tcp)); b != a+1 {
		t.Errorf("1220 B: %d frames, 1221 B: %d; want a second datagram for the 1221st byte", a, b)
	}
	for n := 0; n <= 4000; n++ {
		fr := m.FramesOf(n, tcp)
		sum := 0
		for _, f := range fr {
			sum += f
			if f > 116 {
				t.Fatalf("%d B: a frame of %d B MAC payload", n, f)
			}
		}
		if c, b := m.frameTotals(n, tcp); c != len(fr) || b != sum {
			t.Fatalf("frameTotals(%d, tcp) = %d, %d; FramesOf gives %d, %d", n, c, b, len(fr), sum)
		}
	}
	// Priced: a TCP trace's SYN and ACK are datagrams too (IPHC + TCP
	// header); a UDP trace's empty packets are not sent.
	packets := []result.Packet{
		{TimeNs: 0, Dir: result.Up, Bytes: 60, Label: "TCP SYN"},
		{TimeNs: 1e6, Dir: result.Up, Bytes: 340, Payload: 300, Label: "ClientHello"},
		{TimeNs: 2e6, Dir: result.Down, Bytes: 40, Label: "TCP ACK"},
	}
	for _, tc := range []struct {
		transport  string
		up, down   int
		noteSuffix string
	}{
		{tcp, 1 + 4, 1, "= 23 B per datagram (RFC 6282 has no TCP NHC); 2 segments without payload (SYN, ACK, FIN) sent as such"},
		{udp, 3, 0, "= 9 B per datagram"},
	} {
		b, err := m.Simulate(&result.Trace{Transport: tc.transport, Packets: packets}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if b.FramesUp != tc.up || b.FramesDown != tc.down {
			t.Errorf("%s: frames %d up, %d down; want %d, %d", tc.transport, b.FramesUp, b.FramesDown, tc.up, tc.down)
		}
		if !slices.ContainsFunc(b.Notes, func(n string) bool { return strings.HasSuffix(n, tc.noteSuffix) }) {
			t.Errorf("%s: notes %q, want one ending %q", tc.transport, b.Notes, tc.noteSuffix)
		}
	}
}
