package scheme

// Finite-field Diffie-Hellman over the RFC 7919 groups (the TLS "ffdhe"
// groups). No reachable Go module implements it (crypto/tls dropped DHE;
// golang.org/x/crypto has none), so it is written here on math/big.
//
// math/big's Exp is NOT constant-time: its running time depends on the
// exponent's bits. That is acceptable for measuring what a modular
// exponentiation of this size costs, which is all cryptocost does with it; it
// is not an implementation to protect secrets with. Info.Standard says so too.

import (
	"crypto/rand"
	"fmt"
	"math/big"
)

// The RFC 7919 §A.1-A.3 primes, p = 2^b - 2^(b-64) + {[2^(b-130) e] + X} * 2^64 - 1,
// in hex as the RFC prints them (copied from OpenSSL 3.0's built-in groups).
// TestFFDHPrimes recomputes them from that formula; a wrong digit would also
// fail KAT, whose public values OpenSSL computed with its own p.
const ffdhe2048P = "" +
	"FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695" +
	"A9E13641146433FBCC939DCE249B3EF97D2FE363630C75D8F681B202AEC4617A" +
	"D3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935" +
	"984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797A" +
	"BC0AB182B324FB61D108A94BB2C8E3FBB96ADAB760D7F4681D4F42A3DE394DF4" +
	"AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F61" +
	"9172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005" +
	"C58EF1837D1683B2C6F34A26C1B2EFFA886B423861285C97FFFFFFFFFFFFFFFF"
const ffdhe3072P = "" +
	"FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695" +
	"A9E13641146433FBCC939DCE249B3EF97D2FE363630C75D8F681B202AEC4617A" +
	"D3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935" +
	"984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797A" +
	"BC0AB182B324FB61D108A94BB2C8E3FBB96ADAB760D7F4681D4F42A3DE394DF4" +
	"AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F61" +
	"9172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005" +
	"C58EF1837D1683B2C6F34A26C1B2EFFA886B4238611FCFDCDE355B3B6519035B" +
	"BC34F4DEF99C023861B46FC9D6E6C9077AD91D2691F7F7EE598CB0FAC186D91C" +
	"AEFE130985139270B4130C93BC437944F4FD4452E2D74DD364F2E21E71F54BFF" +
	"5CAE82AB9C9DF69EE86D2BC522363A0DABC521979B0DEADA1DBF9A42D5C4484E" +
	"0ABCD06BFA53DDEF3C1B20EE3FD59D7C25E41D2B66C62E37FFFFFFFFFFFFFFFF"
const ffdhe4096P = "" +
	"FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695" +
	"A9E13641146433FBCC939DCE249B3EF97D2FE363630C75D8F681B202AEC4617A" +
	"D3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935" +
	"984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797A" +
	"BC0AB182B324FB61D108A94BB2C8E3FBB96ADAB760D7F4681D4F42A3DE394DF4" +
	"AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F61" +
	"9172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005" +
	"C58EF1837D1683B2C6F34A26C1B2EFFA886B4238611FCFDCDE355B3B6519035B" +
	"BC34F4DEF99C023861B46FC9D6E6C9077AD91D2691F7F7EE598CB0FAC186D91C" +
	"AEFE130985139270B4130C93BC437944F4FD4452E2D74DD364F2E21E71F54BFF" +
	"5CAE82AB9C9DF69EE86D2BC522363A0DABC521979B0DEADA1DBF9A42D5C4484E" +
	"0ABCD06BFA53DDEF3C1B20EE3FD59D7C25E41D2B669E1EF16E6F52C3164DF4FB" +
	"7930E9E4E58857B6AC7D5F42D69F6D187763CF1D5503400487F55BA57E31CC7A" +
	"7135C886EFB4318AED6A1E012D9E6832A907600A918130C46DC778F971AD0038" +
	"092999A333CB8B7A1A1DB93D7140003C2A4ECEA9F98D0ACC0A8291CDCEC97DCF" +
	"8EC9B55A7F88A46B4DB5A851F44182E1C68A007E5E655F6AFFFFFFFFFFFFFFFF"

// ffdhGroup is one RFC 7919 group with the short private exponent RFC 7919
// §5.2 and Appendix A suggest: at least twice the group's estimated strength
// (225 bits for ffdhe2048, 275 for ffdhe3072, 325 for ffdhe4096).
type ffdhGroup struct {
	name         string
	p, pMinus1   *big.Int
	size         int // bytes of p: the size of a public value and a shared secret
	exponentBits int
}

var (
	ffdhOne       = big.NewInt(1)
	ffdhGenerator = big.NewInt(2) // g = 2 for every RFC 7919 group
)

func newFFDHGroup(name, pHex string, exponentBits int) *ffdhGroup {
	p, ok := new(big.Int).SetString(pHex, 16)
	if !ok {
		panic("scheme: bad prime for " + name)
	}
	return &ffdhGroup{name: name, p: p, pMinus1: new(big.Int).Sub(p, ffdhOne),
		size: (p.BitLen() + 7) / 8, exponentBits: exponentBits}
}

// ffdhKey is a private exponent x and its public value y = g^x mod p.
type ffdhKey struct {
	group *ffdhGroup
	x, y  *big.Int
}

func (g *ffdhGroup) seedSize() int { return (g.exponentBits + 7) / 8 }

func (g *ffdhGroup) generateKey() (kexPrivateKey, error) {
	b := make([]byte, g.seedSize())
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return g.keyFromSeed(b)
}

// keyFromSeed keeps exponentBits bits of seed and sets the top one, so every
// key is exactly exponentBits long and costs the same number of squarings.
func (g *ffdhGroup) keyFromSeed(seed []byte) (kexPrivateKey, error) {
	x := new(big.Int).SetBytes(seed)
	x.Rsh(x, uint(len(seed)*8-g.exponentBits))
	x.SetBit(x, g.exponentBits-1, 1)
	return g.newKey(x), nil
}

// newPrivateKey takes a big-endian exponent 1 < x < p-1.
func (g *ffdhGroup) newPrivateKey(b []byte) (kexPrivateKey, error) {
	x := new(big.Int).SetBytes(b)
	if x.Cmp(ffdhOne) <= 0 || x.Cmp(g.pMinus1) >= 0 {
		return nil, fmt.Errorf("%s: private exponent is not in (1, p-1)", g.name)
	}
	return g.newKey(x), nil
}

func (g *ffdhGroup) newKey(x *big.Int) *ffdhKey {
	return &ffdhKey{group: g, x: x, y: new(big.Int).Exp(ffdhGenerator, x, g.p)}
}

// Public is y, big-endian and left-padded to the size of p, as TLS 1.3
// sends it (RFC 8446 §4.2.8.1).
func (k *ffdhKey) Public() kexPublicKey { return k.y.FillBytes(make([]byte, k.group.size)) }

func (k *ffdhKey) Bytes() []byte { return k.x.FillBytes(make([]byte, k.group.seedSize())) }

// derive checks the peer's value as RFC 7919 §5.1 requires (1 < y < p-1,
// which keeps y out of the subgroup of order 2) and returns y^x mod p
// left-padded to the size of p (RFC 8446 §7.4.1).
func (k *ffdhKey) derive(peer kexPublicKey) ([]byte, error) {
	g := k.group
	if len(peer) != g.size {
		return nil, fmt.Errorf("%s: peer public value is %d bytes, want %d (big-endian, padded to the size of p)",
			g.name, len(peer), g.size)
	}
	y := new(big.Int).SetBytes(peer)
	if y.Cmp(ffdhOne) <= 0 || y.Cmp(g.pMinus1) >= 0 {
		return nil, fmt.Errorf("%s: peer public value is not in (1, p-1) (RFC 7919 §5.1)", g.name)
	}
	z := new(big.Int).Exp(y, k.x, g.p)
	return z.FillBytes(make([]byte, g.size)), nil
}

// ffdhVectors are testdata/kex/ffdhe.txt's answers for one group: both
// parties' keys, each deriving the shared secret, and two peer values RFC
// 7919 §5.1 forbids (1 and p-1).
func ffdhVectors(g *ffdhGroup) func() []kexAgreementVector {
	load := kexLoadVectors("ffdhe.txt")
	return func() []kexAgreementVector {
		v := load()
		get := func(s string) string { return hexString(v.get(g.name + "_" + s)) }
		source := "OpenSSL 3.0 " + g.name + " derive"
		pMinus1 := hexString(g.pMinus1.FillBytes(make([]byte, g.size)))
		one := hexString(ffdhOne.FillBytes(make([]byte, g.size)))
		return []kexAgreementVector{
			{Source: source + " (a)", Private: get("a"), Public: get("ya"), Peer: get("yb"), Shared: get("z")},
			{Source: source + " (b)", Private: get("b"), Public: get("yb"), Peer: get("ya"), Shared: get("z")},
			{Source: "RFC 7919 §5.1 (y = p-1)", Private: get("a"), Peer: pMinus1},
			{Source: "RFC 7919 §5.1 (y = 1)", Private: get("a"), Peer: one},
		}
	}
}

// Security: NIST SP 800-57 Pt 1 Rev 5 Table 2 (DH 2048: 112, 3072: 128;
// 4096 lies between 3072 and 7680, so 128).
func init() {
	for _, c := range []struct {
		group *ffdhGroup
		sec   Security
	}{
		{newFFDHGroup("ffdhe2048", ffdhe2048P, 225), Security{Bits: 112, Note: "SP 800-57 Table 2 (RFC 7919 §A.1 estimates 103)"}},
		{newFFDHGroup("ffdhe3072", ffdhe3072P, 275), Security{Bits: 128, Note: "SP 800-57 Table 2 (RFC 7919 §A.2 estimates 125)"}},
		{newFFDHGroup("ffdhe4096", ffdhe4096P, 325), Security{Bits: 128, Note: "SP 800-57 Table 2: between DH-3072 (128) and DH-7680 (192); RFC 7919 §A.3 estimates 150"}},
	} {
		g := c.group
		section := map[string]string{"ffdhe2048": "§A.1", "ffdhe3072": "§A.2", "ffdhe4096": "§A.3"}[g.name]
		register(newAgreement(g.name, nil, ProviderCryptocost,
			[]Param{{"group", g.name}, {"exponent_bits", itoa(g.exponentBits)}}, c.sec,
			"RFC 7919 "+section+" (math/big, variable-time; vectors: OpenSSL 3.0 pkeyutl -derive on fixed keys, "+
				"testdata/kex/ffdhe.txt; the §5.1 peer-value check)",
			Sizes{PublicKey: g.size, PrivateKey: g.seedSize(), SharedSecret: g.size},
			g, ffdhVectors(g)))
	}
}
