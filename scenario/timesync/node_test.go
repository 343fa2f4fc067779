package timesync

import (
	"bytes"
	"testing"
	"time"
)

// The receiver's defences, one datagram at a time, with times given (no
// network, no sleeping): what each datagram does to the counts, the
// verifications and the clock.
func TestNodeDefences(t *testing.T) {
	su, _ := LookupSuite("ECDSA-P256")
	key, err := su.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	n := &Node{ID: 1, SourceID: 7, Suite: su, Key: key, Interval: time.Second, spentWindow: -1,
		Clock: Clock{Start: t0, Offset: 300 * time.Millisecond}}
	msg := func(counter uint32, ts time.Duration) []byte {
		m := Message{NodeID: 7, Timestamp: uint32(ts.Microseconds()), Counter: counter}
		sig, err := key.Sign(m.Signed())
		if err != nil {
			t.Fatal(err)
		}
		m.Signature = sig
		return m.Marshal()
	}
	forged := func(counter uint32) []byte {
		b := msg(counter, time.Second)
		b[len(b)-1] ^= 1
		return b
	}
	tamper := func(b []byte) []byte {
		b = bytes.Clone(b)
		b[3] ^= 0x10 // the timestamp, under a genuine signature
		return b
	}
	m1 := msg(1, 500*time.Millisecond)
	steps := []struct {
		name  string
		b     []byte
		at    time.Duration // since t0
		want  Outcome
		verif int // verifications so far
	}{
		{"genuine", m1, 501 * time.Millisecond, Accepted, 1},
		{"replay in the same interval", m1, 600 * time.Millisecond, Replayed, 1},
		{"replay later", m1, 1500 * time.Millisecond, Replayed, 1},
		{"forged with a newer counter", forged(2), 1510 * time.Millisecond, Forged, 2},
		{"genuine after the interval's verification was spent", msg(2, 1500*time.Millisecond), 1520 * time.Millisecond, Skipped, 2},
		{"tampered timestamp", tamper(msg(3, 2500*time.Millisecond)), 2510 * time.Millisecond, Forged, 3},
		{"genuine next interval", msg(4, 3500*time.Millisecond), 3504 * time.Millisecond, Accepted, 4},
		{"wrong length", []byte{1, 2, 3}, 3600 * time.Millisecond, Malformed, 4},
		{"another source", append([]byte{0, 9}, msg(5, 4*time.Second)[2:]...), 4*time.Second + time.Millisecond, Foreign, 4},
	}
	for _, st := range steps {
		got := n.Handle(st.b, t0.Add(st.at))
		if got != st.want || len(n.Verifications) != st.verif {
			t.Fatalf("%s: %s with %d verifications, want %s with %d", st.name, got, len(n.Verifications), st.want, st.verif)
		}
	}
	// The last accepted message set the clock: at its arrival the local
	// clock read its timestamp (3.5 s), so the deviation right after is
	// its 4 ms in flight (plus the drift-free clock's elapsed nothing).
	if got := n.Clock.Read(t0.Add(3504 * time.Millisecond)); got != 3500*time.Millisecond {
		t.Errorf("local clock at the arrival %v, want the timestamp 3.5s", got)
	}
	if got := n.Deviations[len(n.Deviations)-1]; got < 4*time.Millisecond || got > 5*time.Millisecond+time.Since(t0) {
		t.Errorf("deviation %v, want the 4 ms the message was in flight", got)
	}
	if n.Outcomes[Accepted] != 2 || n.Outcomes[Replayed] != 2 || n.Outcomes[Forged] != 2 || n.Outcomes[Skipped] != 1 {
		t.Errorf("outcomes %v", n.Outcomes)
	}
}

func TestClockAndUnwrap(t *testing.T) {
	t0 := time.Now()
	c := Clock{Start: t0, Offset: time.Second, Drift: 100e-6}
	if got := c.Read(t0.Add(10 * time.Second)); got != 10*time.Second+time.Millisecond+time.Second {
		t.Errorf("read %v", got)
	}
	c.Set(t0.Add(10*time.Second), 42*time.Second)
	if got := c.Read(t0.Add(10 * time.Second)); got != 42*time.Second {
		t.Errorf("after set %v", got)
	}
	period := time.Duration(1<<32) * time.Microsecond
	for _, tc := range []struct {
		ts   uint32
		near time.Duration
		want time.Duration
	}{
		{1000, 0, 1000 * time.Microsecond},
		{1000, period + 900*time.Microsecond, period + 1000*time.Microsecond},
		{0xffffff00, period + 10*time.Microsecond, time.Duration(0xffffff00) * time.Microsecond},
		{5, period - 3*time.Microsecond, period + 5*time.Microsecond},
	} {
		if got := unwrap(tc.ts, tc.near); got != tc.want {
			t.Errorf("unwrap(%d, %v) = %v, want %v", tc.ts, tc.near, got, tc.want)
		}
	}
}

func TestMessageEncoding(t *testing.T) {
	m := Message{NodeID: 0x0102, Timestamp: 0x03040506, Counter: 0x0708090a, Signature: []byte{0xaa, 0xbb}}
	b := m.Marshal()
	if want := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xaa, 0xbb}; !bytes.Equal(b, want) {
		t.Fatalf("encoding %x, want %x (S003's fields, big-endian)", b, want)
	}
	if !bytes.Equal(m.Signed(), b[:HeaderBytes]) {
		t.Error("the signature does not cover ID, timestamp and counter")
	}
	got, err := Parse(b, 2)
	if err != nil || got.Counter != m.Counter || !bytes.Equal(got.Signature, m.Signature) {
		t.Fatalf("parse: %+v %v", got, err)
	}
	if _, err := Parse(b, 3); err == nil {
		t.Error("a datagram of the wrong length parsed")
	}
}

// FuzzParse: no datagram makes the parser panic, and what parses
// re-encodes to itself.
func FuzzParse(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 9, 9, 9, 9}, 4)
	f.Add([]byte{}, 64)
	f.Fuzz(func(t *testing.T, b []byte, sigLen int) {
		if sigLen < 0 || sigLen > 1<<16 {
			return
		}
		m, err := Parse(b, sigLen)
		if err != nil {
			return
		}
		if !bytes.Equal(m.Marshal(), b) {
			t.Fatalf("re-encoded %x from %x", m.Marshal(), b)
		}
	})
}
