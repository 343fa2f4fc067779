package scheme

import "github.com/cryptocost/cryptocost/internal/tiger"

// Tiger and Tiger2 (Anderson & Biham, FSE 1996), implemented in
// internal/tiger because no reachable Go module has them. The seed002 study
// timed Tiger among its hashes; Tiger2 differs only in its padding byte.
func init() {
	// 192-bit output: the generic collision bound is 96 bits, below
	// SP 800-57's 112-bit floor; no NIST table rates Tiger.
	sec := Security{Bits: 96, Note: "generic collision bound: half the 192-bit output; " +
		"not rated by NIST; best published attacks reach reduced rounds only"}
	const legacy = "not standardised; measured because the seed002 study did"
	const authorsPage = "https://www.cs.technion.ac.il/~biham/Reports/Tiger/"
	for _, s := range []*hashScheme{
		newHash("Tiger", []string{"Tiger/192"}, ProviderCryptocost, 24, 64, sec, legacy,
			"Anderson & Biham, Tiger: A Fast New Hash Function, FSE 1996 (vectors: NESSIE-format "+
				"test-vectors-nessie-format.dat and the reference program's outputs, "+authorsPage+")",
			tiger.New,
			hashVector{In: "", Out: "3293ac630c13f0245f92bbb1766e16167a4e58492dde73f3"},
			hashVector{In: "abc", Out: "2aab1484e8c158f2bfb8c5ff41b57a525129131c957b5f93"},
			// "Tiger": the reference program prints 9F00F599072300DD
			// 276ABB38C8EB6DEC 37790C116F9D2BDF, each word little-endian here.
			hashVector{In: "Tiger", Out: "dd00230799f5009fec6debc838bb6a27df2b9d6f110c7937"},
			// Exactly one block of message: the padding takes a block of its own.
			hashVector{In: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-",
				Out: "f71c8583902afb879edfe610f82c0d4786a3a534504486b5"},
			hashVector{In: "1234567890", Repeat: 8, Out: "1c14795529fd9f207a958f84c52f11e887fa0cabdfd91bfd"},
			hashVector{In: "a", Repeat: 1000000, Out: "6db0e2729cbead93d715c6a7d36302e9b3cee0d2bc314b41"}),
		newHash("Tiger2", []string{"Tiger2/192"}, ProviderCryptocost, 24, 64, sec, legacy,
			"Anderson & Biham, Tiger (Tiger2: padding byte 0x80) (vectors: NESSIE-format "+
				"tiger2-test-vectors-nessie-format.dat, "+authorsPage+")",
			tiger.New2,
			hashVector{In: "", Out: "4441be75f6018773c206c22745374b924aa8313fef919f41"},
			hashVector{In: "abc", Out: "f68d7bc5af4b43a06e048d7829560d4a9415658bb0b1f3bf"},
			hashVector{In: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
				Out: "a6737f3997e8fbb63d20d2df88f86376b5fe2d5ce36646a9"},
			hashVector{In: "1234567890", Repeat: 8, Out: "d85278115329ebaa0eec85ecdc5396fda8aa3a5820942fff"},
			hashVector{In: "a", Repeat: 1000000, Out: "e068281f060f551628cc5715b9d0226796914d45f7717cf4"}),
	} {
		register(s)
	}
}
