package scheme

import (
	"bytes"
	"crypto/aes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"

	//lint:ignore SA1019 deprecated as a general-purpose MAC; measured as a primitive
	"golang.org/x/crypto/poly1305"

	"github.com/cryptocost/cryptocost/internal/cmac"
)

// macVector is a known answer: the MAC of Msg under Key. Tag may be shorter
// than the MAC's output for truncated-tag vectors (RFC 4231 §4.6), and is
// then compared with the tag's prefix.
type macVector struct {
	Name     string // where the vector comes from ("RFC 4231 4.2")
	Key, Msg []byte
	Tag      string // hex
}

// macScheme is a MAC family member. Other files may build schemes with
// newMAC and register them: set check for known answers that a
// key/message/tag vector cannot express (an IV, a bit-length message), and
// oneShot for one-time MACs whose keyed state cannot be reset.
type macScheme struct {
	info    Info
	new     func(key []byte) (hash.Hash, error)
	vectors []macVector
	// check, if non-nil, runs further known-answer tests after the vectors;
	// its failures must wrap ErrKAT.
	check func() error
	// oneShot, if non-nil, writes the tag of msg under key into tag
	// (len Sizes.Output) in one call; the "mac" operation times it instead
	// of Reset/Write/Sum, and KAT checks it against every vector.
	oneShot func(tag, key, msg []byte)
}

// newMAC returns a MAC scheme (not yet registered) described by info, keyed
// by newf and checked against vectors. info.Family is set to FamilyMAC;
// info.Sizes.Key and .Output must be set (the size checker compares them
// with what newf produces).
func newMAC(info Info, newf func(key []byte) (hash.Hash, error), vectors ...macVector) *macScheme {
	info.Family = FamilyMAC
	return &macScheme{info: info, new: newf, vectors: vectors}
}

func (s *macScheme) Info() *Info                          { return &s.info }
func (s *macScheme) NewMAC(key []byte) (hash.Hash, error) { return s.new(key) }

// KAT checks every vector through NewMAC, again after a Reset (the timed
// loop resets), and through oneShot if the scheme has one.
func (s *macScheme) KAT() error {
	for _, v := range s.vectors {
		want := unhex(v.Tag)
		m, err := s.new(v.Key)
		if err != nil {
			return fmt.Errorf("%s: %w: vector %s: NewMAC: %v", s.info.Name, ErrKAT, v.Name, err)
		}
		for _, pass := range []string{"", " after Reset"} {
			if pass != "" {
				m.Reset()
			}
			m.Write(v.Msg)
			if got := m.Sum(nil); !macTagMatches(got, want) {
				return katError(s.info.Name, v.Name+pass, got, want)
			}
		}
		if s.oneShot != nil {
			got := make([]byte, s.info.Sizes.Output)
			s.oneShot(got, v.Key, v.Msg)
			if !macTagMatches(got, want) {
				return katError(s.info.Name, v.Name+" (one-shot)", got, want)
			}
		}
	}
	if s.check != nil {
		return s.check()
	}
	return nil
}

// macTagMatches compares a full tag with a possibly truncated expected tag.
func macTagMatches(got, want []byte) bool {
	return len(want) > 0 && len(want) <= len(got) && bytes.Equal(got[:len(want)], want)
}

func (s *macScheme) Operations() []Operation {
	key := func(a Args) []byte { return testData(s.info.Sizes.Key, s.info.Name+" key", a.Variant) }
	return []Operation{
		{
			// The key-setup operation times turning a key into a ready MAC state: HMAC's inner
			// and outer pads, CMAC's cipher key schedule and subkeys, Poly1305's key
			// load.
			Name:  OpKeySetup,
			Input: InputNone,
			Prepare: func(a Args) (Loop, error) {
				k := key(a)
				if _, err := s.new(k); err != nil {
					return nil, fmt.Errorf("%s: %w", s.info.Name, err)
				}
				return func(n int) error {
					for range n {
						if _, err := s.new(k); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		},
		{
			Name:  OpMAC,
			Input: InputBulk,
			Prepare: func(a Args) (Loop, error) {
				k, msg := key(a), testData(a.Size, s.info.Name, a.Variant)
				if s.oneShot != nil {
					// A one-time MAC's state cannot be reset and reused, so
					// each call loads the one-time key (for Poly1305: clamp r,
					// store s — a few word operations) and MACs the message:
					// the per-message cost a protocol pays.
					tag := make([]byte, s.info.Sizes.Output)
					return func(n int) error {
						for range n {
							s.oneShot(tag, k, msg)
						}
						return nil
					}, nil
				}
				m, err := s.new(k)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.info.Name, err)
				}
				// One Reset outside the timed region: crypto/hmac saves the
				// padded-key states on its first Reset and restores them on
				// later ones, as a long-lived keyed MAC does.
				m.Reset()
				tag := make([]byte, 0, m.Size())
				return func(n int) error {
					for range n {
						m.Reset()
						m.Write(msg)
						tag = m.Sum(tag[:0])
					}
					return nil
				}, nil
			},
		},
	}
}

// macNewHMAC returns the HMAC (RFC 2104, FIPS 198-1) of a standard-library hash.
func macNewHMAC(h func() hash.Hash) func(key []byte) (hash.Hash, error) {
	return func(key []byte) (hash.Hash, error) { return hmac.New(h, key), nil }
}

// macPoly1305 adapts x/crypto's one-time poly1305.MAC to hash.Hash. Reset
// re-keys with the same one-time key: fine for known answers and sizes,
// never for protocol use. As in x/crypto, Write after Sum panics (a
// one-time MAC must not authenticate two messages).
type macPoly1305 struct {
	key [32]byte
	m   *poly1305.MAC
}

func macNewPoly1305(key []byte) (hash.Hash, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("poly1305: key is %d bytes, want 32 (r and s, RFC 8439 §2.5)", len(key))
	}
	p := &macPoly1305{}
	copy(p.key[:], key)
	p.Reset()
	return p, nil
}

func (p *macPoly1305) Reset()                      { p.m = poly1305.New(&p.key) }
func (p *macPoly1305) Write(b []byte) (int, error) { return p.m.Write(b) }
func (p *macPoly1305) Sum(b []byte) []byte         { return p.m.Sum(b) }
func (p *macPoly1305) Size() int                   { return poly1305.TagSize }
func (p *macPoly1305) BlockSize() int              { return 16 }

// macPoly1305OneShot MACs msg with x/crypto's allocation-free poly1305.Sum.
func macPoly1305OneShot(tag, key, msg []byte) {
	poly1305.Sum((*[16]byte)(tag), msg, (*[32]byte)(key))
}

// macNewAESCMAC returns AES-CMAC (SP 800-38B, RFC 4493) for a keyBytes-byte
// AES key.
func macNewAESCMAC(keyBytes int) func(key []byte) (hash.Hash, error) {
	return func(key []byte) (hash.Hash, error) {
		if len(key) != keyBytes {
			return nil, fmt.Errorf("AES-%d-CMAC: key is %d bytes, want %d", keyBytes*8, len(key), keyBytes)
		}
		c, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		return cmac.New(c)
	}
}

// Security: SP 800-57 Pt 1 Rev 5 Table 3 gives HMAC-SHA-1 at least 128
// bits and HMAC with SHA-256 or longer at least 256 (capped here by the
// key, which is the hash output length, and by 256); CMAC has its cipher's
// key strength (Table 2); Poly1305 is not in the tables.
func init() {
	b := unhex
	rep := func(c byte, n int) []byte { return bytes.Repeat([]byte{c}, n) }
	seq := func(n int) []byte { // 0x01, 0x02, ..., n
		k := make([]byte, n)
		for i := range k {
			k[i] = byte(i + 1)
		}
		return k
	}
	const rfc2202, rfc4231 = "RFC 2202 §3 test case ", "RFC 4231 §4 test case "
	// The RFC 4231 inputs are shared by the SHA-256 and SHA-512 vectors.
	tc4231 := func(i int, tag string) macVector {
		v := []macVector{
			{Key: rep(0x0b, 20), Msg: []byte("Hi There")},
			{Key: []byte("Jefe"), Msg: []byte("what do ya want for nothing?")},
			{Key: rep(0xaa, 20), Msg: rep(0xdd, 50)},
			{Key: seq(25), Msg: rep(0xcd, 50)},
			{Key: rep(0x0c, 20), Msg: []byte("Test With Truncation")},
			{Key: rep(0xaa, 131), Msg: []byte("Test Using Larger Than Block-Size Key - Hash Key First")},
			{Key: rep(0xaa, 131), Msg: []byte("This is a test using a larger than block-size key and a larger than " +
				"block-size data. The key needs to be hashed before being used by the HMAC algorithm.")},
		}[i-1]
		v.Name, v.Tag = rfc4231+itoa(i), tag
		return v
	}
	tc2202 := func(i int, key, msg []byte, tag string) macVector {
		return macVector{Name: rfc2202 + itoa(i), Key: key, Msg: msg, Tag: tag}
	}
	cmacMsg := b("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51" +
		"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
	cmacKey128 := b("2b7e151628aed2a6abf7158809cf4f3c")
	cmacKey256 := b("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")

	poly := newMAC(Info{
		Name: "Poly1305", Provider: ProviderXCrypto,
		Security: Security{Bits: 128, Note: "not in SP 800-57's tables: 128-bit tag, one-time 256-bit key; " +
			"differential probability at most 8⌈L/16⌉/2^106 for L-byte messages (Bernstein, FSE 2005)"},
		Sizes:    Sizes{Key: 32, Output: 16, Block: 16},
		Standard: "RFC 8439 §2.5 (vectors: RFC 8439 §2.5.2 and Appendix A.3 #4–#6)",
	}, macNewPoly1305,
		macVector{Name: "RFC 8439 §2.5.2",
			Key: b("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
			Msg: []byte("Cryptographic Forum Research Group"), Tag: "a8061dc1305136c6c22b8baf0c0127a9"},
		macVector{Name: "RFC 8439 A.3 #4",
			Key: b("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"),
			Msg: []byte("'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n" +
				"All mimsy were the borogoves,\nAnd the mome raths outgrabe."),
			Tag: "4541669a7eaaee61e708dc7cbcc5eb62"},
		// Edge cases of the final reduction mod 2^130-5 and of adding s mod 2^128.
		macVector{Name: "RFC 8439 A.3 #5", Key: append([]byte{2}, rep(0, 31)...), Msg: rep(0xff, 16),
			Tag: "03000000000000000000000000000000"},
		macVector{Name: "RFC 8439 A.3 #6", Key: append(append([]byte{2}, rep(0, 15)...), rep(0xff, 16)...),
			Msg: append([]byte{2}, rep(0, 15)...), Tag: "03000000000000000000000000000000"},
	)
	poly.oneShot = macPoly1305OneShot

	for _, s := range []*macScheme{
		newMAC(Info{
			Name: "HMAC-SHA-1", Provider: ProviderGo, Params: []Param{{"hash", "SHA-1"}},
			Security: Security{Bits: 128, Note: "SP 800-57 Table 3: HMAC-SHA-1 ≥128 — SHA-1 collisions do not " +
				"break HMAC (SP 800-107 Rev 1 §5.3); NIST plans to retire SHA-1 by 2030"},
			Sizes:    Sizes{Key: 20, Output: 20, Block: 64},
			Standard: "RFC 2104, FIPS 198-1 (vectors: RFC 2202 §3)",
		}, macNewHMAC(sha1.New),
			tc2202(1, rep(0x0b, 20), []byte("Hi There"), "b617318655057264e28bc0b6fb378c8ef146be00"),
			tc2202(2, []byte("Jefe"), []byte("what do ya want for nothing?"), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
			tc2202(3, rep(0xaa, 20), rep(0xdd, 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
			tc2202(4, seq(25), rep(0xcd, 50), "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
			tc2202(5, rep(0x0c, 20), []byte("Test With Truncation"), "4c1a03424b55e07fe7f27be1"), // digest-96
			tc2202(6, rep(0xaa, 80), []byte("Test Using Larger Than Block-Size Key - Hash Key First"),
				"aa4ae5e15272d00e95705637ce8a3b55ed402112"),
			tc2202(7, rep(0xaa, 80), []byte("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data"),
				"e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
		),
		newMAC(Info{
			Name: "HMAC-SHA-256", Provider: ProviderGo, Params: []Param{{"hash", "SHA-256"}},
			Security: Security{Bits: 256, Note: "SP 800-57 Table 3: HMAC-SHA-256 ≥256; 256-bit key"},
			Sizes:    Sizes{Key: 32, Output: 32, Block: 64},
			Standard: "RFC 2104, FIPS 198-1 (vectors: RFC 4231 §4)",
		}, macNewHMAC(sha256.New),
			tc4231(1, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
			tc4231(2, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
			tc4231(3, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
			tc4231(4, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
			tc4231(5, "a3b6167473100ee06e0c796c2955552b"), // truncated to 128 bits
			tc4231(6, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
			tc4231(7, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
		),
		newMAC(Info{
			Name: "HMAC-SHA-512", Provider: ProviderGo, Params: []Param{{"hash", "SHA-512"}},
			Security: Security{Bits: 256, Note: "SP 800-57 Table 3: HMAC-SHA-512 ≥256 (256 is the table's top)"},
			Sizes:    Sizes{Key: 64, Output: 64, Block: 128},
			Standard: "RFC 2104, FIPS 198-1 (vectors: RFC 4231 §4)",
		}, macNewHMAC(sha512.New),
			tc4231(1, "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"+
				"daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
			tc4231(3, "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"+
				"bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
			tc4231(4, "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"+
				"a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
			tc4231(5, "415fad6271580a531d4179bc891d87a6"), // truncated to 128 bits
			tc4231(6, "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"+
				"6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
			tc4231(7, "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"+
				"b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
		),
		poly,
		newMAC(Info{
			Name: "AES-128-CMAC", Aliases: []string{"AES-CMAC"}, Provider: ProviderCryptocost,
			Params:   []Param{{"cipher", "AES-128"}},
			Security: Security{Bits: 128},
			Sizes:    Sizes{Key: 16, Output: 16, Block: 16},
			Standard: "NIST SP 800-38B, RFC 4493; internal/cmac over crypto/aes (vectors: RFC 4493 §4)",
		}, macNewAESCMAC(16),
			macVector{Name: "RFC 4493 example 1", Key: cmacKey128, Msg: cmacMsg[:0], Tag: "bb1d6929e95937287fa37d129b756746"},
			macVector{Name: "RFC 4493 example 2", Key: cmacKey128, Msg: cmacMsg[:16], Tag: "070a16b46b4d4144f79bdd9dd04a287c"},
			macVector{Name: "RFC 4493 example 3", Key: cmacKey128, Msg: cmacMsg[:40], Tag: "dfa66747de9ae63030ca32611497c827"},
			macVector{Name: "RFC 4493 example 4", Key: cmacKey128, Msg: cmacMsg[:64], Tag: "51f0bebf7e3b9d92fc49741779363cfe"},
		),
		newMAC(Info{
			Name: "AES-256-CMAC", Provider: ProviderCryptocost,
			Params:   []Param{{"cipher", "AES-256"}},
			Security: Security{Bits: 256},
			Sizes:    Sizes{Key: 32, Output: 16, Block: 16},
			Standard: "NIST SP 800-38B; internal/cmac over crypto/aes (vectors: SP 800-38B (2005) Appendix D.3, examples 9–12)",
		}, macNewAESCMAC(32),
			macVector{Name: "SP 800-38B D.3 example 9", Key: cmacKey256, Msg: cmacMsg[:0], Tag: "028962f61b7bf89efc6b551f4667d983"},
			macVector{Name: "SP 800-38B D.3 example 10", Key: cmacKey256, Msg: cmacMsg[:16], Tag: "28a7023f452e8f82bd4bf28d8c37c35c"},
			macVector{Name: "SP 800-38B D.3 example 11", Key: cmacKey256, Msg: cmacMsg[:40], Tag: "aaf3d8f1de5640c232f5b169b9c911e6"},
			macVector{Name: "SP 800-38B D.3 example 12", Key: cmacKey256, Msg: cmacMsg[:64], Tag: "e1992190549f6ed5696a2c056c315410"},
		),
	} {
		register(s)
	}
}
