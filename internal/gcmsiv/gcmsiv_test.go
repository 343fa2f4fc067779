package gcmsiv

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// TestRFC8452 checks RFC 8452 Appendix C.1 and C.2 vectors (key 01 00..,
// nonce 03 00..), sealing and opening, and a flipped tag bit. Fast tier.
func TestRFC8452(t *testing.T) {
	k128 := "01000000000000000000000000000000"
	k256 := k128 + "00000000000000000000000000000000"
	for _, v := range []struct{ name, key, pt, ad, out string }{
		{"C.1 #1", k128, "", "", "dc20e2d83f25705bb49e439eca56de25"},
		{"C.1 #2", k128, "0100000000000000", "", "b5d839330ac7b786578782fff6013b815b287c22493a364c"},
		{"C.1 #3", k128, "010000000000000000000000", "", "7323ea61d05932260047d942a4978db357391a0bc4fdec8b0d106639"},
		{"C.2 #1", k256, "", "", "07f5f4169bbf55a8400cd47ea6fd400f"},
		{"C.2 #2", k256, "0100000000000000", "", "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28"},
	} {
		key, _ := hex.DecodeString(v.key)
		pt, _ := hex.DecodeString(v.pt)
		ad, _ := hex.DecodeString(v.ad)
		want, _ := hex.DecodeString(v.out)
		nonce, _ := hex.DecodeString("030000000000000000000000")
		a, err := New(key)
		if err != nil {
			t.Fatal(err)
		}
		got := a.Seal(nil, nonce, pt, ad)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: seal %x, want %x", v.name, got, want)
			continue
		}
		if back, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(back, pt) {
			t.Errorf("%s: open: %x, %v", v.name, back, err)
		}
		got[len(got)-1] ^= 1
		if _, err := a.Open(nil, nonce, got, ad); err == nil {
			t.Errorf("%s: a flipped tag bit opened", v.name)
		}
	}
}
