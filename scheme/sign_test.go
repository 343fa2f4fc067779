package scheme

import (
	//lint:ignore SA1019 testing the deprecated DSA the seed studies measured
	"crypto/dsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
)

func init() {
	// Declared sizes are the sizes produced: key encodings (the RSA private
	// key's DER length is a maximum) and signatures (DER ones at most the
	// declared maximum).
	sizeCheckers[FamilySign] = func(t *testing.T, s Scheme) {
		t.Parallel() // t is the scheme's own subtest; RSA-15360 and SLH-DSA-128s sign slowly
		ss := s.(*signScheme)
		sz := ss.info.Sizes
		pub, priv, err := ss.key(0)
		if err != nil {
			t.Fatal(err)
		}
		pubEnc, privEnc, err := ss.encode(pub, priv)
		if err != nil {
			t.Fatal(err)
		}
		if len(pubEnc) != sz.PublicKey {
			t.Errorf("public key encodes to %d bytes, declared %d", len(pubEnc), sz.PublicKey)
		}
		if ss.privateKeyMax {
			if len(privEnc) > sz.PrivateKey || len(privEnc) < sz.PrivateKey-16 {
				t.Errorf("private key encodes to %d bytes, declared maximum %d", len(privEnc), sz.PrivateKey)
			}
		} else if len(privEnc) != sz.PrivateKey {
			t.Errorf("private key encodes to %d bytes, declared %d", len(privEnc), sz.PrivateKey)
		}
		sig, err := ss.Sign(priv, []byte("size check"))
		if err != nil {
			t.Fatal(err)
		}
		if sz.VariableSignature {
			if len(sig) > sz.Signature {
				t.Errorf("signature is %d bytes, declared maximum %d", len(sig), sz.Signature)
			}
		} else if len(sig) != sz.Signature {
			t.Errorf("signature is %d bytes, declared %d", len(sig), sz.Signature)
		}
	}
}

// signSchemes returns every registered signature scheme.
func signSchemes(t *testing.T) []*signScheme {
	t.Helper()
	var out []*signScheme
	for _, s := range All() {
		if s.Info().Family == FamilySign {
			out = append(out, s.(*signScheme))
		}
	}
	if len(out) == 0 {
		t.Fatal("no signature schemes registered")
	}
	return out
}

// TestSignKATCatchesCorruptedVectors shows every published vector of every
// signature scheme can fail: one flipped bit in its signature (or, for key
// generation vectors, in its public key) makes KAT return ErrKAT.
func TestSignKATCatchesCorruptedVectors(t *testing.T) {
	for _, s := range signSchemes(t) {
		for i, v := range s.vectors {
			t.Run(s.info.ID()+"/"+v.name, func(t *testing.T) {
				t.Parallel()
				flip := func(h string) string {
					b := unhex(h)
					b[len(b)-1] ^= 1
					return hexString(b)
				}
				if v.sig != "" {
					v.sig = flip(v.sig)
				} else {
					v.pub = flip(v.pub)
				}
				bad := *s
				bad.vectors = slices.Clone(s.vectors)
				bad.vectors[i] = v
				if err := bad.KAT(); !errors.Is(err, ErrKAT) {
					t.Fatalf("KAT with a corrupted vector returned %v, want ErrKAT", err)
				}
			})
		}
	}
}

// TestSignVectorsPresent: every scheme checks at least one published vector.
func TestSignVectorsPresent(t *testing.T) {
	for _, s := range signSchemes(t) {
		if len(s.vectors) == 0 || s.check == nil {
			t.Errorf("%s: no published vectors", s.info.ID())
		}
	}
}

// TestSignKeygenOncePerKeyType: `bench --op keygen` times each key type
// once, on the scheme its keygen_on parameter names.
func TestSignKeygenOncePerKeyType(t *testing.T) {
	listed := map[string][]string{}
	for _, s := range signSchemes(t) {
		keyType, on := s.info.Param("key_type"), s.info.Param("keygen_on")
		if keyType == "" || on == "" {
			t.Errorf("%s: key_type %q, keygen_on %q: both are required", s.info.ID(), keyType, on)
			continue
		}
		hasKeygen := slices.ContainsFunc(s.Operations(), func(op Operation) bool { return op.Name == OpKeygen })
		if hasKeygen != (on == s.info.Name) {
			t.Errorf("%s: lists keygen = %v, but keygen_on is %s", s.info.ID(), hasKeygen, on)
		}
		if hasKeygen {
			listed[keyType] = append(listed[keyType], s.info.Name)
		}
	}
	for _, s := range signSchemes(t) {
		if got := listed[s.info.Param("key_type")]; len(got) != 1 {
			t.Errorf("key type %s: keygen listed on %v, want exactly one scheme", s.info.Param("key_type"), got)
		}
	}
}

// TestSignSlowMarks: the operations that take a second or more are left out
// of the default run.
func TestSignSlowMarks(t *testing.T) {
	slow := func(name, op string) bool {
		for _, o := range Must(ByName(name))[0].Operations() {
			if o.Name == op {
				return o.Slow
			}
		}
		t.Fatalf("%s has no operation %s", name, op)
		return false
	}
	for _, tc := range []struct {
		name, op string
		slow     bool
	}{
		{"RSA-2048-PKCS1v15-SHA256", OpKeygen, false},
		{"RSA-3072-PKCS1v15-SHA256", OpKeygen, true},
		{"RSA-4096-PKCS1v15-SHA256", OpSign, false},
		{"RSA-7680-PKCS1v15-SHA256", OpSign, true},
		{"RSA-7680-PSS-SHA256", OpVerify, true},
		{"RSA-15360-PKCS1v15-SHA256", OpVerify, true},
		{"SLH-DSA-SHA2-128s", OpSign, true},
		{"SLH-DSA-SHA2-128s", OpVerify, false},
		{"SLH-DSA-SHA2-128f", OpSign, false},
		{"DSA-1024-160-SHA256", "paramgen", false},
		{"DSA-2048-224-SHA256", "paramgen", true},
		{"DSA-512", "paramgen", false},
	} {
		if got := slow(tc.name, tc.op); got != tc.slow {
			t.Errorf("%s %s: Slow = %v, want %v", tc.name, tc.op, got, tc.slow)
		}
	}
}

// TestRSATestKeys: every embedded key has its size and e = 65537, is
// consistent, and variants select distinct keys cyclically.
func TestRSATestKeys(t *testing.T) {
	for _, bits := range []int{512, 768, 1024, 2048, 3072, 4096, 7680, 15360} {
		n := rsaTestKeyCount(bits)
		if n < 2 {
			t.Errorf("RSA-%d: %d embedded keys, want at least 2 for distinct variants", bits, n)
			continue
		}
		keys := map[string]bool{}
		for v := range n {
			k, err := rsaTestKey(bits, v)
			if err != nil {
				t.Fatalf("RSA-%d variant %d: %v", bits, v, err)
			}
			if err := k.Validate(); err != nil {
				t.Errorf("RSA-%d variant %d: %v", bits, v, err)
			}
			keys[k.N.String()] = true
		}
		if len(keys) != n {
			t.Errorf("RSA-%d: %d distinct keys among %d", bits, len(keys), n)
		}
		a, _ := rsaTestKey(bits, 0)
		b, _ := rsaTestKey(bits, n)
		if !a.Equal(b) {
			t.Errorf("RSA-%d: variant %d is not variant 0 again", bits, n)
		}
	}
	if _, err := rsaTestKey(1536, 0); err == nil || !strings.Contains(err.Error(), "2048") {
		t.Errorf("missing size: error %v, want one listing the sizes there are", err)
	}
}

// TestRSASmallKeyError: below 1024 bits the error names the GODEBUG setting
// that would work, and keeps crypto/rsa's error.
func TestRSASmallKeyError(t *testing.T) {
	inner := errors.New("crypto/rsa: 512-bit keys are insecure")
	err := rsaSmallKeyError(512, inner)
	if !errors.Is(err, inner) || !strings.Contains(err.Error(), "GODEBUG=rsa1024min=0") {
		t.Errorf("got %v, want crypto/rsa's error wrapped with the GODEBUG setting", err)
	}
	if rsaSmallKeyError(2048, inner) != inner || rsaSmallKeyError(512, nil) != nil {
		t.Error("only failures below 1024 bits are annotated")
	}
}

// TestRSAKeyEncodingSizes checks the PKCS#1 size formulas against keys.
func TestRSAKeyEncodingSizes(t *testing.T) {
	for _, tc := range []struct{ bits, pub int }{
		{1024, 140}, {2048, 270}, {4096, 526}, // well-known RSAPublicKey lengths
	} {
		if got := rsaPKCS1PublicKeySize(tc.bits); got != tc.pub {
			t.Errorf("RSA-%d: public key size %d, want %d", tc.bits, got, tc.pub)
		}
	}
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	if n, max := len(x509.MarshalPKCS1PrivateKey(k)), rsaPKCS1PrivateKeyMax(1024); n > max || n < max-16 {
		t.Errorf("fresh RSA-1024 private key: %d bytes, maximum %d", n, max)
	}
}

// TestDSAGenerateParameters checks generated parameters have the FIPS 186-4
// structure (q | p-1, g of order q, bit lengths) and prime p and q.
func TestDSAGenerateParameters(t *testing.T) {
	for _, tc := range []struct{ L, N int }{{512, 160}, {768, 160}, {1024, 160}} {
		t.Run(fmt.Sprintf("L%dN%d", tc.L, tc.N), func(t *testing.T) {
			t.Parallel()
			var p dsa.Parameters
			if err := dsaGenerateParameters(&p, rand.Reader, tc.L, tc.N); err != nil {
				t.Fatal(err)
			}
			if err := dsaCheckParameters(&p, tc.L, tc.N, true); err != nil {
				t.Fatal(err)
			}
			// crypto/dsa signs and verifies with them.
			k := &dsa.PrivateKey{PublicKey: dsa.PublicKey{Parameters: p}}
			if err := dsa.GenerateKey(k, rand.Reader); err != nil {
				t.Fatal(err)
			}
			sig, err := dsaSign(k, []byte("m"))
			if err != nil || !dsaVerify(&k.PublicKey, []byte("m"), sig) {
				t.Fatalf("sign/verify with generated parameters: %v", err)
			}
		})
	}
	var p dsa.Parameters
	if err := dsaGenerateParameters(&p, rand.Reader, 512, 100); err == nil {
		t.Error("N=100 accepted")
	}
}

// TestDSACheckParametersRejects: the checker catches each broken property.
func TestDSACheckParametersRejects(t *testing.T) {
	good, err := dsaEmbeddedParameters(512, 160)
	if err != nil {
		t.Fatal(err)
	}
	plus2 := func(x *big.Int) *big.Int { return new(big.Int).Add(x, big.NewInt(2)) }
	for _, tc := range []struct {
		name         string
		p            dsa.Parameters
		wantL, wantN int
	}{
		{"q does not divide p-1", dsa.Parameters{P: good.P, Q: plus2(good.Q), G: good.G}, 512, 160},
		{"g = 1", dsa.Parameters{P: good.P, Q: good.Q, G: big.NewInt(1)}, 512, 160},
		{"g of the wrong order", dsa.Parameters{P: good.P, Q: good.Q, G: plus2(good.G)}, 512, 160},
		{"wrong L", good, 1024, 160},
	} {
		if err := dsaCheckParameters(&tc.p, tc.wantL, tc.wantN, false); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// TestDSAEmbeddedParameters: every embedded set is well-formed, with prime p
// and q.
func TestDSAEmbeddedParameters(t *testing.T) {
	for _, tc := range []struct{ L, N int }{{512, 160}, {768, 160}, {1024, 160}, {2048, 224}, {2048, 256}, {3072, 256}} {
		p, err := dsaEmbeddedParameters(tc.L, tc.N)
		if err != nil {
			t.Fatal(err)
		}
		if err := dsaCheckParameters(&p, tc.L, tc.N, true); err != nil {
			t.Errorf("L=%d N=%d: %v", tc.L, tc.N, err)
		}
	}
}

// TestDSADigestTruncation: FIPS 186-4 §4.6 signs the leftmost N bits.
func TestDSADigestTruncation(t *testing.T) {
	full := unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") // SHA-256("abc")
	for _, n := range []int{160, 224, 256} {
		q := new(big.Int).Lsh(big.NewInt(1), uint(n-1)) // any N-bit q
		if got := dsaDigest(q, []byte("abc")); hexString(got) != hexString(full[:n/8]) {
			t.Errorf("N=%d: digest %x, want the leftmost %d bits of SHA-256", n, got, n)
		}
	}
}

// TestSignRejectsForeignKeys: a key from another scheme is an error, not a
// panic.
func TestSignRejectsForeignKeys(t *testing.T) {
	ed := Must(ByName("Ed25519"))[0].(SignScheme)
	ec := Must(ByName("ECDSA-P256-SHA256"))[0].(SignScheme)
	edPub, edPriv, err := ed.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ec.Sign(edPriv, []byte("m")); err == nil || !strings.Contains(err.Error(), "GenerateKey") {
		t.Errorf("ECDSA signing with an Ed25519 key: %v, want an error naming GenerateKey", err)
	}
	if ec.Verify(edPub, []byte("m"), make([]byte, 64)) {
		t.Error("ECDSA verified with an Ed25519 key")
	}
}

// TestSignDERMax: the DER maxima for the group orders used here.
func TestSignDERMax(t *testing.T) {
	for bits, want := range map[int]int{160: 48, 224: 64, 256: 72, 384: 104, 521: 139} {
		if got := signDERMax(bits); got != want {
			t.Errorf("%d-bit order: maximum %d, want %d", bits, got, want)
		}
	}
}
