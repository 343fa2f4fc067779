package scheme

// The key-exchange family: Diffie-Hellman style key agreement (ECDH over the
// NIST curves, X25519, X448 and, in ffdh.go, finite-field DH over the RFC 7919
// groups) and key encapsulation (ML-KEM from CIRCL and from the Go standard
// library, and the TLS hybrid X25519MLKEM768).
//
// Agreements time "keygen" (a fresh private scalar and its public value) and
// "derive" (the shared secret from our private key and the peer's encoded
// public value, including the validation the library does on that value:
// crypto/ecdh's on-curve check for the NIST curves, the all-zero-output check
// of RFC 7748 §6 for X25519/X448, 1 < y < p-1 for FFDH). KEMs time "keygen",
// "encaps" and "decaps".

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/rand"
	"embed"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/cloudflare/circl/dh/x448"
	"github.com/cloudflare/circl/kem"
	"github.com/cloudflare/circl/kem/hybrid"
	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"golang.org/x/crypto/curve25519"
)

// The ML-KEM and FFDH known answers are kilobytes of hex: they live in
// testdata/kex/*.txt (each file names its sources) and are compiled in, since
// KAT runs in the cryptocost binary before anything is timed.
//
//go:embed testdata/kex/*.txt
var kexVectorFiles embed.FS

// kexVectors is one vector file: value name -> bytes.
type kexVectors map[string][]byte

// kexVectorLoaders memoises kexLoadVectors, so schemes sharing a file (the
// two ML-KEM-768 providers and the hybrid) parse it once. Filled at init.
var kexVectorLoaders = map[string]func() kexVectors{}

// kexLoadVectors returns a loader for testdata/kex/<file>: lines
// "name = hex", '#' comments; the file is read on the first KAT. The files
// are compiled in, so a malformed one is a programming error and panics, like
// unhex. Call it from init only.
func kexLoadVectors(file string) func() kexVectors {
	if load, ok := kexVectorLoaders[file]; ok {
		return load
	}
	load := sync.OnceValue(func() kexVectors {
		b, err := kexVectorFiles.ReadFile("testdata/kex/" + file)
		if err != nil {
			panic("scheme: " + err.Error())
		}
		v := kexVectors{}
		for i, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			name, value, ok := strings.Cut(line, " = ")
			if !ok {
				panic(fmt.Sprintf("scheme: testdata/kex/%s:%d: want \"name = hex\"", file, i+1))
			}
			v[name] = unhex(value)
		}
		return v
	})
	kexVectorLoaders[file] = load
	return load
}

// get returns the named value; a missing name is a programming error.
func (v kexVectors) get(name string) []byte {
	b, ok := v[name]
	if !ok {
		panic("scheme: no known-answer value " + quote(name))
	}
	return b
}

// kexMismatch is katError for values that can be kilobytes long (an ML-KEM
// key): past 48 bytes it shows the lengths and 16 bytes from the first
// difference.
func kexMismatch(name, vector string, got, want []byte) error {
	if len(got) <= 48 && len(want) <= 48 {
		return katError(name, vector, got, want)
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := func(b []byte) string { return hexString(b[i:min(len(b), i+16)]) }
	return fmt.Errorf("%s: %w: vector %s: %d bytes, want %d; first difference at byte %d: got %s…, want %s…",
		name, ErrKAT, vector, len(got), len(want), i, from(got), from(want))
}

// kexFailed reports a KAT step that returned an error instead of a value.
func kexFailed(name, vector string, err error) error {
	return fmt.Errorf("%s: %w: vector %s: %v", name, ErrKAT, vector, err)
}

// ---- Key agreement ----

// kexPublicKey is an encoded public value, as it travels: a SEC 1
// uncompressed point, an RFC 7748 u-coordinate, or an FFDH y padded to the
// size of p. It is the crypto.PublicKey of the agreement schemes.
type kexPublicKey []byte

// kexPrivateKey is an agreement private key (the crypto.PrivateKey of the
// agreement schemes). Its public value is computed when the key is made.
type kexPrivateKey interface {
	Public() kexPublicKey
	// Bytes is the encoded private key (scalar or exponent).
	Bytes() []byte
	// derive validates the peer's encoded public value and computes the
	// shared secret.
	derive(peer kexPublicKey) ([]byte, error)
}

// kexAgreementImpl is one library's key agreement on one curve or group.
type kexAgreementImpl interface {
	// generateKey makes a fresh random key pair: the timed "keygen".
	generateKey() (kexPrivateKey, error)
	// newPrivateKey decodes a private key from a known-answer vector.
	newPrivateKey(b []byte) (kexPrivateKey, error)
	// keyFromSeed maps seedSize() arbitrary bytes to a valid key, for the
	// deterministic per-variant keys of the timed "derive".
	keyFromSeed(seed []byte) (kexPrivateKey, error)
	seedSize() int
}

// kexAgreementVector is a known answer: Private's public value is Public
// (not checked when empty) and its shared secret with Peer is Shared. An
// empty Shared means Peer is invalid and must be rejected.
type kexAgreementVector struct {
	Source                        string
	Private, Public, Peer, Shared string // hex
}

type kexAgreementScheme struct {
	info    Info
	impl    kexAgreementImpl
	vectors func() []kexAgreementVector
}

var _ AgreementScheme = (*kexAgreementScheme)(nil)

func (s *kexAgreementScheme) Info() *Info { return &s.info }

func (s *kexAgreementScheme) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) {
	k, err := s.impl.generateKey()
	if err != nil {
		return nil, nil, err
	}
	return k.Public(), k, nil
}

func (s *kexAgreementScheme) SharedSecret(priv crypto.PrivateKey, peer crypto.PublicKey) ([]byte, error) {
	k, ok := priv.(kexPrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: private key of type %T: want one from this scheme's GenerateKey", s.info.Name, priv)
	}
	switch p := peer.(type) {
	case kexPublicKey:
		return k.derive(p)
	case []byte:
		return k.derive(p)
	}
	return nil, fmt.Errorf("%s: peer public key of type %T: want the encoded value GenerateKey returns", s.info.Name, peer)
}

func (s *kexAgreementScheme) KAT() error {
	for _, v := range s.vectors() {
		k, err := s.impl.newPrivateKey(unhex(v.Private))
		if err != nil {
			return kexFailed(s.info.Name, v.Source, fmt.Errorf("private key rejected: %v", err))
		}
		if v.Public != "" {
			if got, want := k.Public(), unhex(v.Public); !bytes.Equal(got, want) {
				return kexMismatch(s.info.Name, v.Source+" (public value)", got, want)
			}
		}
		got, err := k.derive(unhex(v.Peer))
		switch {
		case v.Shared == "" && err == nil:
			return fmt.Errorf("%s: %w: vector %s: an invalid peer value was accepted (shared secret %x)", s.info.Name, ErrKAT, v.Source, got)
		case v.Shared == "":
			// rejected, as it must be
		case err != nil:
			return kexFailed(s.info.Name, v.Source, err)
		case !bytes.Equal(got, unhex(v.Shared)):
			return kexMismatch(s.info.Name, v.Source, got, unhex(v.Shared))
		}
	}
	return nil
}

// testKey is the deterministic key of role ("own", "peer") for a variant.
func (s *kexAgreementScheme) testKey(role string, variant int) (kexPrivateKey, error) {
	return s.impl.keyFromSeed(testData(s.impl.seedSize(), s.info.Name+"/"+role, variant))
}

func (s *kexAgreementScheme) Operations() []Operation {
	return []Operation{{
		Name:  OpKeygen,
		Input: InputNone,
		Prepare: func(Args) (Loop, error) {
			return func(n int) error {
				for range n {
					if _, err := s.impl.generateKey(); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}, {
		Name:  OpDerive,
		Input: InputNone,
		Prepare: func(a Args) (Loop, error) {
			own, err := s.testKey("own", a.Variant)
			if err != nil {
				return nil, err
			}
			peer, err := s.testKey("peer", a.Variant)
			if err != nil {
				return nil, err
			}
			peerPublic := peer.Public()
			return func(n int) error {
				for range n {
					if _, err := own.derive(peerPublic); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}}
}

func newAgreement(name string, aliases []string, p Provider, params []Param, sec Security, standard string,
	sizes Sizes, impl kexAgreementImpl, vectors func() []kexAgreementVector) *kexAgreementScheme {
	return &kexAgreementScheme{
		info: Info{
			Name: name, Aliases: aliases, Family: FamilyKEX, Provider: p,
			Params: params, Security: sec, Standard: standard, Sizes: sizes,
		},
		impl: impl, vectors: vectors,
	}
}

// kexECDH is crypto/ecdh on one curve (P-256, P-384, P-521, X25519).
type kexECDH struct {
	curve      ecdh.Curve
	scalarSize int // bytes of an encoded private key
}

type kexECDHKey struct{ *ecdh.PrivateKey }

func (c kexECDH) generateKey() (kexPrivateKey, error) {
	k, err := c.curve.GenerateKey(rand.Reader) // computes the public point too
	if err != nil {
		return nil, err
	}
	return kexECDHKey{k}, nil
}

func (c kexECDH) newPrivateKey(b []byte) (kexPrivateKey, error) {
	k, err := c.curve.NewPrivateKey(b)
	if err != nil {
		return nil, err
	}
	return kexECDHKey{k}, nil
}

func (c kexECDH) keyFromSeed(seed []byte) (kexPrivateKey, error) {
	k, err := c.newPrivateKey(seed)
	if err != nil {
		// The scalar was not below the group order (or was zero): with its
		// top byte cleared it is, on every NIST curve.
		seed[0] = 0
		return c.newPrivateKey(seed)
	}
	return k, nil
}

func (c kexECDH) seedSize() int { return c.scalarSize }

func (k kexECDHKey) Public() kexPublicKey { return k.PublicKey().Bytes() }

func (k kexECDHKey) derive(peer kexPublicKey) ([]byte, error) {
	// NewPublicKey is the validation: it rejects off-curve points, the
	// point at infinity and compressed encodings (NIST curves); ECDH rejects
	// an all-zero X25519 result (low-order peer value).
	pub, err := k.Curve().NewPublicKey(peer)
	if err != nil {
		return nil, err
	}
	return k.ECDH(pub)
}

// kexXCryptoX25519 is golang.org/x/crypto/curve25519. At the v0.59 go.mod
// requires it wraps crypto/ecdh, and X25519(scalar, point) rebuilds the key
// pair (a base-point multiplication) before the variable-base one on every
// call, so its keygen and derive each cost two scalar multiplications: what
// a program using x/crypto pays, which is why it is registered beside
// crypto/ecdh.
type kexXCryptoX25519 struct{}

type kexXCryptoX25519Key struct{ priv, pub []byte }

func (kexXCryptoX25519) generateKey() (kexPrivateKey, error) {
	priv := make([]byte, curve25519.ScalarSize)
	if _, err := rand.Read(priv); err != nil {
		return nil, err
	}
	return kexXCryptoX25519Pair(priv)
}

func (kexXCryptoX25519) newPrivateKey(b []byte) (kexPrivateKey, error) {
	return kexXCryptoX25519Pair(bytes.Clone(b))
}

// kexXCryptoX25519Pair computes priv's public value the way the package
// documents: X25519(scalar, Basepoint).
func kexXCryptoX25519Pair(priv []byte) (kexPrivateKey, error) {
	pub, err := curve25519.X25519(priv, curve25519.Basepoint)
	if err != nil {
		return nil, err
	}
	return &kexXCryptoX25519Key{priv: priv, pub: pub}, nil
}

func (c kexXCryptoX25519) keyFromSeed(seed []byte) (kexPrivateKey, error) {
	return c.newPrivateKey(seed)
}
func (kexXCryptoX25519) seedSize() int { return curve25519.ScalarSize }

func (k *kexXCryptoX25519Key) Public() kexPublicKey { return bytes.Clone(k.pub) }
func (k *kexXCryptoX25519Key) Bytes() []byte        { return bytes.Clone(k.priv) }
func (k *kexXCryptoX25519Key) derive(peer kexPublicKey) ([]byte, error) {
	return curve25519.X25519(k.priv, peer) // errors on an all-zero result
}

// kexX448 is CIRCL's X448.
type kexX448 struct{}

type kexX448Key struct{ priv, pub x448.Key }

func (kexX448) generateKey() (kexPrivateKey, error) {
	var k kexX448Key
	if _, err := rand.Read(k.priv[:]); err != nil {
		return nil, err
	}
	x448.KeyGen(&k.pub, &k.priv)
	return &k, nil
}

func (kexX448) newPrivateKey(b []byte) (kexPrivateKey, error) {
	if len(b) != x448.Size {
		return nil, fmt.Errorf("X448 private key is %d bytes, want %d", len(b), x448.Size)
	}
	var k kexX448Key
	copy(k.priv[:], b)
	x448.KeyGen(&k.pub, &k.priv)
	return &k, nil
}

func (c kexX448) keyFromSeed(seed []byte) (kexPrivateKey, error) { return c.newPrivateKey(seed) }
func (kexX448) seedSize() int                                    { return x448.Size }

func (k *kexX448Key) Public() kexPublicKey { return bytes.Clone(k.pub[:]) }
func (k *kexX448Key) Bytes() []byte        { return bytes.Clone(k.priv[:]) }
func (k *kexX448Key) derive(peer kexPublicKey) ([]byte, error) {
	if len(peer) != x448.Size {
		return nil, fmt.Errorf("X448 peer public value is %d bytes, want %d", len(peer), x448.Size)
	}
	var pub, shared x448.Key
	copy(pub[:], peer)
	if !x448.Shared(&shared, &k.priv, &pub) {
		return nil, errors.New("X448 peer public value is a low-order point (RFC 7748 §6.2)")
	}
	return shared[:], nil
}

// ---- Key encapsulation ----

// kexKEMImpl is one library's KEM. Keys are the library's own types. Besides
// the randomised operations it offers the deterministic ones FIPS 203 defines
// for testing (ML-KEM.KeyGen_internal from d||z, ML-KEM.Encaps_internal from
// m), which the KATs and the deterministic per-variant inputs use.
type kexKEMImpl interface {
	generateKey() (pub, priv any, err error)
	deriveKey(seed []byte) (pub, priv any, err error)
	encapsulate(pub any) (ct, ss []byte, err error)
	encapsulateDeterministic(pub any, m []byte) (ct, ss []byte, err error)
	decapsulate(priv any, ct []byte) (ss []byte, err error)
	parsePublicKey(b []byte) (any, error)
	publicKeyBytes(pub any) []byte
	privateKeyBytes(priv any) []byte
	seedSize() int
	encapsSeedSize() int
}

// kexExpandedKeys is implemented by KEMs that import the expanded FIPS 203
// decapsulation key (CIRCL; crypto/mlkem takes only the 64-byte seed).
type kexExpandedKeys interface {
	parsePrivateKey(b []byte) (any, error)
	publicOf(priv any) any
}

type kexKEMScheme struct {
	info    Info
	impl    kexKEMImpl
	vectors func() kexVectors
	// kat checks the algorithm's known answers; KAT adds a round trip.
	kat func(s *kexKEMScheme, v kexVectors) error
}

var _ KEMScheme = (*kexKEMScheme)(nil)

func (s *kexKEMScheme) Info() *Info { return &s.info }

func (s *kexKEMScheme) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) {
	return s.impl.generateKey()
}

func (s *kexKEMScheme) Encapsulate(pub crypto.PublicKey) ([]byte, []byte, error) {
	return s.impl.encapsulate(pub)
}

func (s *kexKEMScheme) Decapsulate(priv crypto.PrivateKey, ct []byte) ([]byte, error) {
	return s.impl.decapsulate(priv, ct)
}

func (s *kexKEMScheme) KAT() error {
	if err := s.kat(s, s.vectors()); err != nil {
		return err
	}
	// The randomised paths the timed operations use: a fresh key and a
	// fresh encapsulation must decapsulate to the same secret.
	pub, priv, err := s.impl.generateKey()
	if err != nil {
		return kexFailed(s.info.Name, "round trip", err)
	}
	ct, ss, err := s.impl.encapsulate(pub)
	if err != nil {
		return kexFailed(s.info.Name, "round trip", err)
	}
	got, err := s.impl.decapsulate(priv, ct)
	if err != nil {
		return kexFailed(s.info.Name, "round trip", err)
	}
	if !bytes.Equal(got, ss) {
		return kexMismatch(s.info.Name, "round trip (decapsulated vs encapsulated secret)", got, ss)
	}
	return nil
}

// testKey is the deterministic key pair for a variant.
func (s *kexKEMScheme) testKey(variant int) (pub, priv any, err error) {
	return s.impl.deriveKey(testData(s.impl.seedSize(), s.info.Name+"/key", variant))
}

func (s *kexKEMScheme) Operations() []Operation {
	return []Operation{{
		Name:  OpKeygen,
		Input: InputNone,
		Prepare: func(Args) (Loop, error) {
			return func(n int) error {
				for range n {
					if _, _, err := s.impl.generateKey(); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}, {
		Name:  OpEncaps,
		Input: InputNone,
		Prepare: func(a Args) (Loop, error) {
			pub, _, err := s.testKey(a.Variant)
			if err != nil {
				return nil, err
			}
			return func(n int) error {
				for range n {
					if _, _, err := s.impl.encapsulate(pub); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}, {
		Name:  OpDecaps,
		Input: InputNone,
		Prepare: func(a Args) (Loop, error) {
			pub, priv, err := s.testKey(a.Variant)
			if err != nil {
				return nil, err
			}
			m := testData(s.impl.encapsSeedSize(), s.info.Name+"/m", a.Variant)
			ct, _, err := s.impl.encapsulateDeterministic(pub, m)
			if err != nil {
				return nil, err
			}
			return func(n int) error {
				for range n {
					if _, err := s.impl.decapsulate(priv, ct); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}}
}

// kexAs converts an opaque key to the type a library wants, with an error
// that says what was passed.
func kexAs[T any](name string, key any) (T, error) {
	k, ok := key.(T)
	if !ok {
		var zero T
		return zero, fmt.Errorf("%s: key of type %T: want %v from this scheme's GenerateKey", name, key, reflect.TypeFor[T]())
	}
	return k, nil
}

// kexCIRCL is a CIRCL kem.Scheme.
type kexCIRCL struct{ kem.Scheme }

func (c kexCIRCL) generateKey() (any, any, error) { return c.GenerateKeyPair() }

func (c kexCIRCL) deriveKey(seed []byte) (any, any, error) {
	if len(seed) != c.SeedSize() { // DeriveKeyPair panics on a wrong size
		return nil, nil, fmt.Errorf("%s: seed is %d bytes, want %d", c.Name(), len(seed), c.SeedSize())
	}
	pk, sk := c.DeriveKeyPair(seed)
	return pk, sk, nil
}

func (c kexCIRCL) encapsulate(pub any) ([]byte, []byte, error) {
	pk, err := kexAs[kem.PublicKey](c.Name(), pub)
	if err != nil {
		return nil, nil, err
	}
	return c.Encapsulate(pk)
}

func (c kexCIRCL) encapsulateDeterministic(pub any, m []byte) ([]byte, []byte, error) {
	pk, err := kexAs[kem.PublicKey](c.Name(), pub)
	if err != nil {
		return nil, nil, err
	}
	return c.EncapsulateDeterministically(pk, m)
}

func (c kexCIRCL) decapsulate(priv any, ct []byte) ([]byte, error) {
	sk, err := kexAs[kem.PrivateKey](c.Name(), priv)
	if err != nil {
		return nil, err
	}
	return c.Decapsulate(sk, ct)
}

func (c kexCIRCL) parsePublicKey(b []byte) (any, error)  { return c.UnmarshalBinaryPublicKey(b) }
func (c kexCIRCL) parsePrivateKey(b []byte) (any, error) { return c.UnmarshalBinaryPrivateKey(b) }
func (c kexCIRCL) publicOf(priv any) any                 { return priv.(kem.PrivateKey).Public() }
func (c kexCIRCL) seedSize() int                         { return c.SeedSize() }
func (c kexCIRCL) encapsSeedSize() int                   { return c.EncapsulationSeedSize() }

func (c kexCIRCL) publicKeyBytes(pub any) []byte {
	b, _ := pub.(kem.PublicKey).MarshalBinary() // fails only on an uninitialised key
	return b
}

func (c kexCIRCL) privateKeyBytes(priv any) []byte {
	b, _ := priv.(kem.PrivateKey).MarshalBinary()
	return b
}

// kexGoMLKEM is crypto/mlkem at one parameter set, through the crypto.Encapsulator
// and crypto.Decapsulator interfaces its keys implement; crypto/mlkem/mlkemtest
// supplies the derandomised encapsulation (FIPS 203 ML-KEM.Encaps_internal)
// for known answers.
type kexGoMLKEM struct {
	name      string
	generate  func() (crypto.Decapsulator, error)
	fromSeed  func(seed []byte) (crypto.Decapsulator, error)
	parse     func(ek []byte) (crypto.Encapsulator, error)
	encapsDet func(ek crypto.Encapsulator, m []byte) (ss, ct []byte, err error)
}

var kexGoMLKEM768 = &kexGoMLKEM{
	name:     "ML-KEM-768",
	generate: func() (crypto.Decapsulator, error) { return mlkem.GenerateKey768() },
	fromSeed: func(s []byte) (crypto.Decapsulator, error) { return mlkem.NewDecapsulationKey768(s) },
	parse:    func(b []byte) (crypto.Encapsulator, error) { return mlkem.NewEncapsulationKey768(b) },
	encapsDet: func(ek crypto.Encapsulator, m []byte) ([]byte, []byte, error) {
		k, err := kexAs[*mlkem.EncapsulationKey768]("ML-KEM-768", ek)
		if err != nil {
			return nil, nil, err
		}
		return mlkemtest.Encapsulate768(k, m)
	},
}

var kexGoMLKEM1024 = &kexGoMLKEM{
	name:     "ML-KEM-1024",
	generate: func() (crypto.Decapsulator, error) { return mlkem.GenerateKey1024() },
	fromSeed: func(s []byte) (crypto.Decapsulator, error) { return mlkem.NewDecapsulationKey1024(s) },
	parse:    func(b []byte) (crypto.Encapsulator, error) { return mlkem.NewEncapsulationKey1024(b) },
	encapsDet: func(ek crypto.Encapsulator, m []byte) ([]byte, []byte, error) {
		k, err := kexAs[*mlkem.EncapsulationKey1024]("ML-KEM-1024", ek)
		if err != nil {
			return nil, nil, err
		}
		return mlkemtest.Encapsulate1024(k, m)
	},
}

func (g *kexGoMLKEM) keyPair(dk crypto.Decapsulator, err error) (any, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return dk.Encapsulator(), dk, nil
}

func (g *kexGoMLKEM) generateKey() (any, any, error)          { return g.keyPair(g.generate()) }
func (g *kexGoMLKEM) deriveKey(seed []byte) (any, any, error) { return g.keyPair(g.fromSeed(seed)) }

func (g *kexGoMLKEM) encapsulate(pub any) ([]byte, []byte, error) {
	ek, err := kexAs[crypto.Encapsulator](g.name, pub)
	if err != nil {
		return nil, nil, err
	}
	ss, ct := ek.Encapsulate()
	return ct, ss, nil
}

func (g *kexGoMLKEM) encapsulateDeterministic(pub any, m []byte) ([]byte, []byte, error) {
	ek, err := kexAs[crypto.Encapsulator](g.name, pub)
	if err != nil {
		return nil, nil, err
	}
	ss, ct, err := g.encapsDet(ek, m)
	return ct, ss, err
}

func (g *kexGoMLKEM) decapsulate(priv any, ct []byte) ([]byte, error) {
	dk, err := kexAs[crypto.Decapsulator](g.name, priv)
	if err != nil {
		return nil, err
	}
	return dk.Decapsulate(ct)
}

func (g *kexGoMLKEM) parsePublicKey(b []byte) (any, error) { return g.parse(b) }
func (g *kexGoMLKEM) publicKeyBytes(pub any) []byte        { return pub.(crypto.Encapsulator).Bytes() }
func (g *kexGoMLKEM) seedSize() int                        { return mlkem.SeedSize }
func (g *kexGoMLKEM) encapsSeedSize() int                  { return 32 } // FIPS 203 m is 32 bytes

// privateKeyBytes is the 64-byte seed d||z: the only form crypto/mlkem
// exports (FIPS 203 §7.1 allows storing the seed instead of dk).
func (g *kexGoMLKEM) privateKeyBytes(priv any) []byte {
	return priv.(interface{ Bytes() []byte }).Bytes()
}

// mlkemKAT checks an ML-KEM implementation against the vector file's NIST
// ACVP key generation (d||z -> ek and, where the library exports it, dk),
// encapsulation (ek, m -> c, K) and decapsulation (expanded dk, c -> K, for
// libraries that import it), and Wycheproof's decapsulation from a seed on
// the implicit-rejection path.
func mlkemKAT(s *kexKEMScheme, v kexVectors) error {
	name, impl := s.info.Name, s.impl
	seed := append(bytes.Clone(v.get("keygen_d")), v.get("keygen_z")...)
	pub, priv, err := impl.deriveKey(seed)
	if err != nil {
		return kexFailed(name, "ACVP keyGen", err)
	}
	if got, want := impl.publicKeyBytes(pub), v.get("keygen_ek"); !bytes.Equal(got, want) {
		return kexMismatch(name, "ACVP keyGen (ek)", got, want)
	}
	expanded, hasExpanded := impl.(kexExpandedKeys)
	if hasExpanded {
		if got, want := impl.privateKeyBytes(priv), v.get("keygen_dk"); !bytes.Equal(got, want) {
			return kexMismatch(name, "ACVP keyGen (dk)", got, want)
		}
	}

	ek, err := impl.parsePublicKey(v.get("encaps_ek"))
	if err != nil {
		return kexFailed(name, "ACVP encapsulation", err)
	}
	ct, ss, err := impl.encapsulateDeterministic(ek, v.get("encaps_m"))
	if err != nil {
		return kexFailed(name, "ACVP encapsulation", err)
	}
	if want := v.get("encaps_c"); !bytes.Equal(ct, want) {
		return kexMismatch(name, "ACVP encapsulation (c)", ct, want)
	}
	if want := v.get("encaps_k"); !bytes.Equal(ss, want) {
		return kexMismatch(name, "ACVP encapsulation (K)", ss, want)
	}

	if hasExpanded {
		dk, err := expanded.parsePrivateKey(v.get("decaps_dk"))
		if err != nil {
			return kexFailed(name, "ACVP decapsulation", err)
		}
		got, err := impl.decapsulate(dk, v.get("decaps_c"))
		if err != nil {
			return kexFailed(name, "ACVP decapsulation", err)
		}
		if want := v.get("decaps_k"); !bytes.Equal(got, want) {
			return kexMismatch(name, "ACVP decapsulation (K)", got, want)
		}
	}

	_, priv, err = impl.deriveKey(v.get("seed_dz"))
	if err != nil {
		return kexFailed(name, "Wycheproof strcmp", err)
	}
	got, err := impl.decapsulate(priv, v.get("seed_c"))
	if err != nil {
		return kexFailed(name, "Wycheproof strcmp", err)
	}
	if want := v.get("seed_k"); !bytes.Equal(got, want) {
		return kexMismatch(name, "Wycheproof strcmp (K)", got, want)
	}
	return nil
}

// RFC 7748 §6.1: Alice's and Bob's X25519 key pairs and their shared secret.
const (
	rfc7748AlicePrivate = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
	rfc7748AlicePublic  = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
	rfc7748BobPrivate   = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"
	rfc7748BobPublic    = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
	rfc7748Shared       = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
)

// x25519MLKEM768KAT: no known-answer vector for X25519MLKEM768 itself is
// published (and CIRCL's seed-derived keys and encapsulations expand seeds
// its own way), so this checks the composition draft-ietf-tls-ecdhe-mlkem §3
// specifies with component vectors: a private key made of NIST ACVP's
// ML-KEM-768 decapsulation key and RFC 7748 Alice's X25519 key must have the
// public key ek || Alice's public value (ek read from dk, FIPS 203 §7.1
// Algorithm 16: dk = dk_PKE || ek || H(ek) || z), and decapsulating ACVP's
// ciphertext || Bob's public value must give ACVP's K || the RFC 7748 shared
// secret. KAT adds the round trip.
func x25519MLKEM768KAT(s *kexKEMScheme, v kexVectors) error {
	name := s.info.Name
	expanded, ok := s.impl.(kexExpandedKeys)
	if !ok {
		return fmt.Errorf("%s: the implementation cannot import a FIPS 203 decapsulation key", name)
	}
	dk := v.get("decaps_dk")
	priv, err := expanded.parsePrivateKey(append(bytes.Clone(dk), unhex(rfc7748AlicePrivate)...))
	if err != nil {
		return kexFailed(name, "ACVP ML-KEM-768 dk + RFC 7748 §6.1 Alice", err)
	}
	const dkPKESize, ekSize = 384 * 3, 384*3 + 32 // FIPS 203 §8, k = 3
	wantPublic := append(bytes.Clone(dk[dkPKESize:dkPKESize+ekSize]), unhex(rfc7748AlicePublic)...)
	if got := s.impl.publicKeyBytes(expanded.publicOf(priv)); !bytes.Equal(got, wantPublic) {
		return kexMismatch(name, "ACVP ML-KEM-768 ek || RFC 7748 §6.1 Alice public", got, wantPublic)
	}
	ct := append(bytes.Clone(v.get("decaps_c")), unhex(rfc7748BobPublic)...)
	got, err := s.impl.decapsulate(priv, ct)
	if err != nil {
		return kexFailed(name, "ACVP ML-KEM-768 decapsulation + RFC 7748 §6.1", err)
	}
	if want := append(bytes.Clone(v.get("decaps_k")), unhex(rfc7748Shared)...); !bytes.Equal(got, want) {
		return kexMismatch(name, "ACVP ML-KEM-768 K || RFC 7748 §6.1 shared secret", got, want)
	}
	return nil
}

// Security strengths: NIST SP 800-57 Pt 1 Rev 5 Table 2 for the curves (ECC
// 256-383 bits: 128; 384-511: 192; 512+: 256); NIST PQC categories for
// ML-KEM from FIPS 203 §8 (category 1, 3, 5 ~ AES-128, -192, -256 key
// search), whose classical strength is taken as that AES key size.
func init() {
	curve := func(name string) []Param { return []Param{{"curve", name}} }
	const cavs = "NIST CAVS 14.1 KAS_ECC_CDH_PrimitiveTest.txt"
	offCurve := "SP 800-56A Rev 3 §5.6.2.3.4 (point not on the curve)"
	ecdhStandard := func(c string) string {
		return "NIST SP 800-56A Rev 3 §5.7.1.2 ECC CDH over SP 800-186 " + c +
			" (vectors: " + cavs + " [" + c + "] COUNT = 0; an off-curve peer point)"
	}
	vectors := func(vs ...kexAgreementVector) func() []kexAgreementVector {
		return func() []kexAgreementVector { return vs }
	}

	// CAVS [P-256] COUNT = 0: dIUT, QIUT (04||x||y), QCAVS, ZIUT.
	p256 := kexAgreementVector{Source: cavs + " [P-256] COUNT = 0",
		Private: "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		Public: "04ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230" +
			"28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
		Peer: "04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287" +
			"db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		Shared: "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"}
	p384 := kexAgreementVector{Source: cavs + " [P-384] COUNT = 0",
		Private: "3cc3122a68f0d95027ad38c067916ba0eb8c38894d22e1b15618b6818a661774ad463b205da88cf699ab4d43c9cf98a1",
		Public: "049803807f2f6d2fd966cdd0290bd410c0190352fbec7ff6247de1302df86f25d34fe4a97bef60cff548355c015dbb3e5f" +
			"ba26ca69ec2f5b5d9dad20cc9da711383a9dbe34ea3fa5a2af75b46502629ad54dd8b7d73a8abb06a3a3be47d650cc99",
		Peer: "04a7c76b970c3b5fe8b05d2838ae04ab47697b9eaf52e764592efda27fe7513272734466b400091adbf2d68c58e0c50066" +
			"ac68f19f2e1cb879aed43a9969b91a0839c4c38a49749b661efedf243451915ed0905a32b060992b468c64766fc8437a",
		Shared: "5f9d29dc5e31a163060356213669c8ce132e22f57c9a04f40ba7fcead493b457e5621e766c40a2e3d4d6a04b25e533f1"}
	// The CAVS file writes P-521 field elements with two extra leading zero
	// bytes; they are dropped here (66-byte scalars and coordinates).
	p521 := kexAgreementVector{Source: cavs + " [P-521] COUNT = 0",
		Private: "017eecc07ab4b329068fba65e56a1f8890aa935e57134ae0ffcce802735151f4eac6564f6ee9974c5e6887a1fefee5743ae2241bfeb95d5ce31ddcb6f9edb4d6fc47",
		Public: "0400602f9d0cf9e526b29e22381c203c48a886c2b0673033366314f1ffbcba240ba42f4ef38a76174635f91e6b4ed34275eb01c8467d05ca80315bf1a7bbd945f550a5" +
			"01b7c85f26f5d4b2d7355cf6b02117659943762b6d1db5ab4f1dbc44ce7b2946eb6c7de342962893fd387d1b73d7a8672d1f236961170b7eb3579953ee5cdc88cd2d",
		Peer: "0400685a48e86c79f0f0875f7bc18d25eb5fc8c0b07e5da4f4370f3a9490340854334b1e1b87fa395464c60626124a4e70d0f785601d37c09870ebf176666877a2046d" +
			"01ba52c56fc8776d9e8f5db4f0cc27636d0b741bbe05400697942e80b739884a83bde99e0f6716939e632bc8986fa18dccd443a348b6c3e522497955a4f3c302f676",
		Shared: "005fc70477c3e63bc3954bd0df3ea0d1f41ee21746ed95fc5e1fdf90930d5e136672d72cc770742d1711c3c3a4c334a0ad9759436a4d3c5bf6e74b9578fac148c831"}
	// The same peer point with y + 1: not on the curve, so it must be refused.
	notOnCurve := func(v kexAgreementVector) kexAgreementVector {
		peer := unhex(v.Peer)
		peer[len(peer)-1]++
		return kexAgreementVector{Source: offCurve, Private: v.Private, Peer: hexString(peer)}
	}

	// RFC 7748 §5.2 (scalar, u -> output; no public value to check) and §6.1.
	x25519Vectors := vectors(
		kexAgreementVector{Source: "RFC 7748 §5.2 #1",
			Private: "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
			Peer:    "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
			Shared:  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
		kexAgreementVector{Source: "RFC 7748 §5.2 #2",
			Private: "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
			Peer:    "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
			Shared:  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"},
		kexAgreementVector{Source: "RFC 7748 §6.1 Alice", Private: rfc7748AlicePrivate,
			Public: rfc7748AlicePublic, Peer: rfc7748BobPublic, Shared: rfc7748Shared},
		kexAgreementVector{Source: "RFC 7748 §6.1 Bob", Private: rfc7748BobPrivate,
			Public: rfc7748BobPublic, Peer: rfc7748AlicePublic, Shared: rfc7748Shared},
		// u = 0 has order 1: the shared secret is all zeros, which RFC 7748
		// §6.1 says implementations may (and TLS 1.3 must) reject.
		kexAgreementVector{Source: "RFC 7748 §6.1 all-zero check (u = 0)",
			Private: rfc7748AlicePrivate, Peer: strings.Repeat("00", 32)},
	)
	const x448AlicePrivate = "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b"
	const x448AlicePublic = "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0"
	const x448BobPrivate = "1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d"
	const x448BobPublic = "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609"
	const x448Shared = "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56fd2464c335543936521c24403085d59a449a5037514a879d"
	x448Vectors := vectors(
		kexAgreementVector{Source: "RFC 7748 §5.2 X448 #1",
			Private: "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
			Peer:    "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
			Shared:  "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f"},
		kexAgreementVector{Source: "RFC 7748 §5.2 X448 #2",
			Private: "203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c538345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
			Peer:    "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
			Shared:  "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d"},
		kexAgreementVector{Source: "RFC 7748 §6.2 Alice", Private: x448AlicePrivate,
			Public: x448AlicePublic, Peer: x448BobPublic, Shared: x448Shared},
		kexAgreementVector{Source: "RFC 7748 §6.2 Bob", Private: x448BobPrivate,
			Public: x448BobPublic, Peer: x448AlicePublic, Shared: x448Shared},
		kexAgreementVector{Source: "RFC 7748 §6.2 all-zero check (u = 0)",
			Private: x448AlicePrivate, Peer: strings.Repeat("00", 56)},
	)

	const rfc7748 = "RFC 7748 (vectors: RFC 7748 §5.2 and §6.1, and the §6.1 all-zero check)"
	for _, s := range []*kexAgreementScheme{
		newAgreement("ECDH-P256", []string{"ECDH-secp256r1"}, ProviderGo, curve("P-256"), Security{Bits: 128},
			ecdhStandard("P-256"), Sizes{PublicKey: 65, PrivateKey: 32, SharedSecret: 32},
			kexECDH{ecdh.P256(), 32}, vectors(p256, notOnCurve(p256))),
		newAgreement("ECDH-P384", []string{"ECDH-secp384r1"}, ProviderGo, curve("P-384"), Security{Bits: 192},
			ecdhStandard("P-384"), Sizes{PublicKey: 97, PrivateKey: 48, SharedSecret: 48},
			kexECDH{ecdh.P384(), 48}, vectors(p384, notOnCurve(p384))),
		newAgreement("ECDH-P521", []string{"ECDH-secp521r1"}, ProviderGo, curve("P-521"), Security{Bits: 256},
			ecdhStandard("P-521"), Sizes{PublicKey: 133, PrivateKey: 66, SharedSecret: 66},
			kexECDH{ecdh.P521(), 66}, vectors(p521, notOnCurve(p521))),
		newAgreement("X25519", []string{"Curve25519"}, ProviderGo, curve("Curve25519"), Security{Bits: 128},
			rfc7748, Sizes{PublicKey: 32, PrivateKey: 32, SharedSecret: 32},
			kexECDH{ecdh.X25519(), 32}, x25519Vectors),
		newAgreement("X25519", []string{"Curve25519"}, ProviderXCrypto, curve("Curve25519"), Security{Bits: 128},
			rfc7748, Sizes{PublicKey: 32, PrivateKey: 32, SharedSecret: 32},
			kexXCryptoX25519{}, x25519Vectors),
		newAgreement("X448", []string{"Curve448"}, ProviderCIRCL, curve("Curve448"), Security{Bits: 192},
			"RFC 7748 (vectors: RFC 7748 §5.2 and §6.2, and the all-zero check)",
			Sizes{PublicKey: 56, PrivateKey: 56, SharedSecret: 56},
			kexX448{}, x448Vectors),
	} {
		register(s)
	}

	category := func(c, bits int) Security {
		return Security{Bits: bits, Category: c,
			Note: "NIST PQC category " + itoa(c) + " (FIPS 203 §8): classical strength taken as AES-" + itoa(bits) + " key search"}
	}
	mlkemStandard := func(ps string) string {
		return "FIPS 203 (vectors: NIST ACVP ML-KEM-keyGen/encapDecap-FIPS203; Wycheproof mlkem_" + ps +
			"_test.json CCTV/strcmp; testdata/kex/mlkem" + ps + ".txt)"
	}
	newMLKEM := func(ps string, p Provider, sec Security, sizes Sizes, impl kexKEMImpl) *kexKEMScheme {
		return &kexKEMScheme{
			info: Info{
				Name: "ML-KEM-" + ps, Family: FamilyKEX, Provider: p,
				Params:   []Param{{"parameter_set", "ML-KEM-" + ps}},
				Security: sec, Standard: mlkemStandard(ps), Sizes: sizes,
			},
			impl: impl, vectors: kexLoadVectors("mlkem" + ps + ".txt"), kat: mlkemKAT,
		}
	}
	// FIPS 203 §8 Table 3: ek, dk, c and K sizes. crypto/mlkem encodes the
	// private key as the 64-byte seed d||z.
	sizes512 := Sizes{PublicKey: 800, PrivateKey: 1632, Ciphertext: 768, SharedSecret: 32}
	sizes768 := Sizes{PublicKey: 1184, PrivateKey: 2400, Ciphertext: 1088, SharedSecret: 32}
	sizes1024 := Sizes{PublicKey: 1568, PrivateKey: 3168, Ciphertext: 1568, SharedSecret: 32}
	seedForm := func(s Sizes) Sizes { s.PrivateKey = mlkem.SeedSize; return s }

	for _, s := range []*kexKEMScheme{
		newMLKEM("512", ProviderCIRCL, category(1, 128), sizes512, kexCIRCL{mlkem512.Scheme()}),
		newMLKEM("768", ProviderCIRCL, category(3, 192), sizes768, kexCIRCL{mlkem768.Scheme()}),
		newMLKEM("1024", ProviderCIRCL, category(5, 256), sizes1024, kexCIRCL{mlkem1024.Scheme()}),
		newMLKEM("768", ProviderGo, category(3, 192), seedForm(sizes768), kexGoMLKEM768),
		newMLKEM("1024", ProviderGo, category(5, 256), seedForm(sizes1024), kexGoMLKEM1024),
		{
			info: Info{
				Name: "X25519MLKEM768", Family: FamilyKEX, Provider: ProviderCIRCL,
				Params: []Param{{"parameter_set", "X25519MLKEM768"}, {"components", "ML-KEM-768 + X25519"}},
				Security: Security{Bits: 128, Category: 3,
					Note: "hybrid: X25519's 128 bits stand if ML-KEM-768 falls; ML-KEM-768 gives category 3 against quantum attackers"},
				Standard: "draft-ietf-tls-ecdhe-mlkem (X25519MLKEM768) (vectors: none published for the hybrid; " +
					"checked by composing NIST ACVP ML-KEM-768 decapsulation and RFC 7748 §6.1, plus a round trip)",
				// ML-KEM-768's ek/dk/c/K followed by X25519's 32-byte value.
				Sizes: Sizes{PublicKey: 1184 + 32, PrivateKey: 2400 + 32, Ciphertext: 1088 + 32, SharedSecret: 32 + 32},
			},
			impl: kexCIRCL{hybrid.X25519MLKEM768()}, vectors: kexLoadVectors("mlkem768.txt"), kat: x25519MLKEM768KAT,
		},
	} {
		register(s)
	}
}
