package scheme

import (
	"crypto/sha1"
	"io"
	"testing"
)

// TestSHA1PRNGBC (fast tier): the S002 SHA-1 PRNG passes Bouncy Castle's
// DigestRandomNumberTest through the registry, and the vector
// discriminates: the same generator without its seed cycle produces Bouncy
// Castle's "noCycle" answer instead, so a construction that skipped the
// cycle would fail the KAT.
func TestSHA1PRNGBC(t *testing.T) {
	s, err := Lookup("DigestRandomGenerator-SHA1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.KAT(); err != nil {
		t.Fatal(err)
	}
	g := newDigestRandom(sha1.New())
	g.cycle = 1 << 62 // never cycles within the test
	g.AddSeedLong(0)
	out := make([]byte, 20)
	for range 1024 {
		g.Read(out)
	}
	if got, want := hexString(out), "d57ccd0eb12c3938d59226412bc1268037b6b846"; got != want {
		t.Errorf("without the seed cycle: %s, want Bouncy Castle's noCycle0SHA1 %s", got, want)
	}
	// Each Read is one nextBytes call, which starts from a fresh state: a
	// 16-byte read is not two 8-byte reads (the rest of the first state is
	// discarded), as uint64x100's 8-byte reads are in Java.
	a, b := newSHA1DigestRandom([]byte("seed")), newSHA1DigestRandom([]byte("seed"))
	whole, halves := make([]byte, 16), make([]byte, 16)
	io.ReadFull(a, whole)
	b.Read(halves[:8])
	b.Read(halves[8:])
	if hexString(whole[:8]) != hexString(halves[:8]) || hexString(whole[8:]) == hexString(halves[8:]) {
		t.Errorf("read boundaries: whole %x, halves %x", whole, halves)
	}
	// Its operations run (the registry times them as for any rng scheme).
	for _, op := range s.Operations() {
		loop, err := op.Prepare(Args{Size: 64})
		if err != nil {
			t.Fatal(err)
		}
		if err := loop(2); err != nil {
			t.Fatal(err)
		}
	}
}
