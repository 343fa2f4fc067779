package timesync

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/scheme"
)

// A Suite is a signature algorithm the source can sign with: a name as
// S003 and the secsywise model call it (RSA-1024, ECDSA-160, ...), the
// fixed signature length on the wire, and a key generator. Registry, not
// switch: a suite is one value in suites.
type Suite struct {
	// Name is S003's name, and the subject name's part: "RSA-1024".
	Name string
	// Scheme is what the result's subject calls the algorithm: a registry
	// scheme ("RSA-1024-PKCS1v15-SHA256"), or for the benchmarking-only
	// curves "ECDSA-secp160r1-SHA256-INSECURE".
	Scheme string
	// Params describe it in the subject (public exponent, curve, ...).
	Params map[string]string
	// SigBytes is the signature's length on the wire.
	SigBytes int
	// Insecure marks the benchmarking-only SEC 2 curves.
	Insecure bool
	// Verified names the known-answer test behind the verification.
	Verified string
	// NewKey makes a signing key pair.
	NewKey func() (Key, error)
}

// Key signs synchronisation messages and verifies them.
type Key interface {
	Sign(msg []byte) ([]byte, error)
	Verify(msg, sig []byte) bool
}

// rsaE3 is the public exponent of S003's cheap verification ("use small
// public exponents", seeds.md; RFC 8017 §3.1 allows any odd e ≥ 3).
const rsaE3 = 3

// newRSA3 is a suite of RSA PKCS#1 v1.5 with SHA-256 and e = 3: the keys
// are made here (GenerateRSA3), the signing and verification are the
// registry scheme's, whose known-answer test vouches for them and which
// work with any exponent (crypto/rsa verifies e = 3; only key generation
// insists on 65537).
func newRSA3(bits int) Suite {
	name := fmt.Sprintf("RSA-%d-PKCS1v15-SHA256", bits)
	return Suite{Name: fmt.Sprintf("RSA-%d", bits), Scheme: name, SigBytes: bits / 8,
		Params: map[string]string{"modulus_bits": fmt.Sprint(bits), "public_exponent": "3", "padding": "RSASSA-PKCS1-v1_5", "hash": "SHA-256"},
		NewKey: func() (Key, error) {
			s, err := signScheme(name)
			if err != nil {
				return nil, err
			}
			k, err := GenerateRSA3(bits)
			if err != nil {
				return nil, err
			}
			return schemeKey{s, &k.PublicKey, k, nil}, nil
		}}
}

// ecdsaP256 is the registry's ECDSA P-256 with SHA-256, its DER
// signatures carried as r ‖ s (64 B, IEEE P1363 form) on the wire.
func ecdsaP256() Suite {
	const name = "ECDSA-P256-SHA256"
	return Suite{Name: "ECDSA-P256", Scheme: name, SigBytes: 64,
		Params: map[string]string{"curve": "P-256", "hash": "SHA-256", "signature_encoding": "r ‖ s, 32 B each"},
		NewKey: func() (Key, error) {
			s, err := signScheme(name)
			if err != nil {
				return nil, err
			}
			pub, priv, err := s.GenerateKey()
			if err != nil {
				return nil, err
			}
			return schemeKey{s, pub, priv, &rawSig{size: 32}}, nil
		}}
}

// sec2 is a benchmarking-only suite on a SEC 2 curve.
func sec2(name string, c SEC2Curve) Suite {
	n := c.ScalarBytes()
	return Suite{Name: name, Scheme: "ECDSA-" + c.Params.Name + "-SHA256-INSECURE", SigBytes: 2 * n, Insecure: true,
		Params: map[string]string{"curve": c.Params.Name, "hash": "SHA-256", "curve_source": c.Source,
			"signature_encoding": fmt.Sprintf("r ‖ s, %d B each", n),
			"insecure":           "benchmarking only: variable-time math/big ECDSA on a curve too small for use (scenario/timesync/insecure_ecdsa.go)"},
		Verified: "GEC 2 §2.1 (secp160r1) and RFC 6979 §A.2.3 (P-192) known answers; OpenSSL agrees on all three curves (timesync tests)",
		NewKey: func() (Key, error) {
			k, err := GenerateInsecureKey(c, rand.Reader)
			if err != nil {
				return nil, err
			}
			return insecureKey{k}, nil
		}}
}

// suites are the algorithms, S003's names; the secsywise model's variants
// are RSA-1024, RSA-2048, ECDSA-160 and ECDSA-224 (no Go or SEC 2 v1
// implementation here has secp224r1 beside P-224's own: ECDSA-224 is not
// run).
var suites = []Suite{
	newRSA3(1024),
	newRSA3(2048),
	ecdsaP256(),
	sec2("ECDSA-128", Secp128r1),
	sec2("ECDSA-160", Secp160r1),
	sec2("ECDSA-192", Secp192r1),
}

// Suites returns every suite.
func Suites() []Suite { return slices.Clone(suites) }

// SuiteNames lists them.
func SuiteNames() []string {
	var out []string
	for _, s := range suites {
		out = append(out, s.Name)
	}
	return out
}

// LookupSuite finds a suite by name, case-insensitively.
func LookupSuite(name string) (Suite, error) {
	for _, s := range suites {
		if strings.EqualFold(s.Name, strings.TrimSpace(name)) {
			return s, nil
		}
	}
	return Suite{}, fmt.Errorf("unknown signature %q: want one of %s (ECDSA-128/160/192 are benchmarking-only SEC 2 curves)", name, strings.Join(SuiteNames(), ", "))
}

func signScheme(name string) (scheme.SignScheme, error) {
	s, err := scheme.Lookup(name)
	if err != nil {
		return nil, err
	}
	ss, ok := s.(scheme.SignScheme)
	if !ok {
		return nil, fmt.Errorf("%s is not a signature scheme", name)
	}
	return ss, nil
}

// schemeKey signs and verifies with a registry scheme; raw, if set,
// converts its DER ECDSA signatures to and from r ‖ s.
type schemeKey struct {
	s    scheme.SignScheme
	pub  any
	priv any
	raw  *rawSig
}

func (k schemeKey) Sign(msg []byte) ([]byte, error) {
	sig, err := k.s.Sign(k.priv, msg)
	if err != nil || k.raw == nil {
		return sig, err
	}
	return k.raw.fromDER(sig)
}

func (k schemeKey) Verify(msg, sig []byte) bool {
	if k.raw != nil {
		der, err := k.raw.toDER(sig)
		if err != nil {
			return false
		}
		sig = der
	}
	return k.s.Verify(k.pub, msg, sig)
}

// rawSig converts ECDSA-Sig-Value (RFC 3279 §2.2.3) to r ‖ s of size
// bytes each and back.
type rawSig struct{ size int }

func (r *rawSig) fromDER(der []byte) ([]byte, error) {
	var v struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(der, &v); err != nil || len(rest) != 0 {
		return nil, errors.New("not a DER ECDSA signature")
	}
	if v.R.Sign() <= 0 || v.S.Sign() <= 0 || v.R.BitLen() > 8*r.size || v.S.BitLen() > 8*r.size {
		return nil, errors.New("signature integers out of range")
	}
	out := make([]byte, 2*r.size)
	v.R.FillBytes(out[:r.size])
	v.S.FillBytes(out[r.size:])
	return out, nil
}

func (r *rawSig) toDER(raw []byte) ([]byte, error) {
	if len(raw) != 2*r.size {
		return nil, errors.New("wrong signature length")
	}
	return asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(raw[:r.size]), new(big.Int).SetBytes(raw[r.size:])})
}

// insecureKey hashes with SHA-256 and signs with the benchmarking-only
// ECDSA.
type insecureKey struct{ k *InsecureKey }

func (k insecureKey) Sign(msg []byte) ([]byte, error) {
	h := sha256.Sum256(msg)
	return k.k.SignDigest(h[:])
}

func (k insecureKey) Verify(msg, sig []byte) bool {
	h := sha256.Sum256(msg)
	return k.k.VerifyDigest(h[:], sig)
}

// GenerateRSA3 makes an RSA key with public exponent 3: primes p, q of
// bits/2 bits from crypto/rand.Prime (math/big's ProbablyPrime: 20
// Miller-Rabin rounds and a Baillie-PSW test), each ≡ 2 mod 3 so that 3
// is invertible modulo p − 1 and q − 1 (RFC 8017 §3.1: e coprime to
// λ(n)), n of exactly bits bits, d = 3⁻¹ mod λ(n); the key is then
// checked by crypto/rsa's Validate.
func GenerateRSA3(bits int) (*rsa.PrivateKey, error) {
	three := big.NewInt(rsaE3)
	one := big.NewInt(1)
	prime := func() (*big.Int, error) {
		for {
			p, err := rand.Prime(rand.Reader, bits/2)
			if err != nil {
				return nil, err
			}
			if new(big.Int).Mod(p, three).Int64() == 2 {
				return p, nil
			}
		}
	}
	for {
		p, err := prime()
		if err != nil {
			return nil, err
		}
		q, err := prime()
		if err != nil {
			return nil, err
		}
		n := new(big.Int).Mul(p, q)
		if p.Cmp(q) == 0 || n.BitLen() != bits {
			continue
		}
		p1, q1 := new(big.Int).Sub(p, one), new(big.Int).Sub(q, one)
		gcd := new(big.Int).GCD(nil, nil, p1, q1)
		lambda := new(big.Int).Div(new(big.Int).Mul(p1, q1), gcd)
		d := new(big.Int).ModInverse(three, lambda)
		if d == nil {
			continue
		}
		k := &rsa.PrivateKey{PublicKey: rsa.PublicKey{N: n, E: rsaE3}, D: d, Primes: []*big.Int{p, q}}
		k.Precompute()
		if err := k.Validate(); err != nil {
			return nil, fmt.Errorf("an RSA key with e = 3: %w", err)
		}
		return k, nil
	}
}
