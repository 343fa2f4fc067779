package sensor

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/go-jose/go-jose/v4"
	"github.com/veraison/go-cose"
)

// Alg is a signature algorithm a sensor can hold a key for, with its names
// in COSE (RFC 9053 §2), JOSE (RFC 7518 §3.1, RFC 8037 §3.1) and the
// scheme registry (for device costs).
type Alg struct {
	// Name is the JOSE/COSE name the command line and subjects use.
	Name string
	// Scheme is the registry scheme it is (scheme.Lookup), which device
	// profiles and the energy package know costs by.
	Scheme   string
	COSE     cose.Algorithm
	JOSE     jose.SignatureAlgorithm
	generate func() (crypto.Signer, error)
}

// Algs are the signature algorithms, a registry: ES256 (ECDSA P-256 with
// SHA-256, the algorithm RFC 7925 §4.4 and the sensor-reading model use)
// and EdDSA with Ed25519 (RFC 8032).
var Algs = []*Alg{
	{Name: "ES256", Scheme: "ECDSA-P256-SHA256", COSE: cose.AlgorithmES256, JOSE: jose.ES256,
		generate: func() (crypto.Signer, error) { return ecdsa.GenerateKey(elliptic.P256(), rand.Reader) }},
	{Name: "EdDSA", Scheme: "Ed25519", COSE: cose.AlgorithmEdDSA, JOSE: jose.EdDSA,
		generate: func() (crypto.Signer, error) {
			_, k, err := ed25519.GenerateKey(rand.Reader)
			return k, err
		}},
}

// LookupAlg returns the algorithm named name (case-insensitive).
func LookupAlg(name string) (*Alg, error) {
	var names []string
	for _, a := range Algs {
		if strings.EqualFold(a.Name, name) {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return nil, fmt.Errorf("unknown signature algorithm %q: want one of %s", name, strings.Join(names, ", "))
}

// KeyPair is a sensor's own key pair, generated on the device (S004: each
// device generates its key pair; no shared secrets, no trust anchors).
type KeyPair struct {
	Alg    *Alg
	Signer crypto.Signer
	// COSEKey is the public key as a COSE_Key (RFC 9052 §7) in go-cose's
	// deterministic encoding (RFC 8949 §4.2.1 core deterministic: map keys
	// sorted, definite lengths), the bytes the identity hashes and the
	// pk link attribute carries.
	COSEKey []byte
}

// GenerateKey makes a key pair for alg.
func GenerateKey(alg *Alg) (*KeyPair, error) {
	s, err := alg.generate()
	if err != nil {
		return nil, fmt.Errorf("%s key: %w", alg.Name, err)
	}
	ck, err := COSEKey(s.Public())
	if err != nil {
		return nil, err
	}
	return &KeyPair{Alg: alg, Signer: s, COSEKey: ck}, nil
}

// COSEKey encodes a public key as a deterministic COSE_Key.
func COSEKey(pub crypto.PublicKey) ([]byte, error) {
	k, err := cose.NewKeyFromPublic(pub)
	if err != nil {
		return nil, fmt.Errorf("COSE_Key: %w", err)
	}
	b, err := k.MarshalCBOR()
	if err != nil {
		return nil, fmt.Errorf("COSE_Key: %w", err)
	}
	return b, nil
}

// maxCOSEKeyBytes bounds a received COSE_Key: an EC2 P-256 key is 77 bytes
// and an OKP Ed25519 key 42; 256 leaves room for P-521 (≈ 150 B) and
// refuses anything that is not a single public key.
const maxCOSEKeyBytes = 256

// ParseCOSEKey decodes a public COSE_Key and returns the key and its
// algorithm. A key with private parts is refused: a sensor never sends it.
func ParseCOSEKey(b []byte) (crypto.PublicKey, *Alg, error) {
	if len(b) > maxCOSEKeyBytes {
		return nil, nil, fmt.Errorf("COSE_Key of %d bytes: at most %d", len(b), maxCOSEKeyBytes)
	}
	var k cose.Key
	if err := k.UnmarshalCBOR(b); err != nil {
		return nil, nil, fmt.Errorf("COSE_Key: %w", err)
	}
	for _, d := range []any{cose.KeyLabelEC2D, cose.KeyLabelOKPD} {
		if _, private := k.ParamBytes(d); private {
			return nil, nil, fmt.Errorf("COSE_Key carries a private key: a sensor sends only its public key")
		}
	}
	pub, err := k.PublicKey()
	if err != nil {
		return nil, nil, fmt.Errorf("COSE_Key: %w", err)
	}
	alg, err := k.AlgorithmOrDefault()
	if err != nil {
		return nil, nil, fmt.Errorf("COSE_Key: %w", err)
	}
	for _, a := range Algs {
		if a.COSE == alg {
			return pub, a, nil
		}
	}
	return nil, nil, fmt.Errorf("COSE_Key algorithm %v: want ES256 or EdDSA", alg)
}

// Identity is S004's device identity I = h(P | O): SHA-256 over the public
// key P — its COSE_Key bytes — followed by the other data O, here the
// sensor's endpoint name. The COSE_Key is a self-delimiting CBOR item, so
// the concatenation is unambiguous. Installers read it off the device's
// label and give it to the server, which authorises it; nothing secret is
// shared.
type Identity [sha256.Size]byte

// NewIdentity computes I = SHA-256(coseKey ‖ other).
func NewIdentity(coseKey []byte, other string) Identity {
	h := sha256.New()
	h.Write(coseKey)
	h.Write([]byte(other))
	var id Identity
	h.Sum(id[:0])
	return id
}

// niPrefix names SHA-256 in an RFC 6920 "ni" URI (§3, §9.4: the hash
// algorithm registry's "sha-256"), with an empty authority.
const niPrefix = "ni:///sha-256;"

// String writes the identity as an RFC 6920 Named Information URI,
// ni:///sha-256;<base64url digest>, the form printed on the label.
func (id Identity) String() string {
	return niPrefix + base64.RawURLEncoding.EncodeToString(id[:])
}

// ParseIdentity reads an identity written by String.
func ParseIdentity(s string) (Identity, error) {
	var id Identity
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), niPrefix)
	if !ok {
		return id, fmt.Errorf("identity %q: want an RFC 6920 URI such as %s…", s, niPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(b) != len(id) {
		return id, fmt.Errorf("identity %q: want %d bytes of base64url (43 characters) after %s", s, len(id), niPrefix)
	}
	copy(id[:], b)
	return id, nil
}

// Authorised is the server side's authorisation list: the identities the
// installers collected. It holds no secrets.
type Authorised map[Identity]bool

// Allows reports whether the identity is on the list.
func (a Authorised) Allows(id Identity) bool { return a[id] }
