package scheme

import (
	"bytes"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func init() {
	sizeCheckers[FamilyKEX] = func(t *testing.T, s Scheme) {
		want := s.Info().Sizes
		check := func(what string, got, want int) {
			t.Helper()
			if got != want {
				t.Errorf("%s is %d bytes, declared %d", what, got, want)
			}
		}
		switch s := s.(type) {
		case *kexAgreementScheme:
			pub, priv, err := s.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			peer, _, err := s.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			shared, err := s.SharedSecret(priv, peer)
			if err != nil {
				t.Fatal(err)
			}
			check("public value", len(pub.(kexPublicKey)), want.PublicKey)
			check("private key", len(priv.(kexPrivateKey).Bytes()), want.PrivateKey)
			check("shared secret", len(shared), want.SharedSecret)
		case *kexKEMScheme:
			pub, priv, err := s.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			ct, ss, err := s.Encapsulate(pub)
			if err != nil {
				t.Fatal(err)
			}
			ss2, err := s.Decapsulate(priv, ct)
			if err != nil {
				t.Fatal(err)
			}
			check("public key", len(s.impl.publicKeyBytes(pub)), want.PublicKey)
			check("private key", len(s.impl.privateKeyBytes(priv)), want.PrivateKey)
			check("ciphertext", len(ct), want.Ciphertext)
			check("encapsulated secret", len(ss), want.SharedSecret)
			check("decapsulated secret", len(ss2), want.SharedSecret)
		default:
			t.Fatalf("%s: unknown key-exchange scheme type %T", s.Info().ID(), s)
		}
	}
}

func kexScheme[T Scheme](t *testing.T, id string) T {
	t.Helper()
	ss, err := ByName(id)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := ss[0].(T)
	if !ok {
		t.Fatalf("%s is a %T", id, ss[0])
	}
	return s
}

// flipHex flips the low bit of the last byte of a hex string.
func flipHex(h string) string {
	b := unhex(h)
	b[len(b)-1] ^= 1
	return hexString(b)
}

// TestKEXKATCatchesCorruptedVectors shows the gate can fail: each scheme
// kind, given one wrong expected value (or an invalid peer value swapped for
// a valid one), must fail its KAT with ErrKAT.
func TestKEXKATCatchesCorruptedVectors(t *testing.T) {
	agreement := func(id string, corrupt func(v []kexAgreementVector)) func(t *testing.T) Scheme {
		return func(t *testing.T) Scheme {
			s := kexScheme[*kexAgreementScheme](t, id)
			bad := *s
			vs := append([]kexAgreementVector(nil), s.vectors()...)
			corrupt(vs)
			bad.vectors = func() []kexAgreementVector { return vs }
			return &bad
		}
	}
	kemScheme := func(id, name string) func(t *testing.T) Scheme {
		return func(t *testing.T) Scheme {
			s := kexScheme[*kexKEMScheme](t, id)
			bad := *s
			v := kexVectors{}
			for k, b := range s.vectors() {
				v[k] = b
			}
			c := bytes.Clone(v[name])
			c[len(c)-1] ^= 1
			v[name] = c
			bad.vectors = func() kexVectors { return v }
			return &bad
		}
	}
	for _, tc := range []struct {
		name string
		bad  func(t *testing.T) Scheme
	}{
		{"X25519@go shared secret", agreement("X25519@go", func(v []kexAgreementVector) { v[0].Shared = flipHex(v[0].Shared) })},
		{"X25519@x/crypto public value", agreement("X25519@x/crypto", func(v []kexAgreementVector) { v[2].Public = flipHex(v[2].Public) })},
		{"ECDH-P256 off-curve point made valid", agreement("ECDH-P256", func(v []kexAgreementVector) { v[1].Peer = v[0].Peer })},
		{"X448 shared secret", agreement("X448", func(v []kexAgreementVector) { v[2].Shared = flipHex(v[2].Shared) })},
		{"ffdhe2048 shared secret", agreement("ffdhe2048", func(v []kexAgreementVector) { v[0].Shared = flipHex(v[0].Shared) })},
		{"ML-KEM-512@circl ek", kemScheme("ML-KEM-512@circl", "keygen_ek")},
		{"ML-KEM-768@go encapsulated K", kemScheme("ML-KEM-768@go", "encaps_k")},
		{"ML-KEM-1024@go strcmp K", kemScheme("ML-KEM-1024@go", "seed_k")},
		{"ML-KEM-1024@circl ACVP decapsulation K", kemScheme("ML-KEM-1024@circl", "decaps_k")},
		{"X25519MLKEM768 ML-KEM K", kemScheme("X25519MLKEM768", "decaps_k")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.bad(t).KAT(); !errors.Is(err, ErrKAT) {
				t.Fatalf("KAT with a corrupted vector returned %v, want ErrKAT", err)
			}
		})
	}
}

// TestMLKEMProvidersAgree derives the same key from the same seed with CIRCL
// and crypto/mlkem and encapsulates deterministically: both must produce the
// same bytes.
func TestMLKEMProvidersAgree(t *testing.T) {
	for _, name := range []string{"ML-KEM-768", "ML-KEM-1024"} {
		t.Run(name, func(t *testing.T) {
			circl := kexScheme[*kexKEMScheme](t, name+"@circl")
			goimpl := kexScheme[*kexKEMScheme](t, name+"@go")
			seed, m := testData(64, "agree", 0), testData(32, "agree-m", 0)
			var eks, cts [][]byte
			for _, s := range []*kexKEMScheme{circl, goimpl} {
				pub, _, err := s.impl.deriveKey(seed)
				if err != nil {
					t.Fatal(err)
				}
				ct, _, err := s.impl.encapsulateDeterministic(pub, m)
				if err != nil {
					t.Fatal(err)
				}
				eks, cts = append(eks, s.impl.publicKeyBytes(pub)), append(cts, ct)
			}
			if !bytes.Equal(eks[0], eks[1]) || !bytes.Equal(cts[0], cts[1]) {
				t.Error("CIRCL and crypto/mlkem disagree on ek or c for the same seed and m")
			}
		})
	}
}

func TestKEXRejectsForeignKeys(t *testing.T) {
	x := kexScheme[*kexAgreementScheme](t, "X25519@go")
	if _, err := x.SharedSecret("not a key", kexPublicKey(nil)); err == nil {
		t.Error("SharedSecret accepted a string as a private key")
	}
	m := kexScheme[*kexKEMScheme](t, "ML-KEM-768@go")
	c := kexScheme[*kexKEMScheme](t, "ML-KEM-768@circl")
	pub, _, err := c.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Encapsulate(pub); err == nil {
		t.Error("crypto/mlkem's Encapsulate accepted a CIRCL public key")
	}
}

// ffdhPrimeFromFormula computes RFC 7919 Appendix A's
// p = 2^b - 2^(b-64) + {[2^(b-130) e] + X} * 2^64 - 1, with floor(2^(b-130) e)
// from the series e = sum 1/k! in integers carried 64 bits past the point.
func ffdhPrimeFromFormula(b uint, x int64) *big.Int {
	scale := new(big.Int).Lsh(big.NewInt(1), b-130+64)
	e, fact := new(big.Int), big.NewInt(1)
	for k := int64(1); ; k++ {
		term := new(big.Int).Quo(scale, fact)
		if term.Sign() == 0 {
			break
		}
		e.Add(e, term)
		fact.Mul(fact, big.NewInt(k))
	}
	e.Rsh(e, 64)
	one := big.NewInt(1)
	p := new(big.Int).Lsh(one, b)
	p.Sub(p, new(big.Int).Lsh(one, b-64))
	p.Add(p, new(big.Int).Lsh(e.Add(e, big.NewInt(x)), 64))
	return p.Sub(p, one)
}

// TestFFDHPrimes checks the embedded primes against RFC 7919 Appendix A's
// definition (not against another copy of the hex), and that they are safe
// primes ((p-1)/2 prime, one Miller-Rabin round plus Baillie-PSW).
func TestFFDHPrimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		bits uint
		x    int64 // RFC 7919 §A.1-A.3
	}{
		{"ffdhe2048", 2048, 560316},
		{"ffdhe3072", 3072, 2625351},
		{"ffdhe4096", 4096, 5736041},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := kexScheme[*kexAgreementScheme](t, tc.name).impl.(*ffdhGroup)
			if want := ffdhPrimeFromFormula(tc.bits, tc.x); g.p.Cmp(want) != 0 {
				t.Fatalf("p differs from the RFC 7919 formula:\n got %x\nwant %x", g.p, want)
			}
			q := new(big.Int).Rsh(g.pMinus1, 1)
			if !g.p.ProbablyPrime(1) || !q.ProbablyPrime(1) {
				t.Error("p is not a safe prime")
			}
		})
	}
}

// TestFFDHAgainstOpenSSL agrees fresh keys of ours with OpenSSL (a real
// independent peer): OpenSSL derives from our private key and our encoded
// public value in both directions, and must get our shared secret. It also
// re-derives the embedded vectors, as testdata/kex/ffdhe.txt says they were
// made. Skipped when openssl is not installed.
func TestFFDHAgainstOpenSSL(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed")
	}
	if testing.Short() {
		t.Skip("runs openssl")
	}
	for _, name := range []string{"ffdhe2048", "ffdhe3072", "ffdhe4096"} {
		t.Run(name, func(t *testing.T) {
			s := kexScheme[*kexAgreementScheme](t, name)
			g := s.impl.(*ffdhGroup)
			dir := t.TempDir()
			write := func(file, typ string, der []byte) string {
				path := filepath.Join(dir, file)
				if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
					t.Fatal(err)
				}
				return path
			}
			derive := func(priv, peer *ffdhKey) *big.Int {
				privPath := write("priv.pem", "PRIVATE KEY", ffdhPKCS8(t, g, priv.x))
				peerPath := write("peer.pem", "PUBLIC KEY", ffdhSPKI(t, g, new(big.Int).SetBytes(peer.Public())))
				out, err := exec.Command(openssl, "pkeyutl", "-derive", "-inkey", privPath, "-peerkey", peerPath).Output()
				if err != nil {
					t.Fatalf("openssl pkeyutl -derive: %v", err)
				}
				return new(big.Int).SetBytes(out)
			}

			a, err := g.generateKey()
			if err != nil {
				t.Fatal(err)
			}
			b, err := g.generateKey()
			if err != nil {
				t.Fatal(err)
			}
			ours, err := a.derive(b.Public())
			if err != nil {
				t.Fatal(err)
			}
			for i, got := range []*big.Int{derive(a.(*ffdhKey), b.(*ffdhKey)), derive(b.(*ffdhKey), a.(*ffdhKey))} {
				if got.Cmp(new(big.Int).SetBytes(ours)) != 0 {
					t.Errorf("direction %d: openssl derived %x, we derived %x", i, got, ours)
				}
			}

			v := s.vectors()[0]
			va, err := g.newPrivateKey(unhex(v.Private))
			if err != nil {
				t.Fatal(err)
			}
			peer := &ffdhKey{group: g, y: new(big.Int).SetBytes(unhex(v.Peer))}
			if got := derive(va.(*ffdhKey), peer); got.Cmp(new(big.Int).SetBytes(unhex(v.Shared))) != 0 {
				t.Errorf("openssl re-derives the embedded vector as %x", got)
			}
		})
	}
}

// The DER OpenSSL reads for DH keys: PKCS#8 with the PKCS#3 dhKeyAgreement
// algorithm (OID 1.2.840.113549.1.3.1) and DHParameter {p, g}.
var ffdhOID = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 3, 1}

type ffdhAlgorithm struct {
	Algorithm asn1.ObjectIdentifier
	Params    struct{ P, G *big.Int }
}

func ffdhAlgorithmFor(g *ffdhGroup) ffdhAlgorithm {
	a := ffdhAlgorithm{Algorithm: ffdhOID}
	a.Params.P, a.Params.G = g.p, ffdhGenerator
	return a
}

func ffdhPKCS8(t *testing.T, g *ffdhGroup, x *big.Int) []byte {
	xDER, err := asn1.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	der, err := asn1.Marshal(struct {
		Version    int
		Algorithm  ffdhAlgorithm
		PrivateKey []byte
	}{0, ffdhAlgorithmFor(g), xDER})
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func ffdhSPKI(t *testing.T, g *ffdhGroup, y *big.Int) []byte {
	yDER, err := asn1.Marshal(y)
	if err != nil {
		t.Fatal(err)
	}
	der, err := asn1.Marshal(struct {
		Algorithm ffdhAlgorithm
		PublicKey asn1.BitString
	}{ffdhAlgorithmFor(g), asn1.BitString{Bytes: yDER, BitLength: len(yDER) * 8}})
	if err != nil {
		t.Fatal(err)
	}
	return der
}
