package scheme

import (
	"bytes"
	"crypto/cipher"
	"crypto/rc4" //nolint:staticcheck // measured because the seed studies did; marked Legacy
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/cryptocost/cryptocost/internal/snow3g"
	"github.com/emmansun/gmsm/zuc"
	"golang.org/x/crypto/chacha20"

	//lint:ignore SA1019 the Salsa20 core measured as a primitive, as the seed studies did
	"golang.org/x/crypto/salsa20/salsa"
)

// streamVector is a known answer: under Key and IV, after Offset keystream
// bytes are discarded, In (all zeros if empty) encrypts to Out. Bits, when
// non-zero, is the message length in bits: the 3GPP test data has lengths
// that end inside a byte, and only the first Bits bits are compared. Hex
// strings may contain white space, as the standards print them in words.
type streamVector struct {
	Name    string // where the vector is in its source
	Key, IV string
	Offset  int
	In, Out string
	Bits    int
}

type streamScheme struct {
	info Info
	new  func(key, iv []byte) (cipher.Stream, error)
	// testIV, if set, makes test bytes a valid IV (the 3GPP ciphers need
	// two zero padding bits).
	testIV func(iv []byte) []byte
	// maxKeystream, if non-zero, is how many bytes one stream can
	// produce: ChaCha20's 32-bit block counter ends after 256 GiB.
	maxKeystream int64
	vectors      []streamVector
}

func (s *streamScheme) Info() *Info { return &s.info }

func (s *streamScheme) NewStream(key, iv []byte) (cipher.Stream, error) { return s.new(key, iv) }

func (s *streamScheme) KAT() error {
	for _, v := range s.vectors {
		st, err := s.new(streamHex(v.Key), streamHex(v.IV))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		if v.Offset > 0 {
			skip := make([]byte, v.Offset)
			st.XORKeyStream(skip, skip)
		}
		in, want := streamHex(v.In), streamHex(v.Out)
		if in == nil {
			in = make([]byte, len(want))
		}
		if v.Bits > 0 {
			// The test data prints whole words; the message is Bits long.
			n := (v.Bits + 7) / 8
			in, want = in[:n], want[:n]
			streamClearTail(want, v.Bits)
		}
		got := make([]byte, len(in))
		st.XORKeyStream(got, in)
		if v.Bits > 0 {
			streamClearTail(got, v.Bits)
		}
		if !bytes.Equal(got, want) {
			return katError(s.info.Name, v.Name, got, want)
		}
	}
	return nil
}

// streamHex decodes a vector's hex, ignoring white space; "" is nil.
func streamHex(s string) []byte {
	if s == "" {
		return nil
	}
	return unhex(strings.Join(strings.Fields(s), ""))
}

// streamClearTail clears the bits of b past the first bits.
func streamClearTail(b []byte, bits int) {
	if r := bits % 8; r != 0 {
		b[bits/8] &= 0xff << (8 - r)
	}
}

// testKeyIV returns the key and IV of variant: distinct per variant, the
// same in every run.
func (s *streamScheme) testKeyIV(variant int) (key, iv []byte) {
	key = testData(s.info.Sizes.Key, s.info.Name+" key", variant)
	iv = testData(s.info.Sizes.Nonce, s.info.Name+" iv", variant)
	if s.testIV != nil {
		iv = s.testIV(iv)
	}
	return key, iv
}

// Operations are key-setup, encrypt and decrypt. A stream cipher encrypts
// and decrypts alike, but the studies report both, so both are timed.
//
// Encrypt and decrypt keep one stream for the whole loop: each iteration
// XORs the next size bytes of one long keystream, which costs what a fresh
// message of that size costs once the key and IV are set up (that setup is
// the key-setup operation, timed on its own).
func (s *streamScheme) Operations() []Operation {
	return []Operation{
		{
			// The key-setup operation times NewStream: the key schedule and IV loading (RC4's
			// key-scheduling algorithm, SNOW 3G's and ZUC's 32 initialisation clocks).
			Name:  OpKeySetup,
			Input: InputNone,
			Prepare: func(a Args) (Loop, error) {
				key, iv := s.testKeyIV(a.Variant)
				if _, err := s.new(key, iv); err != nil {
					return nil, fmt.Errorf("%s: %w", s.info.Name, err)
				}
				return func(n int) error {
					for range n {
						if _, err := s.new(key, iv); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		},
		{
			Name:  OpEncrypt,
			Input: InputBulk,
			Prepare: func(a Args) (Loop, error) {
				return s.prepareXOR(a, testData(a.Size, s.info.Name, a.Variant))
			},
		},
		{
			Name:  OpDecrypt,
			Input: InputBulk,
			Prepare: func(a Args) (Loop, error) {
				// Decrypt a real ciphertext: the plaintext encrypted under
				// the same key and IV by a stream of its own.
				key, iv := s.testKeyIV(a.Variant)
				enc, err := s.new(key, iv)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.info.Name, err)
				}
				ct := testData(a.Size, s.info.Name, a.Variant)
				enc.XORKeyStream(ct, bytes.Clone(ct))
				return s.prepareXOR(a, ct)
			},
		},
	}
}

// prepareXOR returns a loop that XORs the keystream onto in, into a
// reused output buffer.
func (s *streamScheme) prepareXOR(a Args, in []byte) (Loop, error) {
	key, iv := s.testKeyIV(a.Variant)
	st, err := s.new(key, iv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.info.Name, err)
	}
	out := make([]byte, len(in))
	limit := s.maxKeystream
	if limit == 0 {
		limit = math.MaxInt64
	}
	left := limit
	return func(n int) error {
		for range n {
			if left -= int64(len(in)); left < 0 {
				// Start again before the keystream runs out (ChaCha20:
				// once per 256 GiB, too rare to show in a timing).
				if st, err = s.new(key, iv); err != nil {
					return err
				}
				left = limit - int64(len(in))
			}
			st.XORKeyStream(out, in)
		}
		return nil
	}, nil
}

// stream3GPPIVSize is the size of the iv that the 3GPP ciphers' NewStream
// takes: COUNT (32 bits, big-endian), then one byte holding BEARER (5 bits),
// DIRECTION (1 bit) and two zero bits. These are the 38 bits that UEA2 and
// 128-EEA3 expand into their 128-bit IVs (each algorithm's Document 1), laid
// out as the first five bytes of 128-EEA3's IV.
const stream3GPPIVSize = 5

// stream3GPPIV packs COUNT, BEARER and DIRECTION into a 3GPP cipher's iv.
func stream3GPPIV(count uint32, bearer, direction uint8) []byte {
	return append(binary.BigEndian.AppendUint32(nil, count), bearer<<3|direction<<2)
}

// streamParse3GPPIV unpacks a 3GPP cipher's iv.
func streamParse3GPPIV(iv []byte) (count uint32, bearer, direction uint8, err error) {
	if len(iv) != stream3GPPIVSize || iv[4]&3 != 0 {
		return 0, 0, 0, fmt.Errorf("iv %x: want 5 bytes, COUNT (4 bytes, big-endian) then BEARER<<3 | DIRECTION<<2", iv)
	}
	return binary.BigEndian.Uint32(iv), iv[4] >> 3, iv[4] >> 2 & 1, nil
}

// stream3GPPTestIV clears the padding bits of a test iv.
func stream3GPPTestIV(iv []byte) []byte {
	iv[4] &^= 3
	return iv
}

// stream3GPPVector is a 3GPP test set: COUNT, BEARER and DIRECTION go into
// the iv, LENGTH into Bits.
func stream3GPPVector(name, key string, count uint32, bearer, direction uint8, bits int, in, out string) streamVector {
	return streamVector{Name: name, Key: key, IV: hexString(stream3GPPIV(count, bearer, direction)), Bits: bits, In: in, Out: out}
}

func streamSNOW3G(key, iv []byte) (cipher.Stream, error) {
	count, bearer, direction, err := streamParse3GPPIV(iv)
	if err != nil {
		return nil, fmt.Errorf("SNOW3G-UEA2: %w", err)
	}
	return snow3g.NewUEA2(key, count, bearer, direction)
}

// streamZeros is read only: XORed with it, a keystream generator writes
// its keystream.
var streamZeros [64]byte

// streamZUC adapts gmsm's ZUC to the cipher.Stream contract. gmsm makes
// keystream 32 bits at a time and drops what a call leaves of its last
// word; and on amd64 with AES-NI (gmsm v0.15.5) an in-place call
// XORKeyStream(buf, buf) outputs zeros, because it writes the keystream
// into dst before reading src. streamZUC keeps a word's unused bytes for the
// next call and passes in-place input through a copy. Calls on distinct
// buffers of whole words, the timed ones, go straight to gmsm.
type streamZUC struct {
	zuc     cipher.Stream
	ks      [4]byte // a keystream word a call stopped in; its last n bytes are unused
	n       int
	scratch []byte
}

func streamNewZUC(key, iv []byte) (cipher.Stream, error) {
	count, bearer, direction, err := streamParse3GPPIV(iv)
	if err != nil {
		return nil, fmt.Errorf("ZUC-EEA3: %w", err)
	}
	if len(key) != 16 {
		return nil, fmt.Errorf("ZUC-EEA3: key is %d bytes, want 16 (128 bits)", len(key))
	}
	z, err := zuc.NewEEACipher(key, count, uint32(bearer), uint32(direction))
	if err != nil {
		return nil, err
	}
	return &streamZUC{zuc: z}, nil
}

func (z *streamZUC) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("ZUC-EEA3: output smaller than input")
	}
	dst = dst[:len(src)]
	for z.n > 0 && len(src) > 0 {
		dst[0] = src[0] ^ z.ks[4-z.n]
		z.n--
		dst, src = dst[1:], src[1:]
	}
	whole := len(src) &^ 3
	if whole > 0 {
		in := src[:whole]
		if &dst[0] == &in[0] {
			z.scratch = append(z.scratch[:0], in...)
			in = z.scratch
		}
		z.zuc.XORKeyStream(dst[:whole], in)
	}
	if tail := src[whole:]; len(tail) > 0 {
		z.zuc.XORKeyStream(z.ks[:], streamZeros[:4])
		for i, b := range tail {
			dst[whole+i] = b ^ z.ks[i]
		}
		z.n = 4 - len(tail)
	}
}

// streamSalsa20 is Salsa20/20 as a cipher.Stream. x/crypto's
// salsa20.XORKeyStream takes the nonce on every call and starts at block 0;
// this keeps the block counter, and a block's unused bytes, between calls.
type streamSalsa20 struct {
	key [32]byte
	// in is the Salsa20 input after the key: the 8-byte nonce, then the
	// 64-bit little-endian block counter (Bernstein, "Salsa20
	// specification", §10).
	in    [16]byte
	block [64]byte // a keystream block a call stopped in; its last n bytes are unused
	n     int
}

func streamNewSalsa20(key, nonce []byte) (cipher.Stream, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("Salsa20: key is %d bytes, want 32 (this is the 256-bit-key Salsa20/20)", len(key))
	}
	if len(nonce) != 8 {
		return nil, fmt.Errorf("Salsa20: nonce is %d bytes, want 8", len(nonce))
	}
	s := new(streamSalsa20)
	copy(s.key[:], key)
	copy(s.in[:8], nonce)
	return s, nil
}

func (s *streamSalsa20) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("Salsa20: output smaller than input")
	}
	dst = dst[:len(src)]
	for s.n > 0 && len(src) > 0 {
		dst[0] = src[0] ^ s.block[64-s.n]
		s.n--
		dst, src = dst[1:], src[1:]
	}
	if whole := len(src) &^ 63; whole > 0 {
		salsa.XORKeyStream(dst[:whole], src[:whole], &s.in, &s.key)
		s.advance(uint64(whole / 64))
		dst, src = dst[whole:], src[whole:]
	}
	if len(src) > 0 {
		salsa.XORKeyStream(s.block[:], streamZeros[:], &s.in, &s.key)
		s.advance(1)
		for i, b := range src {
			dst[i] = b ^ s.block[i]
		}
		s.n = 64 - len(src)
	}
}

func (s *streamSalsa20) advance(blocks uint64) {
	binary.LittleEndian.PutUint64(s.in[8:], binary.LittleEndian.Uint64(s.in[8:])+blocks)
}

func streamNewRC4(key, iv []byte) (cipher.Stream, error) {
	if len(iv) != 0 {
		return nil, fmt.Errorf("RC4-128: RC4 takes no IV, got %d bytes", len(iv))
	}
	if len(key) != 16 {
		return nil, fmt.Errorf("RC4-128: key is %d bytes, want 16", len(key))
	}
	return rc4.NewCipher(key)
}

func streamNewChaCha20(key, nonce []byte) (cipher.Stream, error) {
	if len(nonce) != chacha20.NonceSize {
		// x/crypto would take 24 bytes as XChaCha20, a different scheme.
		return nil, fmt.Errorf("ChaCha20: nonce is %d bytes, want %d (RFC 8439)", len(nonce), chacha20.NonceSize)
	}
	return chacha20.NewUnauthenticatedCipher(key, nonce)
}

func newStream(s streamScheme, keySize, ivSize int) *streamScheme {
	s.info.Family = FamilyStream
	s.info.Sizes = Sizes{Key: keySize, Nonce: ivSize}
	s.info.Params = append([]Param{{"key_bits", itoa(8 * keySize)}, {"iv_bits", itoa(8 * ivSize)}}, s.info.Params...)
	if len(s.vectors) == 0 {
		panic("scheme: " + s.info.Name + " has no known-answer vectors")
	}
	return &s
}

func init() {
	const rfc6229Key = "0102030405060708090a0b0c0d0e0f10"
	rc4Vector := func(offset int, out string) streamVector {
		return streamVector{Name: "RFC 6229 §2 128-bit key, offset " + itoa(offset), Key: rfc6229Key, Offset: offset, Out: out}
	}
	const rfc8439Key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	salsaKey1 := "80" + strings.Repeat("00", 31)
	salsaKey9 := "0040" + strings.Repeat("00", 30)

	for _, s := range []*streamScheme{
		newStream(streamScheme{
			info: Info{
				Name: "RC4-128", Aliases: []string{"RC4", "ARCFOUR"}, Provider: ProviderGo,
				Security: Security{Bits: 0, Note: "keystream biases recover plaintext repeated across sessions (AlFardan et al. 2013)"},
				Legacy:   "broken: biased keystream; RFC 7465 prohibits RC4 in TLS",
				Standard: "RC4 (Rivest 1987, never formally published; RFC 6229 documents its keystream) (vectors: RFC 6229 §2, 128-bit key)",
			},
			new: streamNewRC4,
			vectors: []streamVector{
				rc4Vector(0, "9ac7cc9a609d1ef7b2932899cde41b97 5248c4959014126a6e8a84f11d1a9e1c"),
				rc4Vector(240, "065902e4b620f6cc36c8589f66432f2b d39d566bc6bce3010768151549f3873f"),
				rc4Vector(1520, "b40110c4190b5622a96116b0017ed297 ffa0b514647ec04f6306b892ae661181"),
				rc4Vector(4080, "ff38265c1642c1abe8d3c2fe5e572bf8 a36a4c301ae8ac13610ccbc12256cacc"),
			},
		}, 16, 0),
		newStream(streamScheme{
			info: Info{
				Name: "Salsa20", Aliases: []string{"Salsa20/20"}, Provider: ProviderXCrypto,
				Security: Security{Bits: 256},
				Standard: "Bernstein, Salsa20 specification 2005 (vectors: eSTREAM verified.test-vectors, Salsa20/20 256-bit key)",
			},
			new: streamNewSalsa20,
			vectors: []streamVector{
				{Name: "eSTREAM set 1 vector 0, stream[0..63]", Key: salsaKey1, IV: "0000000000000000",
					Out: `E3BE8FDD8BECA2E3EA8EF9475B29A6E7 003951E1097A5C38D23B7A5FAD9F6844
					      B22C97559E2723C7CBBD3FE4FC8D9A07 44652A83E72A9C461876AF4D7EF1A117`},
				{Name: "eSTREAM set 1 vector 0, stream[192..255]", Key: salsaKey1, IV: "0000000000000000", Offset: 192,
					Out: `57BE81F47B17D9AE7C4FF15429A73E10 ACF250ED3A90A93C711308A74C6216A9
					      ED84CD126DA7F28E8ABF8BB63517E1CA 98E712F4FB2E1A6AED9FDC73291FAA17`},
				{Name: "eSTREAM set 1 vector 0, stream[256..319]", Key: salsaKey1, IV: "0000000000000000", Offset: 256,
					Out: `958211C4BA2EBD5838C635EDB81F513A 91A294E194F1C039AEEC657DCE40AA7E
					      7C0AF57CACEFA40C9F14B71A4B3456A6 3E162EC7D8D10B8FFB1810D71001B618`},
				{Name: "eSTREAM set 1 vector 0, stream[448..511]", Key: salsaKey1, IV: "0000000000000000", Offset: 448,
					Out: `696AFCFD0CDDCC83C7E77F11A649D79A CDC3354E9635FF137E929933A0BD6F53
					      77EFA105A3A4266B7C0D089D08F1E855 CC32B15B93784A36E56A76CC64BC8477`},
				{Name: "eSTREAM set 1 vector 9, stream[0..63]", Key: salsaKey9, IV: "0000000000000000",
					Out: `01F191C3A1F2CC6EBED78095A05E062E 1228154AF6BAE80A0E1A61DF2AE15FBC
					      C37286440F66780761413F23B0C2C9E4 678C628C5E7FB48C6EC1D82D47117D9F`},
				{Name: "eSTREAM set 1 vector 9, stream[192..255]", Key: salsaKey9, IV: "0000000000000000", Offset: 192,
					Out: `86D6F824D58012A14A19858CFE137D76 8E77597B96A4285D6B65D88A7F1A8778
					      4BF1A3E44FC9D3525DDC784F5D99BA22 2712420181CABAB00C4B91AAEDFF521C`},
				{Name: "eSTREAM set 6 vector 0, stream[0..31]",
					Key: "0053A6F94C9FF24598EB3E91E4378ADD3083D6297CCF2275C81B6EC11467BA0D", IV: "0D74DB42A91077DE",
					Out: "F5FAD53F79F9DF58C4AEA0D0ED9A9601 F278112CA7180D565B420A48019670EA"},
			},
		}, 32, 8),
		newStream(streamScheme{
			info: Info{
				Name: "ChaCha20", Provider: ProviderXCrypto,
				Security: Security{Bits: 256},
				Standard: "RFC 8439 (vectors: RFC 8439 §2.3.2, §2.4.2, A.1 #1)",
			},
			new:          streamNewChaCha20,
			maxKeystream: 64 << 32, // 2^32 blocks of 64 bytes
			vectors: []streamVector{
				{Name: "RFC 8439 A.1 #1 (block 0)", Key: strings.Repeat("00", 32), IV: strings.Repeat("00", 12),
					Out: `76b8e0ada0f13d90405d6ae55386bd28 bdd219b8a08ded1aa836efcc8b770dc7
					      da41597c5157488d7724e03fb8d84a37 6a43b8f41518a11cc387b669b2ee6586`},
				{Name: "RFC 8439 §2.3.2 (block 1)", Key: rfc8439Key, IV: "000000090000004a00000000", Offset: 64,
					Out: `10f1e7e4d13b5915500fdd1fa32071c4 c7d1f4c733c068030422aa9ac3d46c4e
					      d2826446079faa0914c2d705d98b02a2 b5129cd1de164eb9cbd083e8a2503c4e`},
				{Name: "RFC 8439 §2.4.2 (counter 1)", Key: rfc8439Key, IV: "000000000000004a00000000", Offset: 64,
					In: hexString([]byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")),
					Out: `6e2e359a2568f98041ba0728dd0d6981 e97e7aec1d4360c20a27afccfd9fae0b
					      f91b65c5524733ab8f593dabcd62b357 1639d624e65152ab8f530c359f0861d8
					      07ca0dbf500d6a6156a38e088a22b65e 52bc514d16ccf806818ce91ab7793736
					      5af90bbf74a35be6b40b8eedf2785e42 874d`},
			},
		}, 32, 12),
		newStream(streamScheme{
			info: Info{
				Name: "SNOW3G-UEA2", Aliases: []string{"UEA2", "128-EEA1", "128-NEA1"}, Provider: ProviderCryptocost,
				Params:   []Param{{"iv", "COUNT(32) ‖ BEARER(5) ‖ DIRECTION(1) ‖ 00"}},
				Security: Security{Bits: 128},
				Standard: "ETSI/SAGE UEA2 & UIA2 Documents 1-2 (vectors: Document 3 v1.1 §4.3-4.7, UEA2 test sets 1-5)",
			},
			new:     streamSNOW3G,
			testIV:  stream3GPPTestIV,
			vectors: streamUEA2Vectors,
		}, snow3g.KeySize, stream3GPPIVSize),
		newStream(streamScheme{
			info: Info{
				Name: "ZUC-EEA3", Aliases: []string{"128-EEA3", "128-NEA3"}, Provider: Provider("emmansun/gmsm"),
				Params:   []Param{{"iv", "COUNT(32) ‖ BEARER(5) ‖ DIRECTION(1) ‖ 00"}},
				Security: Security{Bits: 128},
				Standard: "ETSI/SAGE 128-EEA3 & 128-EIA3 Documents 1-2 (vectors: Document 3 v1.1 §4.3-4.7, 128-EEA3 test sets 1-5)",
			},
			new:     streamNewZUC,
			testIV:  stream3GPPTestIV,
			vectors: streamEEA3Vectors,
		}, 16, stream3GPPIVSize),
	} {
		register(s)
	}
}

// streamUEA2Vectors are UEA2 Test Sets 1-5 of ETSI/SAGE, "Specification of
// the 3GPP Confidentiality and Integrity Algorithms UEA2 & UIA2, Document 3:
// Implementors' Test Data", v1.1, §4.3-4.7.
var streamUEA2Vectors = []streamVector{
	stream3GPPVector("Document 3 §4.3 (set 1)", "2BD6459F82C5B300952C49104881FF48", 0x72A4F20F, 0x0C, 1, 798,
		`7EC61272 743BF161 4726446A 6C38CED1 66F6CA76 EB543004 4286346C EF130F92
		 922B0345 0D3A9975 E5BD2EA0 EB55AD8E 1B199E3E C4316020 E9A1B285 E7627953
		 59B7BDFD 39BEF4B2 484583D5 AFE082AE E638BF5F D5A60619 3901A08F 4AB41AAB
		 9B134880`,
		`8CEBA629 43DCED3A 0990B06E A1B0A2C4 FB3CEDC7 1B369F42 BA64C1EB 6665E72A
		 A1C9BB0D EAA20FE8 6058B8BA EE2C2E7F 0BECCE48 B52932A5 3C9D5F93 1A3A7C53
		 2259AF43 25E2A65E 3084AD5F 6A513B7B DDC1B65F 0AA0D97A 053DB55A 88C4C4F9
		 605E4140`),
	stream3GPPVector("Document 3 §4.4 (set 2)", "EFA8B2229E720C2A7C36EA55E9605695", 0xE28BCF7B, 0x18, 0, 510,
		`10111231 E060253A 43FD3F57 E37607AB 2827B599 B6B1BBDA 37A8ABCC 5A8C550D
		 1BFB2F49 4624FB50 367FA36C E3BC68F1 1CF93B15 10376B02 130F812A 9FA169D8`,
		`E0DA15CA 8E2554F5 E56C9468 DC6C7C12 9C568AA5 032317E0 4E072964 6CABEFA6
		 89864C41 0F24F919 E61E3DFD FAD77E56 0DB0A9CD 36C34AE4 181490B2 9F5FA2FC`),
	stream3GPPVector("Document 3 §4.5 (set 3)", "5ACB1D644C0D51204EA5F1451010D852", 0xFA556B26, 0x03, 1, 120,
		"AD9C441F 890B38C4 57A49D42 1407E8",
		"BA0F3130 0334C56B 52A7497C BAC046"),
	stream3GPPVector("Document 3 §4.6 (set 4)", "D3C5D592327FB11C4035C6680AF8C6D1", 0x398A59B4, 0x05, 1, 253,
		"981BA682 4C1BFB1A B4854720 29B71D80 8CE33E2C C3C0B5FC 1F3DE8A6 DC66B1F0",
		"989B719C DC33CEB7 CF276A52 827CEF94 A56C40C0 AB9D81F7 A2A9BAC6 0E11C4B0"),
	stream3GPPVector("Document 3 §4.7 (set 5)", "6090EAE04C83706EECBF652BE8E36566", 0x72A4F20F, 0x09, 0, 837,
		`40981BA6 824C1BFB 4286B299 783DAF44 2C099F7A B0F58D5C 8E46B104 F08F01B4
		 1AB48547 2029B71D 36BD1A3D 90DC3A41 B46D5167 2AC4C966 3A2BE063 DA4BC8D2
		 808CE33E 2CCCBFC6 34E1B259 060876A0 FBB5A437 EBCC8D31 C19E4454 318745E3
		 98764598 7A986F2C B0`,
		`5892BBA8 8BBBCAAE AE769AA0 6B683D3A 17CC04A3 69881697 435E44FE D5FF9AF5
		 7B9E890D 4D5C6470 9885D48A E40690EC 043BAAE9 705796E4 A9FF5A4B 8D8B36D7
		 F3FE57CC 6CFD6CD0 05CD3852 A85E94CE 6BCD90D0 D07839CE 09733544 CA8E3508
		 43248550 922AC128 18`),
}

// streamEEA3Vectors are 128-EEA3 Test Sets 1-5 of ETSI/SAGE, "Specification
// of the 3GPP Confidentiality and Integrity Algorithms 128-EEA3 & 128-EIA3,
// Document 3: Implementor's Test Data", v1.1, §4.3-4.7.
var streamEEA3Vectors = []streamVector{
	stream3GPPVector("Document 3 §4.3 (set 1)", "173d14ba5003731d7a60049470f00a29", 0x66035492, 0xf, 0, 193,
		"6cf65340 735552ab 0c9752fa 6f9025fe 0bd675d9 005875b2 00000000",
		"a6c85fc6 6afb8533 aafc2518 dfe78494 0ee1e4b0 30238cc8 00000000"),
	stream3GPPVector("Document 3 §4.4 (set 2)", "e5bd3ea0eb55ade866c6ac58bd54302a", 0x00056823, 0x18, 1, 800,
		`14a8ef69 3d678507 bbe7270a 7f67ff50 06c3525b 9807e467 c4e56000 ba338f5d
		 42955903 67518222 46c80d3b 38f07f4b e2d8ff58 05f51322 29bde93b bbdcaf38
		 2bf1ee97 2fbf9977 bada8945 847a2a6c 9ad34a66 7554e04d 1f7fa2c3 3241bd8f
		 01ba220d`,
		`131d43e0 dea1be5c 5a1bfd97 1d852cbf 712d7b4f 57961fea 3208afa8 bca433f4
		 56ad09c7 417e58bc 69cf8866 d1353f74 865e8078 1d202dfb 3ecff7fc bc3b190f
		 e82a204e d0e350fc 0f6f2613 b2f2bca6 df5a473a 57a4a00d 985ebad8 80d6f238
		 64a07b01`),
	stream3GPPVector("Document 3 §4.5 (set 3)", "d4552a8fd6e61cc81a2009141a29c10b", 0x76452ec1, 0x2, 1, 1570,
		`38f07f4b e2d8ff58 05f51322 29bde93b bbdcaf38 2bf1ee97 2fbf9977 bada8945
		 847a2a6c 9ad34a66 7554e04d 1f7fa2c3 3241bd8f 01ba220d 3ca4ec41 e074595f
		 54ae2b45 4fd97143 20436019 65cca85c 2417ed6c bec3bada 84fc8a57 9aea7837
		 b0271177 242a64dc 0a9de71a 8edee86c a3d47d03 3d6bf539 804eca86 c584a905
		 2de46ad3 fced6554 3bd90207 372b27af b79234f5 ff43ea87 0820e2c2 b78a8aae
		 61cce52a 0515e348 d196664a 3456b182 a07c406e 4a207912 71cfeda1 65d535ec
		 5ea2d4df 40000000`,
		`8383b022 9fcc0b9d 2295ec41 c977e9c2 bb72e220 378141f9 c8318f3a 270dfbcd
		 ee6411c2 b3044f17 6dc6e00f 8960f97a facd131a d6a3b49b 16b7babc f2a509eb
		 b16a75dc ab14ff27 5dbeeea1 a2b155f9 d52c2645 2d0187c3 10a4ee55 beaa78ab
		 4024615b a9f5d5ad c7728f73 560671f0 13e5e550 085d3291 df7d5fec edded559
		 641b6c2f 585233bc 71e9602b d2305855 bbd25ffa 7f17ecbc 042daae3 8c1f57ad
		 8e8ebd37 346f71be fdbb7432 e0e0bb2c fc09bcd9 6570cb0c 0c39df5e 29294e82
		 703a637f 80000000`),
	stream3GPPVector("Document 3 §4.6 (set 4)", "db84b4fbccda563b66227bfe456f0f77", 0xe4850fe1, 0x10, 1, 2798,
		`e539f3b8 973240da 03f2b8aa 05ee0a00 dbafc0e1 82055dfe 3d7383d9 2cef40e9
		 2928605d 52d05f4f 9018a1f1 89ae3997 ce19155f b1221db8 bb0951a8 53ad852c
		 e16cff07 382c93a1 57de00dd b125c753 9fd85045 e4ee07e0 c43f9e9d 6f414fc4
		 d1c62917 813f74c0 0fc83f3e 2ed7c45b a5835264 b43e0b20 afda6b30 53bfb642
		 3b7fce25 479ff5f1 39dd9b5b 995558e2 a56be18d d581cd01 7c735e6f 0d0d97c4
		 ddc1d1da 70c6db4a 12cc9277 8e2fbbd6 f3ba52af 91c9c6b6 4e8da4f7 a2c266d0
		 2d001753 df089603 93c5d568 88bf49eb 5c16d9a8 0427a416 bcb597df 5bfe6f13
		 890a07ee 1340e647 6b0d9aa8 f822ab0f d1ab0d20 4f40b7ce 6f2e136e b67485e5
		 07804d50 4588ad37 ffd81656 8b2dc403 11dfb654 cdead47e 2385c343 6203dd83
		 6f9c64d9 7462ad5d fa63b5cf e08acb95 32866f5c a787566f ca93e6b1 693ee15c
		 f6f7a2d6 89d97417 98dc1c23 8e1be650 733b18fb 34ff880e 16bbd21b 47ac0000`,
		`4bbfa91b a25d47db 9a9f190d 962a19ab 323926b3 51fbd39e 351e05da 8b8925e3
		 0b1cce0d 12211010 95815cc7 cb631950 9ec0d679 40491987 e13f0aff ac332aa6
		 aa64626d 3e9a1917 519e0b97 b655c6a1 65e44ca9 feac0790 d2a321ad 3d86b79c
		 5138739f a38d887e c7def449 ce8abdd3 e7f8dc4c a9e7b733 14ad310f 9025e619
		 46b3a56d c649ec0d a0d63943 dff592cf 962a7efb 2c8524e3 5a2a6e78 79d62604
		 ef268695 fa400302 7e22e608 30775220 64bd4a5b 906b5f53 1274f235 ed506cff
		 0154c754 928a0ce5 476f2cb1 020a1222 d32c1455 ecaef1e3 68fb344d 1735bfbe
		 deb71d0a 33a2a54b 1da5a294 e679144d df11eb1a 3de8cf0c c0619179 74f35c1d
		 9ca0ac81 807f8fcc e6199a6c 7712da86 5021b04c e0439516 f1a526cc da9fd9ab
		 bd53c3a6 84f9ae1e 7ee6b11d a138ea82 6c5516b5 aadf1abb e36fa7ff f92e3a11
		 76064e8d 95f2e488 2b5500b9 3228b219 4a475c1a 27f63f9f fd264989 a1bc0000`),
	stream3GPPVector("Document 3 §4.7 (set 5)", "e13fed21b46e4e7ec31253b2bb17b3e0", 0x2738cdaa, 0x1a, 0, 4019,
		`8d74e20d 54894e06 d3cb13cb 3933065e 8674be62 adb1c72b 3a646965 ab63cb7b
		 7854dfdc 27e84929 f49c64b8 72a490b1 3f957b64 827e71f4 1fbd4269 a42c97f8
		 24537027 f86e9f4a d82d1df4 51690fdd 98b6d03f 3a0ebe3a 312d6b84 0ba5a182
		 0b2a2c97 09c090d2 45ed267c f845ae41 fa975d33 33ac3009 fd40eba9 eb5b8857
		 14b768b6 97138baf 21380eca 49f644d4 8689e421 5760b906 739f0d2b 3f091133
		 ca15d981 cbe401ba f72d05ac e05cccb2 d297f4ef 6a5f58d9 1246cfa7 7215b892
		 ab441d52 78452795 ccb7f5d7 9057a1c4 f77f80d4 6db2033c b79bedf8 e60551ce
		 10c667f6 2a97abaf abbcd677 2018df96 a282ea73 7ce2cb33 1211f60d 5354ce78
		 f9918d9c 206ca042 c9b62387 dd709604 a50af16d 8d35a890 6be484cf 2e74a928
		 99403643 53249b27 b4c9ae29 eddfc7da 6418791a 4e7baa06 60fa6451 1f2d685c
		 c3a5ff70 e0d2b742 92e3b8a0 cd6b04b1 c790b8ea d2703708 540dea2f c09c3da7
		 70f65449 e84d817a 4f551055 e19ab850 18a0028b 71a144d9 6791e9a3 57793350
		 4eee0060 340c69d2 74e1bf9d 805dcbcc 1a6faa97 6800b6ff 2b671dc4 63652fa8
		 a33ee509 74c1c21b e01eabb2 16743026 9d72ee51 1c9dde30 797c9a25 d86ce74f
		 5b961be5 fdfb6807 814039e7 137636bd 1d7fa9e0 9efd2007 505906a5 ac45dfde
		 ed7757bb ee745749 c2963335 0bee0ea6 f409df45 80160000`,
		`94eaa4aa 30a57137 ddf09b97 b25618a2 0a13e2f1 0fa5bf81 61a879cc 2ae797a6
		 b4cf2d9d f31debb9 905ccfec 97de605d 21c61ab8 531b7f3c 9da5f039 31f8a064
		 2de48211 f5f52ffe a10f392a 04766998 5da454a2 8f080961 a6c2b62d aa17f33c
		 d60a4971 f48d2d90 9394a55f 48117ace 43d708e6 b77d3dc4 6d8bc017 d4d1abb7
		 7b7428c0 42b06f2f 99d8d07c 9879d996 00127a31 985f1099 bbd7d6c1 519ede8f
		 5eeb4a61 0b349ac0 1ea23506 91756bd1 05c974a5 3eddb35d 1d4100b0 12e522ab
		 41f4c5f2 fde76b59 cb8b96d8 85cfe408 0d1328a0 d636cc0e dc05800b 76acca8f
		 ef672084 d1f52a8b bd8e0993 320992c7 ffbae17c 408441e0 ee883fc8 a8b05e22
		 f5ff7f8d 1b48c74c 468c467a 028f09fd 7ce91109 a570a2d5 c4d5f4fa 18c5dd3e
		 4562afe2 4ef77190 1f59af64 5898acef 088abae0 7e92d52e b2de5504 5bb1b7c4
		 164ef2d7 a6cac15e eb926d7e a2f08b66 e1f759f3 aee44614 725aa3c7 482b3084
		 4c143ff8 5b53f1e5 83c50125 7dddd096 b81268da a303f172 34c23335 41f0bb8e
		 190648c5 807c866d 71932286 09adb948 686f7de2 94a802cc 38f7fe52 08f5ea31
		 96d0167b 9bdd02f0 d2a5221c a508f893 af5c4b4b b9f4f520 fd84289b 3dbe7e61
		 497a7e2a 584037ea 637b6981 127174af 57b471df 4b2768fd 79c1540f b3edf2ea
		 22cb69be c0cf8d93 3d9c6fdd 645e8505 91cca3d6 2c0cc000`),
}
