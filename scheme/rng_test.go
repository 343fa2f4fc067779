package scheme

import (
	"bytes"
	cryptorand "crypto/rand"
	"errors"
	"io"
	"testing"
)

func init() {
	sizeCheckers[FamilyRNG] = func(t *testing.T, s Scheme) {
		buf := bytes.Repeat([]byte{0x5a}, 100)
		n, err := s.(RNGScheme).Reader().Read(buf)
		if err != nil || n != len(buf) {
			t.Fatalf("Read(100 bytes) = %d, %v; want 100, nil", n, err)
		}
		if bytes.Equal(buf, bytes.Repeat([]byte{0x5a}, 100)) {
			t.Errorf("Read left the buffer unchanged")
		}
		if k := s.Info().Sizes.Key; k != 0 && k != 32 {
			t.Errorf("declared seed size %d; the generators here take 32-byte seeds", k)
		}
	}
}

func TestChaCha8RandKATCatchesAWrongVector(t *testing.T) {
	bad := rngChaCha8RandSpec
	bad.Windows = map[int]string{}
	for off, out := range rngChaCha8RandSpec.Windows {
		b := unhex(out)
		if off == 960 {
			b[40] ^= 0x80 // in the first bytes after the re-key
		}
		bad.Windows[off] = hexString(b)
	}
	if err := bad.check("ChaCha8Rand", rngNewChaCha8Rand); !errors.Is(err, ErrKAT) {
		t.Fatalf("check with a corrupted vector returned %v, want ErrKAT", err)
	}
}

// rngCounterReader counts bytes 0, 1, 2, ...: uniform and balanced, not random.
type rngCounterReader struct{ n byte }

func (c *rngCounterReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = c.n
		c.n++
	}
	return len(b), nil
}

// rngFuncReader reads crypto/rand and passes the bytes through f.
type rngFuncReader func(byte) byte

func (f rngFuncReader) Read(b []byte) (int, error) {
	cryptorand.Read(b)
	for i := range b {
		b[i] = f(b[i])
	}
	return len(b), nil
}

// TestRNGStatisticalCheckCatchesBrokenSources shows the crypto/rand KAT can
// fail: stuck, counting, biased and failing sources are all rejected.
func TestRNGStatisticalCheckCatchesBrokenSources(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    io.Reader
	}{
		{"all zeros", bytes.NewReader(make([]byte, 4<<20))},
		{"counter", &rngCounterReader{}},
		{"one bit stuck at 0", rngFuncReader(func(c byte) byte { return c &^ 1 })},
		{"biased towards ones", rngFuncReader(func(c byte) byte {
			if c < 16 {
				return c | 0x0f
			}
			return c
		})},
		{"short source", io.LimitReader(cryptorand.Reader, 1000)},
		// Good bytes for the first two tests, then zeros: only the monobit
		// test (and its retry) sees the failure.
		{"fails after 1 MiB", io.MultiReader(io.LimitReader(cryptorand.Reader, 2*64+rngSampleBytes),
			bytes.NewReader(make([]byte, 2*rngMonobitBits/8)))},
	} {
		if err := rngStatisticalCheck(tc.name, tc.r); !errors.Is(err, ErrKAT) {
			t.Errorf("%s: check returned %v, want ErrKAT", tc.name, err)
		}
	}
	if err := rngStatisticalCheck("crypto/rand", cryptorand.Reader); err != nil {
		t.Errorf("crypto/rand failed: %v", err)
	}
}

// TestChaCha8RandReaderIsSeededFresh: Reader gives a new seed each time
// (the operations' generators are the ones seeded per variant).
func TestChaCha8RandReaderIsSeededFresh(t *testing.T) {
	s := Must(Lookup("ChaCha8Rand")).(RNGScheme)
	a, b := make([]byte, 32), make([]byte, 32)
	s.Reader().Read(a)
	s.Reader().Read(b)
	if bytes.Equal(a, b) {
		t.Fatalf("two Readers gave the same bytes %x", a)
	}
}

func TestRNGLoopsDoNotAllocate(t *testing.T) {
	for _, name := range []string{"crypto/rand", "ChaCha8Rand"} {
		for _, op := range Must(Lookup(name)).Operations() {
			loop, err := op.Prepare(Args{Size: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if allocs := testing.AllocsPerRun(10, func() { loop(1) }); allocs != 0 {
				t.Errorf("%s/%s: loop allocates %.0f times per call", name, op.Name, allocs)
			}
		}
	}
}
