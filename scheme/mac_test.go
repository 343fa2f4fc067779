package scheme

import (
	"errors"
	"testing"
)

func init() {
	sizeCheckers[FamilyMAC] = func(t *testing.T, s Scheme) {
		info := s.Info()
		key := testData(info.Sizes.Key, "size check", 0)
		m, err := s.(MACScheme).NewMAC(key)
		if err != nil {
			t.Fatalf("NewMAC with the declared %d-byte key: %v", info.Sizes.Key, err)
		}
		m.Write([]byte("x"))
		if got, want := len(m.Sum(nil)), info.Sizes.Output; got != want {
			t.Errorf("tag is %d bytes, declared %d", got, want)
		}
		if got, want := m.Size(), info.Sizes.Output; got != want {
			t.Errorf("Size() = %d, declared %d", got, want)
		}
	}
}

// macSchemesInMACGo are the schemes mac.go registers.
var macSchemesInMACGo = []string{"HMAC-SHA-1", "HMAC-SHA-256", "HMAC-SHA-512", "Poly1305", "AES-128-CMAC", "AES-256-CMAC"}

// TestMACKATCatchesAWrongTag shows the correctness gate can fail: for each
// scheme, a copy whose first expected tag is off by one bit does not pass
// (for Poly1305 this also exercises the one-shot path's check).
func TestMACKATCatchesAWrongTag(t *testing.T) {
	for _, name := range macSchemesInMACGo {
		s := Must(Lookup(name)).(*macScheme)
		bad := *s
		bad.vectors = append([]macVector(nil), s.vectors...)
		tag := unhex(bad.vectors[0].Tag)
		tag[len(tag)-1] ^= 1
		bad.vectors[0].Tag = hexString(tag)
		if err := bad.KAT(); !errors.Is(err, ErrKAT) {
			t.Errorf("%s: KAT with a corrupted tag returned %v, want ErrKAT", name, err)
		}
	}
}

// TestMACKATChecksOneShot shows a wrong one-shot MAC is caught even when
// NewMAC is right: the timed path is checked, not only the keyed state.
func TestMACKATChecksOneShot(t *testing.T) {
	bad := *Must(Lookup("Poly1305")).(*macScheme)
	bad.oneShot = func(tag, key, msg []byte) { macPoly1305OneShot(tag, key, msg[:len(msg)/2]) }
	if err := bad.KAT(); !errors.Is(err, ErrKAT) {
		t.Fatalf("KAT with a wrong one-shot MAC returned %v, want ErrKAT", err)
	}
}

// TestMACLoopsDoNotAllocate guards the timing rule: the "mac" loop reuses
// its tag buffer and keyed state.
func TestMACLoopsDoNotAllocate(t *testing.T) {
	for _, name := range macSchemesInMACGo {
		for _, op := range Must(Lookup(name)).Operations() {
			if op.Name != OpMAC {
				continue
			}
			loop, err := op.Prepare(Args{Size: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if allocs := testing.AllocsPerRun(10, func() { loop(1) }); allocs != 0 {
				t.Errorf("%s: mac loop allocates %.0f times per call", name, allocs)
			}
		}
	}
}

func TestMACRejectsWrongKeySize(t *testing.T) {
	for _, name := range []string{"Poly1305", "AES-128-CMAC", "AES-256-CMAC"} {
		s := Must(Lookup(name)).(MACScheme)
		if _, err := s.NewMAC(make([]byte, s.Info().Sizes.Key+1)); err == nil {
			t.Errorf("%s accepted a %d-byte key", name, s.Info().Sizes.Key+1)
		}
	}
}

// TestPoly1305HashIsOneTime documents the adapter: Sum may be repeated, and
// Reset re-keys so the same message gives the same tag.
func TestPoly1305HashIsOneTime(t *testing.T) {
	m, err := macNewPoly1305(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	m.Write([]byte("abc"))
	a, b := m.Sum(nil), m.Sum(nil)
	m.Reset()
	m.Write([]byte("abc"))
	if c := m.Sum(nil); hexString(a) != hexString(b) || hexString(a) != hexString(c) {
		t.Errorf("tags %x, %x, after Reset %x: want all equal", a, b, c)
	}
}
