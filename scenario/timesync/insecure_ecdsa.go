package timesync

import (
	"crypto/elliptic"
	"crypto/rand"
	"encoding/asn1"
	"errors"
	"io"
	"math/big"
)

// INSECURE — BENCHMARKING ONLY. ECDSA over the small SEC 2 curves S003
// measured with TinyECC on the TelosB (secp128r1, secp160r1, secp192r1),
// so that the scenario can put them beside the study and the secsywise
// model's ECDSA-160 variant. Neither Go nor x/crypto nor CIRCL implements
// these curves, so this file does, in the plainest way: SEC 1 v2 §4.1.3
// signing and §4.1.4 verification over math/big, with the point
// arithmetic of crypto/elliptic's generic CurveParams (short Weierstrass
// curves with a = −3, which all three are). It is variable-time (it leaks
// the nonce and key through timing), its curves are too small for any use
// today (128 and 160 bits give at most 64 and 80 bits of security, SP
// 800-57 Pt 1 Rev 5 §5.6.1.1), and it must never protect anything.
// Its correctness is checked against GEC 2 (secp160r1) and RFC 6979
// (P-192 = secp192r1) known answers, and against OpenSSL for all three.

// SEC2Curve is a SEC 2 curve with its ASN.1 name.
type SEC2Curve struct {
	Params *elliptic.CurveParams
	// OID names the curve in a SubjectPublicKeyInfo (SEC 2 §A.2), so
	// OpenSSL can read keys made here.
	OID asn1.ObjectIdentifier
	// Source cites where the parameters are from.
	Source string
}

func hexInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("timesync: bad curve constant " + s)
	}
	return v
}

// The curves, SEC 2 "Recommended Elliptic Curve Domain Parameters"
// v1.0 (Certicom, 2000); a = p − 3 for all three. secp192r1 is NIST
// P-192 (FIPS 186-4 §D.1.2.1).
var (
	Secp128r1 = SEC2Curve{Params: &elliptic.CurveParams{Name: "secp128r1", BitSize: 128,
		P:  hexInt("FFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFF"),
		N:  hexInt("FFFFFFFE0000000075A30D1B9038A115"),
		B:  hexInt("E87579C11079F43DD824993C2CEE5ED3"),
		Gx: hexInt("161FF7528B899B2D0C28607CA52C5B86"),
		Gy: hexInt("CF5AC8395BAFEB13C02DA292DDED7A83")},
		OID: asn1.ObjectIdentifier{1, 3, 132, 0, 28}, Source: "SEC 2 v1.0 §2.3.1"}
	Secp160r1 = SEC2Curve{Params: &elliptic.CurveParams{Name: "secp160r1", BitSize: 160,
		P:  hexInt("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF7FFFFFFF"),
		N:  hexInt("0100000000000000000001F4C8F927AED3CA752257"),
		B:  hexInt("1C97BEFC54BD7A8B65ACF89F81D4D4ADC565FA45"),
		Gx: hexInt("4A96B5688EF573284664698968C38BB913CBFC82"),
		Gy: hexInt("23A628553168947D59DCC912042351377AC5FB32")},
		OID: asn1.ObjectIdentifier{1, 3, 132, 0, 8}, Source: "SEC 2 v1.0 §2.4.2"}
	Secp192r1 = SEC2Curve{Params: &elliptic.CurveParams{Name: "secp192r1", BitSize: 192,
		P:  hexInt("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFFFFFFFFFF"),
		N:  hexInt("FFFFFFFFFFFFFFFFFFFFFFFF99DEF836146BC9B1B4D22831"),
		B:  hexInt("64210519E59C80E70FA7E9AB72243049FEB8DEECC146B9B1"),
		Gx: hexInt("188DA80EB03090F67CBF20EB43A18800F4FF0AFD82FF1012"),
		Gy: hexInt("07192B95FFC8DA78631011ED6B24CDD573F977A11E794811")},
		OID: asn1.ObjectIdentifier{1, 2, 840, 10045, 3, 1, 1}, Source: "SEC 2 v1.0 §2.5.2 (NIST P-192)"}
)

// ScalarBytes is the length of r, s and the private key: ⌈log2 n / 8⌉
// (21 for secp160r1, whose order has 161 bits).
func (c SEC2Curve) ScalarBytes() int { return (c.Params.N.BitLen() + 7) / 8 }

// InsecureKey is an ECDSA key pair on a SEC 2 curve. BENCHMARKING ONLY.
type InsecureKey struct {
	Curve SEC2Curve
	D     *big.Int // private scalar, 1 ≤ d < n
	X, Y  *big.Int // public point Q = dG
}

// GenerateInsecureKey draws d uniformly from [1, n−1].
func GenerateInsecureKey(c SEC2Curve, r io.Reader) (*InsecureKey, error) {
	d, err := randScalar(c, r)
	if err != nil {
		return nil, err
	}
	return InsecureKeyFromScalar(c, d), nil
}

// InsecureKeyFromScalar makes the key pair of a known scalar (test vectors).
func InsecureKeyFromScalar(c SEC2Curve, d *big.Int) *InsecureKey {
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: generic, variable-time arithmetic, benchmarking-only and labelled INSECURE (docs/scenario-timesync.md)
	x, y := c.Params.ScalarBaseMult(d.Bytes())
	return &InsecureKey{Curve: c, D: d, X: x, Y: y}
}

func randScalar(c SEC2Curve, r io.Reader) (*big.Int, error) {
	nMinus1 := new(big.Int).Sub(c.Params.N, big.NewInt(1))
	k, err := rand.Int(r, nMinus1)
	if err != nil {
		return nil, err
	}
	return k.Add(k, big.NewInt(1)), nil
}

// hashToInt is SEC 1 v2 §4.1.3 step 5: the leftmost ⌈log2 n⌉ bits of the
// hash as an integer (as crypto/ecdsa does for the NIST curves).
func hashToInt(c SEC2Curve, hash []byte) *big.Int {
	bits := c.Params.N.BitLen()
	if size := (bits + 7) / 8; len(hash) > size {
		hash = hash[:size]
	}
	e := new(big.Int).SetBytes(hash)
	if excess := len(hash)*8 - bits; excess > 0 {
		e.Rsh(e, uint(excess))
	}
	return e
}

// SignWithNonce is SEC 1 v2 §4.1.3 with the nonce k given: r = (kG).x mod
// n, s = k⁻¹(e + r·d) mod n. Known-answer tests give k; SignDigest draws it.
func (k *InsecureKey) SignWithNonce(hash []byte, nonce *big.Int) (r, s *big.Int, err error) {
	c := k.Curve.Params
	if nonce.Sign() <= 0 || nonce.Cmp(c.N) >= 0 {
		return nil, nil, errors.New("nonce outside [1, n−1]")
	}
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: generic, variable-time arithmetic, benchmarking-only and labelled INSECURE (docs/scenario-timesync.md)
	x, _ := c.ScalarBaseMult(nonce.Bytes())
	r = new(big.Int).Mod(x, c.N)
	if r.Sign() == 0 {
		return nil, nil, errors.New("r = 0: draw another nonce")
	}
	e := hashToInt(k.Curve, hash)
	s = new(big.Int).Mul(r, k.D)
	s.Add(s, e)
	s.Mul(s, new(big.Int).ModInverse(nonce, c.N))
	s.Mod(s, c.N)
	if s.Sign() == 0 {
		return nil, nil, errors.New("s = 0: draw another nonce")
	}
	return r, s, nil
}

// SignDigest signs a hash with a fresh random nonce and returns r ‖ s,
// each ScalarBytes long (IEEE P1363 form, as the study's messages carry).
func (k *InsecureKey) SignDigest(hash []byte) ([]byte, error) {
	for {
		nonce, err := randScalar(k.Curve, rand.Reader)
		if err != nil {
			return nil, err
		}
		r, s, err := k.SignWithNonce(hash, nonce)
		if err != nil {
			continue // r or s was 0: probability about 2/n
		}
		n := k.Curve.ScalarBytes()
		out := make([]byte, 2*n)
		r.FillBytes(out[:n])
		s.FillBytes(out[n:])
		return out, nil
	}
}

// VerifyDigest is SEC 1 v2 §4.1.4 on r ‖ s: r and s in [1, n−1], u1 =
// e·s⁻¹, u2 = r·s⁻¹, R = u1·G + u2·Q not the point at infinity, and
// R.x mod n = r.
func (k *InsecureKey) VerifyDigest(hash, sig []byte) bool {
	c := k.Curve.Params
	n := k.Curve.ScalarBytes()
	if len(sig) != 2*n {
		return false
	}
	r := new(big.Int).SetBytes(sig[:n])
	s := new(big.Int).SetBytes(sig[n:])
	return k.verify(hash, r, s, c)
}

func (k *InsecureKey) verify(hash []byte, r, s *big.Int, c *elliptic.CurveParams) bool {
	if r.Sign() <= 0 || s.Sign() <= 0 || r.Cmp(c.N) >= 0 || s.Cmp(c.N) >= 0 {
		return false
	}
	e := hashToInt(k.Curve, hash)
	w := new(big.Int).ModInverse(s, c.N)
	u1 := e.Mul(e, w)
	u1.Mod(u1, c.N)
	u2 := w.Mul(r, w)
	u2.Mod(u2, c.N)
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: generic, variable-time arithmetic, benchmarking-only and labelled INSECURE (docs/scenario-timesync.md)
	x1, y1 := c.ScalarBaseMult(u1.Bytes())
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: generic, variable-time arithmetic, benchmarking-only and labelled INSECURE (docs/scenario-timesync.md)
	x2, y2 := c.ScalarMult(k.X, k.Y, u2.Bytes())
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: generic, variable-time arithmetic, benchmarking-only and labelled INSECURE (docs/scenario-timesync.md)
	x, y := c.Add(x1, y1, x2, y2)
	if x.Sign() == 0 && y.Sign() == 0 {
		return false // the point at infinity
	}
	x.Mod(x, c.N)
	return x.Cmp(r) == 0
}
