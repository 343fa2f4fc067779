package radio

import (
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

func times(t *result.Trace) []float64 {
	var out []float64
	for _, p := range t.Packets {
		out = append(out, float64(p.TimeNs)/1e6)
	}
	return out
}

func sameTimes(t *testing.T, what string, got *result.Trace, want ...float64) {
	t.Helper()
	g := times(got)
	if len(g) != len(want) {
		t.Fatalf("%s: times %v, want %v", what, g, want)
	}
	for i := range g {
		if g[i] != want[i] {
			t.Fatalf("%s: times %v, want %v", what, g, want)
		}
	}
}

func TestSequenceSharesTheTail(t *testing.T) {
	one := trace(pkt(0, up, 300), pkt(50, down, 3000))
	// A second connection 5 s after the first ends falls in LTE's tail:
	// no second promotion, and the pair costs less than twice one.
	two, err := Sequence(one, one, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	sameTimes(t, "sequence", two, 0, 50, 5050, 5100)
	single := simulate(t, "lte", one, Options{})
	pair := simulate(t, "lte", two, Options{})
	if pair.Promotions != 1 {
		t.Errorf("promotions %d, want 1: the second connection shares the tail", pair.Promotions)
	}
	// By hand: the pair is one connection plus the second's transfer, with
	// 5 s of the first tail (CR tail, short DRX, 4.88 s long DRX) replacing
	// a second promotion and tail.
	shared := 0.1*lteBeta + 0.02*lteShortW + 4.88*lteLongW
	near(t, "pair", pair.Total(), 2*single.Total()-single.Energy(Promotion)-single.Energy(Tail)+shared)
	// 20 s later it does not.
	far, _ := Sequence(one, one, 20*time.Second)
	if b := simulate(t, "lte", far, Options{}); b.Promotions != 2 {
		t.Errorf("20 s apart: promotions %d, want 2", b.Promotions)
	}
	if _, err := Sequence(one, one, -time.Second); err == nil {
		t.Error("negative gap accepted")
	}
}

func TestRepeatAndBatch(t *testing.T) {
	// Handshake (2 packets) then one reading's exchange (2 packets).
	one := trace(pkt(0, up, 300), pkt(40, down, 3000), pkt(100, up, 200), pkt(140, down, 60))
	rep, err := Repeat(one, 3, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sameTimes(t, "repeat", rep, 0, 40, 100, 140, 60000, 60040, 60100, 60140, 120000, 120040, 120100, 120140)
	bat, err := Batch(one, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	sameTimes(t, "batch", bat, 0, 40, 100, 140, 140, 180, 180, 220)
	// On 3G, three readings a minute apart pay three promotions and tails;
	// batched they pay one.
	sep := simulate(t, "3g", rep, Options{Until: 3 * time.Minute})
	one3g := simulate(t, "3g", bat, Options{Until: 3 * time.Minute})
	if sep.Promotions != 3 || one3g.Promotions != 1 || one3g.Total() >= sep.Total()/2 {
		t.Errorf("separate %d promotions %.3g J, batched %d promotions %.3g J", sep.Promotions, sep.Total(), one3g.Promotions, one3g.Total())
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(Repeat(one, 2, 100*time.Millisecond)), "would overlap"},
		{second(Repeat(one, 0, time.Second)), "want at least 1"},
		{second(Batch(one, 4, 2)), "handshake of 4 packets"},
		{second(Batch(one, -1, 2)), "handshake of -1 packets"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%v, want %q", tc.err, tc.want)
		}
	}
}

func TestReplacePrefix(t *testing.T) {
	full := trace(pkt(0, up, 300), pkt(40, down, 3000), pkt(45, up, 100), pkt(100, up, 200), pkt(140, down, 60))
	resumed := trace(pkt(10, up, 250), pkt(30, down, 150))
	out, err := ReplacePrefix(full, 3, resumed)
	if err != nil {
		t.Fatal(err)
	}
	// The resumed handshake from 0 to 20 ms, then the data 55 ms after it
	// as it came 55 ms after the full handshake.
	sameTimes(t, "replace", out, 0, 20, 75, 115)
	if out.Packets[0].Bytes != 250 || out.Packets[2].Bytes != 200 {
		t.Errorf("packets %+v", out.Packets)
	}
	if _, err := ReplacePrefix(full, 6, resumed); err == nil {
		t.Error("handshake longer than the trace accepted")
	}
}

func TestSyntheticTransfer(t *testing.T) {
	// 1 KB up, 50 KB down in 1460-byte segments at 1 Mbit/s.
	tr, err := SyntheticTransfer(1000, 50_000, 1e6, 1460)
	if err != nil {
		t.Fatal(err)
	}
	up, down, upN, downN := tr.Totals()
	// Down: 35 segments (34 × 1460 + 360) with 40 B headers; up: one
	// request segment and an ACK per two segments received (18).
	if downN != 35 || down != 50_000+35*40 || upN != 1+18 || up != 1040+18*40 {
		t.Errorf("up %d B in %d, down %d B in %d", up, upN, down, downN)
	}
	// The last packet leaves when all bytes have gone at 1 Mbit/s.
	wantEnd := float64(8*(1040+50_000+35*40)) / 1e6 * 1e9
	if got := float64(tr.Packets[len(tr.Packets)-1].TimeNs); got < wantEnd-1 || got > wantEnd+1 {
		t.Errorf("ends at %v ns, want %v", got, wantEnd)
	}
	for _, bad := range [][3]float64{{0, 0, 1e6}, {-1, 10, 1e6}, {10, 10, 0}} {
		if _, err := SyntheticTransfer(int(bad[0]), int(bad[1]), bad[2], 1460); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestCheckTraceLimits(t *testing.T) {
	for _, tc := range []struct {
		tr   *result.Trace
		want string
	}{
		{trace(pkt(0, up, MaxPacketBytes+1)), "more than the 64 MiB"},
		{&result.Trace{Packets: []result.Packet{{TimeNs: int64(MaxTraceTime) + 1, Dir: up, Bytes: 1}}}, "more than ten years"},
		{trace(pkt(0, up, 1), pkt(1, up, 0)), "packet 1: bytes 0"},
		{&result.Trace{Packets: []result.Packet{{TimeNs: 0, Dir: up, Bytes: 10, Payload: 11}}}, "payload 11"},
		{nil, "no packets"},
	} {
		if err := CheckTrace(tc.tr); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	many := &result.Trace{}
	for i := range 20 {
		many.Packets = append(many.Packets, pkt(float64(i), up, MaxPacketBytes))
	}
	if err := CheckTrace(many); err == nil || !strings.Contains(err.Error(), "more than 1024 MiB") {
		t.Errorf("1.25 GiB trace: %v", err)
	}
	// The largest packet prices on the slowest machine without building
	// per-frame state.
	big := &result.Trace{Packets: []result.Packet{{TimeNs: 0, Dir: up, Bytes: MaxPacketBytes, Payload: MaxPacketBytes}}}
	for _, link := range []string{"ble", "802.15.4", "tinyos"} {
		if _, err := Price(big, link, Options{}); err != nil {
			t.Errorf("%s: %v", link, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
