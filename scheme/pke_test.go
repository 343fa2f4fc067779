package scheme

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp/elgamal"
)

func init() {
	sizeCheckers[FamilyPKE] = func(t *testing.T, s Scheme) {
		ps := s.(PKEScheme)
		pub, priv := pkeTestKey(t, s)
		msg := pkeMessage("size", 0)
		ct, err := ps.Encrypt(pub, msg)
		if err != nil {
			t.Fatalf("encrypt: %v", err)
		}
		if got, want := len(ct), s.Info().Sizes.Ciphertext; got != want {
			t.Errorf("ciphertext is %d bytes, declared %d", got, want)
		}
		if got, err := ps.Decrypt(priv, ct); err != nil || !bytes.Equal(got, msg) {
			t.Errorf("decrypt(encrypt(m)) = %x, %v; want m = %x", got, err, msg)
		}
		var pubSize int
		switch k := pub.(type) {
		case *rsa.PublicKey:
			pubSize = rsaPKCS1PublicKeySize(k.N.BitLen())
		case *elgamal.PublicKey:
			pubSize = (k.P.BitLen() + 7) / 8
		default:
			t.Fatalf("unexpected public key type %T", pub)
		}
		if want := s.Info().Sizes.PublicKey; pubSize != want {
			t.Errorf("public key is %d bytes, declared %d", pubSize, want)
		}
		if got := s.Info().Param("plaintext_bytes"); got != itoa(pkePlaintextBytes) {
			t.Errorf("plaintext_bytes = %q, want %d", got, pkePlaintextBytes)
		}
	}
}

// pkeTestKey returns the key pair the scheme's operations use for variant 0
// (generating RSA keys in tests would take seconds).
func pkeTestKey(t *testing.T, s Scheme) (crypto.PublicKey, crypto.PrivateKey) {
	t.Helper()
	switch s := s.(type) {
	case *rsaPKEScheme:
		k, err := rsaTestKey(s.bits, 0)
		if err != nil {
			t.Fatal(err)
		}
		return &k.PublicKey, k
	case *elgamalScheme:
		k, err := s.key(0)
		if err != nil {
			t.Fatal(err)
		}
		return &k.PublicKey, k.PrivateKey
	}
	t.Fatalf("%s: unknown PKE scheme type %T", s.Info().ID(), s)
	return nil, nil
}

// TestPKEKATCatchesACorruptedVector shows the correctness gate can fail.
func TestPKEKATCatchesACorruptedVector(t *testing.T) {
	for _, tc := range []struct {
		scheme  string
		corrupt func(s Scheme) Scheme
	}{
		{"RSA-2048-OAEP-SHA256", func(s Scheme) Scheme {
			bad := *s.(*rsaPKEScheme)
			v := bad.vectors[0]
			v.Plaintext = flipHexBit(v.Plaintext, 0)
			bad.vectors = []rsaPKEVector{v}
			return &bad
		}},
		{"RSA-1024-PKCS1v15", func(s Scheme) Scheme {
			bad := *s.(*rsaPKEScheme)
			v := bad.vectors[0]
			v.Ciphertext = flipHexBit(v.Ciphertext, 100)
			bad.vectors = []rsaPKEVector{v}
			return &bad
		}},
		{"ElGamal-1024", func(s Scheme) Scheme {
			bad := &elgamalScheme{info: *s.Info(), bits: 1024, group: elgamalGroup1024}
			v := s.(*elgamalScheme).vectors[0]
			v.Ciphertext = flipHexBit(v.Ciphertext, 200) // c2
			bad.vectors = []elgamalVector{v}
			return bad
		}},
	} {
		t.Run(tc.scheme, func(t *testing.T) {
			s := Must(Lookup(tc.scheme))
			if err := s.KAT(); err != nil {
				t.Fatalf("the intact vectors fail: %v", err)
			}
			if err := tc.corrupt(s).KAT(); !errors.Is(err, ErrKAT) {
				t.Fatalf("KAT with a corrupted vector returned %v, want ErrKAT", err)
			}
		})
	}
}

// TestRSADecryptWithoutCRT checks decrypt-nocrt really drops the CRT (no
// primes, no CRT exponents) and still decrypts, for every RSA scheme.
func TestRSADecryptWithoutCRT(t *testing.T) {
	for _, s := range All() {
		rs, ok := s.(*rsaPKEScheme)
		if !ok {
			continue
		}
		k, err := rsaTestKey(rs.bits, 1)
		if err != nil {
			t.Fatal(err)
		}
		nk, err := rsaWithoutCRT(k)
		if err != nil {
			t.Fatalf("%s: %v", rs.info.Name, err)
		}
		if nk.Primes != nil || nk.Precomputed.Dp != nil || nk.Precomputed.Qinv != nil {
			t.Errorf("%s: the non-CRT key has primes or CRT values", rs.info.Name)
		}
		msg := pkeMessage("nocrt", 1)
		ct, err := rs.Encrypt(&k.PublicKey, msg)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := rs.Decrypt(nk, ct); err != nil || !bytes.Equal(got, msg) {
			t.Errorf("%s: decrypt without CRT = %x, %v; want %x", rs.info.Name, got, err, msg)
		}
		if k.Primes == nil {
			t.Errorf("%s: rsaWithoutCRT changed the shared test key", rs.info.Name)
		}
	}
}

// TestRSAHasNoKeygenOperation: the signature family times RSA key
// generation; PKE must not register it twice.
func TestRSAHasNoKeygenOperation(t *testing.T) {
	for _, s := range All() {
		if _, ok := s.(*rsaPKEScheme); !ok {
			continue
		}
		var names []string
		for _, op := range s.Operations() {
			names = append(names, op.Name)
		}
		if want := []string{OpEncrypt, OpDecrypt, opDecryptNoCRT}; !slices.Equal(names, want) {
			t.Errorf("%s: operations %v, want %v", s.Info().ID(), names, want)
		}
	}
}

// TestElGamalStandardGroups checks the published primes were copied right:
// each is a safe prime of the stated size and 2 generates the subgroup of
// order (p−1)/2. A wrong digit would make p composite.
func TestElGamalStandardGroups(t *testing.T) {
	one := big.NewInt(1)
	for _, tc := range []struct {
		bits  int
		group *elgamalGroup
	}{{1024, elgamalGroup1024}, {2048, elgamalGroup2048}} {
		p, g := tc.group.p, tc.group.g
		q := new(big.Int).Rsh(p, 1)
		if p.BitLen() != tc.bits || !p.ProbablyPrime(20) || !q.ProbablyPrime(20) {
			t.Errorf("the %d-bit group's p is not a %d-bit safe prime", tc.bits, tc.bits)
		}
		if new(big.Int).Exp(g, q, p).Cmp(one) != 0 {
			t.Errorf("the %d-bit group: g = 2 does not have order (p−1)/2", tc.bits)
		}
		if tc.group.xBound.Cmp(new(big.Int).Sub(p, one)) != 0 {
			t.Errorf("the %d-bit group: x is not drawn from [1, p−2]", tc.bits)
		}
	}
}

// TestElGamalSchnorrGroups checks the per-key group construction and the
// keys made in it, for both sizes that use it.
func TestElGamalSchnorrGroups(t *testing.T) {
	for _, name := range []string{"ElGamal-512", "ElGamal-768"} {
		s := Must(Lookup(name)).(*elgamalScheme)
		k, err := s.generate()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.checkKey(k); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		k2, err := s.generate()
		if err != nil {
			t.Fatal(err)
		}
		if k.P.Cmp(k2.P) == 0 {
			t.Errorf("%s: two keys share p; each key should get its own group", name)
		}
		bad := k
		bad.PrivateKey = &elgamal.PrivateKey{PublicKey: k.PublicKey, X: new(big.Int).Add(k.X, big.NewInt(1))}
		if err := s.checkKey(bad); err == nil {
			t.Errorf("%s: checkKey accepted y ≠ g^x", name)
		}
	}
}

// TestElGamalOperations checks which operations each size has: all four
// generate keys (seed002 did), only the standard groups encrypt.
func TestElGamalOperations(t *testing.T) {
	for name, want := range map[string][]string{
		"ElGamal-512":  {OpKeygen},
		"ElGamal-768":  {OpKeygen},
		"ElGamal-1024": {OpKeygen, OpEncrypt, OpDecrypt},
		"ElGamal-2048": {OpKeygen, OpEncrypt, OpDecrypt},
	} {
		var names []string
		for _, op := range Must(Lookup(name)).Operations() {
			names = append(names, op.Name)
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s: operations %v, want %v", name, names, want)
		}
	}
}

// TestPKERejectsForeignKeysAndBadCiphertexts: wrong key types and
// malformed ciphertexts are errors, not panics.
func TestPKERejectsForeignKeysAndBadCiphertexts(t *testing.T) {
	rsaScheme := Must(Lookup("RSA-2048-OAEP-SHA256")).(PKEScheme)
	eg := Must(Lookup("ElGamal-1024")).(*elgamalScheme)
	egKey, err := eg.key(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rsaScheme.Encrypt(&egKey.PublicKey, []byte("m")); err == nil {
		t.Error("RSA encrypted to an ElGamal key")
	}
	if _, err := eg.Decrypt(egKey.PrivateKey, make([]byte, 100)); err == nil {
		t.Error("ElGamal decrypted a 100-byte ciphertext; want 256 bytes")
	}
	if _, err := eg.Decrypt(struct{}{}, make([]byte, 256)); err == nil {
		t.Error("ElGamal decrypted with a foreign private key")
	}
}
