package scheme

import (
	"bytes"
	cryptorand "crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
)

// opRNGUint64x100 is the seed002 study's PRNG test: 100 random 64-bit numbers,
// read as 100 reads of 8 bytes.
const opRNGUint64x100 = "uint64x100"

// rngScheme is a source of random bytes.
type rngScheme struct {
	info Info
	// newReader returns a generator. Seeded generators use seed (32 bytes),
	// or a fresh seed from crypto/rand if seed is nil; the operating
	// system's source ignores it.
	newReader func(seed []byte) io.Reader
	kat       func() error
}

func (s *rngScheme) Info() *Info       { return &s.info }
func (s *rngScheme) KAT() error        { return s.kat() }
func (s *rngScheme) Reader() io.Reader { return s.newReader(nil) }

func (s *rngScheme) Operations() []Operation {
	// Seeded generators get a seed per variant, so runs are repeatable and
	// variants differ; the seed does not change the cost.
	reader := func(a Args) io.Reader { return s.newReader(testData(32, s.info.Name+" seed", a.Variant)) }
	return []Operation{
		{
			Name:  "read",
			Input: InputBulk,
			Prepare: func(a Args) (Loop, error) {
				r, buf := reader(a), make([]byte, a.Size)
				return func(n int) error {
					for range n {
						if _, err := io.ReadFull(r, buf); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		},
		{
			Name:  opRNGUint64x100,
			Input: InputNone,
			Prepare: func(a Args) (Loop, error) {
				r, buf := reader(a), make([]byte, 8)
				var sum uint64 // consumes the numbers, as a caller would
				return func(n int) error {
					for range n {
						for range 100 {
							if _, err := io.ReadFull(r, buf); err != nil {
								return err
							}
							sum += binary.LittleEndian.Uint64(buf)
						}
					}
					_ = sum
					return nil
				}, nil
			},
		},
	}
}

// rngChaCha8RandVector is a known answer of ChaCha8Rand: the output bytes at
// each offset for the seed.
type rngChaCha8RandVector struct {
	Seed    string         // 32 ASCII bytes
	Windows map[int]string // byte offset -> hex of the output there
}

// rngChaCha8RandSpec is the C2SP chacha8rand "Sample output" for the seed
// "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456": the first and last 32-byte lines of
// the first iteration, the three lines around the first re-key (each
// iteration yields 992 bytes), and the last line of the 2976 bytes shown.
var rngChaCha8RandSpec = rngChaCha8RandVector{
	Seed: "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456",
	Windows: map[int]string{
		0: "a516463d06b673b73cbc6aa622af60117c288d41d999258cd65cdc7e037ee07e" +
			"ad161c2de09eaacf79eaeb8fef0e090e3e5b8b1271d2823c4fa35212c1dd5a9c",
		960: "006f17b1e18cf01c49cb1eb8a4d0f7cc0e432c6b13ea3f3071c8069c136c1d86" +
			"87045ee072df415f1d6be21a1e7ebd251da462d604409fbe46851883d458bf65" +
			"cc13db69ff7cb2d136bbc1723366a6014d7f727b57d78d57f63c086c068fc719",
		2944: "fa19c615bd23b5edc023cc3ed57fd9024c376244a305afac1fa1ff4bd3c6d9dd",
	},
}

func rngNewChaCha8Rand(seed []byte) io.Reader {
	var s [32]byte
	if seed == nil {
		cryptorand.Read(s[:])
	} else {
		copy(s[:], seed)
	}
	return rand.NewChaCha8(s)
}

// check reads the vector's span twice, in one read and in 8-byte reads (as
// uint64x100 does), and compares both with every window.
func (v rngChaCha8RandVector) check(name string, newReader func(seed []byte) io.Reader) error {
	end := 0
	for off, out := range v.Windows {
		end = max(end, off+len(out)/2)
	}
	whole := make([]byte, end)
	if _, err := io.ReadFull(newReader([]byte(v.Seed)), whole); err != nil {
		return fmt.Errorf("%s: %w: read: %v", name, ErrKAT, err)
	}
	pieces := make([]byte, 0, end+8)
	r, word := newReader([]byte(v.Seed)), make([]byte, 8)
	for len(pieces) < end {
		if _, err := io.ReadFull(r, word); err != nil {
			return fmt.Errorf("%s: %w: read: %v", name, ErrKAT, err)
		}
		pieces = append(pieces, word...)
	}
	for off, out := range v.Windows {
		want := unhex(out)
		for _, stream := range [][]byte{whole, pieces} {
			if got := stream[off : off+len(want)]; !bytes.Equal(got, want) {
				return katError(name, "seed "+quote(v.Seed)+" bytes "+itoa(off)+"…", got, want)
			}
		}
	}
	return nil
}

// Statistical sanity bounds for a source with no known answer.
const (
	// rngSampleBytes are read for the byte-frequency test.
	rngSampleBytes = 1 << 20
	// Chi-square bounds on the 256 byte frequencies (255 degrees of
	// freedom, mean 255, sd 22.6): a uniform source falls outside
	// (140, 450) with probability 4.5e-10, a biased one above, a counter
	// below.
	rngChiSquareMin, rngChiSquareMax = 140, 450
	// FIPS 140-2 (Change Notice 1) §4.9.1 monobit test: the number of ones
	// in 20,000 bits must lie strictly between these.
	rngMonobitBits, rngMonobitMin, rngMonobitMax = 20000, 9725, 10275
)

// rngStatisticalCheck is the KAT of a source without reproducible output.
// It can only catch a broken source (stuck, repeating, biased, counting),
// never prove one random: two reads must differ, the byte frequencies of
// 1 MiB must pass a chi-square test, and 20,000 bits must pass the FIPS
// 140-2 monobit test. A good source fails the monobit test with
// probability 1.0e-4, so a failure is retried once on fresh bits (a broken
// source fails both; a good one, with probability 1e-8); the chi-square
// test's false alarm rate is 4.5e-10 (gonum's chi-square distribution).
func rngStatisticalCheck(name string, r io.Reader) error {
	read := func(n int) ([]byte, error) {
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("%s: %w: read %d bytes: %v", name, ErrKAT, n, err)
		}
		return b, nil
	}
	a, err := read(64)
	if err != nil {
		return err
	}
	b, err := read(64)
	if err != nil {
		return err
	}
	if bytes.Equal(a, b) {
		return fmt.Errorf("%s: %w: two 64-byte reads returned the same bytes %x", name, ErrKAT, a)
	}

	sample, err := read(rngSampleBytes)
	if err != nil {
		return err
	}
	var counts [256]int
	for _, c := range sample {
		counts[c]++
	}
	expected := float64(len(sample)) / 256
	chi2 := 0.0
	for _, n := range counts {
		d := float64(n) - expected
		chi2 += d * d / expected
	}
	if chi2 <= rngChiSquareMin || chi2 >= rngChiSquareMax {
		return fmt.Errorf("%s: %w: byte-frequency chi-square over %d bytes is %.1f, outside (%d, %d) "+
			"for 255 degrees of freedom", name, ErrKAT, len(sample), chi2, rngChiSquareMin, rngChiSquareMax)
	}

	ones := 0
	for range 2 {
		bitsSample, err := read(rngMonobitBits / 8)
		if err != nil {
			return err
		}
		ones = 0
		for _, c := range bitsSample {
			ones += bits.OnesCount8(c)
		}
		if rngMonobitMin < ones && ones < rngMonobitMax {
			return nil
		}
	}
	return fmt.Errorf("%s: %w: FIPS 140-2 monobit test failed twice: %d ones in %d bits, want %d < ones < %d",
		name, ErrKAT, ones, rngMonobitBits, rngMonobitMin, rngMonobitMax)
}

func init() {
	for _, s := range []*rngScheme{
		{
			info: Info{
				Name: "crypto/rand", Family: FamilyRNG, Provider: ProviderGo,
				Security: Security{Bits: 256, Note: "not rated by SP 800-57: the operating system's CSPRNG " +
					"(getrandom(2) on Linux, ChaCha20-based since Linux 4.8)"},
				Standard: "Go crypto/rand.Reader (no known answer possible: KAT is a statistical sanity check — " +
					"distinct reads, byte-frequency chi-square on 1 MiB, FIPS 140-2 §4.9.1 monobit on 20,000 bits)",
			},
			newReader: func([]byte) io.Reader { return cryptorand.Reader },
			kat:       func() error { return rngStatisticalCheck("crypto/rand", cryptorand.Reader) },
		},
		{
			info: Info{
				Name: "ChaCha8Rand", Family: FamilyRNG, Provider: ProviderGo,
				Params: []Param{{"rounds", "8"}},
				Security: Security{Bits: 256, Note: "not rated by NIST: a 256-bit seed keys ChaCha8; the best " +
					"published attacks on ChaCha reach 7 rounds (Aumasson, Too Much Crypto, 2019)"},
				Sizes: Sizes{Key: 32},
				Standard: "C2SP chacha8rand, Go math/rand/v2.ChaCha8 seeded from testData or crypto/rand " +
					"(vectors: c2sp.org/chacha8rand Sample output)",
			},
			newReader: rngNewChaCha8Rand,
			kat:       func() error { return rngChaCha8RandSpec.check("ChaCha8Rand", rngNewChaCha8Rand) },
		},
		{
			info: Info{
				Name: "SHA1PRNG-BC", Family: FamilyRNG, Provider: ProviderCryptocost,
				Aliases: []string{"DigestRandomGenerator-SHA1", "bc-sha1prng"},
				Params:  []Param{{"digest", "SHA-1"}, {"cycle", "10"}},
				Security: Security{Bits: 128, Note: "SP 800-57 Table 3 rates SHA-1 in random bit generation ≥128, " +
					"for the SP 800-90A Hash_DRBG; this Bouncy Castle digest-counter generator is no SP 800-90A DRBG " +
					"and has no rating of its own (its state is one 160-bit digest; SHA-1 collisions do not break it)"},
				Legacy:   "SHA-1 based PRNG of the Java ME era; measured because the seed002 study did",
				Standard: "Bouncy Castle org.bouncycastle.crypto.prng.DigestRandomGenerator with SHA1Digest (vectors: Bouncy Castle DigestRandomNumberTest, SHA-1)",
			},
			newReader: newSHA1DigestRandom,
			kat:       digestRandomSHA1KAT,
		},
	} {
		register(s)
	}
}
