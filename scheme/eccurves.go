package scheme

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	"github.com/ProtonMail/go-crypto/brainpool"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	decredecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// ECDSA and ECDH on the curves beside the NIST ones that embedded and
// European deployments use: secp256k1 (SEC 2; Bitcoin, Ethereum, some
// IoT identity schemes) and the Brainpool curves brainpoolP256r1,
// P384r1 and P512r1 (RFC 5639; BSI TR-03111, German eID and smart
// meters, TLS per RFC 7027 and RFC 8734). OpenSSL, libgcrypt, Mbed TLS
// and wolfSSL offer them (scheme/provider/...); the Go implementations
// registered here are the reference those providers take their vectors
// from and are measured beside them:
//
//   - secp256k1: github.com/decred/dcrd/dcrec/secp256k1/v4, the module
//     made for this curve (btcd and dcrd use it). It signs
//     deterministically per RFC 6979 and normalises s to the lower half
//     (BIP 62's low-s rule); it verifies either s. Its ECDH
//     (GenerateSharedSecret) uses a variable-time scalar multiplication.
//   - Brainpool: github.com/ProtonMail/go-crypto/brainpool (the curves
//     as crypto/elliptic.Curve values, through their twisted a = -3
//     forms) with crypto/ecdsa, which signs and verifies such curves with
//     its generic math/big code (ecdsa_legacy.go: deprecated, not
//     constant-time, randomised signatures only). That is what a Go
//     program gets for Brainpool today, and it is much slower than the
//     C libraries: the comparison is the point.
//
// Known answers: secp256k1 ECDSA reproduces the RFC 6979 signature of
// "Satoshi Nakamoto" under d = 1 (the community vectors cited in
// bitcointalk topic 285142, low-s form) and verifies its original high-s
// form; Brainpool ECDSA verifies Wycheproof's tcId 1 of
// ecdsa_brainpoolP*_p1363_test.json (published public key and
// signature, no private key) and rejects it corrupted. ECDH reproduces
// RFC 7027 Appendix A's shared secrets (Brainpool) and Wycheproof
// ecdh_secp256k1_test.json tcId 1, and rejects an off-curve peer.

// extraCurve is one of these curves with its known answers.
type extraCurve struct {
	name  string // "secp256k1", "brainpoolP256r1"
	bits  int    // SP 800-57 Pt 1 Rev 5 Table 2 strength of the field size
	size  int    // field (and scalar) bytes
	hash  crypto.Hash
	hname string // "SHA-256"
	sign  signVector
	// ecdh vectors: private, its public value, the peer, the shared x.
	ecdh []kexAgreementVector
}

// ---- secp256k1 (decred) ----

func k256Scheme(c extraCurve) *signScheme {
	name := "ECDSA-" + c.name + "-SHA256"
	return &signScheme{
		info: extraSignInfo(c, name, Provider("decred/dcrd"),
			"SEC 2 §2.4.1 curve, FIPS 186-5 §6 ECDSA, RFC 6979 nonces (vectors: RFC 6979 signature of \"Satoshi Nakamoto\" "+
				"under d = 1, as cited in bitcointalk topic 285142; its low-s form reproduced, the high-s form verified)"),
		gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
			k, err := secp256k1.GeneratePrivateKey()
			if err != nil {
				return nil, nil, err
			}
			return k.PubKey(), k, nil
		},
		sign: func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
			k, err := signKeyOf[*secp256k1.PrivateKey](priv)
			if err != nil {
				return nil, err
			}
			d := sha256.Sum256(msg)
			return decredecdsa.Sign(k, d[:]).Serialize(), nil
		},
		verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
			k, err := signKeyOf[*secp256k1.PublicKey](pub)
			if err != nil {
				return false
			}
			s, err := decredecdsa.ParseDERSignature(sig)
			d := sha256.Sum256(msg)
			return err == nil && s.Verify(d[:], k)
		},
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			k, err := signKeyOf[*secp256k1.PrivateKey](priv)
			if err != nil {
				return nil, nil, err
			}
			return k.PubKey().SerializeUncompressed(), k.Serialize(), nil
		},
		vectors: []signVector{c.sign},
		check: func(s *signScheme, v signVector) error {
			k := secp256k1.PrivKeyFromBytes(unhex(v.key))
			if pub := k.PubKey().SerializeUncompressed(); !bytes.Equal(pub, unhex(v.pub)) {
				return katError(s.info.Name, v.name+" public key", pub, unhex(v.pub))
			}
			msg, rs := unhex(v.msg), unhex(v.sig)
			low := k256LowS(rs)
			got, err := s.sign(k, msg)
			if err != nil {
				return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
			}
			if want := signDER(low); !bytes.Equal(got, want) {
				return katError(s.info.Name, v.name+" (low-s)", got, want)
			}
			pub := k.PubKey()
			for _, form := range [][]byte{rs, low} {
				if !s.verify(pub, msg, signDER(form)) {
					return signKATError(s.info.Name, v.name, "the published signature does not verify")
				}
			}
			bad := bytes.Clone(rs)
			bad[len(bad)-1] ^= 1
			if s.verify(pub, msg, signDER(bad)) {
				return signKATError(s.info.Name, v.name, "the published signature verifies with a bit changed")
			}
			return nil
		},
		keygen: true,
	}
}

// k256LowS returns r || s with s replaced by n - s if s > n/2.
func k256LowS(rs []byte) []byte {
	n := secp256k1.Params().N
	s := new(big.Int).SetBytes(rs[32:])
	if s.Cmp(new(big.Int).Rsh(n, 1)) <= 0 {
		return rs
	}
	out := bytes.Clone(rs)
	new(big.Int).Sub(n, s).FillBytes(out[32:])
	return out
}

// kexK256 is decred's ECDH: the x-coordinate of d·Q (SEC 1 §3.3.1).
type kexK256 struct{}

type kexK256Key struct{ *secp256k1.PrivateKey }

func (kexK256) generateKey() (kexPrivateKey, error) {
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return nil, err
	}
	return kexK256Key{k}, nil
}

func (kexK256) newPrivateKey(b []byte) (kexPrivateKey, error) {
	var s secp256k1.ModNScalar
	if len(b) != 32 || s.SetByteSlice(b) || s.IsZero() {
		return nil, errors.New("secp256k1: the private key is not a 32-byte scalar in [1, n-1]")
	}
	return kexK256Key{secp256k1.NewPrivateKey(&s)}, nil
}

func (c kexK256) keyFromSeed(seed []byte) (kexPrivateKey, error) {
	seed[0] &= 0x7f // below n
	return c.newPrivateKey(seed)
}

func (kexK256) seedSize() int { return 32 }

func (k kexK256Key) Public() kexPublicKey { return k.PubKey().SerializeUncompressed() }
func (k kexK256Key) Bytes() []byte        { return k.Serialize() }

func (k kexK256Key) derive(peer kexPublicKey) ([]byte, error) {
	// ParsePubKey checks the point is on the curve; only the uncompressed
	// form is taken, as from the other providers.
	if len(peer) != 65 || peer[0] != 4 {
		return nil, errors.New("secp256k1: want a 65-byte uncompressed point")
	}
	p, err := secp256k1.ParsePubKey(peer)
	if err != nil {
		return nil, err
	}
	return secp256k1.GenerateSharedSecret(k.PrivateKey, p), nil
}

// ---- Brainpool (ProtonMail curves, crypto/ecdsa's generic code) ----

// bpPoint encodes a point as SEC 1 uncompressed, each coordinate padded to
// size bytes.
func bpPoint(size int, x, y *big.Int) []byte {
	out := make([]byte, 1+2*size)
	out[0] = 4
	x.FillBytes(out[1 : 1+size])
	y.FillBytes(out[1+size:])
	return out
}

// bpParsePoint decodes an uncompressed point and checks it is on curve.
func bpParsePoint(curve elliptic.Curve, size int, b []byte) (x, y *big.Int, err error) {
	if len(b) != 1+2*size || b[0] != 4 {
		return nil, nil, fmt.Errorf("%s: want a %d-byte uncompressed point", curve.Params().Name, 1+2*size)
	}
	x, y = new(big.Int).SetBytes(b[1:1+size]), new(big.Int).SetBytes(b[1+size:])
	p := curve.Params().P
	//lint:ignore SA1019 crypto/ecdh has no Brainpool curves; this is the on-curve check SP 800-56A §5.6.2.3.4 asks for
	if x.Cmp(p) >= 0 || y.Cmp(p) >= 0 || !curve.IsOnCurve(x, y) {
		return nil, nil, fmt.Errorf("%s: the point is not on the curve", curve.Params().Name)
	}
	return x, y, nil
}

func bpScheme(c extraCurve, curve elliptic.Curve) *signScheme {
	short := c.hname[len("SHA-"):]
	name := "ECDSA-" + c.name + "-SHA" + short
	return &signScheme{
		info: extraSignInfo(c, name, Provider("protonmail/go-crypto"),
			"RFC 5639 curve, FIPS 186-5 §6 ECDSA (vectors: Wycheproof ecdsa_"+c.name+"_sha"+short+
				"_p1363_test.json tcId 1, a published public key and signature, verified; no private key is published with it)"),
		gen:    ecdsaGen(curve),
		sign:   ecdsaSign(c.hash),
		verify: ecdsaVerify(c.hash),
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			k, err := signKeyOf[*ecdsa.PrivateKey](priv)
			if err != nil {
				return nil, nil, err
			}
			//lint:ignore SA1019 crypto/ecdsa's raw fields are the only way in and out for a curve other than the NIST ones (Bytes and ParseRawPrivateKey take only those)
			return bpPoint(c.size, k.X, k.Y), k.D.FillBytes(make([]byte, c.size)), nil
		},
		vectors: []signVector{c.sign},
		check: func(s *signScheme, v signVector) error {
			x, y, err := bpParsePoint(curve, c.size, unhex(v.pub))
			if err != nil {
				return fmt.Errorf("%s: %w: vector %s: %v", s.info.Name, ErrKAT, v.name, err)
			}
			//lint:ignore SA1019 crypto/ecdsa's raw fields are the only way in and out for a curve other than the NIST ones (Bytes and ParseRawPrivateKey take only those)
			pub := &ecdsa.PublicKey{Curve: curve, X: x, Y: y}
			msg, rs := unhex(v.msg), unhex(v.sig)
			if !s.verify(pub, msg, signDER(rs)) {
				return signKATError(s.info.Name, v.name, "the published signature does not verify")
			}
			rs[len(rs)-1] ^= 1
			if s.verify(pub, msg, signDER(rs)) {
				return signKATError(s.info.Name, v.name, "the published signature verifies with a bit changed")
			}
			return nil
		},
		keygen: true,
	}
}

// kexBrainpool is ECDH on a Brainpool curve with the curve's generic
// arithmetic: the x-coordinate of d·Q (RFC 7027 §2, SEC 1 §3.3.1).
type kexBrainpool struct {
	curve elliptic.Curve
	size  int
}

type kexBrainpoolKey struct {
	c   kexBrainpool
	d   []byte
	pub []byte
}

func (c kexBrainpool) generateKey() (kexPrivateKey, error) {
	k, err := ecdsa.GenerateKey(c.curve, rand.Reader) // d in [1, n-1] and d·G
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 crypto/ecdsa's raw fields are the only way in and out for a curve other than the NIST ones (Bytes and ParseRawPrivateKey take only those)
	return kexBrainpoolKey{c, k.D.FillBytes(make([]byte, c.size)), bpPoint(c.size, k.X, k.Y)}, nil
}

func (c kexBrainpool) newPrivateKey(b []byte) (kexPrivateKey, error) {
	d := new(big.Int).SetBytes(b)
	if len(b) != c.size || d.Sign() == 0 || d.Cmp(c.curve.Params().N) >= 0 {
		return nil, fmt.Errorf("%s: the private key is not a %d-byte scalar in [1, n-1]", c.curve.Params().Name, c.size)
	}
	//lint:ignore SA1019 crypto/ecdh has no Brainpool curves; the curve's own arithmetic is what is measured
	x, y := c.curve.ScalarBaseMult(b)
	return kexBrainpoolKey{c, bytes.Clone(b), bpPoint(c.size, x, y)}, nil
}

func (c kexBrainpool) keyFromSeed(seed []byte) (kexPrivateKey, error) {
	seed[0] &= 0x3f // below n on all three curves (n > 2^(8·size-2))
	return c.newPrivateKey(seed)
}

func (c kexBrainpool) seedSize() int { return c.size }

func (k kexBrainpoolKey) Public() kexPublicKey { return k.pub }
func (k kexBrainpoolKey) Bytes() []byte        { return k.d }

func (k kexBrainpoolKey) derive(peer kexPublicKey) ([]byte, error) {
	x, y, err := bpParsePoint(k.c.curve, k.c.size, peer)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 crypto/ecdh has no Brainpool curves; the curve's own arithmetic is what is measured
	zx, zy := k.c.curve.ScalarMult(x, y, k.d)
	if zx.Sign() == 0 && zy.Sign() == 0 {
		return nil, errors.New("the shared point is the point at infinity")
	}
	return zx.FillBytes(make([]byte, k.c.size)), nil
}

// ---- registration ----

func extraSignInfo(c extraCurve, name string, p Provider, standard string) Info {
	return Info{
		Name: name, Family: FamilySign, Provider: p,
		Params: []Param{
			{"curve", c.name}, {"hash", c.hname},
			{"key_type", "ECDSA " + c.name}, {"keygen_on", name},
			{"key_encoding", "SEC 1 uncompressed point; fixed-length scalar"},
		},
		Security: Security{Bits: c.bits},
		Standard: standard,
		Sizes: Sizes{PublicKey: 1 + 2*c.size, PrivateKey: c.size,
			Signature: signDERMax(8 * c.size), VariableSignature: true},
	}
}

// extraCurves are the curves with their vectors. RFC 7027 writes its
// values with leading zeros to the field length; they are kept so.
var extraCurves = []extraCurve{
	{name: "secp256k1", bits: 128, size: 32, hash: crypto.SHA256, hname: "SHA-256",
		sign: signVector{name: "RFC 6979 d = 1 \"Satoshi Nakamoto\" SHA-256",
			key: "0000000000000000000000000000000000000000000000000000000000000001",
			pub: "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798" +
				"483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8",
			msg: hexString([]byte("Satoshi Nakamoto")),
			sig: "934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8" +
				"dbbd3162d46e9f9bef7feb87c16dc13b4f6568a87f4e83f728e2443ba586675c"},
		ecdh: []kexAgreementVector{{Source: "Wycheproof ecdh_secp256k1_test.json tcId 1",
			Private: "f4b7ff7cccc98813a69fae3df222bfe3f4e28f764bf91b4a10d8096ce446b254",
			Peer: "04d8096af8a11e0b80037e1ee68246b5dcbb0aeb1cf1244fd767db80f3fa27da2b" +
				"396812ea1686e7472e9692eaf3e958e50e9500d3b4c77243db1f2acd67ba9cc4",
			Shared: "544dfae22af6af939042b1d85b71a1e49e9a5614123c4d6ad0c8af65baf87d65"}}},
	{name: "brainpoolP256r1", bits: 128, size: 32, hash: crypto.SHA256, hname: "SHA-256",
		sign: signVector{name: "Wycheproof ecdsa_brainpoolP256r1_sha256_p1363 tcId 1",
			pub: "04019a2d9637743a63ddaefdbca0ee229a163b809b9b145e5313bbeb8defeab9d6" +
				"548caf89bf5ba49499404145651234336401b9b2843a579ed152e090f11b9e59",
			msg: "313233343030",
			sig: "0a5f8c70ba2d0842d5d0f841f160ad15195769a8159bfe692634d73d469d111f" +
				"426e857aad3ff7aa96e4d200c03b45f1846a36d089ee3917768ca1a0d6d4da6e"},
		ecdh: rfc7027("A.1",
			"81db1ee100150ff2ea338d708271be38300cb54241d79950f77b063039804f1d",
			"44106e913f92bc02a1705d9953a8414db95e1aaa49e81d9e85f929a8e3100be5",
			"8ab4846f11caccb73ce49cbdd120f5a900a69fd32c272223f789ef10eb089bdc",
			"55e40bc41e37e3e2ad25c3c6654511ffa8474a91a0032087593852d3e7d76bd3",
			"8d2d688c6cf93e1160ad04cc4429117dc2c41825e1e9fca0addd34e6f1b39f7b",
			"990c57520812be512641e47034832106bc7d3e8dd0e4c7f1136d7006547cec6a",
			"89afc39d41d3b327814b80940b042590f96556ec91e6ae7939bce31f3a18bf2b")},
	{name: "brainpoolP384r1", bits: 192, size: 48, hash: crypto.SHA384, hname: "SHA-384",
		sign: signVector{name: "Wycheproof ecdsa_brainpoolP384r1_sha384_p1363 tcId 1",
			pub: "04192ed5ce547d2336911d3f6cecba227f08df077f6242a9147a914e854e6e32d325fd23ccc42921dc4a7e4c2eb71defd3" +
				"631e69079ba982e7a1cad0a39eff47fc6d6e3a280d081286b624886ba1f3069671ec1a29986d84fb79736d2799e6fc21",
			msg: "313233343030",
			sig: "0e8e114a1c351405560bf8d47b166bfe957087a8003b353433b6144f7ee7d6f79c8dd14ef229fa7a2f2782bf33708b91" +
				"83aa7ba485dc060df9922f9ccc5da29adb75d44671d18bad0636d2e09c5e2f95e892a79b9fd3b37e1f798b157b567a24"},
		ecdh: rfc7027("A.2",
			"1e20f5e048a5886f1f157c74e91bde2b98c8b52d58e5003d57053fc4b0bd65d6f15eb5d1ee1610df870795143627d042",
			"68b665dd91c195800650cdd363c625f4e742e8134667b767b1b476793588f885ab698c852d4a6e77a252d6380fcaf068",
			"55bc91a39c9ec01dee36017b7d673a931236d2f1f5c83942d049e3fa20607493e0d038ff2fd30c2ab67d15c85f7faa59",
			"032640bc6003c59260f7250c3db58ce647f98e1260acce4acda3dd869f74e01f8ba5e0324309db6a9831497abac96670",
			"4d44326f269a597a5b58bba565da5556ed7fd9a8a9eb76c25f46db69d19dc8ce6ad18e404b15738b2086df37e71d1eb4",
			"62d692136de56cbe93bf5fa3188ef58bc8a3a0ec6c1e151a21038a42e9185329b5b275903d192f8d4e1f32fe9cc78c48",
			"0bd9d3a7ea0b3d519d09d8e48d0785fb744a6b355e6304bc51c229fbbce239bbadf6403715c35d4fb2a5444f575d4f42")},
	{name: "brainpoolP512r1", bits: 256, size: 64, hash: crypto.SHA512, hname: "SHA-512",
		sign: signVector{name: "Wycheproof ecdsa_brainpoolP512r1_sha512_p1363 tcId 1",
			pub: "0467cea1bedf84cbdcba69a05bb2ce3a2d1c9d911d236c480929a16ad697b45a6ca127079fe8d7868671e28ef33bdf9319e2e51c84b190ac5c91b51baf0a980ba5" +
				"00a7e79006194b5378f65cbe625ef2c47c64e56040d873b995b5b1ebaa4a6ce971da164391ff619af3bcfc71c5e1ad27ee0e859c2943e2de8ef7c43d3c976e9b",
			msg: "313233343030",
			sig: "0bd2593447cc6c02caf99d60418dd42e9a194c910e6755ed0c7059acac656b04ccfe1e8348462ee43066823aee2fed7ca012e9890dfb69866d7ae88b6506f9c7" +
				"44b42304e693796618d090dbcb2a2551c3cb78534611e61fd9d1a5c0938b5b8ec6ed53d2d28999eabbd8e7792d167fcf582492403a6a0f7cc94c73a28fb76b71"},
		ecdh: rfc7027("A.3",
			"16302ff0dbbb5a8d733dab7141c1b45acbc8715939677f6a56850a38bd87bd59b09e80279609ff333eb9d4c061231fb26f92eeb04982a5f1d1764cad57665422",
			"0a420517e406aac0acdce90fcd71487718d3b953efd7fbec5f7f27e28c6149999397e91e029e06457db2d3e640668b392c2a7e737a7f0bf04436d11640fd09fd",
			"72e6882e8db28aad36237cd25d580db23783961c8dc52dfa2ec138ad472a0fcef3887cf62b623b2a87de5c588301ea3e5fc269b373b60724f5e82a6ad147fde7",
			"230e18e1bcc88a362fa54e4ea3902009292f7f8033624fd471b5d8ace49d12cfabbc19963dab8e2f1eba00bffb29e4d72d13f2224562f405cb80503666b25429",
			"9d45f66de5d67e2e6db6e93a59ce0bb48106097ff78a081de781cdb31fce8ccbaaea8dd4320c4119f1e9cd437a2eab3731fa9668ab268d871deda55a5473199f",
			"2fdc313095bcdd5fb3a91636f07a959c8e86b5636a1e930e8396049cb481961d365cc11453a06c719835475b12cb52fc3c383bce35e27ef194512b71876285fa",
			"a7927098655f1f9976fa50a9d566865dc530331846381c87256baf3226244b76d36403c024d7bbf0aa0803eaff405d3d24f11a9b5c0bef679fe1454b21c4cd1f")},
}

// rfc7027 builds an RFC 7027 Appendix A test: A's key against B's public
// value, B's against A's, both giving x_Z.
func rfc7027(section, dA, xA, yA, dB, xB, yB, xZ string) []kexAgreementVector {
	src := "RFC 7027 §" + section
	qA, qB := "04"+xA+yA, "04"+xB+yB
	return []kexAgreementVector{
		{Source: src + " (dA, QB)", Private: dA, Public: qA, Peer: qB, Shared: xZ},
		{Source: src + " (dB, QA)", Private: dB, Public: qB, Peer: qA, Shared: xZ},
	}
}

func init() {
	curves := map[string]elliptic.Curve{
		"brainpoolP256r1": brainpool.P256r1(), "brainpoolP384r1": brainpool.P384r1(), "brainpoolP512r1": brainpool.P512r1(),
	}
	offCurve := func(v kexAgreementVector) kexAgreementVector { // y + 1: not on the curve, must be refused
		peer := unhex(v.Peer)
		peer[len(peer)-1]++
		return kexAgreementVector{Source: "SP 800-56A Rev 3 §5.6.2.3.4 (point not on the curve)", Private: v.Private, Peer: hexString(peer)}
	}
	for _, c := range extraCurves {
		vs := append(append([]kexAgreementVector(nil), c.ecdh...), offCurve(c.ecdh[0]))
		vectors := func() []kexAgreementVector { return vs }
		sizes := Sizes{PublicKey: 1 + 2*c.size, PrivateKey: c.size, SharedSecret: c.size}
		params := []Param{{"curve", c.name}}
		if c.name == "secp256k1" {
			register(k256Scheme(c))
			register(newAgreement("ECDH-secp256k1", nil, Provider("decred/dcrd"), params, Security{Bits: c.bits},
				"SEC 1 §3.3.1 ECDH over SEC 2 secp256k1 (vectors: Wycheproof ecdh_secp256k1_test.json tcId 1; an off-curve peer point)",
				sizes, kexK256{}, vectors))
			continue
		}
		curve := curves[c.name]
		register(bpScheme(c, curve))
		register(newAgreement("ECDH-"+c.name, nil, Provider("protonmail/go-crypto"), params, Security{Bits: c.bits},
			"RFC 7027 §2 ECDH over RFC 5639 "+c.name+" (vectors: RFC 7027 Appendix A, both directions; an off-curve peer point)",
			sizes, kexBrainpool{curve, c.size}, vectors))
	}
}
