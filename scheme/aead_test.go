package scheme

import (
	"bytes"
	"errors"
	"testing"
)

func init() {
	sizeCheckers[FamilyAEAD] = func(t *testing.T, s Scheme) {
		info := s.Info()
		a, err := s.(AEADScheme).NewAEAD(make([]byte, info.Sizes.Key))
		if err != nil {
			t.Fatalf("NewAEAD with the declared %d-byte key: %v", info.Sizes.Key, err)
		}
		if _, err := s.(AEADScheme).NewAEAD(make([]byte, info.Sizes.Key+1)); err == nil {
			t.Errorf("NewAEAD accepted a %d-byte key; declared %d", info.Sizes.Key+1, info.Sizes.Key)
		}
		if got, want := a.NonceSize(), info.Sizes.Nonce; got != want {
			t.Errorf("NonceSize() = %d, declared %d", got, want)
		}
		if got, want := a.Overhead(), info.Sizes.Tag; got != want {
			t.Errorf("Overhead() = %d, declared tag %d", got, want)
		}
		nonce, ad, pt := make([]byte, info.Sizes.Nonce), []byte("header"), testData(100, "size", 0)
		sealed := a.Seal(nil, nonce, pt, ad)
		if got, want := len(sealed), len(pt)+info.Sizes.Tag; got != want {
			t.Errorf("a %d-byte plaintext seals to %d bytes, want plaintext + tag = %d", len(pt), got, want)
		}
		if got, err := a.Open(nil, nonce, sealed, ad); err != nil || !bytes.Equal(got, pt) {
			t.Errorf("open(seal(x)) = %x, %v; want x", got, err)
		}
		sealed[0] ^= 0x80
		if _, err := a.Open(nil, nonce, sealed, ad); err == nil {
			t.Error("a ciphertext with a flipped bit opened")
		}
	}
}

// TestAEADKATCatchesACorruptedVector shows the correctness gate can fail:
// one flipped bit in a ciphertext, tag or plaintext of a vector fails KAT.
func TestAEADKATCatchesACorruptedVector(t *testing.T) {
	for _, tc := range []struct {
		scheme  string
		corrupt func(v *aeadVector)
	}{
		{"AES-128-GCM", func(v *aeadVector) { v.CT = flipHexBit(v.CT, 0) }},
		{"AES-128-CCM-8", func(v *aeadVector) { v.CT = flipHexBit(v.CT, len(v.CT)/2-1) }}, // the tag
		{"ChaCha20-Poly1305", func(v *aeadVector) { v.PT = flipHexBit(v.PT, 3) }},
		{"Ascon-AEAD128", func(v *aeadVector) { v.CT = flipHexBit(v.CT, 5) }},
		{"Ascon-128", func(v *aeadVector) { v.Nonce = flipHexBit(v.Nonce, 15) }},
	} {
		t.Run(tc.scheme, func(t *testing.T) {
			s := Must(Lookup(tc.scheme)).(*aeadScheme)
			if err := s.KAT(); err != nil {
				t.Fatalf("the intact vectors fail: %v", err)
			}
			bad := *s
			bad.vectors = append([]aeadVector(nil), s.vectors...)
			tc.corrupt(&bad.vectors[len(bad.vectors)-1])
			if err := bad.KAT(); !errors.Is(err, ErrKAT) {
				t.Fatalf("KAT with a corrupted vector returned %v, want ErrKAT", err)
			}
		})
	}
}

// flipHexBit flips the low bit of byte i of a hex string.
func flipHexBit(h string, i int) string {
	b := unhex(h)
	b[i] ^= 1
	return hexString(b)
}

// TestAEADAssociatedData checks every AEAD states the associated data its
// timed loops authenticate.
func TestAEADAssociatedData(t *testing.T) {
	for _, s := range All() {
		if s.Info().Family != FamilyAEAD {
			continue
		}
		if got := s.Info().Param("ad_bytes"); got != itoa(aeadADBytes) {
			t.Errorf("%s: ad_bytes = %q, want %d", s.Info().ID(), got, aeadADBytes)
		}
	}
}

// TestAEADLoopsReuseBuffers checks the timed seal and open loops allocate
// nothing of their own: where the implementation itself allocates nothing
// (Go's GCM, x/crypto, our Ascon), a loop iteration allocates nothing.
func TestAEADLoopsReuseBuffers(t *testing.T) {
	for _, name := range []string{"AES-128-GCM", "ChaCha20-Poly1305", "XChaCha20-Poly1305", "Ascon-AEAD128"} {
		s := Must(Lookup(name))
		for _, op := range s.Operations() {
			if op.Input != InputBulk {
				continue
			}
			loop, err := op.Prepare(Args{Size: 1024})
			if err != nil {
				t.Fatalf("%s %s: %v", name, op.Name, err)
			}
			if allocs := testing.AllocsPerRun(20, func() { _ = loop(1) }); allocs != 0 {
				t.Errorf("%s %s: %.0f allocations per iteration, want 0", name, op.Name, allocs)
			}
		}
	}
}

// TestCCMRejectsOversizedMessages checks the CCM operations declare the
// limit of a 3-byte length field, so the engine refuses sizes the mode
// cannot encrypt instead of panicking inside Seal.
func TestCCMRejectsOversizedMessages(t *testing.T) {
	for _, op := range Must(Lookup("AES-128-CCM-8")).Operations() {
		if op.Input != InputBulk {
			continue
		}
		if op.MaxSize != 1<<24-1 {
			t.Errorf("%s: MaxSize = %d, want 2^24-1", op.Name, op.MaxSize)
		}
		if err := op.CheckSize(1 << 24); err == nil {
			t.Errorf("%s accepts a 16 MiB message", op.Name)
		}
	}
}
