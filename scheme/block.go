package scheme

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"fmt"
	"runtime"

	"github.com/aead/serpent"
	"github.com/emmansun/gmsm/sm4"

	//lint:ignore SA1019 measured because the seed studies did
	"golang.org/x/crypto/blowfish"
	//lint:ignore SA1019 measured because the seed studies did
	"golang.org/x/crypto/cast5"
	//lint:ignore SA1019 measured because the seed studies did
	"golang.org/x/crypto/twofish"
	//lint:ignore SA1019 measured because the seed studies did
	"golang.org/x/crypto/xtea"
	"golang.org/x/sys/cpu"

	"github.com/cryptocost/cryptocost/internal/idea"
)

// blockMode is a mode of operation cryptocost builds on every block cipher.
// The modes are the same code for every cipher, so SP 800-38A's AES vectors
// prove them once; each cipher's own vectors prove the cipher.
type blockMode string

const (
	blockModeECB blockMode = "ecb"
	blockModeCBC blockMode = "cbc"
	blockModeOFB blockMode = "ofb"
	blockModeCTR blockMode = "ctr"
)

// blockModes lists the modes in the order their operations are listed.
var blockModes = []blockMode{blockModeECB, blockModeCBC, blockModeOFB, blockModeCTR}

// wholeBlocks reports whether the mode takes only whole blocks: ECB and CBC
// are measured without padding, OFB and CTR are stream modes.
func (m blockMode) wholeBlocks() bool { return m == blockModeECB || m == blockModeCBC }

// op names the operation that runs the mode in one direction
// ("encrypt-cbc", "decrypt-ctr").
func (m blockMode) op(decrypt bool) string {
	if decrypt {
		return OpDecrypt + "-" + string(m)
	}
	return OpEncrypt + "-" + string(m)
}

// blockCrypter encrypts or decrypts one message, src into dst (same length),
// starting from the IV it was built with on every call.
type blockCrypter func(dst, src []byte)

// blockIVSetter is the SetIV method Go's CBC modes have (and gmsm's SM4 CBC).
type blockIVSetter interface{ SetIV(iv []byte) }

// newBlockCrypter builds the per-message function of mode in one direction
// over b. The known-answer tests and the timed loops both call what it
// returns, so the vectors check the code that is timed. What is done here
// (the mode object, its buffers) is outside the timed region; what the
// returned function does is inside it:
//   - ECB: a loop of b.Encrypt or b.Decrypt over the blocks.
//   - CBC: SetIV (a one-block copy) and CryptBlocks. The mode object is
//     reused as Go's API allows, so a message costs no allocation.
//   - OFB, CTR: cipher.NewOFB or cipher.NewCTR with the IV, then
//     XORKeyStream. Go's streams cannot be rewound, so a fresh one per
//     message is what any Go program pays; it allocates the stream state
//     (for non-AES ciphers that includes a 512-byte keystream buffer).
//
// The key schedule is never inside: b is already keyed.
func newBlockCrypter(b cipher.Block, mode blockMode, decrypt bool, iv []byte) blockCrypter {
	iv = bytes.Clone(iv)
	bs := b.BlockSize()
	switch mode {
	case blockModeECB:
		// Go has no ECB mode (deliberately); this is the whole of it.
		crypt := b.Encrypt
		if decrypt {
			crypt = b.Decrypt
		}
		return func(dst, src []byte) {
			for i := 0; i+bs <= len(src); i += bs {
				crypt(dst[i:i+bs], src[i:i+bs])
			}
		}
	case blockModeCBC:
		newMode := cipher.NewCBCEncrypter
		if decrypt {
			newMode = cipher.NewCBCDecrypter
		}
		m := newMode(b, iv)
		if s, ok := m.(blockIVSetter); ok {
			return func(dst, src []byte) {
				s.SetIV(iv)
				m.CryptBlocks(dst, src)
			}
		}
		// A mode without SetIV is rebuilt for each message.
		return func(dst, src []byte) { newMode(b, iv).CryptBlocks(dst, src) }
	case blockModeOFB:
		// OFB is its own inverse: decryption is the same keystream XOR.
		return func(dst, src []byte) {
			//lint:ignore SA1019 OFB is deprecated for new designs; measuring its cost is the point.
			cipher.NewOFB(b, iv).XORKeyStream(dst, src) //nolint:staticcheck // as above
		}
	case blockModeCTR:
		// CTR, as SP 800-38A F.5: the IV is the initial counter block,
		// incremented as one big-endian integer. Its own inverse too.
		return func(dst, src []byte) { cipher.NewCTR(b, iv).XORKeyStream(dst, src) }
	}
	panic("scheme: unknown block mode " + string(mode))
}

// blockVector is a known answer: In encrypted in Mode under Key (from IV)
// is Out, and Out decrypted is In.
type blockVector struct {
	Source           string // where it is published: "SP 800-38A F.2.1"
	Mode             blockMode
	Key, IV, In, Out string // hex
}

type blockScheme struct {
	info      Info
	newCipher func(key []byte) (cipher.Block, error)
	vectors   []blockVector
	// avail, if set, says whether the cipher's code can run on this CPU.
	avail func() error
}

func (s *blockScheme) Info() *Info { return &s.info }

func (s *blockScheme) available() error {
	if s.avail == nil {
		return nil
	}
	return s.avail()
}

// NewCipher returns the cipher keyed with key, which must be the scheme's
// key size: the libraries accept other sizes (aes.NewCipher a 32-byte key),
// but those are other schemes.
func (s *blockScheme) NewCipher(key []byte) (cipher.Block, error) {
	if len(key) != s.info.Sizes.Key {
		return nil, fmt.Errorf("%s: key is %d bytes, want %d (%d bits)",
			s.info.Name, len(key), s.info.Sizes.Key, s.info.Sizes.Key*8)
	}
	return s.newCipher(key)
}

// KAT checks every published vector in both directions, running each
// crypter twice to prove it restarts from the IV as the timed loops assume,
// then round-trips the modes that have no published vector for this cipher.
func (s *blockScheme) KAT() error {
	covered := map[blockMode]bool{}
	for i, v := range s.vectors {
		name := "#" + itoa(i) + " (" + v.Source + ", " + string(v.Mode) + ")"
		b, err := s.NewCipher(unhex(v.Key))
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: %v", s.info.Name, ErrKAT, name, err)
		}
		in, out, iv := unhex(v.In), unhex(v.Out), unhex(v.IV)
		for _, dir := range []struct {
			decrypt   bool
			src, want []byte
		}{{false, in, out}, {true, out, in}} {
			crypt := newBlockCrypter(b, v.Mode, dir.decrypt, iv)
			got := make([]byte, len(dir.src))
			for range 2 {
				clear(got)
				crypt(got, dir.src)
				if !bytes.Equal(got, dir.want) {
					return katError(s.info.Name, name+" "+v.Mode.op(dir.decrypt), got, dir.want)
				}
			}
		}
		covered[v.Mode] = true
	}
	for _, m := range blockModes {
		if !covered[m] {
			if err := s.roundTrip(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// roundTrip checks that mode m decrypts what it encrypts and that the
// ciphertext is not the plaintext, on three and a half blocks for the
// stream modes (a partial final block) and three for the others.
func (s *blockScheme) roundTrip(m blockMode) error {
	key, iv := s.testKeyIV(0)
	b, err := s.NewCipher(key)
	if err != nil {
		return fmt.Errorf("%s: %w: %s round trip: %v", s.info.Name, ErrKAT, m, err)
	}
	size := 3 * s.info.Sizes.Block
	if !m.wholeBlocks() {
		size += s.info.Sizes.Block / 2
	}
	msg := testData(size, s.info.Name+"/round-trip", 0)
	ct := make([]byte, size)
	newBlockCrypter(b, m, false, iv)(ct, msg)
	pt := make([]byte, size)
	newBlockCrypter(b, m, true, iv)(pt, ct)
	switch {
	case bytes.Equal(ct, msg):
		return fmt.Errorf("%s: %w: %s encryption left the message unchanged", s.info.Name, ErrKAT, m)
	case !bytes.Equal(pt, msg):
		return katError(s.info.Name, string(m)+" round trip", pt, msg)
	}
	return nil
}

// testKeyIV returns the key and IV the timed operations use for variant.
func (s *blockScheme) testKeyIV(variant int) (key, iv []byte) {
	return testData(s.info.Sizes.Key, s.info.Name+"/key", variant),
		testData(s.info.Sizes.Nonce, s.info.Name+"/iv", variant)
}

func (s *blockScheme) Operations() []Operation {
	ops := []Operation{{
		Name:  OpKeySchedule,
		Input: InputNone,
		Prepare: func(a Args) (Loop, error) {
			key, _ := s.testKeyIV(a.Variant)
			if _, err := s.NewCipher(key); err != nil {
				return nil, err
			}
			// The library's key expansion alone (NewCipher's size check is
			// done above); it allocates the expanded key, as every user's does.
			return func(n int) error {
				for range n {
					if _, err := s.newCipher(key); err != nil {
						return err
					}
				}
				return nil
			}, nil
		},
	}}
	for _, m := range blockModes {
		for _, decrypt := range []bool{false, true} {
			op := Operation{Name: m.op(decrypt), Input: InputBulk}
			if m.wholeBlocks() {
				op.Multiple = s.info.Sizes.Block
			}
			check := op // CheckSize needs only the sizes
			op.Prepare = func(a Args) (Loop, error) {
				if err := check.CheckSize(a.Size); err != nil {
					return nil, fmt.Errorf("%s: %w", s.info.Name, err)
				}
				return s.prepareMode(m, decrypt, a)
			}
			ops = append(ops, op)
		}
	}
	return ops
}

// prepareMode keys the cipher, builds the mode and the message for a, and
// returns the loop that processes the message n times into one reused
// output buffer.
func (s *blockScheme) prepareMode(m blockMode, decrypt bool, a Args) (Loop, error) {
	key, iv := s.testKeyIV(a.Variant)
	b, err := s.NewCipher(key)
	if err != nil {
		return nil, err
	}
	msg := testData(a.Size, s.info.Name+"/"+string(m), a.Variant)
	if decrypt {
		// Decrypt a real ciphertext, made here outside the timed region.
		ct := make([]byte, len(msg))
		newBlockCrypter(b, m, false, iv)(ct, msg)
		msg = ct
	}
	crypt := newBlockCrypter(b, m, decrypt, iv)
	out := make([]byte, len(msg))
	return func(n int) error {
		for range n {
			crypt(out, msg)
		}
		return nil
	}, nil
}

// newBlock describes a block cipher with keySize-byte keys and bs-byte
// blocks. Both are declared rather than read from a keyed cipher, so
// registering runs none of the cipher's code: gmsm's SM4 key expansion, for
// one, uses instructions some CPUs lack, and a registry that ran it at init
// killed every command with SIGILL on them. The size checker in
// block_test.go compares the declared sizes with the cipher's.
func newBlock(name string, aliases []string, p Provider, keySize, bs int, sec Security, legacy, standard string,
	newf func([]byte) (cipher.Block, error), vectors ...blockVector) *blockScheme {
	return &blockScheme{
		info: Info{
			Name: name, Aliases: aliases, Family: FamilyBlock, Provider: p,
			Params:   []Param{{"key_bits", itoa(keySize * 8)}, {"block_bits", itoa(bs * 8)}},
			Security: sec, Legacy: legacy, Standard: standard,
			// Nonce is the IV of CBC and OFB and the initial counter of CTR.
			Sizes: Sizes{Key: keySize, Block: bs, Nonce: bs},
		},
		newCipher: newf, vectors: vectors,
	}
}

// blockCipherOf adapts a constructor that returns a concrete cipher type,
// taking care not to turn a nil pointer into a non-nil interface.
func blockCipherOf[T cipher.Block](f func([]byte) (T, error)) func([]byte) (cipher.Block, error) {
	return func(key []byte) (cipher.Block, error) {
		c, err := f(key)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// blockTDEA2 is two-key Triple DES (SP 800-67 keying option 2): the 16-byte
// key K1||K2 is used as K1, K2, K1.
func blockTDEA2(key []byte) (cipher.Block, error) {
	if len(key) != 16 {
		return nil, fmt.Errorf("2TDEA: key is %d bytes, want 16 (K1||K2)", len(key))
	}
	var k [24]byte
	copy(k[:16], key)
	copy(k[16:], key[:8])
	return des.NewTripleDESCipher(k[:])
}

// blockSweet32 is the legacy reason of every 64-bit-block cipher.
const blockSweet32 = "64-bit block: Sweet32 birthday attacks after about 2^32 blocks (32 GiB) under one key (Bhargavan & Leurent 2016)"

// blockSP80038A returns NIST SP 800-38A Appendix F's vectors for one AES
// key: F.1 ECB, F.2 CBC, F.4 OFB and F.5 CTR (sections F.x.1, F.x.3 and
// F.x.5 for AES-128, -192 and -256), all over the same four-block plaintext.
func blockSP80038A(key, section, ecb, cbc, ofb, ctr string) []blockVector {
	const (
		pt = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51" +
			"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
		iv      = "000102030405060708090a0b0c0d0e0f" // CBC and OFB
		counter = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff" // CTR's initial counter block
	)
	return []blockVector{
		{"SP 800-38A F.1." + section, blockModeECB, key, "", pt, ecb},
		{"SP 800-38A F.2." + section, blockModeCBC, key, iv, pt, cbc},
		{"SP 800-38A F.4." + section, blockModeOFB, key, iv, pt, ofb},
		{"SP 800-38A F.5." + section, blockModeCTR, key, counter, pt, ctr},
	}
}

// Security strengths of the symmetric ciphers: the key length, as NIST SP
// 800-57 Pt 1 Rev 5 §5.6.1.1 and Table 2 assign to AES and TDEA; for the
// ciphers NIST has not assessed, the key length too, since no attack on the
// full cipher beats exhaustive search by a meaningful margin.
func init() {
	const (
		fips197 = "FIPS 197 (vectors: FIPS 197 Appendix C.%s; SP 800-38A F.1, F.2, F.4, F.5)"
		keyLen  = "key length: not assessed by NIST; no attack on the full cipher beats exhaustive search"
	)
	ecb := func(source, key, in, out string) blockVector {
		return blockVector{Source: source, Mode: blockModeECB, Key: key, In: in, Out: out}
	}

	aes128 := append([]blockVector{ecb("FIPS 197 C.1", "000102030405060708090a0b0c0d0e0f",
		"00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a")},
		blockSP80038A("2b7e151628aed2a6abf7158809cf4f3c", "1",
			"3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"+
				"43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
			"7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"+
				"73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
			"3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825"+
				"9740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e",
			"874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"+
				"5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee")...)
	aes192 := append([]blockVector{ecb("FIPS 197 C.2", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191")},
		blockSP80038A("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", "3",
			"bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"+
				"ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",
			"4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"+
				"571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
			"cdc80d6fddf18cab34c25909c99a4174fcc28b8d4c63837c09e81700c1100401"+
				"8d9a9aeac0f6596f559c6d4daf59a5f26d9f200857ca6c3e9cac524bd9acc92a",
			"1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"+
				"1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050")...)
	aes256 := append([]blockVector{ecb("FIPS 197 C.3", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089")},
		blockSP80038A("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", "5",
			"f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"+
				"b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
			"f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"+
				"39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
			"dc7e84bfda79164b7ecd8486985d38604febdc6740d20b3ac88f6ad82a4fb08d"+
				"71ab47a086e86eedf39d1c5bba97c4080126141d67f37be8538f5a8be740e484",
			"601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"+
				"2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6")...)

	// gmsm's SM4 uses the ARMv8.2 SM4 instructions when the CPU advertises
	// them; an advertised but unimplemented instruction (qemu-aarch64's
	// default CPU) is SIGILL, so the path is probed in a child first.
	sm4Scheme := newBlock("SM4", nil, Provider("emmansun/gmsm"), 16, 16, Security{Bits: 128, Note: "key length: not assessed by NIST"}, "",
		"GB/T 32907-2016 (vectors: GB/T 32907-2016 Appendix A, example 1)",
		sm4.NewCipher,
		ecb("GB/T 32907 A.1", "0123456789abcdeffedcba9876543210",
			"0123456789abcdeffedcba9876543210", "681edf34d206965e86b3e94f536e4246"))
	sm4Scheme.avail = cpuProbe("sm4-arm64", "gmsm's SM4 code uses the ARMv8.2 SM4 instructions the CPU advertises",
		func() bool { return runtime.GOARCH == "arm64" && cpu.ARM64.HasSM4 },
		func() { _, _ = sm4.NewCipher(make([]byte, 16)) })

	for _, s := range []*blockScheme{
		newBlock("AES-128", nil, ProviderGo, 16, 16, Security{Bits: 128}, "", fmt.Sprintf(fips197, "1"), aes.NewCipher, aes128...),
		newBlock("AES-192", nil, ProviderGo, 24, 16, Security{Bits: 192}, "", fmt.Sprintf(fips197, "2"), aes.NewCipher, aes192...),
		newBlock("AES-256", nil, ProviderGo, 32, 16, Security{Bits: 256}, "", fmt.Sprintf(fips197, "3"), aes.NewCipher, aes256...),

		// DES: FIPS 81 Appendix B encrypts "Now is the time for all " under
		// key 0123456789abcdef (IV 1234567890abcdef) in each mode.
		newBlock("DES", nil, ProviderGo, 8, 8,
			Security{Bits: 0, Note: "56-bit key: exhaustive search is practical (EFF DES Cracker, 1998)"},
			"broken: 56-bit key is exhaustively searchable; FIPS 46-3 withdrawn in 2005; "+blockSweet32,
			"FIPS 46-3 (vectors: FIPS 81 Appendix B Tables B1, B2, B4; SP 800-20 Table A.1)",
			des.NewCipher,
			ecb("FIPS 81 Table B1", "0123456789abcdef", "4e6f77206973207468652074696d6520666f7220616c6c20",
				"3fa40e8a984d48156a271787ab8883f9893d51ec4b563b53"),
			blockVector{"FIPS 81 Table B2", blockModeCBC, "0123456789abcdef", "1234567890abcdef",
				"4e6f77206973207468652074696d6520666f7220616c6c20", "e5c7cdde872bf27c43e934008c389c0f683788499a7c05f6"},
			blockVector{"FIPS 81 Table B4", blockModeOFB, "0123456789abcdef", "1234567890abcdef",
				"4e6f77206973207468652074696d6520666f7220616c6c20", "f3096249c7f46e5135f24a242eeb3d3f3d6d5be3255af8c3"},
			ecb("SP 800-20 Table A.1 #0", "0101010101010101", "8000000000000000", "95f8a5e5dd31d900")),
		newBlock("3DES-2key", []string{"2TDEA", "DES-EDE"}, ProviderGo, 16, 8,
			Security{Bits: 80, Note: "SP 800-57 Pt 1 Rev 5 Table 2: 2TDEA"},
			"80-bit security, below the 112-bit floor; SP 800-131A disallows 2TDEA encryption after 2015; "+blockSweet32,
			"SP 800-67 Rev 2, keying option 2 (vectors: NIST CAVP TECBMMT2.rsp)",
			blockTDEA2,
			ecb("CAVP TECBMMT2 ENCRYPT #1", "259df16e7af804fe83b90e9bf7c7e557",
				"a4619c433bbd6787c07c81728f9ac9fa", "9e06de155c483c6bcfd834dbc8bd5830"),
			ecb("CAVP TECBMMT2 DECRYPT #0", "151f10383d6d199b4a763bd54a46a445",
				"d8da89298878ed7d", "89321ba75ba545db")),
		newBlock("3DES-3key", []string{"3TDEA", "TDEA", "DES-EDE3", "TripleDES"}, ProviderGo, 24, 8,
			Security{Bits: 112, Note: "SP 800-57 Pt 1 Rev 5 Table 2: 3TDEA"},
			"SP 800-131A Rev 2 disallows TDEA encryption after 2023; "+blockSweet32,
			"SP 800-67 Rev 2, keying option 1 (vectors: SP 800-67 Appendix B)",
			des.NewTripleDESCipher,
			// "The qufck brown fox jump" (sic): SP 800-67's worked example.
			ecb("SP 800-67 Appendix B", "0123456789abcdef23456789abcdef01456789abcdef0123",
				"54686520717566636b2062726f776e20666f78206a756d70",
				"a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900")),

		// Blowfish with a 128-bit key, as the seed002 study measured it.
		// Eric Young's vectors, published with Schneier's description:
		// the 16-byte set_key vector and the 128-bit chaining-mode vectors.
		newBlock("Blowfish-128", []string{"Blowfish"}, ProviderXCrypto, 16, 8,
			Security{Bits: 128, Note: keyLen}, blockSweet32,
			"Schneier, FSE 1993 (vectors: Schneier's vectors.txt: set_key k[16], chaining mode CBC and OFB)",
			blockCipherOf(blowfish.NewCipher),
			ecb("vectors.txt set_key k[16]", "f0e1d2c3b4a5968778695a4b3c2d1e0f", "fedcba9876543210", "93142887ee3be15c"),
			blockVector{"vectors.txt chaining cbc", blockModeCBC, "0123456789abcdeff0e1d2c3b4a59687", "fedcba9876543210",
				"37363534333231204e6f77206973207468652074696d6520666f722000000000",
				"6b77b4d63006dee605b156e27403979358deb9e7154616d959f1652bd5ff92cc"},
			blockVector{"vectors.txt chaining ofb64", blockModeOFB, "0123456789abcdeff0e1d2c3b4a59687", "fedcba9876543210",
				"37363534333231204e6f77206973207468652074696d6520666f722000",
				"e73214a2822139ca62b343cc5b65587310dd908d0c241b2263c2cf80da"}),
		newBlock("Twofish-128", nil, ProviderXCrypto, 16, 16, Security{Bits: 128, Note: keyLen}, "",
			"Schneier et al., Twofish AES submission 1998 (vectors: ecb_ival.txt, ecb_tbl.txt)",
			blockCipherOf(twofish.NewCipher),
			ecb("ecb_ival.txt 128", "00000000000000000000000000000000",
				"00000000000000000000000000000000", "9f589f5cf6122c32b6bfec2f2ae8c35a"),
			ecb("ecb_tbl.txt 128 I=2", "00000000000000000000000000000000",
				"9f589f5cf6122c32b6bfec2f2ae8c35a", "d491db16e7b1c39e86cb086b789f5419")),
		newBlock("Twofish-256", nil, ProviderXCrypto, 32, 16, Security{Bits: 256, Note: keyLen}, "",
			"Schneier et al., Twofish AES submission 1998 (vectors: ecb_ival.txt, ecb_tbl.txt)",
			blockCipherOf(twofish.NewCipher),
			ecb("ecb_ival.txt 256", "0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff",
				"00000000000000000000000000000000", "37527be0052334b89f0cfccae87cfa20"),
			ecb("ecb_tbl.txt 256 I=4", "d43bb7556ea32e46f2a282b7d45b4e0d57ff739d4dc92c1bd7fc01700cc8216f",
				"90afe91bb288544f2c32dc239b2635e6", "6cb4561c40bf0a9705931cb6d408e7fa")),
		newBlock("Serpent-128", nil, Provider("aead/serpent"), 16, 16, Security{Bits: 128, Note: keyLen}, "",
			"Anderson, Biham, Knudsen, Serpent AES submission 1998 (vectors: NESSIE Serpent-128-128.verified.test-vectors)",
			serpent.NewCipher,
			ecb("NESSIE set 1 #0", "80000000000000000000000000000000",
				"00000000000000000000000000000000", "264e5481eff42a4606abda06c0bfda3d"),
			ecb("NESSIE set 4 #0", "000102030405060708090a0b0c0d0e0f",
				"00112233445566778899aabbccddeeff", "563e2cf8740a27c164804560391e9b27")),
		newBlock("Serpent-256", nil, Provider("aead/serpent"), 32, 16, Security{Bits: 256, Note: keyLen}, "",
			"Anderson, Biham, Knudsen, Serpent AES submission 1998 (vectors: NESSIE Serpent-256-128.verified.test-vectors)",
			serpent.NewCipher,
			ecb("NESSIE set 1 #0", "8000000000000000000000000000000000000000000000000000000000000000",
				"00000000000000000000000000000000", "a223aa1288463c0e2be38ebd825616c0"),
			ecb("NESSIE set 4 #0", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
				"00112233445566778899aabbccddeeff", "2868b7a2d28ecd5e4fdefac3c4330074")),
		newBlock("CAST5", []string{"CAST-128"}, ProviderXCrypto, 16, 8, Security{Bits: 128, Note: keyLen}, blockSweet32,
			"RFC 2144 (vectors: RFC 2144 Appendix B.1, 128-bit key)",
			blockCipherOf(cast5.NewCipher),
			ecb("RFC 2144 B.1", "0123456712345678234567893456789a", "0123456789abcdef", "238b4fe5847e44b2")),
		newBlock("XTEA", nil, ProviderXCrypto, 16, 8,
			Security{Bits: 128, Note: "key length: not assessed by NIST; published attacks reach only reduced rounds"},
			blockSweet32,
			"Needham & Wheeler, Tea extensions 1997 (vectors: Bouncy Castle XTEATest, checked against the authors' C code)",
			blockCipherOf(xtea.NewCipher),
			ecb("Bouncy Castle XTEATest #0", "00000000000000000000000000000000", "0000000000000000", "dee9d4d8f7131ed9"),
			ecb("Bouncy Castle XTEATest #3", "0123456712345678234567893456789a", "0102030405060708", "8c67155b2ef91ead")),
		sm4Scheme,
		newBlock("IDEA", nil, ProviderCryptocost, 16, 8,
			Security{Bits: 128, Note: "key length: not assessed by NIST; the best attack on full IDEA (bicliques, 2012) gains about 2 bits"},
			blockSweet32,
			"Lai & Massey 1991; RFC 3058 §2 (vectors: Lai 1992 example; NESSIE Idea-128-64.verified.test-vectors sets 1 and 4)",
			blockCipherOf(idea.NewCipher),
			ecb("Lai 1992", "00010002000300040005000600070008", "0000000100020003", "11fbed2b01986de5"),
			ecb("NESSIE set 1 #0", "80000000000000000000000000000000", "0000000000000000", "b1f5f7f87901370f"),
			ecb("NESSIE set 4 #0", "000102030405060708090a0b0c0d0e0f", "0011223344556677", "f526ab9a62c0d258")),
	} {
		register(s)
	}
}
