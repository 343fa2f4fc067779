package scheme

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/cloudflare/circl/sign/ed448"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
	"github.com/cloudflare/circl/sign/slhdsa"
)

// signScheme is a signature algorithm: its functions, its published vectors,
// and what the engine needs to know (which operations it lists and which of
// them are slow). Every signature family member is one value of it; dsa.go
// builds the DSA ones.
type signScheme struct {
	info Info

	gen    func() (crypto.PublicKey, crypto.PrivateKey, error)
	sign   func(priv crypto.PrivateKey, msg []byte) ([]byte, error)
	verify func(pub crypto.PublicKey, msg, sig []byte) bool
	// signTo, if set, is sign writing into out's storage; the timed loop
	// uses it to reuse one signature buffer (ML-DSA).
	signTo func(priv crypto.PrivateKey, msg, out []byte) ([]byte, error)
	// testKey, if set, returns the key pair that Prepare uses for
	// Args.Variant v (RSA: embedded keys, because generating large keys is
	// slow). Otherwise Prepare generates a fresh pair, which is cheap.
	testKey func(v int) (crypto.PublicKey, crypto.PrivateKey, error)
	// testKeys is how many distinct keys testKey has (Operation.DistinctKeys).
	testKeys int
	// encode returns the public and private key encodings whose lengths
	// Info.Sizes declares (named in the key_encoding parameter).
	encode func(pub crypto.PublicKey, priv crypto.PrivateKey) (pubEnc, privEnc []byte, err error)
	// privateKeyMax says Sizes.PrivateKey is a maximum: a DER encoding
	// whose integers vary in length (RSA).
	privateKeyMax bool

	vectors []signVector
	check   func(s *signScheme, v signVector) error

	// keygen says this scheme lists the keygen operation for its key type
	// (the key_type parameter). Several schemes share a key type (RSA-2048
	// with PKCS#1 v1.5 and with PSS; P-256 with three hashes); only one of
	// them lists keygen, so `bench --op keygen` times each key type once.
	keygen                        bool
	slowKeygen, slowSign, slowAll bool
	extra                         []Operation // family-specific operations (DSA paramgen)
}

// signVector is one published known answer; byte strings are hex. Which
// fields a vector sets depends on the algorithm's check function.
type signVector struct {
	name    string // source and test case
	key     string // private key, or the seed it is derived from
	pub     string // public key (its SHA-256 if digest is set)
	priv    string // expected private key encoding (SLH-DSA key generation)
	msg     string
	ctx     string // context string (ML-DSA, SLH-DSA)
	sig     string // signature (its SHA-256 if digest is set); r || s for DSA and ECDSA
	p, q, g string // DSA domain parameters
	// digest: pub and sig are SHA-256 digests of the published values,
	// which are kilobytes long (ML-DSA, SLH-DSA); producing bytes with the
	// published digest means producing the published bytes.
	digest bool
}

func (s *signScheme) Info() *Info { return &s.info }

func (s *signScheme) GenerateKey() (crypto.PublicKey, crypto.PrivateKey, error) { return s.gen() }

func (s *signScheme) Sign(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
	return s.sign(priv, msg)
}

func (s *signScheme) Verify(pub crypto.PublicKey, msg, sig []byte) bool {
	return s.verify(pub, msg, sig)
}

// key returns the key pair for variant v.
func (s *signScheme) key(v int) (crypto.PublicKey, crypto.PrivateKey, error) {
	if s.testKey != nil {
		return s.testKey(v)
	}
	return s.gen()
}

// signRoundTripMessage is what KAT signs with the scheme's own key.
const signRoundTripMessage = "cryptocost known-answer round trip"

// KAT checks the published vectors, then a round trip with the scheme's own
// test key: a fresh signature verifies, and neither a corrupted signature
// nor a different message does.
func (s *signScheme) KAT() error {
	for _, v := range s.vectors {
		if err := s.check(s, v); err != nil {
			return err
		}
	}
	pub, priv, err := s.key(0)
	if err != nil {
		return fmt.Errorf("%s: round trip: %w", s.info.Name, err)
	}
	msg := []byte(signRoundTripMessage)
	sig, err := s.sign(priv, msg)
	if err != nil {
		return fmt.Errorf("%s: round trip: %w", s.info.Name, err)
	}
	if !s.verify(pub, msg, sig) {
		return signKATError(s.info.Name, "round trip", "a fresh signature does not verify")
	}
	if s.verify(pub, msg[1:], sig) {
		return signKATError(s.info.Name, "round trip", "the signature verifies for a different message")
	}
	bad := bytes.Clone(sig)
	bad[len(bad)/2] ^= 0x01
	if s.verify(pub, msg, bad) {
		return signKATError(s.info.Name, "round trip", "a corrupted signature verifies")
	}
	return nil
}

// signKATError is a known-answer failure that is not a byte mismatch.
func signKATError(name, vector, what string) error {
	return fmt.Errorf("%s: %w: vector %s: %s", name, ErrKAT, vector, what)
}

// Operations: keygen (on the one scheme per key type that lists it), any
// family-specific ones, then sign and verify of a document of Args.Size
// bytes, hashed inside the operation.
func (s *signScheme) Operations() []Operation {
	var ops []Operation
	if s.keygen {
		ops = append(ops, Operation{
			Name: OpKeygen, Input: InputNone, Slow: s.slowAll || s.slowKeygen,
			Prepare: func(Args) (Loop, error) {
				return func(n int) error {
					for range n {
						if _, _, err := s.gen(); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		})
	}
	ops = append(ops, s.extra...)
	return append(ops,
		Operation{
			Name: OpSign, Input: InputMessage, DefaultSizes: []int{32}, Slow: s.slowAll || s.slowSign, DistinctKeys: s.testKeys,
			Prepare: func(a Args) (Loop, error) {
				_, priv, err := s.key(a.Variant)
				if err != nil {
					return nil, err
				}
				msg := testData(a.Size, s.info.Name, a.Variant)
				if s.signTo != nil {
					out := make([]byte, 0, s.info.Sizes.Signature)
					return func(n int) error {
						for range n {
							if out, err = s.signTo(priv, msg, out[:0]); err != nil {
								return err
							}
						}
						return nil
					}, nil
				}
				return func(n int) error {
					for range n {
						if _, err := s.sign(priv, msg); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		},
		Operation{
			Name: OpVerify, Input: InputMessage, DefaultSizes: []int{32}, Slow: s.slowAll, DistinctKeys: s.testKeys,
			Prepare: func(a Args) (Loop, error) {
				pub, priv, err := s.key(a.Variant)
				if err != nil {
					return nil, err
				}
				msg := testData(a.Size, s.info.Name, a.Variant)
				sig, err := s.sign(priv, msg)
				if err != nil {
					return nil, err
				}
				if !s.verify(pub, msg, sig) {
					return nil, fmt.Errorf("%s: a fresh signature does not verify", s.info.Name)
				}
				return func(n int) error {
					for range n {
						if !s.verify(pub, msg, sig) {
							return fmt.Errorf("%s: a valid signature failed to verify", s.info.Name)
						}
					}
					return nil
				}, nil
			},
		})
}

// signKeyOf returns k as the scheme's own key type T: keys are opaque values
// that only the scheme that generated them accepts (see families.go).
func signKeyOf[T any](k any) (T, error) {
	t, ok := k.(T)
	if !ok {
		return t, fmt.Errorf("key of type %T: want a %T from this scheme's GenerateKey", k, t)
	}
	return t, nil
}

// signDigest hashes a document with h.
func signDigest(h crypto.Hash, msg []byte) []byte {
	d := h.New()
	d.Write(msg)
	return d.Sum(nil)
}

// signRS is the DER form of DSA and ECDSA signatures: SEQUENCE { r INTEGER,
// s INTEGER } (RFC 3279 §2.2.2 and §2.2.3).
type signRS struct{ R, S *big.Int }

// signDER encodes r || s (two equal-length big-endian halves) as DER.
func signDER(rs []byte) []byte {
	n := len(rs) / 2
	der, err := asn1.Marshal(signRS{new(big.Int).SetBytes(rs[:n]), new(big.Int).SetBytes(rs[n:])})
	if err != nil {
		panic("scheme: encoding a DSA signature: " + err.Error()) // positive integers always encode
	}
	return der
}

// signDERLength is the length of a DER element with n content bytes: tag,
// length octets (X.690 §8.1.3.3-8.1.3.5: one below 128, else 0x80|k and k
// bytes), content.
func signDERLength(n int) int {
	lenOctets := 1
	if n >= 128 {
		for m := n; m > 0; m >>= 8 {
			lenOctets++
		}
	}
	return 1 + lenOctets + n
}

// signDERMax is the longest DER (r, s) signature for a group order of
// orderBits: each INTEGER holds a value below 2^orderBits, at most
// orderBits/8 + 1 content bytes (a leading zero, or the partial top byte).
func signDERMax(orderBits int) int {
	return signDERLength(2 * signDERLength(orderBits/8+1))
}

// --- RSA (RFC 8017) -----------------------------------------------------

// rsaVariant is one RSA signature padding with SHA-256.
type rsaVariant struct {
	label string // name component: "PKCS1v15", "PSS"
	param string // padding parameter value
	sign  func(k *rsa.PrivateKey, digest []byte) ([]byte, error)
	ver   func(k *rsa.PublicKey, digest, sig []byte) error
	// standard and vectors name the defining section and published vectors.
	standard string
	vectors  []signVector
	check    func(s *signScheme, v signVector) error
}

// rsaPSSOptions: MGF1 with SHA-256 and a 32-byte salt (the hash length),
// RFC 8017 §9.1 and the parameters of the Wycheproof vectors below; verify
// requires exactly that salt length.
var rsaPSSOptions = rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA256}

var rsaPKCS1v15 = rsaVariant{
	label: "PKCS1v15", param: "RSASSA-PKCS1-v1_5",
	sign: func(k *rsa.PrivateKey, digest []byte) ([]byte, error) {
		return rsa.SignPKCS1v15(nil, k, crypto.SHA256, digest) // deterministic: no randomness
	},
	ver: func(k *rsa.PublicKey, digest, sig []byte) error {
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, digest, sig)
	},
	standard: "RFC 8017 §8.2 (vectors: Wycheproof rsa_sig_gen_misc_test.json tcId 20, RSA-1024 SHA-256, signature bytes)",
	vectors: []signVector{{
		name: "Wycheproof rsa_sig_gen_misc tcId 20",
		// privateKeyPkcs8 of the group's SHA-256 RSA-1024 key.
		key: "30820276020100300d06092a864886f70d0101010500048202603082025c02010002818100ac9048a7a4f560af91b4fcaf62a14595" +
			"cb9ca9ec12000fc845e48572113cab2890adb011a919575a40760d1f23fe92509c8a5810b6d05990b909dd0f4c6014f2b31b6abd80" +
			"5bace99816e2eda41fd7b95405db7c5c8f4cf6babb14f550d5d0dd5179b54951fff6aa9686f30f478db649b7c7044cc202dccad003" +
			"43468eaacfbf0203010001028181008505d47c271560aaf6cf65da6d5594a69c86f01622ea194071606fde369b65f5a751bce06052" +
			"409c3a04c6a8b2be935bc0d084829dea8ea0998398fd2a0b0719ac1a1ae2d133fcc72d9df27b377b9a0109ef1a564e92b66963356b" +
			"8da48f88fcdbc20658f74b542582925ec5cd03fb5e9a527c670465f792a69c1f6c7c5e1841024100d397dcfab4919db23bb6b88c45" +
			"11516f6135e1118277e496130f0cab3a75661010cc98ec8f40cdb0c1ab612c03bbe3b023d891f46185788fb114437c8a9ae71d0241" +
			"00d0c7805159509ddad70f35b9a76c7c2bd95a844d36b76d96138cfc7a2a55f88072e8b10ac37463caf9bf8d1014c93a001214d7ce" +
			"230c8332fb58dadb05d52f8b0240762d3c4b7dac5292284dbe3701a051864e99e4117e77ede06fd698f1cd5da25a58b79cb58ab0db" +
			"f0dbca17249915486ea9269d260b8d9b2f4dec8e60b19d2075024062a4f06eff4944dc6262905ae0cd343a2f9f42058d85cb646e66" +
			"5de086e249e0beea4cc42e276f03374f9721f30044c445c6cd545b610d186883ca1c543c2f1302403cfcf044035c1854475e1dba48" +
			"0ac50d2a059f32d18e819c96a3199b1e3855a653ec0e5577e4d7677d6e0b7a55fc418b13202ee19430228c4bf9d28af8851c9b",
		msg: "313233343030",
		sig: "9f2e01b92bc9dd32dcf24aee91467797396649a3255bac943dd0e03c9ef416f349c0cbb728704730f3c7a7c244066a94b229a6e86b" +
			"de7753c8940129626307b542cc7f596583932b4fe6ea9384d5353e08654e966a64b63bd6745503f7e4383dcef74ad4516ac25c8790" +
			"db6702ac5b8b057a8fae75669b6a9e689e9211a337b9",
	}},
	check: rsaCheckSignature,
}

var rsaPSS = rsaVariant{
	label: "PSS", param: "RSASSA-PSS, MGF1-SHA-256, 32-byte salt",
	sign: func(k *rsa.PrivateKey, digest []byte) ([]byte, error) {
		return rsa.SignPSS(rand.Reader, k, crypto.SHA256, digest, &rsaPSSOptions)
	},
	ver: func(k *rsa.PublicKey, digest, sig []byte) error {
		return rsa.VerifyPSS(k, crypto.SHA256, digest, sig, &rsaPSSOptions)
	},
	standard: "RFC 8017 §8.1 (vectors: Wycheproof rsa_pss_2048_sha256_mgf1_32_test.json tcId 4, verified)",
	vectors: []signVector{{
		name: "Wycheproof rsa_pss_2048_sha256_mgf1_32 tcId 4",
		// keyDer (SubjectPublicKeyInfo) of the test group.
		pub: "30820122300d06092a864886f70d01010105000382010f003082010a0282010100a2b451a07d0aa5f96e455671513550514a8a5b" +
			"462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db9251" +
			"2ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed812996" +
			"15d9814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7a" +
			"fc3e09ada0f1126422f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d" +
			"3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d50203010001",
		msg: "313233343030",
		sig: "68caf07e71ee654ffabf07d342fc4059deb4f7e5970746c423b1e8f668d5332275cc35eb61270aebd27855b1e80d59def47fe88828" +
			"67fd33c2308c91976baa0b1df952caa78db4828ab81e79949bf145cbdfd1c4987ed036f81e8442081016f20fa4b587574884ca6f60" +
			"45959ce3501ae7c02b1902ec1d241ef28dee356c0d30d28a950f1fbc683ee7d9aad26b048c13426fe3975d5638afeb5b9c1a99d162" +
			"d3a5810e8b074d7a2eae2be52b577151f76e1f734b0a956ef4f22be64dc20a81ad1316e4f79dff5fc41fc08a20bc612283a88415d4" +
			"1595bfea66d59de7ac12e230f72244ad9905aef0ead3fa41ed70bf4218863d5f041292f2d14ce0a7271c6d36",
	}},
	check: rsaCheckPublishedVerifies,
}

// rsaCheckSignature signs with a published private key and compares the
// signature (PKCS#1 v1.5 is deterministic), then verifies it.
func rsaCheckSignature(s *signScheme, v signVector) error {
	key, err := rsaParsePKCS8(unhex(v.key), 1024) // the Wycheproof key is RSA-1024
	if err != nil {
		return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
	}
	msg, want := unhex(v.msg), unhex(v.sig)
	got, err := s.sign(key, msg)
	if err != nil {
		return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
	}
	if !bytes.Equal(got, want) {
		return katError(s.info.Name, v.name, got, want)
	}
	if !s.verify(&key.PublicKey, msg, want) {
		return signKATError(s.info.Name, v.name, "the published signature does not verify")
	}
	return nil
}

// rsaCheckPublishedVerifies verifies a published signature with its
// published public key (randomised padding: PSS).
func rsaCheckPublishedVerifies(s *signScheme, v signVector) error {
	pub, err := x509.ParsePKIXPublicKey(unhex(v.pub))
	if err != nil {
		return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
	}
	if !s.verify(pub, unhex(v.msg), unhex(v.sig)) {
		return signKATError(s.info.Name, v.name, "the published signature does not verify")
	}
	return nil
}

// rsaSecurity is the strength of an RSA signature with SHA-256: the key's
// (SP 800-57 Pt 1 Rev 5 Table 2), capped at SHA-256's 128-bit collision
// resistance (Table 3; §5.6.1.2: a signature is as strong as the weaker).
func rsaSecurity(bits int) (Security, string) {
	switch {
	case bits < 1024:
		what := map[int]string{512: "RSA-155 (512 bits) was factored in 1999", 768: "RSA-768 was factored in 2009 (Kleinjung et al.)"}[bits]
		return Security{Bits: 0, Note: what}, "broken: " + itoa(bits) + "-bit moduli have been factored"
	case bits < 2048:
		return Security{Bits: 80}, "80-bit security (SP 800-57 Table 2: RSA-1024), below the 112-bit floor"
	case bits < 3072:
		return Security{Bits: 112}, ""
	case bits < 7680:
		sec := Security{Bits: 128}
		if bits > 3072 {
			sec.Note = "between SP 800-57 Table 2's RSA-3072 (128) and RSA-7680 (192) rows: 128"
		}
		return sec, ""
	}
	key := map[int]int{7680: 192, 15360: 256}[bits]
	return Security{Bits: 128, Note: fmt.Sprintf("RSA-%d keys are %d-bit (SP 800-57 Table 2); SHA-256's 128-bit collision resistance (Table 3) bounds the signature", bits, key)}, ""
}

// newRSA builds RSA-<bits>-<variant>-SHA256. keygen: it lists the keygen
// operation for RSA-<bits> keys (on the PKCS#1 v1.5 scheme).
func newRSA(bits int, v rsaVariant, keygen bool) *signScheme {
	name := fmt.Sprintf("RSA-%d-%s-SHA256", bits, v.label)
	sec, legacy := rsaSecurity(bits)
	sign := func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
		k, err := signKeyOf[*rsa.PrivateKey](priv)
		if err != nil {
			return nil, err
		}
		d := sha256.Sum256(msg)
		sig, err := v.sign(k, d[:])
		return sig, rsaSmallKeyError(k.N.BitLen(), err)
	}
	return &signScheme{
		info: Info{
			Name: name, Family: FamilySign, Provider: ProviderGo,
			Params: []Param{
				{"modulus_bits", itoa(bits)}, {"padding", v.param}, {"hash", "SHA-256"},
				{"public_exponent", itoa(rsaPublicExponent)},
				{"key_type", "RSA-" + itoa(bits)}, {"keygen_on", fmt.Sprintf("RSA-%d-PKCS1v15-SHA256", bits)},
				{"key_encoding", "PKCS#1 DER (private: maximum length)"},
			},
			Security: sec, Legacy: legacy, Standard: v.standard,
			Sizes: Sizes{
				PublicKey: rsaPKCS1PublicKeySize(bits), PrivateKey: rsaPKCS1PrivateKeyMax(bits),
				Signature: bits / 8,
			},
		},
		gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
			k, err := rsaGenerateKey(bits)
			if err != nil {
				return nil, nil, err
			}
			return &k.PublicKey, k, nil
		},
		sign: sign,
		verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
			k, err := signKeyOf[*rsa.PublicKey](pub)
			d := sha256.Sum256(msg)
			return err == nil && v.ver(k, d[:], sig) == nil
		},
		// Variant i uses embedded key i mod the number of keys of this size.
		testKey: func(variant int) (crypto.PublicKey, crypto.PrivateKey, error) {
			k, err := rsaTestKey(bits, variant)
			if err != nil {
				return nil, nil, err
			}
			return &k.PublicKey, k, nil
		},
		testKeys: rsaTestKeyCount(bits),
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			k, err := signKeyOf[*rsa.PrivateKey](priv)
			if err != nil {
				return nil, nil, err
			}
			return x509.MarshalPKCS1PublicKey(&k.PublicKey), x509.MarshalPKCS1PrivateKey(k), nil
		},
		privateKeyMax: true,
		vectors:       v.vectors, check: v.check,
		keygen: keygen,
		// Generating keys of 3072 bits and more takes a second or more;
		// RSA-7680 and RSA-15360 private operations take about that.
		slowKeygen: bits >= 3072,
		slowAll:    bits >= 7680,
	}
}

// --- ECDSA (FIPS 186-5 §6) ----------------------------------------------

// ecdsaCurve is a NIST curve with the RFC 6979 §A.2 test key and its
// deterministic signatures of the message "sample" (r || s).
type ecdsaCurve struct {
	name     string // "P-256"
	short    string // name component: "P256"
	curve    elliptic.Curve
	bits     int    // SP 800-57 Table 2 strength of the curve
	keygenOn string // the hash whose scheme lists keygen: the curve's own strength
	rfc      string // RFC 6979 section
	d, pub   string // private scalar; uncompressed public point (RFC's Ux, Uy)
	sigs     map[string]string
}

var ecdsaCurves = []ecdsaCurve{
	{name: "P-224", short: "P224", curve: elliptic.P224(), bits: 112, keygenOn: "SHA-256", rfc: "A.2.4",
		d: "f220266e1105bfe3083e03ec7a3a654651f45e37167e88600bf257c1",
		pub: "0400cf08da5ad719e42707fa431292dea11244d64fc51610d94b130d6c" +
			"eeab6f3debe455e3dbf85416f7030cbd94f34f2d6f232c69f3c1385a",
		sigs: map[string]string{
			"SHA-256": "61aa3da010e8e8406c656bc477a7a7189895e7e840cdfe8ff42307ba" +
				"bc814050dab5d23770879494f9e0a680dc1af7161991bde692b10101",
			"SHA-384": "0b115e5e36f0f9ec81f1325a5952878d745e19d7bb3eabfaba77e953" +
				"830f34ccdfe826ccfdc81eb4129772e20e122348a2bbd889a1b1af1d",
			"SHA-512": "074bd1d979d5f32bf958ddc61e4fb4872adcafeb2256497cdac30397" +
				"a4ceca196c3d5a1ff31027b33185dc8ee43f288b21ab342e5d8eb084",
		}},
	{name: "P-256", short: "P256", curve: elliptic.P256(), bits: 128, keygenOn: "SHA-256", rfc: "A.2.5",
		d: "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
		pub: "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6" +
			"7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		sigs: map[string]string{
			"SHA-256": "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716" +
				"f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
			"SHA-384": "0eafea039b20e9b42309fb1d89e213057cbf973dc0cfc8f129edddc800ef7719" +
				"4861f0491e6998b9455193e34e7b0d284ddd7149a74b95b9261f13abde940954",
			"SHA-512": "8496a60b5e9b47c825488827e0495b0e3fa109ec4568fd3f8d1097678eb97f00" +
				"2362ab1adbe2b8adf9cb9edab740ea6049c028114f2460f96554f61fae3302fe",
		}},
	{name: "P-384", short: "P384", curve: elliptic.P384(), bits: 192, keygenOn: "SHA-384", rfc: "A.2.6",
		d: "6b9d3dad2e1b8c1c05b19875b6659f4de23c3b667bf297ba9aa47740787137d896d5724e4c70a825f872c9ea60d2edf5",
		pub: "04ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13" +
			"8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720",
		sigs: map[string]string{
			"SHA-256": "21b13d1e013c7fa1392d03c5f99af8b30c570c6f98d4ea8e354b63a21d3daa33bde1e888e63355d92fa2b3c36d8fb2cd" +
				"f3aa443fb107745bf4bd77cb3891674632068a10ca67e3d45db2266fa7d1feebefdc63eccd1ac42ec0cb8668a4fa0ab0",
			"SHA-384": "94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46" +
				"99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8",
			"SHA-512": "ed0959d5880ab2d869ae7f6c2915c6d60f96507f9cb3e047c0046861da4a799cfe30f35cc900056d7c99cd7882433709" +
				"512c8cceee3890a84058ce1e22dbc2198f42323ce8aca9135329f03c068e5112dc7cc3ef3446defceb01a45c2667fdd5",
		}},
	{name: "P-521", short: "P521", curve: elliptic.P521(), bits: 256, keygenOn: "SHA-512", rfc: "A.2.7",
		d: "00fad06daa62ba3b25d2fb40133da757205de67f5bb0018fee8c86e1b68c7e75caa896eb32f1f47c70855836a6d16fcc1466f6d8fbec67db89ec0c08b0e996b83538",
		pub: "0401894550d0785932e00eaa23b694f213f8c3121f86dc97a04e5a7167db4e5bcd371123d46e45db6b5d5370a7f20fb633155d38ffa16d2bd761dcac474b9a2f5023a4" +
			"00493101c962cd4d2fddf782285e64584139c2f91b47f87ff82354d6630f746a28a0db25741b5b34a828008b22acc23f924faafbd4d33f81ea66956dfeaa2bfdfcf5",
		sigs: map[string]string{
			"SHA-256": "01511bb4d675114fe266fc4372b87682baecc01d3cc62cf2303c92b3526012659d16876e25c7c1e57648f23b73564d67f61c6f14d527d54972810421e7d87589e1a7" +
				"004a171143a83163d6df460aaf61522695f207a58b95c0644d87e52aa1a347916e4f7a72930b1bc06dbe22ce3f58264afd23704cbb63b29b931f7de6c9d949a7ecfc",
			"SHA-384": "01ea842a0e17d2de4f92c15315c63ddf72685c18195c2bb95e572b9c5136ca4b4b576ad712a52be9730627d16054ba40cc0b8d3ff035b12ae75168397f5d50c67451" +
				"01f21a3cee066e1961025fb048bd5fe2b7924d0cd797babe0a83b66f1e35eeaf5fde143fa85dc394a7dee766523393784484bdf3e00114a1c857cde1aa203db65d61",
			"SHA-512": "00c328fafcbd79dd77850370c46325d987cb525569fb63c5d3bc53950e6d4c5f174e25a1ee9017b5d450606add152b534931d7d4e8455cc91f9b15bf05ec36e377fa" +
				"00617cce7cf5064806c467f678d3b4080d6f1cc50af26ca209417308281b68af282623eaa63e5b5c0723d8b8c37ff0777b1a20f8ccb1dccc43997f1ee0e44da4a67a",
		}},
}

// ecdsaHashes are the hashes ECDSA is registered with, and their collision
// resistance (SP 800-57 Pt 1 Rev 5 Table 3).
var ecdsaHashes = []struct {
	name  string
	short string
	h     crypto.Hash
	bits  int
}{
	{"SHA-256", "SHA256", crypto.SHA256, 128},
	{"SHA-384", "SHA384", crypto.SHA384, 192},
	{"SHA-512", "SHA512", crypto.SHA512, 256},
}

// ecdsaCheck reproduces a published RFC 6979 signature: with a nil random
// source crypto/ecdsa signs deterministically per RFC 6979, so the bytes
// must match; then the published signature must verify.
func ecdsaCheck(curve elliptic.Curve, h crypto.Hash) func(*signScheme, signVector) error {
	return func(s *signScheme, v signVector) error {
		priv, err := ecdsa.ParseRawPrivateKey(curve, unhex(v.key))
		if err != nil {
			return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
		}
		if pub, _ := priv.PublicKey.Bytes(); !bytes.Equal(pub, unhex(v.pub)) {
			return katError(s.info.Name, v.name+" public key", pub, unhex(v.pub))
		}
		msg, want := unhex(v.msg), signDER(unhex(v.sig))
		got, err := priv.Sign(nil, signDigest(h, msg), h)
		if err != nil {
			return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
		}
		if !bytes.Equal(got, want) {
			return katError(s.info.Name, v.name, got, want)
		}
		if !s.verify(&priv.PublicKey, msg, want) {
			return signKATError(s.info.Name, v.name, "the published signature does not verify")
		}
		return nil
	}
}

func newECDSA(c ecdsaCurve, hash int) *signScheme {
	hh := ecdsaHashes[hash]
	name := "ECDSA-" + c.short + "-" + hh.short
	sec := Security{Bits: min(c.bits, hh.bits)}
	if hh.bits < c.bits {
		sec.Note = fmt.Sprintf("%s keys are %d-bit (SP 800-57 Table 2); %s's %d-bit collision resistance (Table 3) bounds the signature",
			c.name, c.bits, hh.name, hh.bits)
	}
	size := (c.curve.Params().BitSize + 7) / 8
	var aliases []string
	if hh.name == c.keygenOn && c.name != "P-224" {
		aliases = []string{"ES" + hh.short[len("SHA"):]} // JOSE's name (RFC 7518 §3.4)
	}
	return &signScheme{
		info: Info{
			Name: name, Aliases: aliases, Family: FamilySign, Provider: ProviderGo,
			Params: []Param{
				{"curve", c.name}, {"hash", hh.name},
				{"key_type", "ECDSA " + c.name}, {"keygen_on", "ECDSA-" + c.short + "-SHA" + c.keygenOn[len("SHA-"):]},
				{"key_encoding", "SEC 1 uncompressed point; fixed-length scalar"},
			},
			Security: sec,
			Standard: fmt.Sprintf("FIPS 186-5 §6 (vectors: RFC 6979 §%s, deterministic, message \"sample\")", c.rfc),
			Sizes: Sizes{
				PublicKey: 1 + 2*size, PrivateKey: size,
				Signature: signDERMax(c.curve.Params().N.BitLen()), VariableSignature: true,
			},
		},
		gen:    ecdsaGen(c.curve),
		sign:   ecdsaSign(hh.h),
		verify: ecdsaVerify(hh.h),
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			k, err := signKeyOf[*ecdsa.PrivateKey](priv)
			if err != nil {
				return nil, nil, err
			}
			pubEnc, err := k.PublicKey.Bytes()
			if err != nil {
				return nil, nil, err
			}
			privEnc, err := k.Bytes()
			return pubEnc, privEnc, err
		},
		vectors: []signVector{{
			name: fmt.Sprintf("RFC 6979 %s %s \"sample\"", c.rfc, hh.name),
			key:  c.d, pub: c.pub, msg: hexString([]byte("sample")), sig: c.sigs[hh.name],
		}},
		check:  ecdsaCheck(c.curve, hh.h),
		keygen: hh.name == c.keygenOn,
	}
}

// --- EdDSA (RFC 8032) ----------------------------------------------------

// eddsaCheck derives the key pair from an RFC 8032 secret key (seed),
// compares the public key, signs (EdDSA is deterministic) and compares the
// signature, then verifies it.
func eddsaCheck(fromSeed func(seed []byte) (crypto.PublicKey, crypto.PrivateKey, []byte)) func(*signScheme, signVector) error {
	return func(s *signScheme, v signVector) error {
		pub, priv, pubEnc := fromSeed(unhex(v.key))
		if !bytes.Equal(pubEnc, unhex(v.pub)) {
			return katError(s.info.Name, v.name+" public key", pubEnc, unhex(v.pub))
		}
		msg, want := unhex(v.msg), unhex(v.sig)
		got, err := s.sign(priv, msg)
		if err != nil {
			return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
		}
		if !bytes.Equal(got, want) {
			return katError(s.info.Name, v.name, got, want)
		}
		if !s.verify(pub, msg, want) {
			return signKATError(s.info.Name, v.name, "the published signature does not verify")
		}
		return nil
	}
}

var ed25519Scheme = &signScheme{
	info: Info{
		Name: "Ed25519", Family: FamilySign, Provider: ProviderGo,
		Params: []Param{{"curve", "edwards25519"}, {"hash", "SHA-512 (inside EdDSA)"}, {"key_type", "Ed25519"},
			{"keygen_on", "Ed25519"}, {"key_encoding", "RFC 8032 (private: seed || public key, Go's 64-byte form)"}},
		Security: Security{Bits: 128, Note: "SP 800-186 §3.2.2: Edwards25519 gives about 128 bits " +
			"(its 253-bit group order sits in SP 800-57 Table 2's 224-255 row, 112)"},
		Standard: "RFC 8032 §5.1 (vectors: RFC 8032 §7.1 TEST 1 and TEST 2)",
		Sizes:    Sizes{PublicKey: ed25519.PublicKeySize, PrivateKey: ed25519.PrivateKeySize, Signature: ed25519.SignatureSize},
	},
	gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
		return ed25519.GenerateKey(rand.Reader)
	},
	sign: func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
		k, err := signKeyOf[ed25519.PrivateKey](priv)
		if err != nil {
			return nil, err
		}
		return ed25519.Sign(k, msg), nil
	},
	verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
		k, err := signKeyOf[ed25519.PublicKey](pub)
		return err == nil && ed25519.Verify(k, msg, sig)
	},
	encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
		p, err1 := signKeyOf[ed25519.PublicKey](pub)
		k, err2 := signKeyOf[ed25519.PrivateKey](priv)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("Ed25519: want the keys GenerateKey returns, got %T and %T", pub, priv)
		}
		return p, k, nil
	},
	vectors: []signVector{
		{
			name: "RFC 8032 7.1 TEST 1",
			key:  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
			pub:  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
			msg:  "",
			sig: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b" +
				"d25bf5f0595bbe24655141438e7a100b",
		},
		{
			name: "RFC 8032 7.1 TEST 2",
			key:  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
			pub:  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
			msg:  "72",
			sig: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c" +
				"387b2eaeb4302aeeb00d291612bb0c00",
		},
	},
	check: eddsaCheck(func(seed []byte) (crypto.PublicKey, crypto.PrivateKey, []byte) {
		priv := ed25519.NewKeyFromSeed(seed)
		pub := priv.Public().(ed25519.PublicKey)
		return pub, priv, pub
	}),
	keygen: true,
}

var ed448Scheme = &signScheme{
	info: Info{
		Name: "Ed448", Family: FamilySign, Provider: ProviderCIRCL,
		Params: []Param{{"curve", "edwards448"}, {"hash", "SHAKE256 (inside EdDSA)"}, {"context", "empty"},
			{"key_type", "Ed448"}, {"keygen_on", "Ed448"},
			{"key_encoding", "RFC 8032 (private: seed || public key, CIRCL's 114-byte form)"}},
		Security: Security{Bits: 224, Note: "SP 800-186 §3.2.2: Edwards448 gives about 224 bits " +
			"(its 446-bit group order sits in SP 800-57 Table 2's 384-511 row, 192)"},
		Standard: "RFC 8032 §5.2 (vectors: RFC 8032 §7.4 \"Blank\" and \"1 octet\")",
		Sizes:    Sizes{PublicKey: ed448.PublicKeySize, PrivateKey: ed448.PrivateKeySize, Signature: ed448.SignatureSize},
	},
	gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
		return ed448.GenerateKey(rand.Reader)
	},
	sign: func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
		k, err := signKeyOf[ed448.PrivateKey](priv)
		if err != nil {
			return nil, err
		}
		return ed448.Sign(k, msg, ""), nil
	},
	verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
		k, err := signKeyOf[ed448.PublicKey](pub)
		return err == nil && ed448.Verify(k, msg, sig, "")
	},
	encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
		p, err1 := signKeyOf[ed448.PublicKey](pub)
		k, err2 := signKeyOf[ed448.PrivateKey](priv)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("Ed448: want the keys GenerateKey returns, got %T and %T", pub, priv)
		}
		return p, k, nil
	},
	vectors: []signVector{
		{
			name: "RFC 8032 7.4 Blank",
			key:  "6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
			pub:  "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
			msg:  "",
			sig: "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980" +
				"ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600",
		},
		{
			name: "RFC 8032 7.4 1 octet",
			key:  "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e",
			pub:  "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480",
			msg:  "03",
			sig: "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd77980" +
				"5e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0ff3348ab21aa4adafd1d234441cf807c03a00",
		},
	},
	check: eddsaCheck(func(seed []byte) (crypto.PublicKey, crypto.PrivateKey, []byte) {
		priv := ed448.NewKeyFromSeed(seed)
		pub := priv.Public().(ed448.PublicKey)
		return pub, priv, pub
	}),
	keygen: true,
}

// --- ML-DSA (FIPS 204) ---------------------------------------------------

// mldsaKey is what CIRCL's ML-DSA keys have in common.
type mldsaKey interface{ Bytes() []byte }

// mldsaAPI is one of CIRCL's mldsa44/65/87 packages: the same functions on
// different types.
type mldsaAPI[PK, SK mldsaKey] struct {
	generate func(io.Reader) (PK, SK, error)
	fromSeed func(*[32]byte) (PK, SK)
	signTo   func(sk SK, msg, ctx []byte, randomized bool, sig []byte) error
	verify   func(pk PK, msg, ctx, sig []byte) bool
}

// newMLDSA builds ML-DSA-<set>. Signing is hedged (FIPS 204 Algorithm 2
// with a fresh 32-byte rnd), with an empty context. The KAT derives the key
// from a Wycheproof seed and signs deterministically (rnd = 0), which must
// give the published signature.
func newMLDSA[PK, SK mldsaKey](set int, category, bits int, sizes Sizes, api mldsaAPI[PK, SK], v signVector) *signScheme {
	name := "ML-DSA-" + itoa(set)
	notes := map[int]string{
		2: "NIST PQC category 2 (FIPS 204 Table 1): as hard as a SHA-256 collision search",
		3: "NIST PQC category 3 (FIPS 204 Table 1): as hard as AES-192 key search",
		5: "NIST PQC category 5 (FIPS 204 Table 1): as hard as AES-256 key search",
	}
	signTo := func(priv crypto.PrivateKey, msg, out []byte) ([]byte, error) {
		k, err := signKeyOf[SK](priv)
		if err != nil {
			return nil, err
		}
		if cap(out) < sizes.Signature {
			out = make([]byte, sizes.Signature)
		}
		out = out[:sizes.Signature]
		return out, api.signTo(k, msg, nil, true, out)
	}
	return &signScheme{
		info: Info{
			Name: name, Family: FamilySign, Provider: ProviderCIRCL,
			Params: []Param{{"parameter_set", name}, {"signing", "hedged (fresh rnd), empty context"},
				{"key_type", name}, {"keygen_on", name}, {"key_encoding", "FIPS 204 pkEncode / skEncode"}},
			Security: Security{Bits: bits, Category: category, Note: notes[category]},
			Standard: fmt.Sprintf("FIPS 204 (vectors: Wycheproof mldsa_%d_sign_seed_test.json and mldsa_%d_verify_test.json tcId 1, "+
				"checked as SHA-256 digests)", set, set),
			Sizes: sizes,
		},
		gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
			return api.generate(rand.Reader)
		},
		sign: func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
			return signTo(priv, msg, nil)
		},
		signTo: signTo,
		verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
			k, err := signKeyOf[PK](pub)
			return err == nil && api.verify(k, msg, nil, sig)
		},
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			p, err1 := signKeyOf[PK](pub)
			k, err2 := signKeyOf[SK](priv)
			if err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("%s: want the keys GenerateKey returns, got %T and %T", name, pub, priv)
			}
			return p.Bytes(), k.Bytes(), nil
		},
		vectors: []signVector{v},
		check: func(s *signScheme, v signVector) error {
			pk, sk := api.fromSeed((*[32]byte)(unhex(v.key)))
			if got := sha256.Sum256(pk.Bytes()); !bytes.Equal(got[:], unhex(v.pub)) {
				return katError(s.info.Name, v.name+" public key SHA-256", got[:], unhex(v.pub))
			}
			msg := unhex(v.msg)
			sig := make([]byte, sizes.Signature)
			if err := api.signTo(sk, msg, unhex(v.ctx), false, sig); err != nil {
				return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
			}
			if got := sha256.Sum256(sig); !bytes.Equal(got[:], unhex(v.sig)) {
				return katError(s.info.Name, v.name+" signature SHA-256", got[:], unhex(v.sig))
			}
			if !api.verify(pk, msg, unhex(v.ctx), sig) {
				return signKATError(s.info.Name, v.name, "the published signature does not verify")
			}
			return nil
		},
		keygen: true,
	}
}

// mldsaVector is the Wycheproof ML-DSA test case 1 ("baseline": seed 2a..2a,
// message "Hello world", no context) of the sign_seed file, with the SHA-256
// digests of its signature and of the verify file's public key.
func mldsaVector(set int, pkDigest, sigDigest string) signVector {
	return signVector{
		name: fmt.Sprintf("Wycheproof mldsa_%d tcId 1", set),
		key:  "2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a",
		msg:  hexString([]byte("Hello world")),
		pub:  pkDigest, sig: sigDigest, digest: true,
	}
}

// --- SLH-DSA (FIPS 205) --------------------------------------------------

// slhdsaCheck checks one of three kinds of NIST ACVP vector: key generation
// from seeds (priv set: pk and sk must match), deterministic signing (key
// set: the signature's SHA-256 must match, then it must verify), or
// verification of a published signature (neither set).
func slhdsaCheck(id slhdsa.ID) func(*signScheme, signVector) error {
	return func(s *signScheme, v signVector) error {
		msg, ctx := slhdsa.NewMessage(unhex(v.msg)), unhex(v.ctx)
		switch {
		case v.priv != "":
			// FIPS 205 Algorithm 21 reads SK.seed, SK.prf, PK.seed in
			// that order; so does CIRCL's GenerateKey.
			pub, priv, err := slhdsa.GenerateKey(bytes.NewReader(unhex(v.key)), id)
			if err != nil {
				return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
			}
			if got, _ := pub.MarshalBinary(); !bytes.Equal(got, unhex(v.pub)) {
				return katError(s.info.Name, v.name+" pk", got, unhex(v.pub))
			}
			if got, _ := priv.MarshalBinary(); !bytes.Equal(got, unhex(v.priv)) {
				return katError(s.info.Name, v.name+" sk", got, unhex(v.priv))
			}
		case v.key != "":
			priv := slhdsa.PrivateKey{ID: id}
			if err := priv.UnmarshalBinary(unhex(v.key)); err != nil {
				return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
			}
			sig, err := slhdsa.SignDeterministic(&priv, msg, ctx)
			if err != nil {
				return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
			}
			if got := sha256.Sum256(sig); !bytes.Equal(got[:], unhex(v.sig)) {
				return katError(s.info.Name, v.name+" signature SHA-256", got[:], unhex(v.sig))
			}
			pub := priv.PublicKey()
			if !slhdsa.Verify(&pub, msg, sig, ctx) {
				return signKATError(s.info.Name, v.name, "the published signature does not verify")
			}
		default:
			pub := slhdsa.PublicKey{ID: id}
			if err := pub.UnmarshalBinary(unhex(v.pub)); err != nil {
				return fmt.Errorf("%s: vector %s: %w", s.info.Name, v.name, err)
			}
			if !slhdsa.Verify(&pub, msg, unhex(v.sig), ctx) {
				return signKATError(s.info.Name, v.name, "the published signature does not verify")
			}
		}
		return nil
	}
}

// newSLHDSA builds one SLH-DSA parameter set. Signing is hedged (FIPS 205
// Algorithm 22 with a fresh opt_rand), with an empty context.
func newSLHDSA(id slhdsa.ID, variant string, sigSize int, slowSign bool, vectors ...signVector) *signScheme {
	name := id.String()
	// n, the security parameter in bytes, and the category follow from the
	// set's strength (FIPS 205 Table 2): 128 -> n 16, category 1; 192 ->
	// 24, 3; 256 -> 32, 5. Keys are 2n (public) and 4n (private) bytes.
	bits, category := 128, 1
	switch {
	case strings.Contains(name, "192"):
		bits, category = 192, 3
	case strings.Contains(name, "256"):
		bits, category = 256, 5
	}
	n := bits / 8
	return &signScheme{
		info: Info{
			Name: name, Family: FamilySign, Provider: ProviderCIRCL,
			Params: []Param{{"parameter_set", name}, {"variant", variant}, {"signing", "hedged (fresh opt_rand), empty context"},
				{"key_type", name}, {"keygen_on", name}, {"key_encoding", "FIPS 205 (PK.seed || PK.root; SK.seed || SK.prf || pk)"}},
			Security: Security{Bits: bits, Category: category, Note: fmt.Sprintf("NIST PQC category %d (FIPS 205 Table 2): as hard as AES-%d key search", category, bits)},
			Standard: "FIPS 205 (vectors: NIST ACVP-Server SLH-DSA sample vectors keyGen, sigGen, as vendored in CIRCL's testdata)",
			Sizes:    Sizes{PublicKey: 2 * n, PrivateKey: 4 * n, Signature: sigSize},
		},
		gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
			pub, priv, err := slhdsa.GenerateKey(rand.Reader, id)
			return &pub, &priv, err
		},
		sign: func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
			k, err := signKeyOf[*slhdsa.PrivateKey](priv)
			if err != nil {
				return nil, err
			}
			return slhdsa.SignRandomized(k, rand.Reader, slhdsa.NewMessage(msg), nil)
		},
		verify: func(pub crypto.PublicKey, msg, sig []byte) bool {
			k, err := signKeyOf[*slhdsa.PublicKey](pub)
			return err == nil && slhdsa.Verify(k, slhdsa.NewMessage(msg), sig, nil)
		},
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			p, err1 := signKeyOf[*slhdsa.PublicKey](pub)
			k, err2 := signKeyOf[*slhdsa.PrivateKey](priv)
			if err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("%s: want the keys GenerateKey returns, got %T and %T", name, pub, priv)
			}
			pubEnc, err := p.MarshalBinary()
			if err != nil {
				return nil, nil, err
			}
			privEnc, err := k.MarshalBinary()
			return pubEnc, privEnc, err
		},
		vectors: vectors, check: slhdsaCheck(id),
		keygen:   true,
		slowSign: slowSign,
	}
}

func init() {
	// RSA: PKCS#1 v1.5 and PSS from 1024 bits; RSA-512 and RSA-768 with
	// PKCS#1 v1.5 only, for their key generation (the seed002 study).
	for _, bits := range []int{512, 768, 1024, 2048, 3072, 4096, 7680, 15360} {
		register(newRSA(bits, rsaPKCS1v15, true))
		if bits >= 1024 {
			register(newRSA(bits, rsaPSS, false))
		}
	}
	for _, c := range ecdsaCurves {
		for i := range ecdsaHashes {
			register(newECDSA(c, i))
		}
	}
	register(ed25519Scheme)
	register(ed448Scheme)

	register(newMLDSA(44, 2, 128,
		Sizes{PublicKey: mldsa44.PublicKeySize, PrivateKey: mldsa44.PrivateKeySize, Signature: mldsa44.SignatureSize},
		mldsaAPI[*mldsa44.PublicKey, *mldsa44.PrivateKey]{mldsa44.GenerateKey, mldsa44.NewKeyFromSeed, mldsa44.SignTo, mldsa44.Verify},
		mldsaVector(44, "d87f8ca136ac1aa55e2d6c4521680efb3a378cbb9bc0bfb446e9c60893931ea3",
			"8cd6fc03daa72e87210a4e721523e84c14f27733789075e65736744d4787fdd5")))
	register(newMLDSA(65, 3, 192,
		Sizes{PublicKey: mldsa65.PublicKeySize, PrivateKey: mldsa65.PrivateKeySize, Signature: mldsa65.SignatureSize},
		mldsaAPI[*mldsa65.PublicKey, *mldsa65.PrivateKey]{mldsa65.GenerateKey, mldsa65.NewKeyFromSeed, mldsa65.SignTo, mldsa65.Verify},
		mldsaVector(65, "b7acce2ddb11f8cc1aa46e2bafac6eacfa2b732ef192bd636ad8d3a56d649c66",
			"39fbbb0d97a52c79844213b325af823a7f16a174e00a5b3daeb3e6e6d1c89681")))
	register(newMLDSA(87, 5, 256,
		Sizes{PublicKey: mldsa87.PublicKeySize, PrivateKey: mldsa87.PrivateKeySize, Signature: mldsa87.SignatureSize},
		mldsaAPI[*mldsa87.PublicKey, *mldsa87.PrivateKey]{mldsa87.GenerateKey, mldsa87.NewKeyFromSeed, mldsa87.SignTo, mldsa87.Verify},
		mldsaVector(87, "d43128fa8a8c785c1d44c9e7db538dbf9dd88fe6c8ad911a344bcec1017c6d54",
			"1ad45bd0419e694375bd38ec11d8e0c228ab9ffac2fce4adbe6218d9c949e293")))

	// SLH-DSA: the small-signature set (signing takes about a second) and
	// the fast-signing set. Vectors: NIST ACVP-Server sample vector sets
	// (vsId 53) for FIPS 205, as CIRCL vendors them in sign/slhdsa/testdata.
	register(newSLHDSA(slhdsa.SHA2_128s, "s (small signatures)", 7856, true,
		signVector{
			name: "ACVP SLH-DSA keyGen tcId 1",
			key:  "ac379f047faab2004f3ae32350ac9a3d" + "829fff0aa59e956a87f3971c4d58e710" + "0566d240cc519834322eafbcc73c79f5",
			pub:  "0566d240cc519834322eafbcc73c79f5a4b84f02e8bf0cbd54017b2d3c494b57",
			priv: "ac379f047faab2004f3ae32350ac9a3d829fff0aa59e956a87f3971c4d58e710" +
				"0566d240cc519834322eafbcc73c79f5a4b84f02e8bf0cbd54017b2d3c494b57",
		},
		signVector{
			// sigGen tcId 163 (external, pure, deterministic): the
			// published signature, verified with the key's public half.
			name: "ACVP SLH-DSA sigGen tcId 163",
			pub:  "a8b8365a9fc2a6877d2a6237c687ab41e38f37e0274fffbd77655a1db6c446c1",
			msg:  "1b",
			ctx:  "caa7b50b2763d195bfa1e5793e17a7cd5dfbd8a163bf6d876cec512cfc97aa9d1d76e7700cbacd1f2d8371766fdfae3cb0ea",
			sig:  slhDSA128sACVPSignature,
		}))
	register(newSLHDSA(slhdsa.SHA2_128f, "f (fast signing)", 17088, false,
		signVector{
			name: "ACVP SLH-DSA keyGen tcId 21",
			key:  "aed6f6f5c5408bbffa1136bc9049a701" + "4d4ce0711e176a0c8a023508a692c207" + "74d98d5000af53b98f36389a1292bed3",
			pub:  "74d98d5000af53b98f36389a1292bed3f4a650c56c426fcfdb88e3355459440c",
			priv: "aed6f6f5c5408bbffa1136bc9049a7014d4ce0711e176a0c8a023508a692c207" +
				"74d98d5000af53b98f36389a1292bed3f4a650c56c426fcfdb88e3355459440c",
		},
		signVector{
			// sigGen tcId 1 (external, pure, deterministic, empty
			// context); the 17088-byte signature as its SHA-256.
			name: "ACVP SLH-DSA sigGen tcId 1",
			key: "d5213ba4bb6470f1b9eda88cbc94e6277a58a951ef7f2b81461dbac41b5a6b83" +
				"fa495fb834defea7cc96a81309479135a67029e90668c5a58b96e60111491f3d",
			msg: "3f",
			sig: "d3537e05ae63876bf78015ff86cc9e284f91cabfac191298fbaa375596351d55", digest: true,
		}))
}

// slhDSA128sACVPSignature is NIST ACVP-Server SLH-DSA sigGen test case 163
// (SLH-DSA-SHA2-128s, external, pure, deterministic): 7856 bytes.
const slhDSA128sACVPSignature = "" +
	"238d759d1b75f6f3c8c2f9a25bfdd725718e44d8233678b947c280c2a12697a809045ec82b44bb889a23cabe6e5b1b8d144eb0d779f81bf6a931773b9f9a71c2" +
	"f7c0e0e92804a336708507ea5d489a9785346db654a6cdc10f16c4eefe820a73776500a79c055515945af0984c11b3587842df3ea3da51faf1c9a8ed394935b5" +
	"4b0581f7b2420a76640e8848aa50eefcf31c53bf7225529029f0ed2a951cdc0502dbb8d987c6b31876f7989d4ea453d9faefd145aa21ba9b2230c34e228a6fc0" +
	"7f034f2a460bbc7ec953b3712f302a3ea215c0e5184ff0763f487beaa9b64c6e50a4b67f8d42a320f7e5cdf3d62cca90c90ccc9cb29fd82d83bb7c2227c43f1a" +
	"a6396a22f14d985fe6752b019118299d8a58eba8e3958cb71ac707b9bae34f000afc42f3b2acc060b464eac997c9d2f2ea002c3d85b4751c8384f2141142ee4b" +
	"c15168a4e42b31d6cc0a97c197e7dba191ad09a1ae4671ac5da3646243f886a507d2f9f035cc29e855389936f942e2854cd129acb2c347dac694067188cc005e" +
	"5ce79ef023d81d481c48d36fc96c7d6cbff7873295d68553c4b5cc14178207aa1e4a23f464c676a0c9f88cf28c8449252c3838484d787391ce087bb2c106e087" +
	"9eb7ac79ac315adae2b6c9f5057465e5bba13875d9c372f08591b8b394f19ab7d5645c0e2654c473f0888462f893c84db342ee3fe084264eee1ac36c3abbab6d" +
	"25516a80ef69e6e33a2406477c0d725930a09a9a375fd66feddc4be370ac30a17c4392b584f9151e1cea43c09ddb4237e89c627afa1c344ce4046fd34b916240" +
	"4c8abecd71275f993c45c3668eacf64cdfd2f963f748888815d8d36678ef1eff51f5de72fda32e1cbdf6e07124e320f86b6f6dbe25a6c189584099cf9c5bb74e" +
	"a6aa663539a88f7bcc9ee25cce7dfc2fa2ca84349f9cd02f76e0bb89a944b8e622a74562dccdecadb752d5128b1e357c4be43a448699ef5d802b69b86fad2216" +
	"dd3322dad1d2e5e71ccade7c36884caa1589c6b6d34711780036d06704c70609de06f70fe8d95ea0d5df9794cf8e08ce00473a8ebf56936f5a2ca620ea6cb3f5" +
	"4d53cc54bc85c3fd85fcdd6e1e4f798d4160d841964cf3c812fe9aa35bca55551705b179325fa0a645b843420b5c5574ee6d175f6309eabce1696f195bd7d84e" +
	"c71ec6666ddc1cf0b92ccd5a288ff847ba2ddb113038e9a55c5f74999564f8f69156e303638da7853a5a56f6059eb3ae2dfe8304b211ca1389fe9a0ef231492e" +
	"4e88d997a9a10f84a50222d7d08c35f974ac5cc7c8d2d6809d3136c6aa9495751df307a568ba2dab152b18e81cfde98a0ed1d0a3748089330d75fe311e9342da" +
	"281403c9a64bf960aa79fe3f84259b1bf93dcd44c9e8cb9b668cc9a36e3d810089239ed551f9cddc72cf6a8d7a57122248f0fece01709265a4e15cd8d09f92b4" +
	"b80bcc935056085c50e3049403dd5fe79a97076ab760940680b03333c7cd1357ebd457e33a09dd8befac1125273b6b2dad76bfd277d287dd48c9d4f428e5d13e" +
	"278340bd8fc73f81290d1ac9e193553a32546112a63e8ac3e9b8d698234f1d5455b26011265942286e8f75ea55a9fbefb46a6ace38b332588184523c210517d6" +
	"1a7b51acf6211eb92f612604581f0dd949b2cb6092c88ab210bbfd243dfa69c7f83b34374b9688c7d9bf36ec5d3ee5c71f98d8f300833c1785740d0f414157f8" +
	"1640348c54e2bba5435377ec7aaa2f3029e424484f23fe2487996a3e85bed6bba6acd9edce8610be3f3132cb72e66c144125cbfed5a48ed7d513891af204d2a1" +
	"291894fe990efab802ea643f122dbd16e7db1cf4936ffdc566fe0175da9d5cec648b138344779695ba21f11efad8c2983a7260f4394c13cb0aef8f0838ff93d1" +
	"4852c6e0edb53bb742d1afaad81a3aea7b70b27ebae48cdbd99457af4055efff683cd1c1dfa87fcdd204eddf4ffcc4d01f6c8d82f77349f1b3ede21f607264d2" +
	"958e4f0b1ba6bc381137d82b1b00b4698bcde9b0e56a245bd03f8038dd92f1ee6beb5d82a7ae8ca6ac17324403533114d0b9053adabba54255ad884ca34c9306" +
	"51d30c30c3238d7af54af1d2537b0f987296ce51e657e58bcfc897700031ec3b10271876f57476d52e09767b46029c58de0d688ea70cbc6317c491f4584faa58" +
	"75a3cdd06ec925ec19af30d54cca30e0fa277e9ccc10735b6a2fb78b560600014017f665ca2d25b5cb23caa65f8b64a01b60ebb8c2b5c8a74eaeed58c4d81746" +
	"8d90e99c2907a0c9191a0449ac41b9f00d36e212e34b70bc493a504d4915ebfd2260682afc64ca4a72147291cc115019b4b37ef1c0ef826f5b040757cbeba057" +
	"bb9211985a4844ebb2de38b65625334cf70c3970247186745862140d33f2f89d291c373f99d927ae2d6fff82e1e0ee13c8d75e648d1aa81d9e99bb056dc03169" +
	"42f2f8698200fc7a973b3942c9c124ce2a52521c8852169a550e4a70bc0586c1154211ff3aff2632889a21f9c14628fb57ed508d4e05d8496bcaac33e10901bd" +
	"bcd7983dd93ab2018c04dd8f014c843084869cb82cf2f8750d672b90c9c9828161cdd5a6e2460b73c6a65c72f67a0f8032dff979c02a8c2639c1cfb8a1542081" +
	"1d2501e25e5ed33312f7c0150cbb18a81d8e6715b9332cde97e46f5e10662d36f066a7fe28810eba5f47d570c72a875975407a14b76cecdbe8d9848704d00602" +
	"19ec7958ee4bf055732a7c2e53e72f5dd27cb40aaaea9e0a610c7db4d1acad6aa6b0163939f5576e0317f6478496e719bb82bf36448d641d398f19fad342d970" +
	"ed5cc07bfc4c92b51876f2f7dd1f02c4db046d99626ea1063b2973bc11b7d799221b0f30c9ded25a3fb7018395f527a4076c23f55ff24f41c57cca86e75960b3" +
	"92544796864e75035912320f6041c11372e2b9b36b44a0753943a1086dcbb879a27728d1cb7a87e95fcc5c9af47976494b3655d403cc34f7d6ccaf694f925747" +
	"a5bda9bd47494fc16cd11ff2098caeabd7c78fbd0a32b98c8c0e75b4ed92ca7b8fae0c17d1d80904d788ad94093d1759a0554e4ed0c523002670372d266ced00" +
	"92d2659f091ce557b5da5551ba87fea46cd80bd615cc037de312baeee8249b2048d270e06b4fcd6e6a1282a28e6c98f3b402653a00b30704c316cef41c2a060b" +
	"c6c2b09c519409c0efc8a7e0d99369d991970f90c1bf8330bf374f4ff07ae3963b4ebaab56b7a09bb02da23bc5fc5e031a27c51eecaee85cfb23e9a224e23c27" +
	"e559944b1a1f85a08576266c19198acf61bd083919d425c970a800983977e6bfcb088ac7204edb3a39cb39b14f7968909f7884230ebb5910260ce24a07411fbc" +
	"8805d0e866bd5851888049de5ddf25b5aa83dd593ed10d649e8eeeb5defc4fdb25eeedca27a13b78a9211b679569f58d5d70cb40c07a4a98dd30e583142eb272" +
	"2aaacb6c55b8bfaaaa7216d5b45545f8b0845edff6011ae6828418568d62852498dfef0ffe95fd82f37f33b8e4f5f1965a4e1cd64857f5c44b7104d951f7ed01" +
	"51bbbc1682a8684201463210d7645ec8da4aa1c8b58aa6ed3db1befd876e45eab940d8e7e3fb0d4a193244d89f5ba85799ef353537cce999f163a57d2ee24209" +
	"8d20156ba60a3595929dd44d9b03e2d7b3074f2ef28cfac92f0f7fcabe2a5bd9427285749672db904550dab95a25ba98886bbf6c14c6013db08b0f26962b5df8" +
	"f922abf167d5c0713767913c2d19b0c79eff541299ad374729d54d9c93589cb76a3bb8cd766617c0c9d55aadb3de0e8c4023e9473b5b50bd55ea2f6d3d1e0ba7" +
	"533b489b3e7cd787cbfeeae15a138ee59b60dd69e6582d46165c3a66264e5e27f402c2321b492ef8897b0e317fa568b4a0a547cdea225ad997b2166d3a13106f" +
	"9cacd408a2e58f0680e69f411a89593366082a10b469f6fe132c2934dd027cb28230c413dfdd074342526b1664a7396e99c7c45579580eedc81f7faf4849b2cd" +
	"a93e35510f13abcec96184455ada6ef5e2e1182519cea45352898eec7a28db4ca2345b72f42868c5ed5665b14f32a1177957cf69722a623732fd302597e564aa" +
	"b2f5723979ff9689c629926d8d25e9fca42e07f015a9ac4fe99cb9682254c130db46a92914893c0392e17ce62bb2cc80f5573948dfadf2aab9bcf5817ea76c0a" +
	"3985bd2a6a942f12ce9e90c6d05fee32f7781ef2ad32c59f2e4f2cdf9be1bd7fef929878c131ad3aad551ed7b0c33c68eb1f989c18b3c51d6c4f53f708541da2" +
	"b02906dbaa4531f8dd71719888faa24faba4d6002633271f780d85226dd424372f5c7c2ec83b35985e368ae987b3ac232ea17f34f35a4731acf5c3c95b9e2f87" +
	"569a5a6a92e83e1151636d2cef83c239defedb4db3edf3a25daac8121dd1a96aa45933d374f66df5fed0f247fcc48a1dfa1d6fcb2426adeb2958eae3330e3ee7" +
	"f02d7bd77a40f117e2ec49b8a7fb6cac1f8cd94b4aeca40e93238b805eda65c5de77d80a2ca90b82faf7967c7e1f15066f0d49c72a3c4db1d47992d0cc6a426f" +
	"249bdca7eefb7fcc86da7117dfda6b68542fa7f3acc226369c6c5206fb24f90a931e4d74dff1bac4e484d85a45d0ae49412e007b6ce15dbb97720ec0cdf1bedc" +
	"14942c996b7004f826e9fe9aa899c7b4776ee80ad23e782cccfae1d4780e7828424030e08ef25fc8dd0d79f82b5d310662581a55125fb4468a52ed67ced9cb1a" +
	"4f600c32f2df01bf6e09a5facf6e02a46763b40c71a711a24f81937006d9ad4d7035ba21c1c648b31797dcdbdc5e0c83feb5a3a9458d001f9de519fa75ba68ea" +
	"aa209548c512d7665c185033178103bf3fe2f0a6070fefcf64344af4139d3f1d1f302abab6c9d77973bd247262a82c492976e77d4886dc3a5e3dc242418b762a" +
	"a7fd43c593cda217db71791b705939c0050385a5498565b5cddcfa96f9eeefceb14dffe3d8de4c303cc63e360d1ba7a5ef3b76b9628df4cebe6cda8861f02e2f" +
	"f2529175dbd396df0d789edef6c81e1b13b736cb31383bd5927b63dbe3f77712d917fa147d7dae475004d516ed92046da60a90a0ff64c445fe261ec90c447995" +
	"adddad00092cf9b0ba8b55f5995af9d2dcc4d5918512e2efc0d8ef7817ef804dbb3a72d0cee6abac59fdd8aedf649d36615cb657cbd7db10756a1ee13cc97fe2" +
	"b86d992c9031199cefa13c2e6d1434d6bb5a480df3cb9c2a6c96c83bce534a3dfd4628d1f4fa5d7e1428bff8dd96e6913434600fea9d73adbde52aee11d82264" +
	"a4e48edb3c7b9e72db7651f13aca1d09c0134f2e5cc1d46bd322b6fbb52c91c685a117733e114fbe28d06b85f65b55200f24c6c2dc2a160a758c260316cb41bc" +
	"1b103bac9a1411363fd61cde858c42641921131cb8c8c3a6a8688c4d2f3baab91dcdd9611a0adfdeab35781dbaaba81ce43c71b9c139da72c89e489955326913" +
	"971f650a8b60229581c774305976ff2debf9aead8b8de38435a371559d67054061f00ce9802c6c51db8740ce7751a82e3cbf1e01cb90dc8b4716d9f37cbde43b" +
	"3d53a46e67ab00a7ee3f72e44546357e762ec17381640acd394c0fdd87fdbe0ffe58412f31a85c1080f0ddfe409bd97e97f97b1ddc93447c48711b4b14e6bbf1" +
	"a8b8114a2df72f0f4c9d6a65d06a7cc9bb666cef887e147a1b877501bd7b78276863c677317c66d0f8c0605ffcd73be0fa4a49b362cacc0a073504dd0272194e" +
	"bebb33f409dc522e398cc698fdcd4a06857e3402ca19dffd2dc7fb1e2253495ea9821675315ab56f8e25644775360f622aac098674471b71d5b418c6e707561a" +
	"82b446c421172fd416353973505edb84af94fab3f71ca48cab93c184dadec8a09a7d8d26abdb9a3e2dd843f76a4843773508d12ad53baff3a272202e321590d6" +
	"d047750fb34ffa904a545d3621030d538c20eceddc5ea9f36d067a99d7c5b9ae79f5739a4663531f4e205636d933022b7afe731db4b8140e449e392b65363e50" +
	"b7caf5dcd218d4d1777e731ae6e44a0add82c34ae5f7d03447da272fd14a1d1077a6430c0ca6e59e717de95e40f222b7820b0386c8e24cc0ca293774031d8e5b" +
	"f622fc12c70340c8a5b13d7e2c19a4eff98f351ce1d02d4b84a5eed40559cb4db7aee30e46a5db4fc0e274b2625c59d943bd0e3a8f1c00aee8e61ac6abeefb60" +
	"642b9a8d850161ccca64beda13ff5f4dae048e4e36b510e03634b00e57deb61741bdcb65a3bd156c617bf6474b406d2eef5be1e3caab37f48178ae27a72d550b" +
	"9c3350ee89404437c16adbfaa2adfdf15764955e548e8eff8fd4340652694c0d204b2021b2df94e97b00e2e048809089efee01cc51672c36f60864b6b2170440" +
	"3262cffceeef21434bb1d3a360f6f8fed899cf545bd1ec4905077a51881444391cd294a31c6a61bcb7a3639337d52c595d4328d868bd7d46d6c6fa9e2e022ca1" +
	"141154f3b358d51fb3a6d9f2f15c553ab3cb0f98ef58d783991cb74c6f0b4d7a161bc3eb02dbf254e12c9333e6216f7b461501c6b3686306410469fbc4d6e6aa" +
	"9578d85cf51234b71e41df0aff631ec0094304e6d5081ee0cb50148fc683d57cf1811d0632bcb0914f21a81c155cdccf45ce74923a32c9b071354d3030533f39" +
	"15417bd144e89fe8b924ff2c97296be4a2429c8dd35acd74b9bb3b923a689ef2abae68298a4315d45a6177fb5e3bc9c9d3eacc22b135362d381d93fd302a3695" +
	"f65137d0f14c2adf17e02b5279143670f6ca2502622befc835584c0a39c60c9f07bec8c194659e890439351714cfc7d200244cd089042054e8958a9da6c59d23" +
	"822f52f2aa7110c3b4e50964ab8fbf980d44eb6aaa3705a9012cd43e3daecdb872fdb198cd3d02e7d4c182e09a9c493cc2315a1eac77540edfedae036af257c3" +
	"6f4732431c51630b057bb1bbe979c6676ad4c77b7a9945a267c27d3d1b957f34b3236bb59bd8475e8dbdbc8aa6b4be78ad5e7ea46b97180fa6349069de72fa13" +
	"69c57cd3cf91e5e80d304dc96f6e7ebc486bdcc7322810072185e3b126f2c912423d01f119000287a8e2cf883812047565f598630585ba183666bb4abb57a6d6" +
	"986f823683a5323fea63067fa0156dce6650ea90ccda5999c11867019766aaff07c507b1aaf5edf22bc393a9354f26485a337d6898963e445688edac47afde1f" +
	"594577d8f95f056125e849e349389a1adc19d50c8a1ac315cc6c971136b75297ee7a1f524f62d5e40a4a8a0ee99e5fdc040c041407391f92b9daa39df8d0d7f9" +
	"853f36730d73b2a82e1b0fc90f5d87ebec1c28d7e5649f7034991def13c6fbf42b745a681da1c92f0d48701e5ded723ae0e2774adcd6fa98d07180621504df22" +
	"9c11193a67410e9e35f2127dd80979a2926a0a62b30cf34d1226e3f6dc7498bcace4b1f1204fb92de77a18695816ff9c705633cbc9ccc7f85e57183535039304" +
	"6ed836c9590d59c44f8e92fbfddd2ef5868f5b4fdf50dfd9b3e4b86d18b8cd599e3265a2ae0286f70b7897dfc70a09ab78bcd94ca88f6b17e35caa8e1e4b51d5" +
	"ccdb3a2f5cc000c6a4732c1b7edef0c4afdbee6bbb3a12b8122c7129443bbc593f396cf9497c52a260d36170e853764ede1500b4bb5041cda22a47843c2c6956" +
	"4dd625e94eef7c735e4ebd325c06c45517b901803309593567b1f66030c62b3510e402a846263244a8c696978f45499c67da27ff1506e183d33bf10214156eae" +
	"19f700d3698651785b0a59e39ba28a8fc578b342eaaa1389001a8a4be131dd9d532827f374d1cfa260401f4407f3dac103cc2990a5e65b640edd32368e4fc4b8" +
	"5efe543de7cd9fb82c92fe871caf4f544b32cf02dfd0f69702883a96908fac6d5a525d79e4edda5fe90261c8bdd1c13a683f6411af2d4ff9d9e701c2ebdea3a1" +
	"52a8035d703cb8787e781af59285c0840dc18414943f742ed5b8a96c354530bcb979a2a23ce553bcafe8412a6526fad6aaf7bf7f2932766fd0535edcab28b457" +
	"5ecb8ff60bd176c33d0b91f832e44d9a494997a138b00c08cef7943e379a60379bcc9fcf378e31768e64094db9d99493ed2a8dd4686b37872093d07cf27cc97f" +
	"a20f5173e44dd82357a52ce7a9d9364c3d10ff3dbdbaccb66a723aa1eed76f255ea3584792a3a6964b8860e754735b74e014d20ef040b7991746912505d01e49" +
	"5e5bb445ccfe0f6fb232737e34dfc5529c6d2913a4523446e9ab3dec5ea504b16ed045b7e986b328543e05aab3e716a02cfb4445f7aa8012897855ebd337b114" +
	"f39aca463216a6ae356bf041622d94b6e85011f2e43c84f7022e65ffd3201921ba37a61a368e57d98fb1774744a50183207eb691d804e7c6dab2964aafa2c9e8" +
	"c4b2b49fdf184265cea1190153212d4268347ee1fbda32ca8ebabcdc2ccb0af096f82707080d7cebc502d3ee0f21aaeaf25c4c45bd7b87448c620f196638c94e" +
	"aad045314588a98785339177b2ae751102ce04148dce5217336defab4743b2f0220bc93568895399d49a222c02b2c2f284b62dec0c3f39f480977cb70ecf6b74" +
	"7af9b50411099927b877b6a020600dbfbcf2c59151de31f7ec8a0739888dd3275aaec2a6eab7c6d70f1ad20d9c35f03a8aba7aecf0b534c8937a5263481cd41c" +
	"41935cda169e6ce5173db8b38321c5501fc815445f1c9b619ee808754f94faafb3aa5809937cef513f6a376243eced13e4703ac69de7f8450fc8d5a6ca3a276c" +
	"30a33271e61dfa182af5327de49a563c22ac30982fc0d7db9fce2e2b9f401a442b62985c66f1849316399974c19129acb06d1c9c1e79523690df2a6a40108932" +
	"87d23cde7bb5091e5333360c2928c8f86fc802f3076495d105fab479b8bc415524077ce5edbafd8a9123c9f5b0524ecb61dcba3ea04b3cce64dcd0e0c583c0ad" +
	"ed5408ed266ae277e73bde0c9116e912fc6998625a8bab0a6a04962e5d9200a5fe68001a664c9bde865a2c0e37e29b71adb6aa25ef2baded40ab94be37cf8b63" +
	"8fbb9119311f35396855393d4f13d2a60a8c1798566af565c436a87719adbb9564b40346dd924ccfab3570878e978cb184efc05ca23263a9a753401cf85f4d55" +
	"6f963e66e2f0520c87539c396c1f52e7d3bd4c5843783c85aabecc542af23674075dcfc9bc073a767b040a356a2077c1a49ace0591fdb5d5cdb585576c1b149c" +
	"e32401868f6deeac77e74acdef1d380eddc6ea5ef046e2cde940f12c0b84c256a305bd051e47153b8c975967ce435216caaf54c0e5adf51f6e595fde7c583630" +
	"d19914ec4b72c477e68b0feeb76d7071e78932c94ec899a0049179d8fdd4d652ba9ce7b21a0d60cab95c2e99bb12c7fa5cde1a09a61550c12a8a3283230d863f" +
	"f647a460aa853344e8f0e535cb8fe6ada3ca09bf667e57a777a6e168288d1a41292ffa4c6ed53709ff0b60fdb6993a658dac585bb5a8c9100731424166696733" +
	"da62af1adc7e2ed15060fe0d792f6be7c32d7b1411fd5b0a8745b8df26103e9ec011e407fbd0439851daff0f231b848bdf57dcde4ea274b37c8c2d318b99bc00" +
	"58aba464075b10e34ccdddcbe6a89e223f404df6c95434b0ea7559a45fc39176c1a1c27deec5d476e1c77f8de23dc6f6c2c5e981ac6564dd71d3671362390418" +
	"8fcef4c24bcc211e4807e810ee07d117790dc234efa283ee45728600bf84eb72a904833a2f7afc4b26d0715021ccd1ccff4e0450b6fe453a0601932fd1d83359" +
	"5fe752f0ea5beb909fbbbaccd285fe8af05bf71f48e5f6d1954203f30d0aa6d1539b83c4f020aa25bb8b55bea109d4933c12c8e1162d7e47f4a0c36206374957" +
	"257ac3d0174371ae83a0383bd9e84b986aabf8b56dbcc7b8ea8acd98a61f6a67f4376e98ea674f230ac57f898c7ad02bab34b3fdb3bf46ab45da354dd9abf356" +
	"5e33a2d0724d307cece2e26ca454a5bc0100c0cfc8238e2901346fc9607c942d6adf0b8634891196da2ec348c4e50bf6f08ccaed47c717933e00d8c5804cba79" +
	"dcabf61d11c81f899264be5fe6f56d9251d5a623f5e891b9bc1f8f2fdb31f1913c81ad25f4e24ce0e7d440b1dcdc698179a23a633c1ff198171a10c8583db53f" +
	"44154ab5bbd926466c16ad3cd4ed41d16215b25bc73ecd463cb36e6570f3f28e7ea8919238be8789e135c0cb7b58875a5d659ee786e4500e6cf0bc1490ff9e28" +
	"ab097be1cc370946a7970a6194882b4bd0ac796ac94a3d70b660e0e896ed8c82260f5a165a6b125cee6f0fef84524ef2364f89639fba22f33dc18218c207f760" +
	"f672d6d824a53b445ad2fe3a427b8ad45bdd8a3546c8ee88c494b251bf66601acc2b4b13982dc3fc80eb59ef0e07abb1c214706982558b0c885f08b324ba8d2c" +
	"044059782bc539ca8c55fdbb811c327c62016e8cfc06657ae9faf384a959f782592e4aa40d1829c17783bbacecc697bd5da28be618a986bc5e3fa208d6d2bb89" +
	"443ad51837752c997be65a93520e19b4971f7ad3ceefc3a08672a5f559dd5e3733083bd54fa8ee2b2d58509fccae0c632a0bcdaf7d8a0a02bff818c286231e13" +
	"e0820c77bf0e61ac42cc0c5598fbe23fecf221de8075e628bd33c995901b3df253156d90d33347cce0dc703854f73896376820f7dcb826948a4e4743dce41604" +
	"654aaf8f40270cf8fd99536cf6ec3eabccfd7a484ac7c15ff59f7d713b9a441f9c6bdd7d6a5c7b729d765776030d7014932739fe0204d265b720c1d8ab09d033" +
	"42a7a29e1c4c17c5ec6022c44079fb74c79bcd80c9e47d7c133c5ae18dde1e222fd0b4f67e7774728a9b81d6da485bcb5b80d1003418b5dfeae86a7114a6ad3e" +
	"f761103f30d3745765e16e3b08d346b2a831b3ea308a46579fbd7e5851b20433a6264f42860f45770bf69f85d285c8600721895b5989cf35f73d62d020c97f76" +
	"017f25bd010315646f1d3fe5e9e22e32899f84ad98fbc1265100ed7b327db10e935334efd2dba253d054452ba18143366623c1006fad664717596b30d91b2b6b" +
	"f60b0cb41c88d36211d13e97b134fb73e5874b34e1540520deae86d28a676247bd2721ccaaf8eb42979c2c3ba1fbce03eea3d42b95861011174069528a958ea6" +
	"4572276f739788839104ec3fc7fab39875c8230b23689f4f47df9b3168a85d7dcdc6d202758f49785e8351997006cc22"

// ecdsaGen, ecdsaSign and ecdsaVerify are crypto/ecdsa's operations on a
// curve with a hash, shared by the NIST and the extra curves' schemes.
func ecdsaGen(curve elliptic.Curve) func() (crypto.PublicKey, crypto.PrivateKey, error) {
	return func() (crypto.PublicKey, crypto.PrivateKey, error) {
		k, err := ecdsa.GenerateKey(curve, rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		return &k.PublicKey, k, nil
	}
}

func ecdsaSign(h crypto.Hash) func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
	return func(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
		k, err := signKeyOf[*ecdsa.PrivateKey](priv)
		if err != nil {
			return nil, err
		}
		return ecdsa.SignASN1(rand.Reader, k, signDigest(h, msg))
	}
}

func ecdsaVerify(h crypto.Hash) func(pub crypto.PublicKey, msg, sig []byte) bool {
	return func(pub crypto.PublicKey, msg, sig []byte) bool {
		k, err := signKeyOf[*ecdsa.PublicKey](pub)
		return err == nil && ecdsa.VerifyASN1(k, signDigest(h, msg), sig)
	}
}
