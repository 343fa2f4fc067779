package scheme

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/ProtonMail/go-crypto/openpgp/elgamal"
)

// pkePlaintextBytes is the size of every message the PKE operations encrypt:
// 32 bytes, a 256-bit symmetric key or SHA-256 digest, as in the seed002
// study.
const pkePlaintextBytes = 32

// opDecryptNoCRT is RSA decryption without the Chinese remainder theorem:
// one exponentiation by d modulo n instead of two half-size ones. The
// seed002 study found CRT up to 50 times faster on phones.
const opDecryptNoCRT = "decrypt-nocrt"

// pkeMessage is the plaintext the operations of a scheme encrypt.
func pkeMessage(name string, variant int) []byte {
	return testData(pkePlaintextBytes, name+"/plaintext", variant)
}

// ---------------------------------------------------------------- RSA

// rsaPKEScheme is RSA encryption (RSAES-OAEP with SHA-256, or
// RSAES-PKCS1-v1_5) with crypto/rsa. Its keys are the embedded test keys the
// signature family uses (rsakeys.go); key generation is timed there, once
// per modulus size, not here.
type rsaPKEScheme struct {
	info    Info
	bits    int
	oaep    bool
	vectors []rsaPKEVector
}

// rsaPKEVector is a published decryption: Ciphertext decrypts to Plaintext
// under the key (N, 65537, D) with primes P and Q. Fields but Name are hex.
type rsaPKEVector struct {
	Name                  string
	N, D, P, Q            string
	Ciphertext, Plaintext string
}

func (s *rsaPKEScheme) Info() *Info { return &s.info }

// GenerateKey makes a fresh key pair. The operations do not time it (the
// signature family's keygen does) and use embedded test keys instead.
func (s *rsaPKEScheme) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) {
	k, err := rsaGenerateKey(s.bits)
	if err != nil {
		return nil, nil, err
	}
	return &k.PublicKey, k, nil
}

func (s *rsaPKEScheme) Encrypt(pub crypto.PublicKey, msg []byte) ([]byte, error) {
	k, ok := pub.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s: public key is a %T, want an *rsa.PublicKey", s.info.Name, pub)
	}
	if s.oaep {
		return rsa.EncryptOAEP(sha256.New(), rand.Reader, k, msg, nil)
	}
	return rsa.EncryptPKCS1v15(rand.Reader, k, msg) //nolint:staticcheck // measured because the seed studies did
}

func (s *rsaPKEScheme) Decrypt(priv crypto.PrivateKey, ciphertext []byte) ([]byte, error) {
	k, ok := priv.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: private key is a %T, want an *rsa.PrivateKey", s.info.Name, priv)
	}
	return s.decrypter(k)(ciphertext)
}

// decrypter returns the decryption under k with its hash state allocated
// once, for the timed loop.
func (s *rsaPKEScheme) decrypter(k *rsa.PrivateKey) func(ct []byte) ([]byte, error) {
	if s.oaep {
		h := sha256.New()
		return func(ct []byte) ([]byte, error) { return rsa.DecryptOAEP(h, nil, k, ct, nil) }
	}
	return func(ct []byte) ([]byte, error) {
		return rsa.DecryptPKCS1v15(nil, k, ct) //nolint:staticcheck // measured because the seed studies did
	}
}

// rsaWithoutCRT returns k reduced to (n, e, d). With no primes, crypto/rsa
// builds its key with NewPrivateKeyWithoutCRT (crypto/rsa precomputeLegacy,
// Go 1.26) and decrypts with one exponentiation by d modulo n, in the same
// constant-time bigmod code the CRT path uses, so the two operations compare
// like with like. Precompute runs here, outside any timed loop.
func rsaWithoutCRT(k *rsa.PrivateKey) (*rsa.PrivateKey, error) {
	nk := &rsa.PrivateKey{PublicKey: k.PublicKey, D: k.D}
	nk.Precompute()
	if nk.Precomputed.Dp != nil || len(nk.Primes) != 0 {
		return nil, errors.New("crypto/rsa built CRT values for a key without primes: decrypt-nocrt would not measure what it says")
	}
	return nk, nil
}

// KAT decrypts the published ciphertexts with and without the CRT, and
// checks a round trip under the key the operations use.
func (s *rsaPKEScheme) KAT() error {
	for _, v := range s.vectors {
		key := &rsa.PrivateKey{
			PublicKey: rsa.PublicKey{N: new(big.Int).SetBytes(unhex(v.N)), E: rsaPublicExponent},
			D:         new(big.Int).SetBytes(unhex(v.D)),
			Primes:    []*big.Int{new(big.Int).SetBytes(unhex(v.P)), new(big.Int).SetBytes(unhex(v.Q))},
		}
		if err := key.Validate(); err != nil {
			return fmt.Errorf("%s: %w: vector %s: the published key does not validate: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		key.Precompute()
		noCRT, err := rsaWithoutCRT(key)
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		want := unhex(v.Plaintext)
		for _, k := range []struct {
			how string
			key *rsa.PrivateKey
		}{{"CRT", key}, {"no CRT", noCRT}} {
			got, err := s.Decrypt(k.key, unhex(v.Ciphertext))
			if err != nil {
				return fmt.Errorf("%s: %w: vector %s (%s): decryption failed: %v", s.info.Name, ErrKAT, v.Name, k.how, err)
			}
			if !bytes.Equal(got, want) {
				return katError(s.info.Name, v.Name+" ("+k.how+")", got, want)
			}
		}
	}
	k, err := rsaTestKey(s.bits, 0)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", s.info.Name, ErrKAT, err)
	}
	return pkeRoundTrip(s, &k.PublicKey, k)
}

// pkeRoundTrip checks that s decrypts what it encrypts under a key pair and
// that the ciphertext has the declared size.
func pkeRoundTrip(s PKEScheme, pub crypto.PublicKey, priv crypto.PrivateKey) error {
	name := s.Info().Name
	msg := pkeMessage(name+"/kat", 0)
	ct, err := s.Encrypt(pub, msg)
	if err != nil {
		return fmt.Errorf("%s: %w: round trip: encryption failed: %v", name, ErrKAT, err)
	}
	if len(ct) != s.Info().Sizes.Ciphertext {
		return fmt.Errorf("%s: %w: round trip: a %d-byte ciphertext, want %d", name, ErrKAT, len(ct), s.Info().Sizes.Ciphertext)
	}
	got, err := s.Decrypt(priv, ct)
	if err != nil {
		return fmt.Errorf("%s: %w: round trip: decryption failed: %v", name, ErrKAT, err)
	}
	if !bytes.Equal(got, msg) {
		return katError(name, "round trip", got, msg)
	}
	return nil
}

func (s *rsaPKEScheme) Operations() []Operation {
	return []Operation{
		{Name: OpEncrypt, Input: InputNone, Prepare: s.prepareEncrypt, DistinctKeys: rsaTestKeyCount(s.bits)},
		{Name: OpDecrypt, Input: InputNone, Prepare: func(a Args) (Loop, error) { return s.prepareDecrypt(a, false) }, DistinctKeys: rsaTestKeyCount(s.bits)},
		{Name: opDecryptNoCRT, Input: InputNone, Prepare: func(a Args) (Loop, error) { return s.prepareDecrypt(a, true) }, DistinctKeys: rsaTestKeyCount(s.bits)},
	}
}

func (s *rsaPKEScheme) prepareEncrypt(a Args) (Loop, error) {
	k, err := rsaTestKey(s.bits, a.Variant)
	if err != nil {
		return nil, err
	}
	pub, msg := &k.PublicKey, pkeMessage(s.info.Name, a.Variant)
	if s.oaep {
		h := sha256.New()
		return func(n int) error {
			for range n {
				if _, err := rsa.EncryptOAEP(h, rand.Reader, pub, msg, nil); err != nil {
					return err
				}
			}
			return nil
		}, nil
	}
	return func(n int) error {
		for range n {
			if _, err := rsa.EncryptPKCS1v15(rand.Reader, pub, msg); err != nil { //nolint:staticcheck // measured because the seed studies did
				return err
			}
		}
		return nil
	}, nil
}

func (s *rsaPKEScheme) prepareDecrypt(a Args, noCRT bool) (Loop, error) {
	k, err := rsaTestKey(s.bits, a.Variant)
	if err != nil {
		return nil, err
	}
	k.Precompute()
	if noCRT {
		if k, err = rsaWithoutCRT(k); err != nil {
			return nil, err
		}
	}
	msg := pkeMessage(s.info.Name, a.Variant)
	ct, err := s.Encrypt(&k.PublicKey, msg)
	if err != nil {
		return nil, err
	}
	decrypt := s.decrypter(k)
	// One decryption before timing: a key this path cannot use fails here.
	if got, err := decrypt(ct); err != nil || !bytes.Equal(got, msg) {
		return nil, fmt.Errorf("%s: decrypting a fresh ciphertext gave %x, %v; want the plaintext %x", s.info.Name, got, err, msg)
	}
	return func(n int) error {
		for range n {
			if _, err := decrypt(ct); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

func newRSAPKE(bits int, oaep bool, sec Security, legacy, standard string, vectors ...rsaPKEVector) *rsaPKEScheme {
	name, padding := "RSA-"+itoa(bits)+"-PKCS1v15", "PKCS#1 v1.5 (RFC 8017 §7.2)"
	if oaep {
		name, padding = "RSA-"+itoa(bits)+"-OAEP-SHA256", "OAEP with SHA-256, MGF1-SHA-256, empty label (RFC 8017 §7.1)"
	}
	return &rsaPKEScheme{
		info: Info{
			Name: name, Family: FamilyPKE, Provider: ProviderGo,
			Params: []Param{
				{"modulus_bits", itoa(bits)},
				{"public_exponent", itoa(rsaPublicExponent)},
				{"padding", padding},
				{"plaintext_bytes", itoa(pkePlaintextBytes)},
			},
			Security: sec, Legacy: legacy, Standard: standard,
			Sizes: Sizes{PublicKey: rsaPKCS1PublicKeySize(bits), Ciphertext: bits / 8},
		},
		bits: bits, oaep: oaep, vectors: vectors,
	}
}

// ---------------------------------------------------------------- ElGamal

// elgamalScheme is ElGamal encryption with ProtonMail's OpenPGP package,
// which pads the message PKCS#1 v1.5 style (type 2) before multiplying it
// by y^k. The package has no key generation; generate below makes keys in a
// fixed standard group, or, for the sizes no standard group has, in a fresh
// group per key.
type elgamalScheme struct {
	info    Info
	bits    int
	group   *elgamalGroup // nil: a new Schnorr group for every key
	vectors []elgamalVector

	mu   sync.Mutex
	keys map[int]elgamalKey // per Args.Variant, made on first use
}

// elgamalGroup is a prime p and a generator g of a subgroup of Z_p*.
// Private exponents are drawn from [1, xBound−1].
type elgamalGroup struct {
	p, g   *big.Int
	q      *big.Int // the order of g; nil when not stored (the safe-prime groups)
	xBound *big.Int
}

// elgamalVector is a known answer: Ciphertext (c1 ‖ c2, each as long as p)
// decrypts to Plaintext under private key X, whose public key is Y.
type elgamalVector struct {
	Name                  string
	X, Y                  string
	Ciphertext, Plaintext string
}

// elgamalStandardGroup returns the group of a published safe prime p with
// generator 2. Private exponents are in [1, p−2], the range of ElGamal's
// paper (IEEE Trans. IT-31(4), 1985).
func elgamalStandardGroup(pHex string) *elgamalGroup {
	p := new(big.Int).SetBytes(unhex(pHex))
	return &elgamalGroup{p: p, g: big.NewInt(2), xBound: new(big.Int).Sub(p, big.NewInt(1))}
}

// The Oakley/MODP groups: p = 2^n − 2^(n−64) − 1 + 2^64·(⌊2^(n−130)·π⌋ + k),
// safe primes with generator 2 (k = 129093 for n = 1024, 124476 for 2048).
var (
	// elgamalGroup1024 is RFC 2409 §6.2, the Second Oakley Group (1024-bit MODP).
	elgamalGroup1024 = elgamalStandardGroup(
		"FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD" +
			"EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED" +
			"EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF")
	// elgamalGroup2048 is RFC 3526 §3, the 2048-bit MODP group (group 14).
	elgamalGroup2048 = elgamalStandardGroup(
		"FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD" +
			"EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED" +
			"EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F" +
			"83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B" +
			"E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510" +
			"15728E5A8AACAA68FFFFFFFFFFFFFFFF")
)

// elgamalSubgroupBits is the size of q in the per-key groups: 160 bits, the
// smallest DSA subgroup (FIPS 186-4 §4.2, L = 1024, N = 160).
const elgamalSubgroupBits = 160

// elgamalPrimeRounds is the Miller-Rabin rounds for p in the per-key
// groups: 40, what FIPS 186-4 Table C.1 asks for a 1024-bit DSA p (q comes
// from crypto/rand.Prime). big.Int's ProbablyPrime adds a Baillie-PSW test.
const elgamalPrimeRounds = 40

// elgamalSchnorrGroup makes a group for one key at a size no standard group
// has (512 and 768 bits; L a multiple of 8). A safe prime, as Bouncy
// Castle's ElGamal parameter generator makes, is far slower to find (both q
// and 2q + 1 must be prime); instead this follows the
// DSA construction of FIPS 186-4 A.1.1.2 (as crypto/dsa.GenerateParameters
// does), with random candidates in place of its seeded hash: q is a random
// N-bit prime, p = X − (X mod 2q) + 1 for random L-bit X until p is prime,
// and g = h^((p−1)/q) mod p for the first h ≥ 2 with g ≠ 1. g then generates
// the subgroup of order q, and private exponents are in [1, q−1].
func elgamalSchnorrGroup(L, N int) (*elgamalGroup, error) {
	if L%8 != 0 {
		return nil, fmt.Errorf("elgamal: a %d-bit group: want a multiple of 8 bits", L)
	}
	one := big.NewInt(1)
	buf := make([]byte, L/8)
	for {
		q, err := rand.Prime(rand.Reader, N)
		if err != nil {
			return nil, err
		}
		twoQ := new(big.Int).Lsh(q, 1)
		p, rem := new(big.Int), new(big.Int)
		// FIPS 186-4 A.1.1.2 step 11: 4L candidates for p, then a new q.
		for range 4 * L {
			if _, err := rand.Read(buf); err != nil {
				return nil, err
			}
			buf[0] |= 0x80 // an L-bit X
			p.SetBytes(buf)
			p.Sub(p, rem.Sub(rem.Mod(p, twoQ), one)) // p ≡ 1 (mod 2q)
			if p.BitLen() != L || !p.ProbablyPrime(elgamalPrimeRounds) {
				continue
			}
			e := new(big.Int).Div(new(big.Int).Sub(p, one), q)
			g := new(big.Int)
			for h := int64(2); ; h++ {
				if g.Exp(big.NewInt(h), e, p); g.Cmp(one) != 0 {
					break
				}
			}
			return &elgamalGroup{p: p, g: g, q: q, xBound: q}, nil
		}
	}
}

func (s *elgamalScheme) Info() *Info { return &s.info }

// elgamalKey is a private key and the group it belongs to.
type elgamalKey struct {
	*elgamal.PrivateKey
	group *elgamalGroup
}

// generate makes a key pair: x uniform in [1, xBound−1], y = g^x mod p.
func (s *elgamalScheme) generate() (elgamalKey, error) {
	grp := s.group
	if grp == nil {
		var err error
		if grp, err = elgamalSchnorrGroup(s.bits, elgamalSubgroupBits); err != nil {
			return elgamalKey{}, err
		}
	}
	x, err := rand.Int(rand.Reader, new(big.Int).Sub(grp.xBound, big.NewInt(1)))
	if err != nil {
		return elgamalKey{}, err
	}
	x.Add(x, big.NewInt(1))
	return elgamalKey{&elgamal.PrivateKey{
		PublicKey: elgamal.PublicKey{G: grp.g, P: grp.p, Y: new(big.Int).Exp(grp.g, x, grp.p)},
		X:         x,
	}, grp}, nil
}

func (s *elgamalScheme) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) {
	k, err := s.generate()
	if err != nil {
		return nil, nil, err
	}
	return &k.PublicKey, k.PrivateKey, nil
}

// key returns the key pair of a variant, generating it on first use: the
// timed operations of one variant share one key pair, as seed002 did.
func (s *elgamalScheme) key(variant int) (elgamalKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.keys[variant]; ok {
		return k, nil
	}
	k, err := s.generate()
	if err != nil {
		return elgamalKey{}, err
	}
	if s.keys == nil {
		s.keys = map[int]elgamalKey{}
	}
	s.keys[variant] = k
	return k, nil
}

// Encrypt returns c1 ‖ c2, each left-padded to the length of p.
func (s *elgamalScheme) Encrypt(pub crypto.PublicKey, msg []byte) ([]byte, error) {
	k, ok := pub.(*elgamal.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s: public key is a %T, want an *elgamal.PublicKey", s.info.Name, pub)
	}
	c1, c2, err := elgamal.Encrypt(rand.Reader, k, msg)
	if err != nil {
		return nil, err
	}
	size := (k.P.BitLen() + 7) / 8
	out := make([]byte, 2*size)
	c1.FillBytes(out[:size])
	c2.FillBytes(out[size:])
	return out, nil
}

func (s *elgamalScheme) Decrypt(priv crypto.PrivateKey, ciphertext []byte) ([]byte, error) {
	k, ok := priv.(*elgamal.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: private key is a %T, want an *elgamal.PrivateKey", s.info.Name, priv)
	}
	c1, c2, err := elgamalSplit(k, ciphertext)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.info.Name, err)
	}
	return elgamal.Decrypt(k, c1, c2)
}

// elgamalSplit parses c1 ‖ c2.
func elgamalSplit(k *elgamal.PrivateKey, ct []byte) (c1, c2 *big.Int, err error) {
	size := (k.P.BitLen() + 7) / 8
	if len(ct) != 2*size {
		return nil, nil, fmt.Errorf("ciphertext is %d bytes, want %d (c1 and c2, %d bytes each)", len(ct), 2*size, size)
	}
	return new(big.Int).SetBytes(ct[:size]), new(big.Int).SetBytes(ct[size:]), nil
}

// KAT decrypts the known ciphertexts of the fixed groups, checks the group
// and key the operations use, and checks a round trip under that key.
func (s *elgamalScheme) KAT() error {
	for _, v := range s.vectors {
		x := new(big.Int).SetBytes(unhex(v.X))
		k := &elgamal.PrivateKey{
			PublicKey: elgamal.PublicKey{G: s.group.g, P: s.group.p, Y: new(big.Int).Exp(s.group.g, x, s.group.p)},
			X:         x,
		}
		if y, want := k.Y.FillBytes(make([]byte, len(unhex(v.Y)))), unhex(v.Y); !bytes.Equal(y, want) {
			return katError(s.info.Name, v.Name+" (y = g^x)", y, want)
		}
		got, err := s.Decrypt(k, unhex(v.Ciphertext))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: decryption failed: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		if want := unhex(v.Plaintext); !bytes.Equal(got, want) {
			return katError(s.info.Name, v.Name, got, want)
		}
	}
	k, err := s.key(0)
	if err != nil {
		return fmt.Errorf("%s: %w: key generation: %v", s.info.Name, ErrKAT, err)
	}
	if err := s.checkKey(k); err != nil {
		return fmt.Errorf("%s: %w: generated key: %v", s.info.Name, ErrKAT, err)
	}
	return pkeRoundTrip(s, &k.PublicKey, k.PrivateKey)
}

// checkKey verifies a generated key: the group's sizes and equations, the
// range of x, and y = g^x.
func (s *elgamalScheme) checkKey(k elgamalKey) error {
	one := big.NewInt(1)
	p, g, grp := k.P, k.G, k.group
	if p.BitLen() != s.bits {
		return fmt.Errorf("p has %d bits, want %d", p.BitLen(), s.bits)
	}
	if s.group != nil && grp != s.group {
		return errors.New("the key is not in the scheme's group")
	}
	if s.group == nil {
		// A per-key group: q is a 160-bit prime dividing p − 1 and g ≠ 1 has
		// order q (q prime, so g^q = 1 suffices).
		q := grp.q
		switch {
		case q.BitLen() != elgamalSubgroupBits:
			return fmt.Errorf("q has %d bits, want %d", q.BitLen(), elgamalSubgroupBits)
		case !q.ProbablyPrime(20) || !p.ProbablyPrime(20):
			return errors.New("p or q is not prime")
		case new(big.Int).Mod(new(big.Int).Sub(p, one), q).Sign() != 0:
			return errors.New("q does not divide p − 1")
		case g.Cmp(one) <= 0 || new(big.Int).Exp(g, q, p).Cmp(one) != 0:
			return errors.New("g does not generate the subgroup of order q")
		}
	}
	if k.X.Sign() <= 0 || k.X.Cmp(grp.xBound) >= 0 {
		return errors.New("x is out of range")
	}
	if new(big.Int).Exp(g, k.X, p).Cmp(k.Y) != 0 {
		return errors.New("y ≠ g^x mod p")
	}
	return nil
}

func (s *elgamalScheme) Operations() []Operation {
	ops := []Operation{{
		Name:  OpKeygen,
		Input: InputNone,
		Prepare: func(Args) (Loop, error) {
			return func(n int) error {
				for range n {
					if _, err := s.generate(); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}}
	if s.group == nil {
		// seed002 generated ElGamal keys at 512 and 768 bits but encrypted
		// only at 1024.
		return ops
	}
	return append(ops,
		Operation{Name: OpEncrypt, Input: InputNone, Prepare: func(a Args) (Loop, error) {
			k, err := s.key(a.Variant)
			if err != nil {
				return nil, err
			}
			pub, msg := &k.PublicKey, pkeMessage(s.info.Name, a.Variant)
			return func(n int) error {
				for range n {
					if _, _, err := elgamal.Encrypt(rand.Reader, pub, msg); err != nil {
						return err
					}
				}
				return nil
			}, nil
		}},
		Operation{Name: OpDecrypt, Input: InputNone, Prepare: func(a Args) (Loop, error) {
			k, err := s.key(a.Variant)
			if err != nil {
				return nil, err
			}
			msg := pkeMessage(s.info.Name, a.Variant)
			ct, err := s.Encrypt(&k.PublicKey, msg)
			if err != nil {
				return nil, err
			}
			c1, c2, err := elgamalSplit(k.PrivateKey, ct)
			if err != nil {
				return nil, err
			}
			if got, err := elgamal.Decrypt(k.PrivateKey, c1, c2); err != nil || !bytes.Equal(got, msg) {
				return nil, fmt.Errorf("%s: decrypting a fresh ciphertext gave %x, %v; want the plaintext %x", s.info.Name, got, err, msg)
			}
			return func(n int) error {
				for range n {
					if _, err := elgamal.Decrypt(k.PrivateKey, c1, c2); err != nil {
						return err
					}
				}
				return nil
			}, nil
		}},
	)
}

// Registrations. RSA security strengths are SP 800-57 Pt 1 Rev 5 Table 2
// (RSA-1024 ↔ 80, 2048 ↔ 112, 3072 ↔ 128 bits), and the same for the
// prime-field ElGamal groups (DH-1024 ↔ 80, DH-2048 ↔ 112).
func init() {
	const (
		below112 = "80-bit security (SP 800-57 Table 2): below the 112-bit floor"
		bleich   = "PKCS #1 v1.5 encryption padding: Bleichenbacher's chosen-ciphertext padding oracle (Crypto 1998; ROBOT 2017); RFC 8017 §7 keeps it only for compatibility and requires OAEP for new applications"
		oaepStd  = "RFC 8017 RSAES-OAEP, SHA-256 and MGF1-SHA-256"
		pkcs1Std = "RFC 8017 RSAES-PKCS1-v1_5"
	)
	for _, s := range []*rsaPKEScheme{
		newRSAPKE(1024, false, Security{Bits: 80}, below112+"; "+bleich,
			pkcs1Std+" (vectors: RSA Laboratories pkcs1v15crypt-vectors.txt Example 1.1)", rsaVectorPKCS1v15_1024),
		newRSAPKE(2048, false, Security{Bits: 112}, bleich,
			pkcs1Std+" (vectors: Wycheproof rsa_pkcs1_2048_test.json tcId 7)", rsaVectorPKCS1v15_2048),
		newRSAPKE(1024, true, Security{Bits: 80}, below112,
			oaepStd+" (vectors: Wycheproof rsa_oaep_misc_test.json tcId 38)", rsaVectorOAEP1024),
		newRSAPKE(2048, true, Security{Bits: 112}, "",
			oaepStd+" (vectors: Wycheproof rsa_oaep_2048_sha256_mgf1sha256_test.json tcId 7)", rsaVectorOAEP2048),
		newRSAPKE(3072, true, Security{Bits: 128}, "",
			oaepStd+" (vectors: Wycheproof rsa_oaep_3072_sha256_mgf1sha256_test.json tcId 7)", rsaVectorOAEP3072),
	} {
		register(s)
	}

	const (
		elgamalStd = "ElGamal, IEEE Trans. IT-31(4) 1985, with OpenPGP's PKCS #1 v1.5 padding (RFC 4880 §13.1); "
		vectors    = "vectors: ciphertexts computed with CPython's pow() from a fixed x, k and padding, and a generated key checked against the group's equations"
		padOracle  = "PKCS #1 v1.5 padding inside (OpenPGP ElGamal): decryption is a padding oracle (Bleichenbacher, Crypto 1998), and textbook ElGamal is malleable"
		perKey     = "per key: a Schnorr group with a 160-bit q (FIPS 186-4 A.1.1.2 construction), x in [1, q−1]"
	)
	for _, s := range []*elgamalScheme{
		newElGamal(512, nil, Security{Bits: 0, Note: "512-bit prime-field discrete logarithms are practical (Logjam, Adrian et al., CCS 2015)"},
			"broken: 512-bit discrete logarithms are practical (Logjam 2015); "+padOracle,
			elgamalStd+"group: "+perKey+" ("+vectors+")"),
		newElGamal(768, nil, Security{Bits: 0, Note: "a 768-bit prime-field discrete logarithm was computed in 2016 (Kleinjung et al., Eurocrypt 2017); below SP 800-57's 80-bit row"},
			"broken: 768-bit discrete logarithms have been computed (2016); "+padOracle,
			elgamalStd+"group: "+perKey+" ("+vectors+")"),
		newElGamal(1024, elgamalGroup1024, Security{Bits: 80}, below112+"; "+padOracle,
			elgamalStd+"group: RFC 2409 §6.2 Oakley Group 2, g = 2 ("+vectors+")", elgamalVector1024),
		newElGamal(2048, elgamalGroup2048, Security{Bits: 112}, padOracle,
			elgamalStd+"group: RFC 3526 §3 2048-bit MODP group, g = 2 ("+vectors+")", elgamalVector2048),
	} {
		register(s)
	}
}

// newElGamal describes ElGamal over a bits-long prime; group nil means a
// fresh group per key.
func newElGamal(bits int, group *elgamalGroup, sec Security, legacy, standard string, vectors ...elgamalVector) *elgamalScheme {
	groupParam, xRange := "per key (Schnorr group, 160-bit q)", "[1, q−1]"
	switch group {
	case elgamalGroup1024:
		groupParam, xRange = "RFC 2409 Oakley Group 2", "[1, p−2]"
	case elgamalGroup2048:
		groupParam, xRange = "RFC 3526 2048-bit MODP (group 14)", "[1, p−2]"
	}
	return &elgamalScheme{
		info: Info{
			Name: "ElGamal-" + itoa(bits), Family: FamilyPKE, Provider: Provider("protonmail/go-crypto"),
			Params: []Param{
				{"modulus_bits", itoa(bits)},
				{"group", groupParam},
				{"private_exponent", xRange},
				{"plaintext_bytes", itoa(pkePlaintextBytes)},
			},
			Security: sec, Legacy: legacy, Standard: standard,
			// The public key is y alone (p and g are domain parameters), the
			// ciphertext c1 ‖ c2, each as long as p.
			Sizes: Sizes{PublicKey: bits / 8, Ciphertext: 2 * bits / 8},
		},
		bits: bits, group: group, vectors: vectors,
	}
}

// ---------------------------------------------------------------- vectors

// The RSA vectors: Wycheproof's (github.com/C2SP/wycheproof testvectors_v1)
// and RSA Laboratories' PKCS #1 v2.1 set. All decrypt the same with
// OpenSSL 3.0 (openssl pkeyutl -decrypt).

var rsaVectorOAEP1024 = rsaPKEVector{
	Name: "Wycheproof rsa_oaep_misc_test.json tcId 38",
	N: "00ac9048a7a4f560af91b4fcaf62a14595cb9ca9ec12000fc845e48572113cab2890adb011a919575a40760d1f23fe92" +
		"509c8a5810b6d05990b909dd0f4c6014f2b31b6abd805bace99816e2eda41fd7b95405db7c5c8f4cf6babb14f550d5d0" +
		"dd5179b54951fff6aa9686f30f478db649b7c7044cc202dccad00343468eaacfbf",
	D: "0c3a6e6d339cd03010d0b4f941e4b0bdc132df8a7cb6db010d4078db2a8a87bfa871c1a0d05a1d1040188a46198c6023" +
		"533c7a108458b654e4c97e3f41615ed754fcde469aabc70669e5473903bd5fb8c4e9ae0e5c35ed41fb86167c18ee9f60" +
		"b21eee6c5e3096eb1c652831f8e45d598c3a29d30c96f3a68db30591fd9b637d",
	P: "00d397dcfab4919db23bb6b88c4511516f6135e1118277e496130f0cab3a75661010cc98ec8f40cdb0c1ab612c03bbe3" +
		"b023d891f46185788fb114437c8a9ae71d",
	Q: "00d0c7805159509ddad70f35b9a76c7c2bd95a844d36b76d96138cfc7a2a55f88072e8b10ac37463caf9bf8d1014c93a" +
		"001214d7ce230c8332fb58dadb05d52f8b",
	Ciphertext: "754fd3c7331933b8f211af97b826af802d50ae1d39984fb432719c3ee3ad7880e1fdfe18227104dd81f1a5fc0f9dd46f" +
		"828c739723c0dc68a6607983493060233183e85005b4886a0afe22d6ab0730fea2190532586196e0bab63cd08d9f5c39" +
		"1b99302e5dd0b60c9a12ce103f0bf9ae4bc19c811686d423642df2d4257d9d99",
	Plaintext: "313233343030",
}

var rsaVectorOAEP2048 = rsaPKEVector{
	Name: "Wycheproof rsa_oaep_2048_sha256_mgf1sha256_test.json tcId 7",
	N: "00a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef" +
		"5a1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c9" +
		"8e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5" +
		"c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a" +
		"1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773" +
		"066f453d1f5b4c2e9cf7820283f742b9d5",
	D: "24cdc62317f5d72a6f6ba6cc9632899b01d1ff28867d72f61688995bc855a4e420a8405250089bdb13cf8e09543827b7" +
		"48b9d27fbb2b4d9e20af8c5a6a862796d1a4cc18ad16ea678bc1bd4a83bbbe9c5e57453b5ce7388e41a3ba4ce2b77b44" +
		"38a229e954f720dae0353dc088ac8a76b26dc276f8e1b7851ddd6398ad16ff2e78195123b9b036e945c38c9d12434f6d" +
		"f76fe22359eb3e1ac9c011678fc926fad3ae475a4fffff55feb2d147e9c894f4c0e29a599e762462482d968bf4278094" +
		"5fc0d2c31c573c4431b8f4fe8b8c67bec815abd44f7a86edca1c2308737358d2c2ae5e2e0e2dadf730980262377e58b1" +
		"3b7d9992060a0bc870ccfdb4a9319ee1",
	P: "00dc431050f782e894fb5248247d98cb7d58b8d1e24f3b55d041c56e4de086b0d5bb028bda42eeb5d234d5681e5809d4" +
		"15e6a289ad4cfbf78f978f6c35814f50eebff1c5b80a69f788e81e6bab5ddaa78369d659d143ec6f17e79813a575cfad" +
		"9c569156b90113e2e9110ad9e7b48a1c9348a6e653321191290ea36cfb3a5b18f1",
	Q: "00bd1a81e7977f9898122273ae3222b598ea5fb19eb4eabc38308a5e32196603b2e500ffb79f5b886816611debc472fa" +
		"c45544070beb057c941378a6868af3b7a03d3f9880ec47d5e089b94fbde542aba9ae8d72c57088d7abf5b131f39098f7" +
		"bc160f90536abc9492fd4e06f3ed7299d4b97bb03677207d95669f140cfbc20f25",
	Ciphertext: "096958786ee7972050d67a9e4b69d6c6af7db7cc674386df725770dd29129b826e39552330104c8d71e6cc3a3014dd2f" +
		"61b54153af51b0438d447ee939f9e3c13bb8b00a37dea6a068f6c9d27e848b1be7a1eeeb3ee50b78036fba95ae46948c" +
		"a5b13f356ea24db10f60dc09e4b8bad8f766b668ef72524432080a0ce00ed676d6d5e354984b1078520412525848156d" +
		"06f0652469f95791baa3d9a798ae537094f76f976faecd5c9ce0c930a75910c63dacf63485cb4b5e7bdbcf4d80e74037" +
		"eaa1a8fe4b52930bec6be99cf6ac88cf5878dbf6859d456a95dbc34654eec425de84ca2a535d517403a9aada827e7d00" +
		"93ecfc97ed056a7652825e9a45cb2dcb",
	Plaintext: "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
}

var rsaVectorOAEP3072 = rsaPKEVector{
	Name: "Wycheproof rsa_oaep_3072_sha256_mgf1sha256_test.json tcId 7",
	N: "00c6fe23792566023c265287c5ac6f71541c0994d11d059ee6403986efa21c24b51bd91d8862f9df79a4e328e3e27c83" +
		"df260b25a9b43420affc44b51e8d7525b6f29c372a405104732007527a62ed82fac73f4892a80e09682a41a58cd34701" +
		"7f3be7d801334f92d9321aafd53b51bffabfc752cfccae0b1ee03bdaff9e428cc1c117f1ac96b4fe23f8c23e6381186a" +
		"66fd59289339ae55c4bcdadbff84abdaa532240d4e1d28b2d0481dadd3b246557ca8fe18092817730b39e6ee378ffcc8" +
		"5b19ffdc916a9b991a6b66d4a9c7bab5f5e7a3722101142e7a4108c15d573b15289e07e46eaea07b42c2abcba330e995" +
		"54b4656165bb4c0db2b6393a07eca575c51a93c4e15bdb0f747909447e3efe34c67ca8954b530e56a20a1b6d84d45ed1" +
		"bcd3aa58ec06f184ee5857aaa819e1cca9a26f4e28d6b977d33916db9896d252d1afa762e287cb0d384cc75bfe53f4e9" +
		"22d02dd0a481c042e2d306b4b3c189371e575b25e0005a164cf69dd0976e4d5be476806ea6be6084e71ab4f5ac5c1b12" +
		"03",
	D: "0f2d59fa46f271503222104df0d96d1cdba8956b9f998aa588177b25b2c90fb9aa7e94448f3bfca1f404095ddc2be008" +
		"f887581f89e981e6ba48694203cb000de4922a98f3dfda0587d75720938406fde68d7a9508f14d215f3bb38b3aa00b4a" +
		"af807ed69499c89afd39d0d86416579ca1dceb8182dc7167b0f58fbdf84d9e1bb70502ff455d5796d9c5c2e966f2bc46" +
		"cfa2e9b7d4e9e98bc055b6fad59d1fe7829c0251c7628fc4d8033f7b4a7917d312b69291bc3791a4350dda746d6c7bc1" +
		"687b5fda19e481e85e94af5187acf34a805507cf44c51843ad6b680d492d921f6925f2db860b06e495283479fdff8bf5" +
		"fe07f2e47287fe0eac0dddfa24aa6e1f6e49863a7bff1e4c2a4df05517a378a9a93e8f0f3090af3e9a8512bf456c03de" +
		"16f15dcdea48991c47a92cbb2f3dd230f3bf251f71b6e6e58966eff45a0568bcc93e246fb5deee3b8c201438fd67643f" +
		"312f46361a26fe538a12456d65e8941ccf710fc78b84c030ab4411bec06bb08c2aa12a1c4c1aa229a09a043b02cb6515",
	P: "00f5eca16e0e83696b0ed9ac8a812545daba55f20a964c4e6343604a7f2be2860fce9fa16a1cc92120939deb88dff685" +
		"50383ead851fac07ad1b2e8a9b2bb69525d96ceabb7ee83ce50f08d649107f449a14521a6893f3f3c5c5a703b2fc28bf" +
		"cfe261a4f7f450558080deaeaab651c7a9ae586c1e7f5c52cda93e40aac908e4e3357984fc116af9cbe9539bc7a8d3b3" +
		"51a73ea5c2413d1da2e0b448b454670aca89ffe73b1401e9b8554fc3f23d6c904623251a1d29962ca9b26d973345bc4c" +
		"5f",
	Q: "00cf25446f59cf512919ddbfcfa2d9670495ad92b6f295d61032057f9da6dbefc4510a623c2b47a5220082a3bc42af1a" +
		"144f98c9ee4fdae41be0ec501ccc94b2b0640191099b355611160deb327e8ace018b898025ef470e4373ec1d97f669e2" +
		"98e1d845c6553c0a546ccb168d5b510dbe6018fd4ed9a3545f9bdb81968f4a6d7c790e5c34729a8efb496086fa130024" +
		"9ab8b28f38951d7bee1c127ac3c4d0bd596edee1e9d17781dbb8227d7b5d76ce8b8bce03c5d339b9757981610848c55c" +
		"dd",
	Ciphertext: "0351794ac968e26863bfa67aa4d602c725b79ca9a4cd907a9e03c7575b975bfd99fa491b5bc3f93e1eac5b48d95090e1" +
		"0a29d9e4edce709c74886ee2d5067bcabab044e239cb4c23e1ffa8a8666fbdc706ecf49225697fb6f1a095e20dcca490" +
		"90548d9fd0b8533b090823a76ce6c8c8a139a20b3e930a8d2ef8d868fd92c086c06a86c172e40e76f9920a6de6ab2fbf" +
		"f2cbe029b685dbc20da94e84442050b0128200446bf227eca935e1bfa8c89ec3454ea3a82cc792a2512d8513f2ddaf17" +
		"2e35e735ad69a5f892ad0c216e84ea9e92129d8272db269173cbc525e61fdfa5533e2e69a4670ed95f4958c684476c20" +
		"8002667fc7f687260eb54d9cea88bbfeb7b6d7aa640cf0ad0af22ecae17034c762bf832a9e8ef090926c5ad4fe6a15b6" +
		"e5ef69da001bb7fbc608bc024bcf38e157dbb57974169bdf302ec177e48d15a1d0c919d9b8862cd91d454a96df1c7205" +
		"61928e282b9e922d0d8218d65b74bb740cb7cf7455e97a5e6bba07424382c31c37549d7f29bf7e2e23093ee861dce0ef",
	Plaintext: "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
}

var rsaVectorPKCS1v15_2048 = rsaPKEVector{
	Name: "Wycheproof rsa_pkcs1_2048_test.json tcId 7",
	N: "00b3510a2bcd4ce644c5b594ae5059e12b2f054b658d5da5959a2fdf1871b808bc3df3e628d2792e51aad5c124b43bda" +
		"453dca5cde4bcf28e7bd4effba0cb4b742bbb6d5a013cb63d1aa3a89e02627ef5398b52c0cfd97d208abeb8d7c9bce0b" +
		"beb019a86ddb589beb29a5b74bf861075c677c81d430f030c265247af9d3c9140ccb65309d07e0adc1efd15cf17e7b05" +
		"5d7da3868e4648cc3a180f0ee7f8e1e7b18098a3391b4ce7161e98d57af8a947e201a463e2d6bbca8059e5706e9dfed8" +
		"f4856465ffa712ed1aa18e888d12dc6aa09ce95ecfca83cc5b0b15db09c8647f5d524c0f2e7620a3416b9623cadc0f09" +
		"7af573261c98c8400aa12af38e43cad84d",
	D: "1a502d0eea6c7b69e21d5839101f705456ed0ef852fb47fe21071f54c5f33c8ceb066c62d727e32d26c58137329f89d3" +
		"195325b795264c195d85472f7507dbd0961d2951f935a26b34f0ac24d15490e1128a9b7138915bc7dbfa8fe396357131" +
		"c543ae9c98507368d9ceb08c1c6198a3eda7aea185a0e976cd42c22d00f003d9f19d96ea4c9afcbfe1441ccc802cfb06" +
		"89f59d804c6a4e4f404c15174745ed6cb8bc88ef0b33ba0d2a80e35e43bc90f350052e72016e75b00d357a381c9c0d46" +
		"7069ca660887c987766349fcc43460b4aa516bce079edd87ba164307b752c277ed9528ad3ba0bf1877349ed3b7966a6c" +
		"240110409bf4d0fade0c68fdadd847fd",
	P: "00ec125cf37e310a2ff46263b9b2e0629d6390005ec88913d4fb71bd4dd856124498aaeba983d7ba2bd942e64d223feb" +
		"7a23af4d605efeea6bd70d39afe99d35a3aa15e74a1768778093be0edd4a8d09b2def6dc9b67ff85764625c2e19236db" +
		"4c401ce30a2572d3ecb4f969b7ad19c522c02d774465676e1a3776c54d6248348b",
	Q: "00c2742abcd9897bd4b0b671f973fc82a8f84abf5705ff88dd41948623afe9dca60dc6543390767feaebeb539576ee8b" +
		"fa61b5fcbca94a7cef75a09150c540fa9694dd8004ad23718c889049219369c99f4458d4afc148f6f07df87324a96d9c" +
		"f7b385dd8622414a1832f9f29446f050c2d5a6407649dc41ab70e23b3dcc22c987",
	Ciphertext: "18e280e8b03d8588b923842d15fddb0493285ecd7ad2d9a9878045ce615ba07cb811fd4a0737e91ece5a63b70b1edc23" +
		"e0da939ec654333eb77e956108b040bd6b92927e25a6922d1b92302036985915fedf9fb38431bbce1feee3ec42ff15bc" +
		"4a4b6d10b3da41ec96667b81163b30b46eef4f46fb22f187da8fd536461e5594bf557a6dfc2337883bee8d6187192a3b" +
		"4bea70398b01f3ea8c1547f6c57248243365b3c46b117924d8bb6845ea382c389c648d3e65ff0b8711bbe1a6fd3bea02" +
		"8f5808725f198cda0407a0ff46b5af261a37184547250f496800e697290e39d46d6bce67b767d73a63bd98f699c18281" +
		"80abfd51a3048d050d496236edf1e99d",
	Plaintext: "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
}

var rsaVectorPKCS1v15_1024 = rsaPKEVector{
	Name: "pkcs1v15crypt-vectors.txt Example 1.1",
	N: "a8b3b284af8eb50b387034a860f146c4919f318763cd6c5598c8ae4811a1e0abc4c7e0b082d693a5e7fced675cf46685" +
		"12772c0cbc64a742c6c630f533c8cc72f62ae833c40bf25842e984bb78bdbf97c0107d55bdb662f5c4e0fab9845cb514" +
		"8ef7392dd3aaff93ae1e6b667bb3d4247616d4f5ba10d4cfd226de88d39f16fb",
	D: "53339cfdb79fc8466a655c7316aca85c55fd8f6dd898fdaf119517ef4f52e8fd8e258df93fee180fa0e4ab29693cd83b" +
		"152a553d4ac4d1812b8b9fa5af0e7f55fe7304df41570926f3311f15c4d65a732c483116ee3d3d2d0af3549ad9bf7cbf" +
		"b78ad884f84d5beb04724dc7369b31def37d0cf539e9cfcdd3de653729ead5d1",
	P: "d32737e7267ffe1341b2d5c0d150a81b586fb3132bed2f8d5262864a9cb9f30af38be448598d413a172efb802c21acf1" +
		"c11c520c2f26a471dcad212eac7ca39d",
	Q: "cc8853d1d54da630fac004f471f281c7b8982d8224a490edbeb33d3e3d5cc93c4765703d1dd791642f1f116a0dd852be" +
		"2419b2af72bfe9a030e860b0288b5d77",
	Ciphertext: "50b4c14136bd198c2f3c3ed243fce036e168d56517984a263cd66492b80804f169d210f2b9bdfb48b12f9ea05009c77d" +
		"a257cc600ccefe3a6283789d8ea0e607ac58e2690ec4ebc10146e8cbaa5ed4d5cce6fe7b0ff9efc1eabb564dbf498285" +
		"f449ee61dd7b42ee5b5892cb90601f30cda07bf26489310bcd23b528ceab3c31",
	Plaintext: "6628194e12073db03ba94cda9ef9532397d50dba79b987004afefe34",
}

// The ElGamal vectors: p and g = 2 of the scheme's group, x and k drawn
// once at random, the 32-byte message e0 .. ff padded as 02 ‖ PS ‖ 00 ‖ m
// (PS random non-zero), c1 = g^k and c2 = m·(g^x)^k mod p computed with
// CPython's built-in pow(), an implementation independent of math/big and
// of the ProtonMail package.

var elgamalVector1024 = elgamalVector{
	Name: "fixed x and k, CPython pow()",
	X: "f696ad30559715896225c5db00e0f7d7d8db5c945e8f237b3d764b374c376f82447b406a5f091a4bc741326788bd0ab2" +
		"0ee9a8fad03e62929b1ba14980953e7aa797f5ed2e46df6e3c0f863fac69d8f705a0d3d159c97270f4110e4730f1391e" +
		"8a65550d6c241487a71492a526668e00c396875d89de20a6d556fdb744e232eb",
	Y: "ff447ebf52b32bdf327e636e87610686ee51832330e4a4527246e7e821de4a583b37b0605563ac9ff29420f9f3723ba1" +
		"13eb754d7bab7bfccc5bcf21479ca52d96b9c0022f84505c362bdd3545f8559327efe6c1df5cf583413bc39528ae95e0" +
		"71fa9073d130dfd58509db92f10458ec4e4cde351934da210b82671c81d95030",
	Ciphertext: "3a4e466193e6c4f0ea74fd85e242e09f56d88ce6e42fd08eb4df573ceaf4c5ba65a0d1ad388d3c59acf07e30b7c89434" +
		"713237de7444ebeeb31d2b17a78850bdec220d543eeb1e4991ff675fbedcd5350398420734bfd9e1ad28fc2fe4052830" +
		"971da486267e77afecad9758aef5556f0cca1d662fe6596929c2b05e7230c59a4bda986e70bacd65dae443fd833068e1" +
		"9e5f4cef2804c7e3d269939c8e00afd6e3cb1256195c1dc3990c2f27a5237b718d6b432bc1f244bbfc6d269f3e2195cb" +
		"a5d9daa4de5b6ef990f25d37e8d5a33c836cbf00e38e5e9864d5acd254f4b86300c8b925959ffe665f7b5fca890a10c3" +
		"0ea41efe0f435382380dd8138ee9173c",
	Plaintext: "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
}

var elgamalVector2048 = elgamalVector{
	Name: "fixed x and k, CPython pow()",
	X: "372b42dc6680fdfe265eab3b702f213c226d474c4436206e1430de35137ffaa148a007a242dfa1574f4f4b6b84b196f5" +
		"3823d1940ff0edaa3bb2bafd0b71f071a7bed1f308f4b096f7a7b808169bd3c1679565cc6387c7bade56154dd84acd80" +
		"047edcf670dd1b9d6a5062b067cb9b17270175f2a923afe8727468f1f2ee292bdefe4c9d29eac0a88031869fb370bfd8" +
		"cfba3fa721eff40564f33c88349f0eca7ad63325404d5e5e4667c16f8f0beaa1e681dea7682bb60d9137ff3b468070df" +
		"3bce626976f0c91061bb50facec3bad04d963e07c90b391d06bf51c6c342bf2d9ea2ba3bb6d6af07814e4ebcd4e05317" +
		"f88fcdb6abe99647df52e6d19280bfa1",
	Y: "1577a1f338ffa8b01439052568c1d1ee5f63a7c2424408eeb4feb26099cf6f60b1b69ba2909cb0762fe9ec09d0e08bfe" +
		"926005b771fbb854af66bbaeb2a4fff3e2f076ca185036772938658c32c71cd7ce17e3439049c6acc68ba007fee34494" +
		"ad332b9c8d37ec716b21452b2b3856d27ebef9f7eee14dbe69835fe897dbb3336ea2b69936a0cd5551cd8034a495d635" +
		"3f0c5ed673f47943e8b11dedc09ccdfefd8c0113524b80968ce827f104a0e843025c40e64b4b3b06ddf1aa782b3676f7" +
		"94d2f0418f982b61aff52117a5726ee16acae1c89d20935db554edf5bd8c72f0e4500b94e04aaebc1a377ab6c9e43c63" +
		"ed68aef891f13c299ea31bd43af92dbf",
	Ciphertext: "d82f3c46d00dfb09b32526dfb5f5914a346579bade42579374e35e9be8fcc5f4d1edc2dca577d32b40a40e5dbc37c131" +
		"9f6e2949f7f3279345e260a1bfdbbcf9464af0991e6a047abe082b3e79f8fd03debb5c3b39c19b2f8e149d7138265188" +
		"f65cef0ba295c313c742e7c9ab2d7aa1fe75ca2e8a2efa4f032a1d3dd1405343e0b1760990736060255d717c2dca2c89" +
		"b84a3c4e09aa1a0075a0bd294f870f3d5e0a02cf8a53ff099b466f0732085ddcd084e3d30b728d721ce179e54fbc2294" +
		"d087e89de81d27909dc8596f0867d0610d2517911d4370ccdeeefb8756daa2766653ab0417838e777d3959977a22edbd" +
		"c297cda674b134d2ef2798f1a13e9040baa741a56a4891b33015f61ff5cacdfe8115677c4cdf33474ddd1b672efcfb90" +
		"259056cefe1da3e07e84445579a7820f5646666cd8b74a8118508ec7b042e102831b089586598973a54393a745d51b1a" +
		"b4b15f13696b05220d0a2cdda389f62b4a6af4db8bedcb5bf7d1949819282c70c9718246bc665a109604ace1ed63396a" +
		"aecb0974331e357814d5dadedb9915665c40644c36b56db5758362fcadcf0ad19b5d7b29d5fe217f201837366e2963cd" +
		"36b1761b2a8b93765d37240da4cce9bd87339d6c5e7e86cdb5b094e5bd2502e33e90943202a03d1d6dd58c9adc757699" +
		"6ab1848a71ead43e238129a5c39dc7dc53abf8de82f94c69a22276546e2a3d99",
	Plaintext: "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
}
