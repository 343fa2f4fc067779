package lms

import (
	"bufio"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
)

// vector reads RFC 8554 Appendix F test case 1 (kept in the scheme
// package's testdata, which embeds it for the KAT).
func vector(t *testing.T) (pub, msg, sig []byte) {
	f, err := os.Open("../../scheme/testdata/lms/rfc8554-testcase1.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " = ")
		if ok && !strings.HasPrefix(name, "#") {
			v[name], err = hex.DecodeString(value)
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return v["pub"], v["msg"], v["sig"]
}

// TestRFC8554TestCase1 verifies the RFC's two-level signature and rejects
// it after any of several bytes is changed. Fast tier.
func TestRFC8554TestCase1(t *testing.T) {
	pub, msg, sig := vector(t)
	if err := Verify(pub, msg, sig); err != nil {
		t.Fatalf("RFC 8554 test case 1 does not verify: %v", err)
	}
	for _, i := range []int{10, 500, 1300, 1400, 2000, len(sig) - 1} {
		bad := append([]byte(nil), sig...)
		bad[i] ^= 1
		if Verify(pub, msg, bad) == nil {
			t.Errorf("a signature with byte %d flipped verifies", i)
		}
	}
	if Verify(pub, msg[1:], sig) == nil {
		t.Error("the signature verifies another message")
	}
}

// TestSignVerify signs with a one-level H5 key until it is exhausted; every
// signature verifies, has the declared size, and a reused message under a
// wrong key fails. Fast tier.
func TestSignVerify(t *testing.T) {
	for _, o := range []OTSType{OTSW4, OTSW8} {
		k, err := NewPrivateKey(LMSH5, o, [32]byte{1, 2, 3}, [16]byte{9})
		if err != nil {
			t.Fatal(err)
		}
		pub := k.Public()
		if len(pub) != PublicKeySize {
			t.Fatalf("public key %d bytes, want %d", len(pub), PublicKeySize)
		}
		c := make([]byte, 32)
		for i := 0; k.Remaining() > 0; i++ {
			msg := []byte{byte(i)}
			sig, err := k.Sign(msg, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(sig) != SignatureSize(LMSH5, o) {
				t.Fatalf("signature %d bytes, want %d", len(sig), SignatureSize(LMSH5, o))
			}
			if err := Verify(pub, msg, sig); err != nil {
				t.Fatalf("leaf %d: %v", i, err)
			}
		}
		if _, err := k.Sign([]byte("x"), c); !errors.Is(err, ErrExhausted) {
			t.Errorf("signing with an exhausted key: %v", err)
		}
	}
}
