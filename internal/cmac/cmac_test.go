package cmac

import (
	"bytes"
	"crypto/aes"
	"crypto/des"
	"encoding/hex"
	"strings"
	"testing"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The example message of RFC 4493 §4 and SP 800-38B Appendix D; each
// vector MACs a prefix of it.
const message = "6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51" +
	"30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710"

var vectors = []struct {
	source, key string
	k1, k2      string
	tags        map[int]string // message prefix length -> tag
}{
	{
		source: "RFC 4493 §4 (= SP 800-38B D.1, AES-128)",
		key:    "2b7e1516 28aed2a6 abf71588 09cf4f3c",
		k1:     "fbeed618 35713366 7c85e08f 7236a8de",
		k2:     "f7ddac30 6ae266cc f90bc11e e46d513b",
		tags: map[int]string{
			0:  "bb1d6929 e9593728 7fa37d12 9b756746",
			16: "070a16b4 6b4d4144 f79bdd9d d04a287c",
			40: "dfa66747 de9ae630 30ca3261 1497c827",
			64: "51f0bebf 7e3b9d92 fc497417 79363cfe",
		},
	},
	{
		source: "SP 800-38B (2005) Appendix D.3, AES-256, Examples 9-12",
		key:    "603deb10 15ca71be 2b73aef0 857d7781 1f352c07 3b6108d7 2d9810a3 0914dff4",
		k1:     "cad1ed03 299eedac 2e9a9980 8621502f",
		k2:     "95a3da06 533ddb58 5d353301 0c42a0d9",
		tags: map[int]string{
			0:  "028962f6 1b7bf89e fc6b551f 4667d983",
			16: "28a7023f 452e8f82 bd4bf28d 8c37c35c",
			40: "aaf3d8f1 de5640c2 32f5b169 b9c911e6",
			64: "e1992190 549f6ed5 696a2c05 6c315410",
		},
	},
}

func TestVectors(t *testing.T) {
	msg := unhex(t, message)
	for _, v := range vectors {
		c, err := aes.NewCipher(unhex(t, v.key))
		if err != nil {
			t.Fatal(err)
		}
		h, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		d := h.(*digest)
		if !bytes.Equal(d.k1[:], unhex(t, v.k1)) || !bytes.Equal(d.k2[:], unhex(t, v.k2)) {
			t.Errorf("%s: subkeys %x, %x; want %s, %s", v.source, d.k1, d.k2, v.k1, v.k2)
		}
		for n, tag := range v.tags {
			h.Reset()
			h.Write(msg[:n])
			if got, want := h.Sum(nil), unhex(t, tag); !bytes.Equal(got, want) {
				t.Errorf("%s, %d-byte message: %x, want %x", v.source, n, got, want)
			}
		}
	}
}

// TestWriteSplits checks that every split of a message and every prefix
// length (whole and partial final blocks) agree with one-shot MACs, and
// that Sum leaves the state alone.
func TestWriteSplits(t *testing.T) {
	c, _ := aes.NewCipher(unhex(t, vectors[0].key))
	msg := unhex(t, message)
	oneShot := func(m []byte) []byte {
		h, _ := New(c)
		h.Write(m)
		return h.Sum(nil)
	}
	for n := range len(msg) + 1 {
		want := oneShot(msg[:n])
		for split := range n + 1 {
			h, _ := New(c)
			h.Write(msg[:split])
			h.Sum(nil)
			h.Write(msg[split:n])
			if got := h.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("length %d split at %d: %x, want %x", n, split, got, want)
			}
		}
	}
}

func TestRejects64BitBlock(t *testing.T) {
	c, _ := des.NewCipher(make([]byte, 8))
	if _, err := New(c); err == nil || !strings.Contains(err.Error(), "16-byte") {
		t.Errorf("New(DES) error = %v, want one naming the supported block size", err)
	}
}

func BenchmarkAES128CMAC(b *testing.B) {
	c, _ := aes.NewCipher(make([]byte, 16))
	h, _ := New(c)
	msg := make([]byte, 1024)
	out := make([]byte, 0, BlockSize)
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		h.Reset()
		h.Write(msg)
		out = h.Sum(out[:0])
	}
}
