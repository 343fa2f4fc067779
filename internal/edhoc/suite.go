package edhoc

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"math/big"

	"github.com/pion/dtls/v3/pkg/crypto/ccm"
)

// Suite is an EDHOC cipher suite (RFC 9528 §3.6, §10.2): the EDHOC AEAD,
// hash and MAC length, the key exchange curve, the signature algorithm
// and the application (OSCORE) AEAD and hash.
type Suite struct {
	ID   int
	Name string
	// Curve is the ECDH group of the ephemeral and static DH keys.
	Curve Curve
	// Sign is the signature algorithm of methods with signatures.
	Sign SignatureAlg
	// MACLength is the EDHOC MAC length of static DH authentication (§3.6).
	MACLength int
	// AppAEAD and AppHash are the application algorithms as COSE values
	// (OSCORE's AEAD and HKDF hash, RFC 9528 Appendix A.1).
	AppAEAD, AppHash int
}

// Both suites use AES-CCM-16-64-128 (COSE 10: a 128-bit key, a 13-byte
// nonce, an 8-byte tag, RFC 9053 §4.2) and SHA-256 as EDHOC AEAD and hash.
const (
	keyLength   = 16
	nonceLength = 13
	tagLength   = 8
	hashLength  = sha256.Size
	coseAESCCM  = 10  // AES-CCM-16-64-128 (RFC 9053 Table 8)
	coseSHA256  = -16 // SHA-256 (RFC 9054 Table 1)
)

// The suites implemented here (RFC 9528 §10.2): suite 0 with X25519 and
// EdDSA, suite 2 with P-256 and ES256; both mandatory-to-implement choices
// for constrained devices (§7: suites 0 and 2).
var (
	Suite0 = &Suite{ID: 0, Name: "0 (AES-CCM-16-64-128, SHA-256, 8, X25519, EdDSA, AES-CCM-16-64-128, SHA-256)",
		Curve: x25519{}, Sign: edDSA{}, MACLength: 8, AppAEAD: coseAESCCM, AppHash: coseSHA256}
	Suite2 = &Suite{ID: 2, Name: "2 (AES-CCM-16-64-128, SHA-256, 8, P-256, ES256, AES-CCM-16-64-128, SHA-256)",
		Curve: p256{}, Sign: es256{}, MACLength: 8, AppAEAD: coseAESCCM, AppHash: coseSHA256}
)

// Suites is the registry of implemented cipher suites.
var Suites = []*Suite{Suite0, Suite2}

// LookupSuite returns the implemented suite with this ID.
func LookupSuite(id int) (*Suite, error) {
	for _, s := range Suites {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, fmt.Errorf("cipher suite %d is not implemented: want 0 or 2", id)
}

// Curve is an ECDH group whose public keys EDHOC sends as 32 bytes: the
// X25519 u-coordinate, or the P-256 x-coordinate alone (RFC 9528 §3.7: the
// y-coordinate's sign is not sent; ECDH uses only the shared x).
type Curve interface {
	Name() string
	GenerateKey(rand io.Reader) (*ecdh.PrivateKey, error)
	NewPrivateKey(scalar []byte) (*ecdh.PrivateKey, error)
	// Encode is the public key as EDHOC sends it.
	Encode(pub *ecdh.PublicKey) []byte
	// Decode checks and decodes a received public key (RFC 9528 §9.2).
	Decode(b []byte) (*ecdh.PublicKey, error)
	// COSEKey is the public key as a COSE_Key map for a CCS.
	COSEKey(pub *ecdh.PublicKey, kid []byte) map[int]any
}

type x25519 struct{}

func (x25519) Name() string                                      { return "X25519" }
func (x25519) GenerateKey(r io.Reader) (*ecdh.PrivateKey, error) { return ecdh.X25519().GenerateKey(r) }
func (x25519) NewPrivateKey(s []byte) (*ecdh.PrivateKey, error) {
	return ecdh.X25519().NewPrivateKey(s)
}
func (x25519) Encode(pub *ecdh.PublicKey) []byte        { return pub.Bytes() }
func (x25519) Decode(b []byte) (*ecdh.PublicKey, error) { return ecdh.X25519().NewPublicKey(b) }
func (x25519) COSEKey(pub *ecdh.PublicKey, kid []byte) map[int]any {
	return okpKey(4, pub.Bytes(), kid)
}

// okpKey is an OKP COSE_Key (RFC 9053 §7.2): kty 1, crv 4 (X25519) or 6
// (Ed25519), x.
func okpKey(crv int, x, kid []byte) map[int]any {
	k := map[int]any{1: 1, -1: crv, -2: x}
	if kid != nil {
		k[2] = kid
	}
	return k
}

type p256 struct{}

func (p256) Name() string                                      { return "P-256" }
func (p256) GenerateKey(r io.Reader) (*ecdh.PrivateKey, error) { return ecdh.P256().GenerateKey(r) }
func (p256) NewPrivateKey(s []byte) (*ecdh.PrivateKey, error)  { return ecdh.P256().NewPrivateKey(s) }
func (p256) Encode(pub *ecdh.PublicKey) []byte                 { return pub.Bytes()[1:33] }
func (p256) COSEKey(pub *ecdh.PublicKey, kid []byte) map[int]any {
	b := pub.Bytes()
	return ec2Key(b[1:33], b[33:], kid)
}

// ec2Key is a P-256 COSE_Key (RFC 9053 §7.1.1): kty 2, crv 1, x, y.
func ec2Key(x, y, kid []byte) map[int]any {
	k := map[int]any{1: 2, -1: 1, -2: x, -3: y}
	if kid != nil {
		k[2] = kid
	}
	return k
}

// Decode recovers a point from its x-coordinate: x < p and x³ − 3x + b a
// square mod p (NIST SP 800-56A §5.6.2.3; RFC 9529 §4.2.2–4.2.3 are
// invalid examples). Either root gives the same ECDH x-coordinate; the even
// one is taken.
func (p256) Decode(b []byte) (*ecdh.PublicKey, error) {
	if len(b) != 32 {
		return nil, fmt.Errorf("P-256 x-coordinate of %d bytes: want 32", len(b))
	}
	params := elliptic.P256().Params()
	x := new(big.Int).SetBytes(b)
	if x.Cmp(params.P) >= 0 {
		return nil, errors.New("P-256 x-coordinate is not below p")
	}
	// y² = x³ − 3x + b (mod p)
	y2 := new(big.Int).Exp(x, big.NewInt(3), params.P)
	y2.Sub(y2, new(big.Int).Mul(big.NewInt(3), x))
	y2.Add(y2, params.B)
	y2.Mod(y2, params.P)
	// p ≡ 3 (mod 4): a root is y2^((p+1)/4).
	e := new(big.Int).Add(params.P, big.NewInt(1))
	e.Rsh(e, 2)
	y := new(big.Int).Exp(y2, e, params.P)
	if new(big.Int).Exp(y, big.NewInt(2), params.P).Cmp(y2) != 0 {
		return nil, errors.New("P-256 x-coordinate is not on the curve")
	}
	if y.Bit(0) == 1 {
		y.Sub(params.P, y)
	}
	pt := make([]byte, 65)
	pt[0] = 4
	x.FillBytes(pt[1:33])
	y.FillBytes(pt[33:])
	return ecdh.P256().NewPublicKey(pt)
}

// SignatureAlg is the suite's signature algorithm, signing Sig_structure
// bytes with the party's authentication key.
type SignatureAlg interface {
	Name() string
	Sign(key crypto.Signer, msg []byte) ([]byte, error)
	Verify(pub crypto.PublicKey, msg, sig []byte) error
	// COSEKey is a public signature key as a COSE_Key map for a CCS.
	COSEKey(pub crypto.PublicKey, kid []byte) (map[int]any, error)
}

type edDSA struct{}

func (edDSA) Name() string { return "EdDSA" }
func (edDSA) Sign(key crypto.Signer, msg []byte) ([]byte, error) {
	return key.Sign(rand.Reader, msg, crypto.Hash(0))
}
func (edDSA) Verify(pub crypto.PublicKey, msg, sig []byte) error {
	k, ok := pub.(ed25519.PublicKey)
	if !ok {
		return fmt.Errorf("EdDSA needs an Ed25519 key, got %T", pub)
	}
	if !ed25519.Verify(k, msg, sig) {
		return errors.New("the EdDSA signature does not verify")
	}
	return nil
}
func (edDSA) COSEKey(pub crypto.PublicKey, kid []byte) (map[int]any, error) {
	k, ok := pub.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("EdDSA needs an Ed25519 key, got %T", pub)
	}
	return okpKey(6, k, kid), nil
}

// es256 signs with ECDSA P-256 and SHA-256, the signature as r ‖ s of 32
// bytes each (RFC 9053 §2.1).
type es256 struct{}

func (es256) Name() string { return "ES256" }
func (es256) Sign(key crypto.Signer, msg []byte) ([]byte, error) {
	h := sha256.Sum256(msg)
	der, err := key.Sign(rand.Reader, h[:], crypto.SHA256)
	if err != nil {
		return nil, err
	}
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &sig); err != nil {
		return nil, err
	}
	out := make([]byte, 64)
	sig.R.FillBytes(out[:32])
	sig.S.FillBytes(out[32:])
	return out, nil
}
func (es256) Verify(pub crypto.PublicKey, msg, sig []byte) error {
	k, ok := pub.(*ecdsa.PublicKey)
	if !ok {
		return fmt.Errorf("ES256 needs a P-256 key, got %T", pub)
	}
	if len(sig) != 64 {
		return fmt.Errorf("ES256 signature of %d bytes: want 64", len(sig))
	}
	h := sha256.Sum256(msg)
	if !ecdsa.Verify(k, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("the ES256 signature does not verify")
	}
	return nil
}
func (es256) COSEKey(pub crypto.PublicKey, kid []byte) (map[int]any, error) {
	k, ok := pub.(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("ES256 needs a P-256 key, got %T", pub)
	}
	e, err := k.ECDH()
	if err != nil {
		return nil, err
	}
	b := e.Bytes()
	return ec2Key(b[1:33], b[33:], kid), nil
}

// The key schedule (RFC 9528 §4.1): EDHOC_Extract is HMAC-SHA-256 with the
// salt as key, EDHOC_Expand is HKDF-Expand (RFC 5869 §2.3), and
// EDHOC_KDF(PRK, label, context, length) expands with info = (label : int,
// context : bstr, length : uint) as a CBOR sequence.

func extract(salt, ikm []byte) []byte {
	m := hmac.New(sha256.New, salt)
	m.Write(ikm)
	return m.Sum(nil)
}

func expand(prk, info []byte, n int) []byte {
	out := make([]byte, 0, n+hashLength)
	var t []byte
	for i := byte(1); len(out) < n; i++ {
		m := hmac.New(sha256.New, prk)
		m.Write(t)
		m.Write(info)
		m.Write([]byte{i})
		t = m.Sum(nil)
		out = append(out, t...)
	}
	return out[:n]
}

// kdfInfo is the info of EDHOC_KDF.
func kdfInfo(label int, context []byte, n int) []byte {
	return seq(marshal(label), bstr(context), marshal(n))
}

func kdf(prk []byte, label int, context []byte, n int) []byte {
	return expand(prk, kdfInfo(label, context, n), n)
}

func hash(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// newAEAD is AES-CCM-16-64-128.
func newAEAD(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return ccm.NewCCM(b, tagLength, nonceLength)
}

// encStructure is the COSE Enc_structure ["Encrypt0", h”, external_aad]
// (RFC 9052 §5.3) EDHOC uses as AEAD associated data (A_3, A_4).
func encStructure(externalAAD []byte) []byte {
	return marshal([]any{"Encrypt0", []byte{}, externalAAD})
}

// sigStructure is the COSE Sig_structure ["Signature1", protected,
// external_aad, payload] (RFC 9052 §4.4).
func sigStructure(protected, externalAAD, payload []byte) []byte {
	return marshal([]any{"Signature1", protected, externalAAD, payload})
}
