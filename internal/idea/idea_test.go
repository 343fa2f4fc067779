package idea

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Published vectors. Each was also checked against OpenSSL's IDEA (through
// pyca/cryptography's decrepit IDEA; this machine's openssl CLI has no IDEA).
var vectors = []struct {
	source      string
	key, pt, ct string
}{
	// Lai's example (X. Lai, "On the Design and Security of Block Ciphers",
	// ETH Series in Information Processing vol. 1, 1992), also in Schneier's
	// Applied Cryptography.
	{"Lai 1992 example", "00010002000300040005000600070008", "0000000100020003", "11fbed2b01986de5"},
	// NESSIE, Idea-128-64.verified.test-vectors.
	{"NESSIE set 1 #0", "80000000000000000000000000000000", "0000000000000000", "b1f5f7f87901370f"},
	{"NESSIE set 1 #1", "40000000000000000000000000000000", "0000000000000000", "b3927dffb6358626"},
	{"NESSIE set 2 #0", "00000000000000000000000000000000", "8000000000000000", "8001000180008000"},
	{"NESSIE set 3 #0", "00000000000000000000000000000000", "0000000000000000", "0001000100000000"},
	{"NESSIE set 4 #0", "000102030405060708090a0b0c0d0e0f", "0011223344556677", "f526ab9a62c0d258"},
	{"NESSIE set 4 #1", "2bd6459f82c5b300952c49104881ff48", "ea024714ad5c4d84", "c8fb51d3516627a8"},
	// NESSIE decryption entry: the plaintext whose encryption is zero.
	{"NESSIE set 1 #0 decrypted", "80000000000000000000000000000000", "78071ee87f0130e8", "0000000000000000"},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.source, func(t *testing.T) {
			c, err := NewCipher(unhex(t, v.key))
			if err != nil {
				t.Fatal(err)
			}
			pt, ct := unhex(t, v.pt), unhex(t, v.ct)
			got := make([]byte, BlockSize)
			c.Encrypt(got, pt)
			if !bytes.Equal(got, ct) {
				t.Errorf("Encrypt(%x) = %x, want %x", pt, got, ct)
			}
			c.Decrypt(got, ct)
			if !bytes.Equal(got, pt) {
				t.Errorf("Decrypt(%x) = %x, want %x", ct, got, pt)
			}
		})
	}
}

// TestSubkeys checks the key schedule on Lai's example key 0001 0002 ...
// 0008: subkeys 1-8 are the key's words, 9-16 the words of the key rotated
// left 25 bits (worked by hand: one word, then 9 bits).
func TestSubkeys(t *testing.T) {
	c, err := NewCipher(unhex(t, "00010002000300040005000600070008"))
	if err != nil {
		t.Fatal(err)
	}
	want := []uint16{1, 2, 3, 4, 5, 6, 7, 8, 0x0400, 0x0600, 0x0800, 0x0a00, 0x0c00, 0x0e00, 0x1000, 0x0200}
	for i, w := range want {
		if c.enc[i] != w {
			t.Errorf("subkey %d = %#04x, want %#04x", i+1, c.enc[i], w)
		}
	}
}

// TestMul checks the multiplication modulo 2^16+1 against big arithmetic on
// the edge cases, where 0 stands for 2^16.
func TestMul(t *testing.T) {
	ref := func(a, b uint16) uint16 {
		x, y := uint64(a), uint64(b)
		if x == 0 {
			x = 1 << 16
		}
		if y == 0 {
			y = 1 << 16
		}
		return uint16(x * y % (1<<16 + 1)) // 2^16 becomes 0
	}
	for _, a := range []uint16{0, 1, 2, 0x7fff, 0x8000, 0xfffe, 0xffff} {
		for _, b := range []uint16{0, 1, 2, 0x1234, 0x8000, 0xffff} {
			if got, want := mul(a, b), ref(a, b); got != want {
				t.Errorf("mul(%#x, %#x) = %#x, want %#x", a, b, got, want)
			}
		}
		if got := mul(a, mulInv(a)); got != 1 {
			t.Errorf("mul(%#x, mulInv) = %#x, want 1", a, got)
		}
	}
}

func TestKeySize(t *testing.T) {
	for _, n := range []int{0, 8, 15, 17, 32} {
		if _, err := NewCipher(make([]byte, n)); !errors.As(err, new(KeySizeError)) {
			t.Errorf("NewCipher(%d bytes) error = %v, want KeySizeError", n, err)
		}
	}
}

func TestInPlace(t *testing.T) {
	c, _ := NewCipher(unhex(t, "000102030405060708090a0b0c0d0e0f"))
	b := unhex(t, "0011223344556677")
	c.Encrypt(b, b)
	if want := unhex(t, "f526ab9a62c0d258"); !bytes.Equal(b, want) {
		t.Fatalf("in-place Encrypt = %x, want %x", b, want)
	}
	c.Decrypt(b, b)
	if want := unhex(t, "0011223344556677"); !bytes.Equal(b, want) {
		t.Fatalf("in-place Decrypt = %x, want %x", b, want)
	}
}
