package scheme

import (
	cryptorand "crypto/rand"
	"crypto/sha1" //nolint:gosec // S002's PRNG is SHA-1 based: measured because the study did
	"encoding/binary"
	"hash"
	"io"
)

// Bouncy Castle's DigestRandomGenerator over SHA-1 (org.bouncycastle.crypto.
// prng.DigestRandomGenerator, the lightweight API's PRNG, which the S002
// Java ME study's SHA-1 based generator is an instance of), written here
// because no Go module provides it. The construction, as Bouncy Castle's
// source has it:
//
//	seed, state: one digest each, zero at the start; seedCounter = stateCounter = 1
//	addSeedMaterial(b):  seed = H(b ‖ seed)
//	addSeedMaterial(x):  seed = H(LE64(x) ‖ seed)
//	generateState:       state = H(LE64(stateCounter++) ‖ state ‖ seed);
//	                     if stateCounter % 10 == 0: seed = H(seed ‖ LE64(seedCounter++))
//	nextBytes(out):      generateState, then copy state into out, generating
//	                     a fresh state after every digest-length bytes
//
// Every nextBytes call starts with a fresh state, so the unused rest of
// the last one is discarded: output depends on how it is read. The reader
// here makes each Read one nextBytes call, as a Java caller of
// nextBytes(byte[n]) does. The KAT is Bouncy Castle's own
// DigestRandomNumberTest for SHA-1 (the last of 1024 20-byte reads).
type digestRandom struct {
	h                         hash.Hash
	seed, state, sum          []byte
	seedCounter, stateCounter uint64
	cycle                     uint64 // digestRandomCycle; tests change it
}

// digestRandomCycle is Bouncy Castle's CYCLE_COUNT: the seed is rehashed
// every 10 states.
const digestRandomCycle = 10

func newDigestRandom(h hash.Hash) *digestRandom {
	n := h.Size()
	return &digestRandom{h: h, seed: make([]byte, n), state: make([]byte, n), sum: make([]byte, 0, n),
		seedCounter: 1, stateCounter: 1, cycle: digestRandomCycle}
}

func (g *digestRandom) counter(x uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], x)
	g.h.Write(b[:])
}

// final ends the digest into dst (which has the digest's length).
func (g *digestRandom) final(dst []byte) {
	g.sum = g.h.Sum(g.sum[:0])
	copy(dst, g.sum)
	g.h.Reset()
}

// AddSeedBytes is addSeedMaterial(byte[]).
func (g *digestRandom) AddSeedBytes(b []byte) {
	g.h.Write(b)
	g.h.Write(g.seed)
	g.final(g.seed)
}

// AddSeedLong is addSeedMaterial(long).
func (g *digestRandom) AddSeedLong(x int64) {
	g.counter(uint64(x))
	g.h.Write(g.seed)
	g.final(g.seed)
}

func (g *digestRandom) cycleSeed() {
	g.h.Write(g.seed)
	g.counter(g.seedCounter)
	g.seedCounter++
	g.final(g.seed)
}

func (g *digestRandom) generateState() {
	g.counter(g.stateCounter)
	g.stateCounter++
	g.h.Write(g.state)
	g.h.Write(g.seed)
	g.final(g.state)
	if g.stateCounter%g.cycle == 0 {
		g.cycleSeed()
	}
}

// Read is one nextBytes(p) call.
func (g *digestRandom) Read(p []byte) (int, error) {
	g.generateState()
	j := 0
	for i := range p {
		if j == len(g.state) {
			g.generateState()
			j = 0
		}
		p[i] = g.state[j]
		j++
	}
	return len(p), nil
}

// newSHA1DigestRandom seeds a SHA-1 generator with seed (fresh bytes from
// crypto/rand when nil).
func newSHA1DigestRandom(seed []byte) io.Reader {
	g := newDigestRandom(sha1.New())
	if seed == nil {
		seed = make([]byte, 32)
		cryptorand.Read(seed)
	}
	g.AddSeedBytes(seed)
	return g
}

// digestRandomSHA1KAT is Bouncy Castle's DigestRandomNumberTest for SHA-1:
// seed, then 1024 reads of 20 bytes; the last read's bytes.
func digestRandomSHA1KAT() error {
	const name = "SHA1PRNG-BC"
	for _, v := range []struct {
		what  string
		seed  func(*digestRandom)
		last  string
		other string // must differ (the seed is cycled)
	}{
		{"addSeedMaterial(0L)", func(g *digestRandom) { g.AddSeedLong(0) }, "95bca677b3d4ff793213c00892d2356ec729ee02", "d57ccd0eb12c3938d59226412bc1268037b6b846"},
		{"addSeedMaterial(100L)", func(g *digestRandom) { g.AddSeedLong(100) }, "b9d924092546e0876cafd4937d7364ebf9efa4be", ""},
		{"addSeedMaterial(8 zero bytes)", func(g *digestRandom) { g.AddSeedBytes(make([]byte, 8)) }, "95bca677b3d4ff793213c00892d2356ec729ee02", ""},
		{"addSeedMaterial(81dcfafc885914057876)", func(g *digestRandom) { g.AddSeedBytes(unhex("81dcfafc885914057876")) }, "e9ecef9f5306daf1ac51a89a211a64cb24415649", ""},
	} {
		g := newDigestRandom(sha1.New())
		v.seed(g)
		out := make([]byte, 20)
		for range 1024 {
			g.Read(out)
		}
		if hexString(out) != v.last {
			return katError(name, "Bouncy Castle DigestRandomNumberTest "+v.what+", read 1024 of 20 B", out, unhex(v.last))
		}
		if v.other != "" && hexString(out) == v.other {
			return katError(name, v.what+": the seed is not cycled", out, unhex(v.last))
		}
	}
	return nil
}
