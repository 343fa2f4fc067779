package scheme

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"strings"

	"github.com/cloudflare/circl/cipher/ascon"
	"github.com/pion/dtls/v3/pkg/crypto/ccm"
	"golang.org/x/crypto/chacha20poly1305"

	asconaead "github.com/cryptocost/cryptocost/internal/ascon"
	"github.com/cryptocost/cryptocost/internal/gcmsiv"
)

// aeadADBytes is the associated data every timed seal and open
// authenticates: 13 bytes, the size of the TLS 1.2 and DTLS 1.2 AEAD
// additional data (sequence number 8, content type 1, version 2, length 2;
// RFC 5246 §6.2.3.3, RFC 6347 §4.1.2.1), so a timed seal costs what
// protecting one (D)TLS record costs. It adds one block of GHASH, CBC-MAC,
// Poly1305 or Ascon absorption.
const aeadADBytes = 13

// aeadVector is a known answer: CT (the ciphertext followed by the tag) is
// the sealing of PT and AD under Key and Nonce. All fields but Name are hex.
type aeadVector struct {
	Name                   string
	Key, Nonce, AD, PT, CT string
}

type aeadScheme struct {
	info Info
	new  func(key []byte) (cipher.AEAD, error)
	// newWithNonce builds the same mode for a vector whose nonce length is
	// not the registered one. Only CCM has it: its nonce length is a
	// parameter, and RFC 3610's vectors use 13-byte nonces where TLS and
	// DTLS use 12.
	newWithNonce func(key []byte, nonceSize int) (cipher.AEAD, error)
	vectors      []aeadVector
}

func (s *aeadScheme) Info() *Info                             { return &s.info }
func (s *aeadScheme) NewAEAD(key []byte) (cipher.AEAD, error) { return s.new(key) }

// KAT seals and opens every vector, and checks that the vector's ciphertext
// with its last tag bit flipped does not open.
func (s *aeadScheme) KAT() error {
	for _, v := range s.vectors {
		key, nonce, ad, pt, want := unhex(v.Key), unhex(v.Nonce), unhex(v.AD), unhex(v.PT), unhex(v.CT)
		a, err := s.forVector(key, len(nonce))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			return katError(s.info.Name, v.Name+" (seal)", got, want)
		}
		got, err := a.Open(nil, nonce, want, ad)
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: the published ciphertext does not open: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		if !bytes.Equal(got, pt) {
			return katError(s.info.Name, v.Name+" (open)", got, pt)
		}
		forged := bytes.Clone(want)
		forged[len(forged)-1] ^= 1
		if _, err := a.Open(nil, nonce, forged, ad); err == nil {
			return fmt.Errorf("%s: %w: vector %s: a ciphertext with a flipped tag bit opened", s.info.Name, ErrKAT, v.Name)
		}
	}
	return nil
}

func (s *aeadScheme) forVector(key []byte, nonceSize int) (cipher.AEAD, error) {
	if nonceSize == s.info.Sizes.Nonce {
		return s.new(key)
	}
	if s.newWithNonce == nil {
		return nil, fmt.Errorf("the vector's %d-byte nonce is not the scheme's %d bytes", nonceSize, s.info.Sizes.Nonce)
	}
	return s.newWithNonce(key, nonceSize)
}

// aeadInputs are the deterministic key, nonce, associated data and
// plaintext of one (size, variant).
type aeadInputs struct {
	key, nonce, ad, pt []byte
}

func (s *aeadScheme) inputs(a Args) aeadInputs {
	name := s.info.Name
	return aeadInputs{
		key:   testData(s.info.Sizes.Key, name+"/key", a.Variant),
		nonce: testData(s.info.Sizes.Nonce, name+"/nonce", a.Variant),
		ad:    testData(aeadADBytes, name+"/ad", a.Variant),
		pt:    testData(a.Size, name, a.Variant),
	}
}

// The timed loops seal or open the same message under the same nonce n
// times. Reusing a nonce would be fatal in use (for GCM and ChaCha20-Poly1305
// it reveals the keystream and lets an attacker forge tags), but it does not
// change what one seal or open costs, and it keeps the loop free of nonce
// bookkeeping.
func (s *aeadScheme) Operations() []Operation {
	maxSize := s.maxPlaintext()
	return []Operation{
		{
			// The key-setup operation times NewAEAD: the key schedule plus whatever the mode
			// precomputes (GCM's hash key H, for example).
			Name:  OpKeySetup,
			Input: InputNone,
			Prepare: func(a Args) (Loop, error) {
				key := s.inputs(Args{Variant: a.Variant}).key
				if _, err := s.new(key); err != nil {
					return nil, err
				}
				return func(n int) error {
					for range n {
						if _, err := s.new(key); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		},
		{
			Name:    OpSeal,
			Input:   InputBulk,
			MaxSize: maxSize,
			Prepare: func(a Args) (Loop, error) {
				in := s.inputs(a)
				aead, err := s.new(in.key)
				if err != nil {
					return nil, err
				}
				out := make([]byte, 0, len(in.pt)+aead.Overhead())
				return func(n int) error {
					for range n {
						out = aead.Seal(out[:0], in.nonce, in.pt, in.ad)
					}
					return nil
				}, nil
			},
		},
		{
			Name:    OpOpen,
			Input:   InputBulk,
			MaxSize: maxSize,
			Prepare: func(a Args) (Loop, error) {
				in := s.inputs(a)
				aead, err := s.new(in.key)
				if err != nil {
					return nil, err
				}
				sealed := aead.Seal(nil, in.nonce, in.pt, in.ad)
				out := make([]byte, 0, len(in.pt))
				return func(n int) error {
					var err error
					for range n {
						if out, err = aead.Open(out[:0], in.nonce, sealed, in.ad); err != nil {
							return fmt.Errorf("%s: open: %w", s.info.Name, err)
						}
					}
					return nil
				}, nil
			},
		},
	}
}

// maxPlaintext returns the largest plaintext the scheme accepts, or 0 when
// its limit is beyond any size the engine uses. Only CCM has a small one: a
// 12-byte nonce leaves a 3-byte length field, so messages are shorter than
// 2^24 bytes (RFC 3610 §2.1, L = 3).
func (s *aeadScheme) maxPlaintext() int {
	a, err := s.new(make([]byte, s.info.Sizes.Key))
	if err != nil {
		return 0
	}
	if c, ok := a.(ccm.CCM); ok {
		return c.MaxLength()
	}
	return 0
}

// aeadSpec is what a registration states; the sizes are the standard's and
// the size checker confirms them against the implementation.
type aeadSpec struct {
	name      string
	aliases   []string
	provider  Provider
	security  Security
	legacy    string
	standard  string
	key       int // bytes
	nonce     int // bytes
	tag       int // bytes
	new       func(key []byte) (cipher.AEAD, error)
	withNonce func(key []byte, nonceSize int) (cipher.AEAD, error)
	vectors   []aeadVector
}

func newAEADScheme(sp aeadSpec) *aeadScheme {
	return &aeadScheme{
		info: Info{
			Name: sp.name, Aliases: sp.aliases, Family: FamilyAEAD, Provider: sp.provider,
			Params: []Param{
				{"key_bits", itoa(8 * sp.key)},
				{"nonce_bits", itoa(8 * sp.nonce)},
				{"tag_bits", itoa(8 * sp.tag)},
				{"ad_bytes", itoa(aeadADBytes)},
			},
			Security: sp.security, Legacy: sp.legacy, Standard: sp.standard,
			Sizes: Sizes{Key: sp.key, Nonce: sp.nonce, Tag: sp.tag},
		},
		new: sp.new, newWithNonce: sp.withNonce, vectors: sp.vectors,
	}
}

// newAESGCM is AES in GCM with the standard 12-byte nonce and 16-byte tag.
func newAESGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// aeadCCM returns a constructor of AES-CCM with a tagSize-byte tag (CCM's M)
// for a given nonce length (15 − L).
func aeadCCM(tagSize int) func(key []byte, nonceSize int) (cipher.AEAD, error) {
	return func(key []byte, nonceSize int) (cipher.AEAD, error) {
		b, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		return ccm.NewCCM(b, tagSize, nonceSize)
	}
}

// aeadCCMNonce is the CCM nonce length of TLS and DTLS: a 4-byte implicit
// salt and an 8-byte explicit part (RFC 6655 §3; pion/dtls uses it too).
const aeadCCMNonce = 12

// aeadLWCVector builds an entry of a NIST lightweight-cryptography KAT file
// (the Ascon team's genkat output), where the plaintext and the associated
// data are byte counters starting at ptStart and adStart and Count =
// 1 + 33·len(PT) + len(AD).
func aeadLWCVector(count int, key, nonce string, ptStart, adStart byte, ct string) aeadVector {
	counter := func(start byte, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = start + byte(i)
		}
		return hexString(b)
	}
	return aeadVector{
		Name: "Count " + itoa(count), Key: key, Nonce: nonce,
		PT: counter(ptStart, (count-1)/33), AD: counter(adStart, (count-1)%33), CT: ct,
	}
}

// GCM spec test cases (McGrew & Viega, "The Galois/Counter Mode of
// Operation", revised 2005, Appendix B), also in SP 800-38D's example set.
const (
	gcmSpecIV  = "cafebabefacedbaddecaf888"
	gcmSpecAD  = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
	gcmSpecKey = "feffe9928665731c6d6a8f9467308308"
	gcmSpecPT  = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" +
		"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
)

// RFC 8439 §2.8.2 and draft-irtf-cfrg-xchacha-03 Appendix A.3.1 seal the same
// text under the same key and associated data.
var (
	chachaKey = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	chachaAD  = "50515253c0c1c2c3c4c5c6c7"
	chachaPT  = hexString([]byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."))
)

// RFC 8452 Appendix C's key-generating key and nonce: 01 00 ... and 03 00 ...
const (
	gcmsivKey   = "01000000000000000000000000000000"
	gcmsivNonce = "030000000000000000000000"
)

// Ascon KAT inputs: the v1.2 files use key = nonce = 00 01 .. 0f and
// counters from 00; the SP 800-232 file uses nonce 10 .. 1f, plaintext
// from 20 and associated data from 30.
const (
	asconKATKey       = "000102030405060708090a0b0c0d0e0f"
	asconAEADKATNonce = "101112131415161718191a1b1c1d1e1f"
)

func init() {
	zero := func(n int) string { return strings.Repeat("00", n) }
	for _, sp := range []aeadSpec{
		{
			name: "AES-128-GCM", provider: ProviderGo, security: Security{Bits: 128},
			standard: "NIST SP 800-38D (vectors: McGrew & Viega, The Galois/Counter Mode of Operation, test cases 1, 2, 4)",
			key:      16, nonce: 12, tag: 16, new: newAESGCM,
			vectors: []aeadVector{
				{Name: "test case 1", Key: zero(16), Nonce: zero(12), CT: "58e2fccefa7e3061367f1d57a4e7455a"},
				{Name: "test case 2", Key: zero(16), Nonce: zero(12), PT: zero(16),
					CT: "0388dace60b6a392f328c2b971b2fe78" + "ab6e47d42cec13bdf53a67b21257bddf"},
				{Name: "test case 4", Key: gcmSpecKey, Nonce: gcmSpecIV, AD: gcmSpecAD, PT: gcmSpecPT,
					CT: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e" +
						"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091" + "5bc94fbc3221a5db94fae95ae7121a47"},
			},
		},
		{
			name: "AES-256-GCM", provider: ProviderGo, security: Security{Bits: 256},
			standard: "NIST SP 800-38D (vectors: McGrew & Viega, The Galois/Counter Mode of Operation, test cases 13, 14, 16)",
			key:      32, nonce: 12, tag: 16, new: newAESGCM,
			vectors: []aeadVector{
				{Name: "test case 13", Key: zero(32), Nonce: zero(12), CT: "530f8afbc74536b9a963b4f1c4cb738b"},
				{Name: "test case 14", Key: zero(32), Nonce: zero(12), PT: zero(16),
					CT: "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919"},
				{Name: "test case 16", Key: gcmSpecKey + gcmSpecKey, Nonce: gcmSpecIV, AD: gcmSpecAD, PT: gcmSpecPT,
					CT: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa" +
						"8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662" + "76fc6ece0f4e1768cddf8853bb2d551b"},
			},
		},
		{
			// The 8-byte-tag CCM of the IoT cipher suites: TLS/DTLS
			// AES_128_CCM_8 (RFC 6655, RFC 7251), mandatory in CoAP's DTLS
			// profile (RFC 7252 §9.1.3).
			name: "AES-128-CCM-8", provider: Provider("pion/dtls"),
			security: Security{Bits: 128, Note: "64-bit tag: each forgery attempt succeeds with probability 2^-64 (SP 800-38C Appendix B)"},
			standard: "NIST SP 800-38C, RFC 6655 AES_128_CCM_8 (vectors: SP 800-38C Appendix C Example 3; RFC 3610 packet vectors #1-#3)",
			key:      16, nonce: aeadCCMNonce, tag: 8,
			new:       func(key []byte) (cipher.AEAD, error) { return aeadCCM(8)(key, aeadCCMNonce) },
			withNonce: aeadCCM(8),
			vectors: []aeadVector{
				{Name: "SP 800-38C Example 3", Key: "404142434445464748494a4b4c4d4e4f", Nonce: "101112131415161718191a1b",
					AD: "000102030405060708090a0b0c0d0e0f10111213", PT: "202122232425262728292a2b2c2d2e2f3031323334353637",
					CT: "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5" + "484392fbc1b09951"},
				{Name: "RFC 3610 #1", Key: "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf", Nonce: "00000003020100a0a1a2a3a4a5",
					AD: "0001020304050607", PT: "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e",
					CT: "588c979a61c663d2f066d0c2c0f989806d5f6b61dac384" + "17e8d12cfdf926e0"},
				{Name: "RFC 3610 #2", Key: "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf", Nonce: "00000004030201a0a1a2a3a4a5",
					AD: "0001020304050607", PT: "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
					CT: "72c91a36e135f8cf291ca894085c87e3cc15c439c9e43a3b" + "a091d56e10400916"},
				{Name: "RFC 3610 #3", Key: "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf", Nonce: "00000005040302a0a1a2a3a4a5",
					AD: "0001020304050607", PT: "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
					CT: "51b1e5f44a197d1da46b0f8e2d282ae871e838bb64da859657" + "4adaa76fbd9fb0c5"},
			},
		},
		{
			name: "AES-128-CCM", provider: Provider("pion/dtls"), security: Security{Bits: 128},
			standard: "NIST SP 800-38C, RFC 6655 AES_128_CCM (vectors: Wycheproof aes_ccm_test.json tcId 4, 12, 13)",
			key:      16, nonce: aeadCCMNonce, tag: 16,
			new:       func(key []byte) (cipher.AEAD, error) { return aeadCCM(16)(key, aeadCCMNonce) },
			withNonce: aeadCCM(16),
			vectors: []aeadVector{
				{Name: "Wycheproof tcId 4", Key: "ffdf4228361ea1f8165852136b3480f7", Nonce: "0e1666f2dc652f7708fb8f0d",
					PT: "25b12e28ac0ef6ead0226a3b2288c800",
					CT: "aaf596fa5b00aaac27700146aec932a9" + "848b6735d32c96e4a0532bcdfaf33582"},
				{Name: "Wycheproof tcId 12", Key: "9415f925bcb41dc25e86c826dbc8bf68", Nonce: "bdffaa763b916ff0ee3f3ce4",
					AD: "705d676cd8a94451", PT: "feb36167eafc02c8e2bd6e13817686ba",
					CT: "08db327a88be7b48f430fd7bfccdf502" + "b7c249f810adacf99abded1f3b9130f2"},
				{Name: "Wycheproof tcId 13", Key: "d97c9b043bdccfd59491a995e78f1696", Nonce: "ef423240358830df915506a3",
					AD: "3ddba7b3ab69c8b2", PT: "f047594a5cffda64303a80b2fa6a957169",
					CT: "e0caf2a9d50f70ecaa43b4a287c3b34a99" + "cff4c61882b413b686ff35b63a3a73de"},
			},
		},
		{
			name: "ChaCha20-Poly1305", provider: ProviderXCrypto, security: Security{Bits: 256},
			standard: "RFC 8439 (vectors: RFC 8439 §2.8.2)",
			key:      chacha20poly1305.KeySize, nonce: 12, tag: 16, new: chacha20poly1305.New,
			vectors: []aeadVector{{
				Name: "RFC 8439 §2.8.2", Key: chachaKey, Nonce: "070000004041424344454647", AD: chachaAD, PT: chachaPT,
				CT: "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6" +
					"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36" +
					"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc" +
					"3ff4def08e4b7a9de576d26586cec64b6116" + "1ae10b594f09e26a7e902ecbd0600691",
			}},
		},
		{
			name: "XChaCha20-Poly1305", provider: ProviderXCrypto, security: Security{Bits: 256},
			standard: "draft-irtf-cfrg-xchacha-03 (vectors: its Appendix A.3.1)",
			key:      chacha20poly1305.KeySize, nonce: 24, tag: 16, new: chacha20poly1305.NewX,
			vectors: []aeadVector{{
				Name: "draft-irtf-cfrg-xchacha A.3.1", Key: chachaKey, Nonce: "404142434445464748494a4b4c4d4e4f5051525354555657",
				AD: chachaAD, PT: chachaPT,
				CT: "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb" +
					"731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452" +
					"2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9" +
					"21f9664c97637da9768812f615c68b13b52e" + "c0875924c1c7987947deafd8780acf49",
			}},
		},
		{
			// Nonce-misuse-resistant: a repeated nonce reveals only that
			// the same message was sealed twice (RFC 8452 §9).
			name: "AES-128-GCM-SIV", provider: ProviderCryptocost, security: Security{Bits: 128},
			standard: "RFC 8452; internal/gcmsiv (vectors: RFC 8452 Appendix C.1)",
			key:      16, nonce: 12, tag: 16, new: gcmsiv.New,
			vectors: []aeadVector{
				{Name: "RFC 8452 C.1 #1", Key: gcmsivKey, Nonce: gcmsivNonce, CT: "dc20e2d83f25705bb49e439eca56de25"},
				{Name: "RFC 8452 C.1 #2", Key: gcmsivKey, Nonce: gcmsivNonce, PT: "0100000000000000",
					CT: "b5d839330ac7b786578782fff6013b815b287c22493a364c"},
				{Name: "RFC 8452 C.1 #3", Key: gcmsivKey, Nonce: gcmsivNonce, PT: "010000000000000000000000",
					CT: "7323ea61d05932260047d942a4978db357391a0bc4fdec8b0d106639"},
			},
		},
		{
			name: "AES-256-GCM-SIV", provider: ProviderCryptocost, security: Security{Bits: 256},
			standard: "RFC 8452; internal/gcmsiv (vectors: RFC 8452 Appendix C.2)",
			key:      32, nonce: 12, tag: 16, new: gcmsiv.New,
			vectors: []aeadVector{
				{Name: "RFC 8452 C.2 #1", Key: gcmsivKey + zero(16), Nonce: gcmsivNonce, CT: "07f5f4169bbf55a8400cd47ea6fd400f"},
				{Name: "RFC 8452 C.2 #2", Key: gcmsivKey + zero(16), Nonce: gcmsivNonce, PT: "0100000000000000",
					CT: "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28"},
			},
		},
		{
			name: "Ascon-128", provider: ProviderCIRCL,
			security: Security{Bits: 128, Note: "Ascon v1.2 (CAESAR portfolio, NIST LWC finalist), superseded by SP 800-232 Ascon-AEAD128, which is not compatible with it"},
			standard: "Ascon v1.2 (vectors: ascon-c v1.2.8 crypto_aead/ascon128v12/LWC_AEAD_KAT_128_128.txt, Counts 1, 35, 579, 1089)",
			key:      ascon.KeySize, nonce: ascon.NonceSize, tag: ascon.TagSize,
			new: func(key []byte) (cipher.AEAD, error) { return ascon.New(key, ascon.Ascon128) },
			vectors: []aeadVector{
				aeadLWCVector(1, asconKATKey, asconKATKey, 0, 0, "E355159F292911F794CB1432A0103A8A"),
				aeadLWCVector(35, asconKATKey, asconKATKey, 0, 0, "BD4102B707775C3C155AE497B43BF834E5"),
				aeadLWCVector(579, asconKATKey, asconKATKey, 0, 0, "8684539A9FCFF9F68A7A496010F129B5C9F24CC11E01C76F3C9F6F6F41D480BFC8"),
				aeadLWCVector(1089, asconKATKey, asconKATKey, 0, 0,
					"B96C78651B6246B0C3B1A5D373B0D5168DCA4A96734CF0DDF5F92F8D15E30270279BF6A6CC3F2FC9350B915C292BDB8D"),
			},
		},
		{
			name: "Ascon-128a", provider: ProviderCIRCL,
			security: Security{Bits: 128, Note: "Ascon v1.2 (CAESAR portfolio, NIST LWC finalist), superseded by SP 800-232 Ascon-AEAD128, which is not compatible with it"},
			standard: "Ascon v1.2 (vectors: ascon-c v1.2.8 crypto_aead/ascon128av12/LWC_AEAD_KAT_128_128.txt, Counts 1, 100, 1086, 1089)",
			key:      ascon.KeySize, nonce: ascon.NonceSize, tag: ascon.TagSize,
			new: func(key []byte) (cipher.AEAD, error) { return ascon.New(key, ascon.Ascon128a) },
			vectors: []aeadVector{
				aeadLWCVector(1, asconKATKey, asconKATKey, 0, 0, "7A834E6F09210957067B10FD831F0078"),
				aeadLWCVector(100, asconKATKey, asconKATKey, 0, 0, "6E490C898CD14E8316E149A6EDFC3B16C23A4E"),
				aeadLWCVector(1086, asconKATKey, asconKATKey, 0, 0,
					"49BA7CEE1D826B9E1AC3F94AC70CD84CFE94DD6A7A503A31D8BD450CDB27094B6780326B358D6562A38DBE136174C55A"),
				aeadLWCVector(1089, asconKATKey, asconKATKey, 0, 0,
					"A55236AC020DBDA74CE6CCD10C68C4D8514450A382BC87C68946D86A921DD88E2ADDDFBBE77D4112830E01960B9D38D5"),
			},
		},
		{
			name: "Ascon-AEAD128", provider: ProviderCryptocost, security: Security{Bits: 128},
			standard: "NIST SP 800-232 (vectors: ascon-c crypto_aead/asconaead128/LWC_AEAD_KAT_128_128.txt, Counts 1, 35, 545, 563, 1089)",
			key:      asconaead.KeySize, nonce: asconaead.NonceSize, tag: asconaead.TagSize,
			new: func(key []byte) (cipher.AEAD, error) { return asconaead.New(key) },
			vectors: []aeadVector{
				aeadLWCVector(1, asconKATKey, asconAEADKATNonce, 0x20, 0x30, "4F9C278211BEC9316BF68F46EE8B2EC6"),
				aeadLWCVector(35, asconKATKey, asconAEADKATNonce, 0x20, 0x30, "962B8016836C75A7D86866588CA245D886"),
				aeadLWCVector(545, asconKATKey, asconAEADKATNonce, 0x20, 0x30,
					"6373EBB28BE97C9BAC090CF399C13EF13ABFC0D209E8F4844C90814D13F32C59"),
				aeadLWCVector(563, asconKATKey, asconAEADKATNonce, 0x20, 0x30,
					"96107D8A29A7529A7941BDC7DF1FE3C6C7EA70D7986E7B59CD0D357239F5D25BF5"),
				aeadLWCVector(1089, asconKATKey, asconAEADKATNonce, 0x20, 0x30,
					"CB34D04660A66DBFBE9C856601F5B8AA51A499B55AC8F7FBEFBC331A613EE9CDFD191750A47F211C0A15ED28173D7CAA"),
			},
		},
	} {
		register(newAEADScheme(sp))
	}
}
