package sensor

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The COSE_Key of a known public key, written out by hand from RFC 9052
// §7 and RFC 9053 §7.1 (EC2: kty 1 → 2, alg 3 → −7 ES256, crv −1 → 1
// P-256, x −2, y −3) and RFC 9053 §7.2 (OKP: kty 1, alg −8 EdDSA, crv 6
// Ed25519), keys in RFC 8949 §4.2.1 order (1, 3, −1, −2, −3). The P-256
// key is the COSE WG examples' key "11" (cose-wg/Examples, also in RFC
// 9052 Appendix C.7.1); the Ed25519 key is RFC 8032 §7.1 test 1's.
func TestCOSEKeyKnownAnswers(t *testing.T) {
	x := unhex(t, "bac5b11cad8f99f9c72b05cf4b9e26d244dc189f745228255a219a86d6a09eff")
	y := unhex(t, "20138bf82dc1b6d562be0fa54ab7804a3a64b6d72ccfed6b6fb6ed28bbfc117e")
	//lint:ignore SA1019 builds the key from the raw x, y a COSE key carries, to check the identity computed from them
	ec := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
	ed := ed25519.PublicKey(unhex(t, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
	for _, tc := range []struct {
		name string
		pub  any
		want []byte
		alg  string
	}{
		{"P-256", ec, append(append(append(unhex(t, "a5 01 02 03 26 20 01 21 58 20"), x...), 0x22, 0x58, 0x20), y...), "ES256"},
		{"Ed25519", ed, append(unhex(t, "a4 01 01 03 27 20 06 21 58 20"), ed...), "EdDSA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := COSEKey(tc.pub)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("COSE_Key\n got %x\nwant %x", got, tc.want)
			}
			_, alg, err := ParseCOSEKey(got)
			if err != nil || alg.Name != tc.alg {
				t.Fatalf("ParseCOSEKey: %v %v, want %s", alg, err, tc.alg)
			}
			// I = SHA-256(P ‖ O), computed here without NewIdentity.
			want := sha256.Sum256(append(append([]byte(nil), tc.want...), "sensor-1"...))
			if id := NewIdentity(got, "sensor-1"); id != Identity(want) {
				t.Fatalf("identity %x, want %x", id, want)
			}
		})
	}
}

func TestIdentityText(t *testing.T) {
	id := NewIdentity([]byte{1, 2, 3}, "x")
	s := id.String()
	if !strings.HasPrefix(s, "ni:///sha-256;") || len(s) != len("ni:///sha-256;")+43 {
		t.Fatalf("identity %q is not an RFC 6920 ni URI with a 43-character digest", s)
	}
	back, err := ParseIdentity(s)
	if err != nil || back != id {
		t.Fatalf("ParseIdentity(%q) = %v, %v", s, back, err)
	}
	for _, bad := range []string{"", "sha-256;abc", "ni:///sha-256;abc", "ni:///sha-256;" + strings.Repeat("A", 44), "ni:///md5;" + s[14:]} {
		if _, err := ParseIdentity(bad); err == nil {
			t.Errorf("ParseIdentity(%q) succeeded", bad)
		}
	}
	// Another name, another identity: O is part of I.
	if NewIdentity([]byte{1, 2, 3}, "y") == id {
		t.Fatal("the other data does not change the identity")
	}
}

func TestParseCOSEKeyRefuses(t *testing.T) {
	k, err := GenerateKey(Algs[0])
	if err != nil {
		t.Fatal(err)
	}
	priv := append([]byte(nil), k.COSEKey...)
	priv[0]++ // a map of 6: append d (−4 → 0x23) as a 32-byte string
	priv = append(append(priv, 0x23, 0x58, 0x20), make([]byte, 32)...)
	for _, tc := range []struct {
		name, want string
		b          []byte
	}{
		{"empty", "COSE_Key", nil},
		{"not CBOR", "COSE_Key", []byte("pk")},
		{"private key", "private key", priv},
		{"too long", "at most 256", make([]byte, maxCOSEKeyBytes+1)},
	} {
		if _, _, err := ParseCOSEKey(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}
