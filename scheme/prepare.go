package scheme

import (
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"math/rand/v2"
)

// testData returns n deterministic pseudo-random bytes for (label, variant):
// inputs differ between variants (the seed002 method's distinct inputs) but
// every run of cryptocost measures the same bytes. It is not for keys that
// must be secret; it is for inputs and for keys of timed symmetric
// operations, whose values do not change their cost.
func testData(n int, label string, variant int) []byte {
	h := fnv.New64a()
	h.Write([]byte(label))
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[:], h.Sum64())
	binary.LittleEndian.PutUint64(seed[8:], uint64(variant))
	r := rand.NewChaCha8(seed)
	b := make([]byte, n)
	r.Read(b)
	return b
}

// unhex decodes a hex constant of a known-answer vector; vectors are
// compile-time constants, so a bad one is a programming error.
func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("scheme: bad hex in vector: " + err.Error())
	}
	return b
}

func hexString(b []byte) string { return hex.EncodeToString(b) }
