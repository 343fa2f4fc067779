package scheme

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"hash"
	"slices"
	"strings"

	"github.com/jzelinskie/whirlpool"
	"github.com/zeebo/blake3"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"

	//lint:ignore SA1019 measured because the seed studies did
	"golang.org/x/crypto/ripemd160"
)

// HashScheme is a message digest, or an XOF read to a fixed output length.
type HashScheme interface {
	Scheme
	// New returns a fresh hash state.
	New() hash.Hash
}

// hashVector is a known answer: the digest of In repeated Repeat times
// (Repeat 0 means once).
type hashVector struct {
	In     string
	Repeat int
	Out    string // hex
}

func (v hashVector) input() []byte {
	if v.Repeat > 1 {
		return []byte(strings.Repeat(v.In, v.Repeat))
	}
	return []byte(v.In)
}

type hashScheme struct {
	info    Info
	new     func() hash.Hash
	vectors []hashVector
}

func (s *hashScheme) Info() *Info    { return &s.info }
func (s *hashScheme) New() hash.Hash { return s.new() }

func (s *hashScheme) KAT() error {
	for i, v := range s.vectors {
		h := s.new()
		h.Write(v.input())
		if got, want := h.Sum(nil), unhex(v.Out); !bytes.Equal(got, want) {
			return katError(s.info.Name, vectorName(i, v.In), got, want)
		}
	}
	return nil
}

func (s *hashScheme) Operations() []Operation {
	return []Operation{{
		Name:  OpHash,
		Input: InputBulk,
		Prepare: func(a Args) (Loop, error) {
			h := s.new()
			msg := testData(a.Size, s.info.Name, a.Variant)
			out := make([]byte, 0, h.Size())
			sum := h.Sum
			if x, ok := h.(*xof); ok {
				sum = x.squeeze // the final read, without Sum's state copy
			}
			return func(n int) error {
				for range n {
					h.Reset()
					h.Write(msg)
					out = sum(out[:0])
				}
				return nil
			}, nil
		},
	}}
}

// vectorName labels vector i by a short prefix of its input.
func vectorName(i int, in string) string {
	if len(in) > 16 {
		in = in[:16] + "…"
	}
	return "#" + itoa(i) + " (" + quote(in) + ")"
}

// newHash describes a hash with an output of size bytes and a block of block
// bytes. The sizes are declared, not read from newf, so registering a
// scheme runs none of its code (a scheme whose code cannot run on this CPU
// must not stop the tool starting); the size checker in hash_test.go
// compares them with what newf produces.
func newHash(name string, aliases []string, p Provider, size, block int, sec Security, legacy, standard string,
	newf func() hash.Hash, vectors ...hashVector) *hashScheme {
	return &hashScheme{
		info: Info{
			Name: name, Aliases: aliases, Family: FamilyHash, Provider: p,
			Params:   []Param{{"output_bits", itoa(size * 8)}},
			Security: sec, Legacy: legacy, Standard: standard,
			Sizes: Sizes{Output: size, Block: block},
		},
		new: newf, vectors: vectors,
	}
}

// xof reads a fixed-length output from an extendable-output function.
type xof struct {
	*sha3.SHAKE
	newf func() *sha3.SHAKE
	size int
}

func (x *xof) Size() int { return x.size }

// squeeze reads the output from the state itself; only valid once per Reset.
func (x *xof) squeeze(b []byte) []byte {
	n := len(b)
	b = slices.Grow(b, x.size)[:n+x.size]
	x.SHAKE.Read(b[n:])
	return b
}
func (x *xof) Sum(b []byte) []byte {
	// Sum must not change the state: read from a clone.
	c := x.newf()
	st, _ := x.SHAKE.MarshalBinary()
	if err := c.UnmarshalBinary(st); err != nil {
		panic(err)
	}
	out := make([]byte, x.size)
	c.Read(out)
	return append(b, out...)
}

// Hash security strengths: collision resistance, NIST SP 800-57 Pt 1 Rev 5
// Table 3 (SP 800-107 for the truncated and SHA-3 forms). For XOFs and
// non-NIST hashes: half the output length, the generic collision bound.
func init() {
	const fips180 = "FIPS 180-4 (vectors: FIPS 180-2 Appendix examples)"
	const fips202 = "FIPS 202 (vectors: NIST CSRC example values)"
	broken := func(note string) Security { return Security{Bits: 0, Note: note} }
	coll := func(bits int) Security { return Security{Bits: bits} }
	generic := func(bits int) Security { return Security{Bits: bits, Note: "generic collision bound: half the output"} }

	abc := func(out string) hashVector { return hashVector{In: "abc", Out: out} }
	empty := func(out string) hashVector { return hashVector{In: "", Out: out} }
	twoBlock := func(out string) hashVector {
		return hashVector{In: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", Out: out}
	}

	for _, s := range []*hashScheme{
		newHash("MD5", nil, ProviderGo, 16, 64, broken("collisions in seconds (Wang et al. 2004)"),
			"broken: practical collisions", "RFC 1321 (vectors: RFC 1321 §A.5)", md5.New,
			empty("d41d8cd98f00b204e9800998ecf8427e"), abc("900150983cd24fb0d6963f7d28e17f72"),
			hashVector{In: "12345678901234567890", Repeat: 4, Out: "57edf4a22be3c955ac49da2e2107b67a"}),
		newHash("SHA-1", []string{"SHA1"}, ProviderGo, 20, 64, Security{Bits: 0, Note: "collisions found (SHAttered 2017); SP 800-57 Table 3: <80"},
			"broken: practical collisions", fips180, sha1.New,
			abc("a9993e364706816aba3e25717850c26c9cd0d89d"),
			twoBlock("84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
			hashVector{In: "a", Repeat: 1000000, Out: "34aa973cd4c4daa4f61eeb2bdbad27316534016f"}),
		newHash("SHA-224", nil, ProviderGo, 28, 64, coll(112), "", fips180, sha256.New224,
			abc("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
			twoBlock("75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")),
		newHash("SHA-256", nil, ProviderGo, 32, 64, coll(128), "", fips180, sha256.New,
			abc("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
			twoBlock("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
			hashVector{In: "a", Repeat: 1000000, Out: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"}),
		newHash("SHA-384", nil, ProviderGo, 48, 128, coll(192), "", fips180, sha512.New384,
			abc("cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")),
		newHash("SHA-512", nil, ProviderGo, 64, 128, coll(256), "", fips180, sha512.New,
			abc("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")),
		newHash("SHA-512/256", []string{"SHA512_256"}, ProviderGo, 32, 128, coll(128), "", fips180, sha512.New512_256,
			abc("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")),
		newHash("SHA3-224", nil, ProviderGo, 28, 144, coll(112), "", fips202, func() hash.Hash { return sha3.New224() },
			empty("6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"),
			abc("e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf")),
		newHash("SHA3-256", nil, ProviderGo, 32, 136, coll(128), "", fips202, func() hash.Hash { return sha3.New256() },
			empty("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
			abc("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")),
		newHash("SHA3-384", nil, ProviderGo, 48, 104, coll(192), "", fips202, func() hash.Hash { return sha3.New384() },
			empty("0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004"),
			abc("ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25")),
		newHash("SHA3-512", nil, ProviderGo, 64, 72, coll(256), "", fips202, func() hash.Hash { return sha3.New512() },
			abc("b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0")),
		newHash("SHAKE128", nil, ProviderGo, 32, 168, Security{Bits: 128, Note: "SHAKE128 with 256-bit output: min(256/2, 128)"}, "", fips202,
			func() hash.Hash { return &xof{sha3.NewSHAKE128(), sha3.NewSHAKE128, 32} },
			empty("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26")),
		newHash("SHAKE256", nil, ProviderGo, 64, 136, Security{Bits: 256, Note: "SHAKE256 with 512-bit output: min(512/2, 256)"}, "", fips202,
			func() hash.Hash { return &xof{sha3.NewSHAKE256(), sha3.NewSHAKE256, 64} },
			empty("46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be")),
		newHash("BLAKE2b-512", []string{"BLAKE2b"}, ProviderXCrypto, 64, 128, generic(256), "", "RFC 7693 (vectors: RFC 7693 Appendix A)",
			func() hash.Hash { h, _ := blake2b.New512(nil); return h },
			abc("ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")),
		newHash("BLAKE2s-256", []string{"BLAKE2s"}, ProviderXCrypto, 32, 64, generic(128), "", "RFC 7693 (vectors: RFC 7693 Appendix B)",
			func() hash.Hash { h, _ := blake2s.New256(nil); return h },
			abc("508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982")),
		newHash("BLAKE3", nil, Provider("zeebo/blake3"), 32, 64, generic(128), "", "BLAKE3 spec (vectors: BLAKE3 test_vectors.json)",
			func() hash.Hash { return blake3.New() },
			empty("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262")),
		newHash("RIPEMD-160", []string{"RMD160"}, ProviderXCrypto, 20, 64, generic(80), "80-bit collision resistance (SP 800-57 Table 2: below 112)",
			"Dobbertin, Bosselaers, Preneel 1996 (vectors: the authors' test page)", ripemd160.New,
			empty("9c1185a5c5e9fc54612808977ee8f548b2258d31"), abc("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc")),
		newHash("Whirlpool", nil, Provider("jzelinskie/whirlpool"), 64, 64, generic(256), "", "ISO/IEC 10118-3:2004 (vectors: NESSIE)",
			whirlpool.New,
			abc("4e2448a4c6f486bb16b6562c73b4020bf3043e3a731bce721ae1b303d97e6d4c7181eebdb6c57e277d0e34957114cbd6c797fc9d95d8b582d225292076d4eef5")),
	} {
		register(s)
	}
}
