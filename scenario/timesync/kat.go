package timesync

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // GEC 2's ECDSA vector hashes with SHA-1
	"crypto/sha256"
	"fmt"
	"math/big"
)

// KAT checks a suite before it is measured (correct before fast): the
// registry-backed suites run their scheme's known-answer test; the
// benchmarking-only curves check their parameters (G on the curve, n·G
// the point at infinity, p and n prime) and reproduce published ECDSA
// signatures: GEC 2 §2.1.2–2.1.4 on secp160r1 (SHA-1, message "abc",
// nonce given) and RFC 6979 §A.2.3 on P-192 = secp192r1 (SHA-256,
// "sample", the RFC's deterministic nonce). secp128r1 has no published
// vector at hand: its parameters are checked here and its signatures
// against OpenSSL in the tests. Every suite then signs and verifies a
// message and rejects a corrupted signature.
func (s Suite) KAT() error {
	if !s.Insecure {
		sc, err := signScheme(s.Scheme)
		if err != nil {
			return err
		}
		if err := sc.KAT(); err != nil {
			return err
		}
	} else {
		if err := sec2KAT(s.Params["curve"]); err != nil {
			return err
		}
	}
	k, err := s.NewKey()
	if err != nil {
		return fmt.Errorf("%s: key: %w", s.Name, err)
	}
	msg := Message{NodeID: 1, Timestamp: 2, Counter: 3}.Signed()
	sig, err := k.Sign(msg)
	if err != nil {
		return fmt.Errorf("%s: sign: %w", s.Name, err)
	}
	if len(sig) != s.SigBytes || !k.Verify(msg, sig) {
		return fmt.Errorf("%s: round trip: a fresh %d-byte signature (want %d) does not verify", s.Name, len(sig), s.SigBytes)
	}
	bad := bytes.Clone(sig)
	bad[len(bad)-1] ^= 1
	if k.Verify(msg, bad) {
		return fmt.Errorf("%s: round trip: a corrupted signature verifies", s.Name)
	}
	return nil
}

func decInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("timesync: bad decimal " + s)
	}
	return v
}

// CheckCurve checks a curve's parameters: G is on the curve, n·G is the
// point at infinity, p and n are (probable) primes.
func CheckCurve(c SEC2Curve) error {
	p := c.Params
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: checking their generic arithmetic is the point (benchmarking-only, INSECURE)
	if !p.IsOnCurve(p.Gx, p.Gy) {
		return fmt.Errorf("%s: G is not on the curve", p.Name)
	}
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams: checking their generic arithmetic is the point (benchmarking-only, INSECURE)
	if x, y := p.ScalarBaseMult(p.N.Bytes()); x.Sign() != 0 || y.Sign() != 0 {
		return fmt.Errorf("%s: n·G is not the point at infinity", p.Name)
	}
	if !p.P.ProbablyPrime(32) || !p.N.ProbablyPrime(32) {
		return fmt.Errorf("%s: p or n is not prime", p.Name)
	}
	return nil
}

func sec2KAT(curve string) error {
	var c SEC2Curve
	switch curve {
	case "secp128r1":
		c = Secp128r1
	case "secp160r1":
		c = Secp160r1
	case "secp192r1":
		c = Secp192r1
	default:
		return fmt.Errorf("no known-answer test for curve %q", curve)
	}
	if err := CheckCurve(c); err != nil {
		return err
	}
	type vector struct {
		name         string
		d, qx, qy, k *big.Int
		hash         []byte
		r, s         *big.Int
	}
	var vs []vector
	switch curve {
	case "secp160r1":
		h := sha1.Sum([]byte("abc"))
		vs = append(vs, vector{name: "GEC 2 §2.1 (secp160r1, SHA-1, \"abc\")",
			d:    decInt("971761939728640320549601132085879836204587084162"),
			qx:   decInt("466448783855397898016055842232266600516272889280"),
			qy:   decInt("1110706324081757720403272427311003102474457754220"),
			k:    decInt("702232148019446860144825009548118511996283736794"),
			hash: h[:],
			r:    decInt("1176954224688105769566774212902092897866168635793"),
			s:    decInt("299742580584132926933316745664091704165278518100")})
	case "secp192r1":
		h := sha256.Sum256([]byte("sample"))
		vs = append(vs, vector{name: "RFC 6979 §A.2.3 (P-192, SHA-256, \"sample\")",
			d:    hexInt("6FAB034934E4C0FC9AE67F5B5659A9D7D1FEFD187EE09FD4"),
			qx:   hexInt("AC2C77F529F91689FEA0EA5EFEC7F210D8EEA0B9E047ED56"),
			qy:   hexInt("3BC723E57670BD4887EBC732C523063D0A7C957BC97C1C43"),
			k:    hexInt("32B1B6D7D42A05CB449065727A84804FB1A3E34D8F261496"),
			hash: h[:],
			r:    hexInt("4B0B8CE98A92866A2820E20AA6B75B56382E0F9BFD5ECB55"),
			s:    hexInt("CCDB006926EA9565CBADC840829D8C384E06DE1F1E381B85")})
	}
	for _, v := range vs {
		key := InsecureKeyFromScalar(c, v.d)
		if key.X.Cmp(v.qx) != 0 || key.Y.Cmp(v.qy) != 0 {
			return fmt.Errorf("%s: known-answer test %s: the public key differs", curve, v.name)
		}
		r, s, err := key.SignWithNonce(v.hash, v.k)
		if err != nil || r.Cmp(v.r) != 0 || s.Cmp(v.s) != 0 {
			return fmt.Errorf("%s: known-answer test %s: signature (%x, %x), want (%x, %x)", curve, v.name, r, s, v.r, v.s)
		}
		if !key.verify(v.hash, v.r, v.s, c.Params) {
			return fmt.Errorf("%s: known-answer test %s: the published signature does not verify", curve, v.name)
		}
		if key.verify(v.hash, v.r, new(big.Int).Add(v.s, big.NewInt(1)), c.Params) {
			return fmt.Errorf("%s: known-answer test %s: a wrong signature verifies", curve, v.name)
		}
	}
	return nil
}
