package scheme

import (
	"errors"
	"testing"
)

func init() {
	sizeCheckers[FamilyHash] = func(t *testing.T, s Scheme) {
		h := s.(HashScheme).New()
		h.Write([]byte("x"))
		if got, want := len(h.Sum(nil)), s.Info().Sizes.Output; got != want {
			t.Errorf("digest is %d bytes, declared %d", got, want)
		}
		if got, want := h.Size(), s.Info().Sizes.Output; got != want {
			t.Errorf("Size() = %d, declared %d", got, want)
		}
		if got, want := h.BlockSize(), s.Info().Sizes.Block; got != want {
			t.Errorf("BlockSize() = %d, declared %d", got, want)
		}
	}
}

// TestHashKATCatchesAWrongDigest shows the correctness gate can fail: a
// scheme whose expected digest is off by one bit does not pass.
func TestHashKATCatchesAWrongDigest(t *testing.T) {
	s := Must(Lookup("SHA-256")).(*hashScheme)
	bad := *s
	bad.vectors = append([]hashVector(nil), s.vectors...)
	b := unhex(bad.vectors[0].Out)
	b[0] ^= 1
	bad.vectors[0].Out = hexString(b)
	if err := bad.KAT(); !errors.Is(err, ErrKAT) {
		t.Fatalf("KAT with a corrupted vector returned %v, want ErrKAT", err)
	}
}

// TestXOFSumKeepsState checks the SHAKE wrapper honours hash.Hash: Sum twice
// gives the same answer, and the timed squeeze gives it too.
func TestXOFSumKeepsState(t *testing.T) {
	h := Must(Lookup("SHAKE128")).(HashScheme).New()
	h.Write([]byte("abc"))
	a, b := h.Sum(nil), h.Sum(nil)
	if hexString(a) != hexString(b) {
		t.Fatalf("Sum changed the state: %x then %x", a, b)
	}
	if c := h.(*xof).squeeze(nil); hexString(c) != hexString(a) {
		t.Fatalf("squeeze = %x, Sum = %x", c, a)
	}
}
