//go:build !riscv64 && !wasm

package scheme

import (
	"encoding/binary"
	"testing"
)

// TestXMSSKeyStartsAgainWhenExhausted: the last index a key has signs,
// and the next signature starts the key again at index 0 (the timed sign
// loop's documented behaviour, see the stateful parameter); both verify.
// Fast tier (one XMSS-SHA2_10_256 tree, shared with the KAT).
func TestXMSSKeyStartsAgainWhenExhausted(t *testing.T) {
	s := Must(ByName("XMSS-SHA2_10_256"))[0].(*signScheme)
	pub, priv, err := s.key(0)
	if err != nil {
		t.Fatal(err)
	}
	k := priv.(*xmssKey)
	max := uint64(1)<<10 - 1 // go-xmssmt's last usable index is 2^10 - 2
	msg := []byte("firmware image")
	last, err := k.signAt(msg, 1<<10-2, max)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Sign(priv, msg)
	if err != nil {
		t.Fatal(err)
	}
	for i, sig := range [][]byte{last, again} {
		want := []uint32{1<<10 - 2, 0}[i]
		if idx := binary.BigEndian.Uint32(sig); idx != want {
			t.Errorf("signature %d has index %d, want %d", i, idx, want)
		}
		if !s.Verify(pub, msg, sig) {
			t.Errorf("signature at index %d does not verify", binary.BigEndian.Uint32(sig))
		}
	}
	if s.Verify(pub, msg[1:], again) {
		t.Error("a signature verifies for another message")
	}
}
