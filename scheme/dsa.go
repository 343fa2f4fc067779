package scheme

import (
	"crypto"
	//lint:ignore SA1019 deprecated, and measured because the seed studies measured it
	"crypto/dsa"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
)

// DSA (FIPS 186-4 §4; FIPS 186-5 withdrew it for generating signatures).
// The four FIPS 186-4 sizes come from crypto/dsa; L=512 and L=768 (N=160),
// which the seed002 study generated keys for, have no crypto/dsa parameter
// size, so their domain parameters come from dsaGenerateParameters below.
// Signing and verifying use crypto/dsa for every size: it works for any
// (p, q, g) with N a multiple of 8.

// Fixed domain parameters, one set per (L, N), so that keygen times key
// pairs only. Generated once with
//
//	openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:L \
//	    -pkeyopt dsa_paramgen_q_bits:N -pkeyopt dsa_paramgen_md:sha256
//
// (OpenSSL 3.0; FIPS 186-4 A.1.1.2 probable primes), PEM "DSA PARAMETERS".
//
//go:embed testdata/keys/dsa-*.pem
var dsaParameterFiles embed.FS

// dsaMillerRabinRounds is crypto/dsa's count (numMRTests): the largest of
// FIPS 186-3 Table C.1, which keeps the error below 2^-100 at every size.
const dsaMillerRabinRounds = 64

// dsaStdSizes maps the FIPS 186-4 sizes to crypto/dsa's constants.
var dsaStdSizes = map[[2]int]dsa.ParameterSizes{
	{1024, 160}: dsa.L1024N160, {2048, 224}: dsa.L2048N224, {2048, 256}: dsa.L2048N256, {3072, 256}: dsa.L3072N256,
}

// dsaEmbeddedParameters returns the fixed domain parameters for (L, N).
func dsaEmbeddedParameters(L, N int) (dsa.Parameters, error) {
	name := fmt.Sprintf("testdata/keys/dsa-%d-%d.pem", L, N)
	data, err := dsaParameterFiles.ReadFile(name)
	if err != nil {
		return dsa.Parameters{}, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "DSA PARAMETERS" {
		return dsa.Parameters{}, fmt.Errorf("%s: not a PEM \"DSA PARAMETERS\" block", name)
	}
	// Dss-Parms ::= SEQUENCE { p INTEGER, q INTEGER, g INTEGER } (RFC 3279 §2.3.2)
	var pqg struct{ P, Q, G *big.Int }
	if rest, err := asn1.Unmarshal(block.Bytes, &pqg); err != nil || len(rest) != 0 {
		return dsa.Parameters{}, fmt.Errorf("%s: not a DER Dss-Parms sequence (%v)", name, err)
	}
	params := dsa.Parameters{P: pqg.P, Q: pqg.Q, G: pqg.G}
	if err := dsaCheckParameters(&params, L, N, false); err != nil {
		return dsa.Parameters{}, fmt.Errorf("%s: %w", name, err)
	}
	return params, nil
}

// dsaCheckParameters checks the structure FIPS 186-4 §4.1 requires: p has L
// bits and q has N bits, q divides p-1, and g generates the order-q
// subgroup (1 < g < p, g^q = 1 mod p). With primes, p and q must also pass
// Miller-Rabin (slow for large p: tests use it, loading does not).
func dsaCheckParameters(params *dsa.Parameters, L, N int, primes bool) error {
	p, q, g := params.P, params.Q, params.G
	one := big.NewInt(1)
	pm1 := new(big.Int).Sub(p, one)
	switch {
	case p.BitLen() != L || q.BitLen() != N:
		return fmt.Errorf("DSA parameters: p has %d bits and q %d, want L=%d and N=%d", p.BitLen(), q.BitLen(), L, N)
	case new(big.Int).Mod(pm1, q).Sign() != 0:
		return errors.New("DSA parameters: q does not divide p-1")
	case g.Cmp(one) <= 0 || g.Cmp(p) >= 0:
		return errors.New("DSA parameters: g is not in (1, p)")
	case new(big.Int).Exp(g, q, p).Cmp(one) != 0:
		return errors.New("DSA parameters: g^q mod p != 1, so g does not generate the order-q subgroup")
	case primes && !q.ProbablyPrime(20):
		return errors.New("DSA parameters: q is not prime")
	case primes && !p.ProbablyPrime(20):
		return errors.New("DSA parameters: p is not prime")
	}
	return nil
}

// dsaGenerateParameters generates domain parameters with an L-bit p and an
// N-bit q, for sizes crypto/dsa does not offer. It mirrors
// crypto/dsa.GenerateParameters, which follows FIPS 186-4 §A.1.1.2 without
// the domain_parameter_seed (so its output cannot be validated by
// regenerating it, which nothing here needs):
//
//  1. q: a random N-bit odd number with its top bit set, until it passes
//     Miller-Rabin.
//  2. p: up to 4L times, a random L-bit number X with its top bit set,
//     p = X - (X mod 2q) + 1 (A.1.1.2 step 11.9; crypto/dsa reduces mod q,
//     which can make p even), kept if it still has L bits and passes
//     Miller-Rabin. Otherwise back to 1.
//  3. g = h^((p-1)/q) mod p for h = 2, 3, ... until g != 1 (A.2.1, the
//     unverifiable generator).
func dsaGenerateParameters(params *dsa.Parameters, random io.Reader, L, N int) error {
	if L%8 != 0 || N%8 != 0 || N < 160 || L < N+64 {
		return fmt.Errorf("DSA parameter sizes L=%d N=%d: want multiples of 8 with N >= 160 and L >= N+64", L, N)
	}
	qBytes, pBytes := make([]byte, N/8), make([]byte, L/8)
	one := big.NewInt(1)
	for {
		if _, err := io.ReadFull(random, qBytes); err != nil {
			return err
		}
		qBytes[0] |= 0x80
		qBytes[len(qBytes)-1] |= 1
		q := new(big.Int).SetBytes(qBytes)
		if !q.ProbablyPrime(dsaMillerRabinRounds) {
			continue
		}
		twoQ := new(big.Int).Lsh(q, 1)
		for range 4 * L {
			if _, err := io.ReadFull(random, pBytes); err != nil {
				return err
			}
			pBytes[0] |= 0x80
			p := new(big.Int).SetBytes(pBytes)
			c := new(big.Int).Mod(p, twoQ)
			p.Sub(p, c.Sub(c, one))
			if p.BitLen() < L || !p.ProbablyPrime(dsaMillerRabinRounds) {
				continue
			}
			e := new(big.Int).Div(new(big.Int).Sub(p, one), q)
			for h := big.NewInt(2); ; h.Add(h, one) {
				if g := new(big.Int).Exp(h, e, p); g.Cmp(one) != 0 {
					params.P, params.Q, params.G = p, q, g
					return nil
				}
			}
		}
	}
}

// dsaDigest is the value DSA signs: SHA-256 of the document, truncated to
// its leftmost N bits (FIPS 186-4 §4.6: z = the leftmost min(N, outlen)
// bits of Hash(M)); crypto/dsa leaves the truncation to its caller. N is a
// multiple of 8 for every size here.
func dsaDigest(q *big.Int, msg []byte) []byte {
	d := sha256.Sum256(msg)
	return d[:min(q.BitLen()/8, len(d))]
}

func dsaSign(priv crypto.PrivateKey, msg []byte) ([]byte, error) {
	k, err := signKeyOf[*dsa.PrivateKey](priv)
	if err != nil {
		return nil, err
	}
	r, s, err := dsa.Sign(rand.Reader, k, dsaDigest(k.Q, msg))
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(signRS{r, s})
}

func dsaVerify(pub crypto.PublicKey, msg, sig []byte) bool {
	k, err := signKeyOf[*dsa.PublicKey](pub)
	if err != nil {
		return false
	}
	var rs signRS
	if rest, err := asn1.Unmarshal(sig, &rs); err != nil || len(rest) != 0 || rs.R == nil || rs.S == nil {
		return false
	}
	return dsa.Verify(k, dsaDigest(k.Q, msg), rs.R, rs.S)
}

// dsaCheck verifies a published signature with its published key; where the
// vector gives the private key x (RFC 6979), y = g^x mod p is checked too.
// crypto/dsa draws its nonce from crypto/rand whatever reader it is given
// (Go 1.26), so RFC 6979's deterministic signatures cannot be reproduced.
func dsaCheck(s *signScheme, v signVector) error {
	bigHex := func(h string) *big.Int { return new(big.Int).SetBytes(unhex(h)) }
	pub := &dsa.PublicKey{Parameters: dsa.Parameters{P: bigHex(v.p), Q: bigHex(v.q), G: bigHex(v.g)}, Y: bigHex(v.pub)}
	if v.key != "" {
		if y := new(big.Int).Exp(pub.G, bigHex(v.key), pub.P); y.Cmp(pub.Y) != 0 {
			return katError(s.info.Name, v.name+" y = g^x mod p", y.Bytes(), pub.Y.Bytes())
		}
	}
	if !s.verify(pub, unhex(v.msg), signDER(unhex(v.sig))) {
		return signKATError(s.info.Name, v.name, "the published signature does not verify")
	}
	return nil
}

// dsaSecurity: SP 800-57 Pt 1 Rev 5 Table 2 (L=1024 ↔ 80, 2048 ↔ 112,
// 3072 ↔ 128); below 1024 bits, discrete logarithms have been computed
// (768 bits: Kleinjung et al. 2017).
func dsaSecurity(L int) (Security, string) {
	const withdrawn = "deprecated: FIPS 186-5 (2023) approves DSA only for verifying existing signatures"
	switch {
	case L < 1024:
		return Security{Bits: 0, Note: "discrete logarithms modulo 768-bit primes have been computed (Kleinjung et al. 2017)"},
			"broken: " + itoa(L) + "-bit discrete logarithms are feasible; " + withdrawn
	case L < 2048:
		return Security{Bits: 80}, "80-bit security (SP 800-57 Table 2: L=1024), below the 112-bit floor; " + withdrawn
	case L < 3072:
		return Security{Bits: 112}, withdrawn
	}
	return Security{Bits: 128}, withdrawn
}

// newDSA builds DSA-<L>-<N>-SHA256 over the embedded domain parameters.
func newDSA(L, N int, aliases []string, vectors ...signVector) *signScheme {
	name := fmt.Sprintf("DSA-%d-%d-SHA256", L, N)
	params, err := dsaEmbeddedParameters(L, N)
	if err != nil {
		panic("scheme: " + name + ": " + err.Error()) // the embedded files are part of the build
	}
	sec, legacy := dsaSecurity(L)
	std, fips := dsaStdSizes[[2]int{L, N}]
	paramgen := func() error {
		var p dsa.Parameters
		if fips {
			return dsa.GenerateParameters(&p, rand.Reader, std)
		}
		return dsaGenerateParameters(&p, rand.Reader, L, N)
	}
	source := "crypto/dsa"
	if !fips {
		source = "cryptocost (crypto/dsa lacks this size)"
	}
	vecNames := ""
	for i, v := range vectors {
		if i > 0 {
			vecNames += "; "
		}
		vecNames += v.name
	}
	return &signScheme{
		info: Info{
			Name: name, Aliases: aliases, Family: FamilySign, Provider: ProviderGo,
			Params: []Param{
				{"L", itoa(L)}, {"N", itoa(N)}, {"hash", fmt.Sprintf("SHA-256, leftmost %d bits", min(N, 256))},
				{"key_type", fmt.Sprintf("DSA L=%d N=%d", L, N)}, {"keygen_on", name},
				{"paramgen", source},
				{"key_encoding", "y and x, fixed-length big-endian (domain parameters fixed, shared)"},
			},
			Security: sec, Legacy: legacy,
			Standard: "FIPS 186-4 §4 (vectors: " + vecNames + ")",
			Sizes: Sizes{
				PublicKey: L / 8, PrivateKey: N / 8,
				Signature: signDERMax(N), VariableSignature: true,
			},
		},
		gen: func() (crypto.PublicKey, crypto.PrivateKey, error) {
			k := &dsa.PrivateKey{PublicKey: dsa.PublicKey{Parameters: params}}
			if err := dsa.GenerateKey(k, rand.Reader); err != nil {
				return nil, nil, err
			}
			return &k.PublicKey, k, nil
		},
		sign:   dsaSign,
		verify: dsaVerify,
		encode: func(pub crypto.PublicKey, priv crypto.PrivateKey) ([]byte, []byte, error) {
			k, err := signKeyOf[*dsa.PrivateKey](priv)
			if err != nil {
				return nil, nil, err
			}
			return k.Y.FillBytes(make([]byte, L/8)), k.X.FillBytes(make([]byte, N/8)), nil
		},
		vectors: vectors, check: dsaCheck,
		keygen: true,
		extra: []Operation{{
			Name: "paramgen", Input: InputNone,
			// Finding an L-bit prime p = kq+1 takes seconds from L = 2048.
			Slow: L >= 2048,
			Prepare: func(Args) (Loop, error) {
				return func(n int) error {
					for range n {
						if err := paramgen(); err != nil {
							return err
						}
					}
					return nil
				}, nil
			},
		}},
	}
}

func init() {
	// DSA-512 and DSA-768 have no published SHA-256 vector; they check the
	// RFC 6979 L=1024 N=160 one, which exercises the same N=160 truncation
	// and code, and their own round trip.
	register(newDSA(512, 160, []string{"DSA-512"}, dsaRFC6979L1024))
	register(newDSA(768, 160, []string{"DSA-768"}, dsaRFC6979L1024))
	register(newDSA(1024, 160, []string{"DSA-1024"}, dsaRFC6979L1024))
	register(newDSA(2048, 224, nil, dsaWycheproofL2048N224))
	register(newDSA(2048, 256, nil, dsaRFC6979L2048))
	register(newDSA(3072, 256, []string{"DSA-3072"}, dsaWycheproofL3072N256))
}

// RFC 6979 §A.2.1: DSA L=1024 N=160, SHA-256, message "sample".
var dsaRFC6979L1024 = signVector{
	name: "RFC 6979 A.2.1 SHA-256 \"sample\"",
	p: "86f5ca03dcfeb225063ff830a0c769b9dd9d6153ad91d7ce27f787c43278b447e6533b86b18bed6e8a48b784a14c252c5be0dbf60b86d638" +
		"5bd2f12fb763ed8873abfd3f5ba2e0a8c0a59082eac056935e529daf7c610467899c77adedfc846c881870b7b19b2b58f9be0521a17002e3" +
		"bdd6b86685ee90b3d9a1b02b782b1779",
	q: "996f967f6c8e388d9e28d01e205fba957a5698b1",
	g: "07b0f92546150b62514bb771e2a0c0ce387f03bda6c56b505209ff25fd3c133d89bbcd97e904e09114d9a7defdeadfc9078ea544d2e401ae" +
		"ecc40bb9fbbf78fd87995a10a1c27cb7789b594ba7efb5c4326a9fe59a070e136db77175464adca417be5dce2f40d10a46a3a3943f26ab7f" +
		"d9c0398ff8c76ee0a56826a8a88f1dbd",
	pub: "5df5e01ded31d0297e274e1691c192fe5868fef9e19a84776454b100cf16f65392195a38b90523e2542ee61871c0440cb87c322fc4b4d2ec" +
		"5e1e7ec766e1be8d4ce935437dc11c3c8fd426338933ebfe739cb3465f4d3668c5e473508253b1e682f65cbdc4fae93c2ea212390e54905a" +
		"86e2223170b44eaa7da5dd9ffcfb7f3b",
	key: "411602cb19a6ccc34494d79d98ef1e7ed5af25f7",
	msg: "73616d706c65",
	sig: "81f2f5850be5bc123c43f71a3033e9384611c5454cdd914b65eb6c66a8aaad27299bee6b035f5e89",
}

// RFC 6979 §A.2.2: DSA L=2048 N=256, SHA-256, message "sample".
var dsaRFC6979L2048 = signVector{
	name: "RFC 6979 A.2.2 SHA-256 \"sample\"",
	p: "9db6fb5951b66bb6fe1e140f1d2ce5502374161fd6538df1648218642f0b5c48c8f7a41aadfa187324b87674fa1822b00f1ecf8136943d7c" +
		"55757264e5a1a44ffe012e9936e00c1d3e9310b01c7d179805d3058b2a9f4bb6f9716bfe6117c6b5b3cc4d9be341104ad4a80ad6c94e005f" +
		"4b993e14f091eb51743bf33050c38de235567e1b34c3d6a5c0ceaa1a0f368213c3d19843d0b4b09dcb9fc72d39c8de41f1bf14d4bb4563ca" +
		"28371621cad3324b6a2d392145bebfac748805236f5ca2fe92b871cd8f9c36d3292b5509ca8caa77a2adfc7bfd77dda6f71125a7456fea15" +
		"3e433256a2261c6a06ed3693797e7995fad5aabbcfbe3eda2741e375404ae25b",
	q: "f2c3119374ce76c9356990b465374a17f23f9ed35089bd969f61c6dde9998c1f",
	g: "5c7ff6b06f8f143fe8288433493e4769c4d988ace5be25a0e24809670716c613d7b0cee6932f8faa7c44d2cb24523da53fbe4f6ec3595892" +
		"d1aa58c4328a06c46a15662e7eaa703a1decf8bbb2d05dbe2eb956c142a338661d10461c0d135472085057f3494309ffa73c611f78b32adb" +
		"b5740c361c9f35be90997db2014e2ef5aa61782f52abeb8bd6432c4dd097bc5423b285dafb60dc364e8161f4a2a35aca3a10b1c4d203cc76" +
		"a470a33afdcbdd92959859abd8b56e1725252d78eac66e71ba9ae3f1dd2487199874393cd4d832186800654760e1e34c09e4d155179f9ec0" +
		"dc4473f996bdce6eed1cabed8b6f116f7ad9cf505df0f998e34ab27514b0ffe7",
	pub: "667098c654426c78d7f8201eac6c203ef030d43605032c2f1fa937e5237dbd949f34a0a2564fe126dc8b715c5141802ce0979c8246463c40" +
		"e6b6bdaa2513fa611728716c2e4fd53bc95b89e69949d96512e873b9c8f8dfd499cc312882561adecb31f658e934c0c197f2c4d96b05cbad" +
		"67381e7b768891e4da3843d24d94cdfb5126e9b8bf21e8358ee0e0a30ef13fd6a664c0dce3731f7fb49a4845a4fd8254687972a2d382599c" +
		"9bac4e0ed7998193078913032558134976410b89d2c171d123ac35fd977219597aa7d15c1a9a428e59194f75c721ebcbcfae44696a499afa" +
		"74e04299f132026601638cb87ab79190d4a0986315da8eec6561c938996beadf",
	key: "69c7548c21d0dfea6b9a51c9ead4e27c33d3b3f180316e5bcab92c933f0e4dbc",
	msg: "73616d706c65",
	sig: "eace8bdbbe353c432a795d9ec556c6d021f7a03f42c36e9bc87e4ac7932cc8097081e175455f9247b812b74583e9e94f9ea79bd640dc9625" +
		"33b0680793a38d53",
}

// Wycheproof dsa_2048_224_sha256 tcId 2 (valid; testvectors_v1, the DER signature as r || s).
var dsaWycheproofL2048N224 = signVector{
	name: "Wycheproof dsa_2048_224_sha256 tcId 2",
	p: "008f7935d9b9aae9bfabed887acf4951b6f32ec59e3baf3718e8eac4961f3efd3606e74351a9c4183339b809e7c2ae1c539ba7475b85d011" +
		"adb8b47987754984695cac0e8f14b3360828a22ffa27110a3d62a993453409a0fe696c4658f84bdd20819c3709a01057b195adcd00233dba" +
		"5484b6291f9d648ef883448677979cec04b434a6ac2e75e9985de23db0292fc1118c9ffa9d8181e7338db792b730d7b9e349592f68099872" +
		"153915ea3d6b8b4653c633458f803b32a4c2e0f27290256e4e3f8a3b0838a1c450e4e18c1a29a37ddf5ea143de4b66ff04903ed5cf1623e1" +
		"58d487c608e97f211cd81dca23cb6e380765f822e342be484c05763939601cd667",
	q: "00baf696a68578f7dfdee7fa67c977c785ef32b233bae580c0bcd5695d",
	g: "16a65c58204850704e7502a39757040d34da3a3478c154d4e4a5c02d242ee04f96e61e4bd0904abdac8f37eeb1e09f3182d23c9043cb642f" +
		"88004160edf9ca09b32076a79c32a627f2473e91879ba2c4e744bd2081544cb55b802c368d1fa83ed489e94e0fa0688e32428a5c78c478c6" +
		"8d0527b71c9a3abb0b0be12c44689639e7d3ce74db101a65aa2b87f64c6826db3ec72f4b5599834bb4edb02f7c90e9a496d3a55d535bebfc" +
		"45d4f619f63f3dedbb873925c2f224e07731296da887ec1e4748f87efb5fdeb75484316b2232dee553ddaf02112b0d1f02da30973224fe27" +
		"aeda8b9d4b2922d9ba8be39ed9e103a63c52810bc688b7e2ed4316e1ef17dbde",
	pub: "1e77f842b1ae0fcd9929d394161d41e14614ff7507a9a31f4a1f14d22e2a627a1f4e596624883f1a5b168e9425146f22d5f6ee2875741471" +
		"4bb994ba1129f015d6e04a717edf9b530a5d5cab94f14631e8b4cf79aeb358cc741845553841e8ac461630e804a62f43676ba6794af66899" +
		"c377b869ea612a7b9fe6611aa96be52eb8b62c979117bbbcca8a7ec1e1ffab1c7dfcfc7048700d3ae3858136e897701d7c2921b5dfef1d1f" +
		"897f50d96ca1b5c2edc58cada18919e35642f0807eebfa00c99a32f4d095c3188f78ed54711be0325c4b532aeccd6540a567c327225440ea" +
		"15319bde06510479a1861799e25b57decc73c036d75a0702bd373ca231349931",
	msg: "313233343030",
	sig: "a545d62d6e336775fb6a9b8495721646a54bd8c6173fc0a2295a1b7b3be6bae0e8763818840a9151ad8ed2b3b348e4a2c488d3fbdbbca844",
}

// Wycheproof dsa_3072_256_sha256 tcId 2 (valid; testvectors_v1, the DER signature as r || s).
var dsaWycheproofL3072N256 = signVector{
	name: "Wycheproof dsa_3072_256_sha256 tcId 2",
	p: "00dcd2f71fba7aeb46aeea858ab76f2102fa97a953abce9d791aa269f0161733ac3df25f5c9db3448f82846e355e23089614046d42b03029" +
		"8d94f5365d942cbb5490e40a1d5e6e577cc646a807f049a1fb42b97a9e64efa1aa9ef93bb3c7120ddbf9c403e580431f1789127f0a64ea7b" +
		"036ef12d07f02103655d63ddda3c44ad328f727c1d060fc92e3616976cf11bf1feefff033490d98929252b585cd92c081afcc71dae6341ae" +
		"8dd05e62ae297ad2b00560ec94f1f64482816e3af052fc1daff0a9bf52034012594d4246036d040fa5e741e693e36b064bedb224ea1f7c6c" +
		"86171ca8fcfac98c5db6e34dad307c5bfdece4e578f0e18fcaaee9d5b330ed69a72d8fddf878a58a57914247825ae6ed1cb8a6b241ea694b" +
		"77f843eee40f1be90f26b26154813647d1e1af01254cf21cfdd2e9eba7e431bd8db6164d05a3d3ae9371af5d0d39a3a9b9f07ba61233c77a" +
		"6bfc273515fb844db8fafd69b559ce844c7a3d686ea4991d9fe74cad560489f3c1dbb4fd171ea8ae7874e302207c02a7b1",
	q: "00f870d35ca9f84e6acad808d6ac35b13ee4073f26ea84fefe08c4d9a565754037",
	g: "6dea4b8c3fe3ab91e3229fb14c1cfa822915769af161405f48b7fadfe1ec5d9fec4ef0cfbb2233ffddfa5a554cfc68c6bc6a0ba30cef6f51" +
		"309294e622b58d4face00ae9669d9172b15696839ed332afd906e3f427d85a9af73562b845be53a3713c0219402a4c208e9b6a6873235e0b" +
		"c20442e70ab69edd46e8f3f7d58cb35ea3690c673f54cd37377725739f00ebe2b3b53bdaf89ddac74012f8486bd3f5217579b4a303f61bcc" +
		"c98931faba969c8c2a27acb04bc21201edf9a7f6b42e10f75dd23c3ab073d7290d173ebe6cb1919607bfe2bf0d829a609d8d3cda7044ff8d" +
		"fbbd463e68c9403a45834ec547a7d4fd5abc68c5997cdc397120698f879356e0e74b62fe1a2938a5d1b486b53a5e0cb875e23a2e834ea563" +
		"a4a9d4be44045877df020c30e22e55603f63d74ed2cafde18180ec294a7ce263d56eb280562687f61f898f3c7d2b37d7f00250a43ca989de" +
		"16fa1aab7d83e0dbf6aa66edc36ad79eecfe2f91cfab6285ba10ae713126f69326540c461e44e45bdf076e4ed8d3e924",
	pub: "7e0062e6f32ecab1effa38391b71a523221d6e97a61f55238f0a623cc42980b987fb22ec6138e8d1c0d36c05d059ca0ca3f1a526a5f67b21" +
		"6341abcd04105bb8efc9e479c2532f9dea6cddfb4f57de5b9d6964e3d314eb89693a3d57f82b9ff93e0e0d11d72fa4f1bd82bb2b20f1b595" +
		"47aff7711db319d7d06e6964beb294e44d34c2a21c7ac7cdac5e91f2f6d183042afc3644b09837fa2225a074ceb65d499f73cee04c705c82" +
		"bb912f97d765d5f9c8cb442019e7dac1e1ccccee990335ea3b8c837583595cd4f83169d4787fe4675386d604e8e205b977c7ab2369504282" +
		"54e3b836bd00296257238d22bda16a722e405df82029e3384931fb0e4903c3f8771fb15708d4cb3238e7b2a68131be518a08d6efd483a015" +
		"37a432046dcbd1ffa5ff831e0257b292012d5e1a44c6e32019a6b3ae176a67edaf12eb27e68fa60a05af4e5448d606c392b4a672b44298b1" +
		"775a16b9440b131eb0d91ca3fde1a1e528b5fffc31ffdf1449169c2f4abd96809a75fb6c85ae845940c45d5af8334057",
	msg: "313233343030",
	sig: "8c7f9b7f5d53a4d3877185d2ef69b2b3ab16321d996940c2efcbef01c0b598b433708b0fd4109873550d02340918ec93e5383d471c9d0a32" +
		"2aa76c2872783cba",
}
