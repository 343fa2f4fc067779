package all

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/brainpool"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/cryptocost/cryptocost/scheme"
)

// The curves beside the NIST ones (scheme/eccurves.go): the Go scheme of
// each name against every C provider that has it, over raw keys.

var extraCurves = map[string]elliptic.Curve{
	"secp256k1": nil, "brainpoolP256r1": brainpool.P256r1(), "brainpoolP384r1": brainpool.P384r1(), "brainpoolP512r1": brainpool.P512r1(),
}

var extraECDSA = map[string]string{
	"secp256k1": "ECDSA-secp256k1-SHA256", "brainpoolP256r1": "ECDSA-brainpoolP256r1-SHA256",
	"brainpoolP384r1": "ECDSA-brainpoolP384r1-SHA384", "brainpoolP512r1": "ECDSA-brainpoolP512r1-SHA512",
}

// goCurveSigner is the registered Go scheme of name with its keys made
// from the raw encodings.
func goCurveSigner(t *testing.T, curveName, name string) rawSigner {
	t.Helper()
	ref, err := scheme.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	s := ref.(scheme.SignScheme)
	curve := extraCurves[curveName]
	size := 32
	if curve != nil {
		size = (curve.Params().BitSize + 7) / 8
	}
	privOf := func(raw []byte) any {
		if curve == nil {
			return secp256k1.PrivKeyFromBytes(raw)
		}
		d := new(big.Int).SetBytes(raw)
		//lint:ignore SA1019 the Brainpool curves exist only as elliptic.Curve values
		x, y := curve.ScalarBaseMult(raw)
		//lint:ignore SA1019 crypto/ecdsa's raw fields are the only way in and out for a curve other than the NIST ones (Bytes and ParseRawPrivateKey take only those)
		return &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: curve, X: x, Y: y}, D: d}
	}
	pubOf := func(raw []byte) any {
		if curve == nil {
			k, err := secp256k1.ParsePubKey(raw)
			if err != nil {
				return nil
			}
			return k
		}
		if len(raw) != 1+2*size {
			return nil
		}
		//lint:ignore SA1019 crypto/ecdsa's raw fields are the only way in and out for a curve other than the NIST ones (Bytes and ParseRawPrivateKey take only those)
		return &ecdsa.PublicKey{Curve: curve, X: new(big.Int).SetBytes(raw[1 : 1+size]), Y: new(big.Int).SetBytes(raw[1+size:])}
	}
	return rawSigner{id: ref.Info().ID(),
		sign: func(priv, msg []byte) ([]byte, error) { return s.Sign(privOf(priv), msg) },
		verify: func(pub, msg, sig []byte) bool {
			k := pubOf(pub)
			return k != nil && s.Verify(k, msg, sig)
		},
		gen: func() ([]byte, []byte, error) {
			if curve == nil {
				k, err := secp256k1.GeneratePrivateKey()
				if err != nil {
					return nil, nil, err
				}
				return k.PubKey().SerializeUncompressed(), k.Serialize(), nil
			}
			k, err := ecdsa.GenerateKey(curve, rand.Reader)
			if err != nil {
				return nil, nil, err
			}
			pub := make([]byte, 1+2*size)
			pub[0] = 4
			k.X.FillBytes(pub[1 : 1+size])
			k.Y.FillBytes(pub[1+size:])
			//lint:ignore SA1019 crypto/ecdsa's raw fields are the only way in and out for a curve other than the NIST ones (Bytes and ParseRawPrivateKey take only those)
			return pub, k.D.FillBytes(make([]byte, size)), nil
		}}
}

// TestCrossProviderCurveSignatures signs on secp256k1 and the Brainpool
// curves with each implementation (the Go scheme and every C provider
// that has the curve) and verifies with every other; Mbed TLS and Go on
// secp256k1 sign by RFC 6979, so their signatures of one key and message
// agree up to s's sign (Go's decred normalises it to the lower half).
// Fast tier.
func TestCrossProviderCurveSignatures(t *testing.T) {
	msg := []byte("sign with one, verify with another")
	for curveName, name := range extraECDSA {
		signers := append(providedSigners(name), goCurveSigner(t, curveName, name))
		if len(signers) < 2 {
			t.Logf("%s: no C provider offers it here", name)
			continue
		}
		for _, a := range signers {
			pub, priv, err := a.gen()
			if err != nil {
				t.Fatalf("%s: keygen: %v", a.id, err)
			}
			sig, err := a.sign(priv, msg)
			if err != nil {
				t.Fatalf("%s: sign: %v", a.id, err)
			}
			for _, b := range signers {
				if !b.verify(pub, msg, sig) {
					t.Errorf("%s does not verify a signature by %s", b.id, a.id)
				}
				if b.verify(pub, msg[1:], sig) {
					t.Errorf("%s verifies %s's signature for another message", b.id, a.id)
				}
			}
		}
	}
}

// rawBytes returns the bytes of a []byte-kinded key value (a provider's
// raw key, or the Go agreement schemes' encoded public value).
func rawBytes(t *testing.T, k any) []byte {
	t.Helper()
	v := reflect.ValueOf(k)
	if v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Uint8 {
		t.Fatalf("key of type %T is not raw bytes", k)
	}
	return v.Bytes()
}

// TestCrossProviderCurveAgreement makes one key pair with the Go scheme
// and one with a C provider, and derives the shared secret with every
// implementation of ECDH on each curve: all must agree, and a C
// provider's two sides must too. Fast tier.
func TestCrossProviderCurveAgreement(t *testing.T) {
	for curveName := range extraCurves {
		name := "ECDH-" + curveName
		ref, err := scheme.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		goScheme := ref.(scheme.AgreementScheme)
		var cs []scheme.AgreementScheme
		for id, s := range implementations[scheme.AgreementScheme](name) {
			if scheme.IsCProvider(scheme.Provider(strings.SplitN(id, "@", 2)[1])) {
				cs = append(cs, s)
			}
		}
		if len(cs) == 0 {
			t.Logf("%s: no C provider offers it here", name)
			continue
		}
		pubA, privA, err := goScheme.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		rawPrivA := privA.(interface{ Bytes() []byte }).Bytes()
		rawPubA := rawBytes(t, pubA)
		pubB, privB, err := cs[0].GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		rawPubB := rawBytes(t, pubB)
		outs := map[string][]byte{}
		z, err := goScheme.SharedSecret(privA, rawPubB)
		if err != nil {
			t.Fatalf("%s: %v", ref.Info().ID(), err)
		}
		outs[ref.Info().ID()] = z
		for _, s := range cs {
			ab, err := s.SharedSecret(scheme.ProvidedPrivateKey(rawPrivA), scheme.ProvidedPublicKey(rawPubB))
			if err != nil {
				t.Fatalf("%s: %v", s.Info().ID(), err)
			}
			ba, err := s.SharedSecret(privB, scheme.ProvidedPublicKey(rawPubA))
			if err != nil || !bytes.Equal(ab, ba) {
				t.Errorf("%s: the two sides disagree (%v)", s.Info().ID(), err)
			}
			outs[s.Info().ID()] = ab
		}
		agree(t, name, outs)
	}
}

// TestMbedTLSReproducesRFC6979OnSecp256k1: Mbed TLS signs
// deterministically (MBEDTLS_ECDSA_DETERMINISTIC), so on secp256k1 it
// must reproduce the published RFC 6979 signature of "Satoshi Nakamoto"
// under d = 1 byte for byte, high s and all (the Go scheme's KAT
// reproduces its low-s form). Fast tier.
func TestMbedTLSReproducesRFC6979OnSecp256k1(t *testing.T) {
	ss := implementations[scheme.SignScheme]("ECDSA-secp256k1-SHA256")
	s, ok := ss["ECDSA-secp256k1-SHA256@mbedtls"]
	if !ok {
		t.Skip("mbedtls is not available here")
	}
	d := make([]byte, 32)
	d[31] = 1
	sig, err := s.Sign(scheme.ProvidedPrivateKey(d), []byte("Satoshi Nakamoto"))
	if err != nil {
		t.Fatal(err)
	}
	// DER of r = 934b…e3d8, s = dbbd…675c (both with a leading zero: top bit set).
	const want = "3046022100934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8" +
		"022100dbbd3162d46e9f9bef7feb87c16dc13b4f6568a87f4e83f728e2443ba586675c"
	if got := hex.EncodeToString(sig); got != want {
		t.Errorf("mbedtls signature %s, want RFC 6979's %s", got, want)
	}
}
