package radio

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Tier: fast.

// The Semtech formula against worked examples: AN1200.13's calculator
// sheet (SF9, 13 B, explicit header, CRC, 4/5, 8 preamble symbols:
// 164.864 ms) and RF Wireless World's calculator (10 B at SF7: 41.216 ms;
// at SF11 with low data rate optimisation: 577.536 ms).
func TestTimeOnAir(t *testing.T) {
	for _, c := range []struct {
		pl, sf int
		ldro   bool
		want   time.Duration
	}{
		{13, 9, false, 164864 * time.Microsecond},
		{10, 7, false, 41216 * time.Microsecond},
		{10, 11, true, 577536 * time.Microsecond},
	} {
		if got := TimeOnAir(c.pl, c.sf, 125e3, 1, 8, true, true, c.ldro); got != c.want {
			t.Errorf("%d B at SF%d: %v, want %v", c.pl, c.sf, got, c.want)
		}
	}
}

func lorawanProfile(t *testing.T, name string) (*Profile, *LoRaWAN) {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p, p.Model.(*LoRaWAN)
}

// SCHC framing by hand (RFC 9011 §5.6): at SF7 (N = 222 B) 200 B is one
// frame of 13 + 200 B; at SF12 (N = 51 B) 120 B is ACK-on-Error
// fragments of 1 + 50 B (five 10-byte tiles) and a last one of 1 + 4
// (RCS) + 20 B.
func TestLoRaWANFrames(t *testing.T) {
	_, sf7 := lorawanProfile(t, "lorawan")
	if f, frag := sf7.UplinkFrames(200); frag || len(f) != 1 || f[0] != 213 {
		t.Errorf("SF7 200 B: %v %v", f, frag)
	}
	_, sf12 := lorawanProfile(t, "lorawan-sf12")
	f, frag := sf12.UplinkFrames(120)
	if !frag || len(f) != 3 || f[0] != 13+51 || f[1] != 13+51 || f[2] != 13+1+4+20 {
		t.Errorf("SF12 120 B: %v %v", f, frag)
	}
	if d := sf12.DownlinkFrames(54, 51); len(d) != 2 || d[0] != 13+51 || d[1] != 13+1+4+4 {
		t.Errorf("SF12 54 B downlink: %v", d)
	}
}

// One uplink and its answer 10 ms later, at SF7: the answer comes in RX1
// (1 s after the uplink), no RX2; energy by hand.
func TestLoRaWANClassA(t *testing.T) {
	p, m := lorawanProfile(t, "lorawan")
	tr := &result.Trace{Packets: []result.Packet{
		{TimeNs: 0, Dir: result.Up, Bytes: 58, Payload: 30},
		{TimeNs: int64(10 * time.Millisecond), Dir: result.Down, Bytes: 45, Payload: 17},
	}}
	b, err := p.Simulate(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	up, down := m.toa(43, 7, true), m.toa(30, 7, false)
	wantEnd := up + time.Second + down
	if b.End != wantEnd || b.FramesUp != 1 || b.FramesDown != 1 {
		t.Errorf("end %v frames %d/%d, want %v 1/1", b.End, b.FramesUp, b.FramesDown, wantEnd)
	}
	want := up.Seconds()*m.txW + down.Seconds()*m.rxW + time.Second.Seconds()*m.sleepW
	if math.Abs(b.Total()-want) > 1e-12 {
		t.Errorf("energy %.9g J, want %.9g", b.Total(), want)
	}
}

// At SF12 a 54-byte answer does not fit the 51 bytes of a downlink: two
// fragments, the second after the device's SCHC ACK; and the 1 % duty
// cycle makes that ACK wait 99 times the previous uplink's air time.
func TestLoRaWANDownlinkFragmentsAndDutyCycle(t *testing.T) {
	p, m := lorawanProfile(t, "lorawan-sf12")
	tr := &result.Trace{Packets: []result.Packet{
		{TimeNs: 0, Dir: result.Up, Bytes: 65, Payload: 37},
		{TimeNs: int64(10 * time.Millisecond), Dir: result.Down, Bytes: 82, Payload: 54},
	}}
	b, err := p.Simulate(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.FramesDown != 2 || b.FramesUp != 3 {
		t.Errorf("frames up %d down %d: want the request, two SCHC ACKs, two fragments", b.FramesUp, b.FramesDown)
	}
	notes := strings.Join(b.Notes, "; ")
	if !strings.Contains(notes, "downlink 54 B: 2 SCHC fragments") {
		t.Errorf("notes %q", notes)
	}
	// The first ACK may leave 100 × ToA(request) after the request began.
	if min := 100 * m.toa(13+37, 12, true); b.End < min {
		t.Errorf("end %v before the duty cycle allows the ACK (%v)", b.End, min)
	}
}
