package mcu

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Kernel is one algorithm built into a firmware image: its C sources, the
// bench file with its known-answer tests and timed operations, and what the
// results need to say about it.
type Kernel struct {
	// Name is the --kernel value: "aes128", "rsa1024-crt".
	Name string
	// Scheme names the algorithm in results ("AES-128", "RSA-1024-CRT");
	// Algorithm is the algorithm without the variant ("RSA-1024").
	Scheme, Algorithm string
	// Label is the table's description of the kernel.
	Label string
	// Family is the scheme registry's family: block, stream, aead, hash,
	// mac, kex, sign, pke.
	Family string
	// Sources are the algorithm's own files: ROM and static RAM are
	// counted over their objects (and the runtime routines only they use).
	Sources []string
	// Bench is the file with the known-answer tests and timed operations.
	Bench string
	// Defines are extra -D flags for every file of the image.
	Defines []string
	// SecurityBits is the classical security strength (NIST SP 800-57
	// Part 1 Rev. 5 §5.6.1.1 Table 2); 0 for below 80 bits.
	SecurityBits int
	// ConstantTime lists the operations that must take the same cycles on
	// every input ("*": all); a difference is reported as a warning.
	ConstantTime []string
	// Public lists the operations that handle only public data ("*": all):
	// hashing, verification. Every other operation handles a secret and
	// its bench file times it on MCU_SECRETS different secrets; the
	// results report the spread of cycles over them (the leak report).
	Public []string
	// Verified names the known-answer tests the kernel passes first.
	Verified string
	// Slow kernels take minutes of host time: they run only when named.
	Slow bool
	// MinStack is the stack in bytes the kernel's deepest operation needs,
	// measured by painting (the registry entry says where). A target with
	// less SRAM left after the image's .data and .bss cannot run it: the
	// image is reported as not fitting instead of being run into a stack
	// overflow. 0: small next to any target's SRAM.
	MinStack int

	// sources is where the files are; nil means the embedded kernels/.
	sources fs.FS
}

// ComparableRSABits is the RSA modulus of the same security strength (NIST
// SP 800-57 Part 1 Rev. 5 Table 2), the column S004 gave for each curve;
// for RSA kernels it is their own modulus.
func (k Kernel) ComparableRSABits() int {
	if strings.HasPrefix(k.Algorithm, "RSA-") {
		var bits int
		fmt.Sscanf(k.Algorithm, "RSA-%d", &bits)
		return bits
	}
	for _, r := range []struct{ security, rsa int }{{256, 15360}, {192, 7680}, {128, 3072}, {112, 2048}, {80, 1024}} {
		if k.SecurityBits >= r.security {
			return r.rsa
		}
	}
	return 0
}

// constantTime reports whether op is claimed constant time.
func (k Kernel) constantTime(op string) bool {
	return slices.Contains(k.ConstantTime, "*") || slices.Contains(k.ConstantTime, op)
}

// public reports whether op handles only public data.
func (k Kernel) public(op string) bool {
	return slices.Contains(k.Public, "*") || slices.Contains(k.Public, op)
}

func (k Kernel) files() fs.FS {
	if k.sources != nil {
		return k.sources
	}
	sub, err := fs.Sub(kernelSources, "kernels")
	if err != nil {
		panic(err) // the embedded directory exists
	}
	return sub
}

// kernels is the registry, in the order tables list them.
var kernels = []Kernel{
	{Name: "aes128", Scheme: "AES-128", Label: "AES-128", Family: "block",
		Sources: []string{"aes.c"}, Bench: "aes_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "FIPS 197 Appendix A.1 and C.1; SP 800-38A F.2.1, F.2.2 (CBC) and F.5.1 (CTR)"},
	{Name: "speck64-128", Scheme: "Speck64-128", Label: "Speck64/128", Family: "block",
		Sources: []string{"speck.c"}, Bench: "speck_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "Beaulieu et al., ePrint 2013/404 Appendix C (Speck64/128)"},
	{Name: "present80", Scheme: "PRESENT-80", Label: "PRESENT-80", Family: "block",
		Sources: []string{"present.c"}, Bench: "present_bench.c", SecurityBits: 80, ConstantTime: []string{"*"},
		Verified: "Bogdanov et al., CHES 2007, Appendix I (four vectors)"},
	{Name: "chacha20", Scheme: "ChaCha20", Label: "ChaCha20", Family: "stream",
		Sources: []string{"chacha20.c"}, Bench: "chacha20_bench.c", SecurityBits: 256, ConstantTime: []string{"*"},
		Verified: "RFC 8439 §2.3.2 (block) and §2.4.2 (encryption)"},
	{Name: "ascon-aead128", Scheme: "Ascon-AEAD128", Label: "Ascon-AEAD128", Family: "aead",
		Sources: []string{"ascon.c"}, Bench: "ascon_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "Ascon reference KAT file for SP 800-232 (Count 1, 563, 1089), and a forged tag rejected"},
	{Name: "sha256", Scheme: "SHA-256", Label: "SHA-256", Family: "hash",
		Sources: []string{"sha256.c"}, Bench: "sha256_bench.c", SecurityBits: 128, ConstantTime: []string{"*"}, Public: []string{"*"},
		Verified: "FIPS 180-4 examples (NIST SHA256.pdf): one block and two blocks"},
	{Name: "sha1", Scheme: "SHA-1", Label: "SHA-1", Family: "hash",
		Sources: []string{"sha1.c"}, Bench: "sha1_bench.c", SecurityBits: 0, ConstantTime: []string{"*"}, Public: []string{"*"},
		Verified: "FIPS 180-4 examples (NIST SHA1.pdf): one block and two blocks"},
	{Name: "hmac-sha1", Scheme: "HMAC-SHA-1", Algorithm: "HMAC-SHA-1", Label: "HMAC-SHA-1 (20-byte key)", Family: "mac",
		Sources: []string{"hmac_sha1.c", "sha1.c"}, Bench: "hmac_sha1_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "RFC 2202 §3 test cases 1, 2 and 6"},
	{Name: "hmac-sha256", Scheme: "HMAC-SHA-256", Algorithm: "HMAC-SHA-256", Label: "HMAC-SHA-256 (32-byte key)", Family: "mac",
		Sources: []string{"hmac_sha256.c", "sha256.c"}, Bench: "hmac_sha256_bench.c", SecurityBits: 256, ConstantTime: []string{"*"},
		Verified: "RFC 4231 test cases 1, 2 and 6"},
	{Name: "x25519", Scheme: "X25519", Label: "X25519", Family: "kex",
		Sources: []string{"x25519.c", "fe25519.c"}, Bench: "x25519_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "RFC 7748 §5.2 (both vectors) and §6.1 (Alice's and Bob's keys, shared secret)"},
	{Name: "ed25519", Scheme: "Ed25519", Label: "Ed25519", Family: "sign",
		Sources: []string{"ed25519.c", "fe25519.c", "sha512.c"}, Bench: "ed25519_bench.c", SecurityBits: 128,
		ConstantTime: []string{"keygen", "sign"}, Public: []string{"verify"},
		Verified: "RFC 8032 §7.1 TEST 2 and TEST SHA(abc); a forged message rejected"},

	// Post-quantum kernels, written here (mlkem*.c, mldsa*.c, fips202.c).
	// Each scheme has a straightforward kernel, shaped like the reference
	// implementations (the matrix and the vectors of polynomials in full),
	// and a memory-lean one (the matrix sampled into the accumulator, the
	// vectors streamed; kernels/README.md). Security: NIST PQC categories
	// 1 (ML-KEM-512, as AES-128), 2 (ML-DSA-44, as SHA-256 collisions; 128
	// classical bits) and 3 (ML-KEM-768, as AES-192): FIPS 203 §8 Table 2,
	// FIPS 204 §4 Table 1.
	//
	// MinStack: the deepest operation's stack by painting, -Os or -O2 — in
	// simavr on the ATmega2560 for the lean kernels; under qemu-arm
	// (Cortex-M4 code, arm-none-eabi-gcc) for the straightforward ones,
	// which the 8 KiB AVR cannot run: their arrays of 16- and 32-bit
	// coefficients take the same bytes on every core (the ATmega1284P's
	// 16 KiB measured ML-KEM-512's within 1 % of Cortex-M4's).
	// TestPQStackNeeds checks each value against its measurement.
	mlkemKernel("mlkem512", 2, 128, "", 10724), mlkemKernel("mlkem512-lean", 2, 128, "lean", 2041),
	mlkemKernel("mlkem768", 3, 192, "", 16404), mlkemKernel("mlkem768-lean", 3, 192, "lean", 2432),
	mldsaKernel("mldsa44", "", 51236), mldsaKernel("mldsa44-lean", "lean", 2916),
}

// pqKEMVerified and pqSignVerified name the post-quantum kernels'
// known-answer tests (mcu/pqvectors_test.go).
const (
	pqKEMVerified  = "NIST ACVP ML-KEM-keyGen and -encapDecap (FIPS 203), the Wycheproof implicit-rejection case, and each timed key generation and encapsulation against CIRCL (and Go's crypto/mlkem for ML-KEM-768)"
	pqSignVerified = "NIST ACVP ML-DSA-keyGen (FIPS 204); a deterministic signature with a context from CIRCL, verified, with forgeries rejected; each timed key generation and signature against CIRCL"
)

// mlkemKernel is an ML-KEM kernel: k = 2 (ML-KEM-512) or 3 (ML-KEM-768), the
// straightforward or the lean variant. Encapsulation (over the secret m)
// and decapsulation (over keys sharing ρ, valid and rejected ciphertexts)
// must be constant time; key generation varies with the public ρ.
func mlkemKernel(name string, k, security int, variant string, minStack int) Kernel {
	set := map[int]string{2: "ML-KEM-512", 3: "ML-KEM-768"}[k]
	kn := Kernel{Name: name, Scheme: set, Algorithm: set, Label: set + ", straightforward (reference shape)", Family: "kex",
		Sources: []string{"mlkem.c", "mlkem_kem.c", "mlkem_poly.c", "fips202.c"}, Bench: "mlkem_bench.c",
		Defines: []string{fmt.Sprintf("-DMLKEM_K=%d", k)}, SecurityBits: security, ConstantTime: []string{"encaps", "decaps"},
		Verified: pqKEMVerified, MinStack: minStack}
	if variant == "lean" {
		kn.Scheme += "-LEAN"
		kn.Label = set + ", memory-lean (matrix on the fly)"
		kn.Sources[0] = "mlkem_lean.c"
	}
	return kn
}

// mldsaKernel is an ML-DSA-44 kernel. Nothing is claimed constant time: signing
// repeats until a candidate passes its rejection tests, key generation
// rejects samples, both by design (FIPS 204 §3.4, §3.6.3).
func mldsaKernel(name, variant string, minStack int) Kernel {
	kn := Kernel{Name: name, Scheme: "ML-DSA-44", Algorithm: "ML-DSA-44", Label: "ML-DSA-44, straightforward (reference shape)", Family: "sign",
		Sources: []string{"mldsa44.c", "mldsa44_common.c", "mldsa_poly.c", "fips202.c"}, Bench: "mldsa44_bench.c",
		SecurityBits: 128, Public: []string{"verify"}, Verified: pqSignVerified, MinStack: minStack}
	if variant == "lean" {
		kn.Scheme += "-LEAN"
		kn.Label = "ML-DSA-44, memory-lean (matrix on the fly, streaming)"
		kn.Sources[0] = "mldsa44_lean.c"
	}
	return kn
}

// ecdsaCurve is a curve the ECDSA kernels are built for: ecc_params.h
// holds its constants (generated with the known answers by
// ecdsavectors_test.go), chosen by Define.
type ecdsaCurve struct {
	Name, Short, Label, Define string
	// SecurityBits: NIST SP 800-57 Part 1 Rev. 5 §5.6.1.1 Table 2 puts
	// ECC with f = 160–223 bits at 80, 256–383 at 128; below 160, below
	// 80 (0 here).
	SecurityBits int
	// Verified names the known answers the firmware checks.
	Verified string
}

// ecdsaCurves are S004's three SEC 2 curves (TinyECC's secp128r1,
// secp160r1, secp192r1) and P-256, today's choice. The hash is SHA-256 on
// every curve, truncated to the order's bits (SEC 1 v2 §4.1.3 step 5), as
// S004's TinyECC used SHA-1.
var ecdsaCurves = []ecdsaCurve{
	{"secp128r1", "secp128r1", "secp128r1 (SEC 2)", "ECC_CURVE_SECP128R1", 0,
		"eight keys, public keys and RFC 6979 signatures with SHA-256 computed by Go's math/big and checked with a second implementation and OpenSSL"},
	{"secp160r1", "secp160r1", "secp160r1 (SEC 2)", "ECC_CURVE_SECP160R1", 80,
		"eight keys, public keys and RFC 6979 signatures with SHA-256 computed by Go's math/big and checked with a second implementation and OpenSSL"},
	{"secp192r1", "secp192r1", "secp192r1 (SEC 2, NIST P-192)", "ECC_CURVE_SECP192R1", 80,
		"RFC 6979 §A.2.3 (P-192, SHA-256, \"sample\") and seven more keys signed by Go's math/big, checked with a second implementation and OpenSSL"},
	{"p256", "P256", "P-256", "ECC_CURVE_P256", 128,
		"RFC 6979 §A.2.5 (P-256, SHA-256, \"sample\") and seven more keys, checked with Go's crypto/ecdsa (RFC 6979) and OpenSSL"},
}

// ecdsaStyles are the two ways the ECDSA kernels do the curve arithmetic:
// the libraries S004 compared made these choices (mcu/kernels/ecc.h).
var ecdsaStyles = []struct {
	name, label, source string
	constantTime        bool
}{
	{"fast", "Jacobian, wNAF w=4, curve-specific reduction (TinyECC-like)", "ecc_fast.c", false},
	{"ct", "co-Z Montgomery ladder, Montgomery multiplication, Fermat inversion, constant time", "ecc_ct.c", true},
}

// rsaKernels are S004's RSA cases and the modern variant, per key size.
func init() {
	for _, bits := range []int{512, 1024, 2048} {
		for _, v := range []struct {
			name, label, source string
			defines             []string
			ct                  bool
		}{
			{"sm-sram", "square-and-multiply, key in SRAM (S004)", "rsa_sm.c", []string{"-DRSA_SM"}, false},
			{"sm-flash", "square-and-multiply, key in flash (S004)", "rsa_sm.c", []string{"-DRSA_SM", "-DRSA_KEY_IN_FLASH"}, false},
			{"crt", "Montgomery ladder and CRT, constant time", "rsa_crt.c", []string{"-DRSA_CRT"}, true},
		} {
			security := map[int]int{512: 0, 1024: 80, 2048: 112}[bits]
			k := Kernel{
				Name:         fmt.Sprintf("rsa%d-%s", bits, v.name),
				Scheme:       fmt.Sprintf("RSA-%d-%s", bits, strings.ToUpper(v.name)),
				Algorithm:    fmt.Sprintf("RSA-%d", bits),
				Label:        fmt.Sprintf("RSA-%d private key, %s", bits, v.label),
				Family:       "pke",
				Sources:      []string{v.source},
				Bench:        "rsa_bench.c",
				Defines:      append([]string{fmt.Sprintf("-DRSA_BITS=%d", bits)}, v.defines...),
				SecurityBits: security,
				Verified:     fmt.Sprintf("signatures of two EMSA-PKCS1-v1_5 messages under an OpenSSL RSA-%d key (e = 3), computed with Go's math/big", bits),
				Slow:         bits == 2048,
			}
			if v.ct {
				k.ConstantTime = []string{"*"}
			}
			kernels = append(kernels, k)
		}
	}
	for _, c := range ecdsaCurves {
		for _, st := range ecdsaStyles {
			k := Kernel{
				Name:         "ecdsa-" + c.Name + "-" + st.name,
				Scheme:       "ECDSA-" + c.Short + "-SHA256-" + strings.ToUpper(st.name),
				Algorithm:    "ECDSA-" + c.Short + "-SHA256",
				Label:        "ECDSA " + c.Label + ", " + st.label,
				Family:       "sign",
				Sources:      []string{"ecdsa.c", st.source, "ecc_bn.c", "sha256.c"},
				Bench:        "ecdsa_bench.c",
				Defines:      []string{"-D" + c.Define},
				SecurityBits: c.SecurityBits,
				// verification handles the public key and signature only
				Public:   []string{"verify"},
				Verified: c.Verified + "; verification of a forged message rejected",
			}
			if st.constantTime {
				k.ConstantTime = []string{"keygen", "sign"}
			}
			// P-256 with the ladder: about 5.6 billion simulated cycles
			// an image (eight keys and nonces, both verifications by two
			// ladders), minutes of host time; named, it runs.
			k.Slow = c.Name == "p256" && st.constantTime
			kernels = append(kernels, k)
		}
	}
	for i := range kernels {
		if kernels[i].Algorithm == "" {
			kernels[i].Algorithm = kernels[i].Scheme
		}
	}
}

// Kernels returns every kernel, slow ones included.
func Kernels() []Kernel { return slices.Clone(kernels) }

// KernelByName returns the named kernel (case-insensitive).
func KernelByName(name string) (Kernel, bool) {
	for _, k := range kernels {
		if strings.EqualFold(k.Name, name) {
			return k, true
		}
	}
	return Kernel{}, false
}

// SelectKernels resolves --kernel patterns (names or globs such as
// 'rsa1024-*'). No pattern means every kernel that is not slow; a slow
// kernel is included only when a pattern names or matches it.
func SelectKernels(patterns []string) ([]Kernel, error) {
	if len(patterns) == 0 {
		var out []Kernel
		for _, k := range kernels {
			if !k.Slow {
				out = append(out, k)
			}
		}
		return out, nil
	}
	seen := map[string]bool{}
	var out []Kernel
	for _, p := range patterns {
		p = strings.ToLower(strings.TrimSpace(p))
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("bad --kernel pattern %q: %v", p, err)
		}
		matched := false
		for _, k := range kernels {
			if ok, _ := path.Match(p, k.Name); ok {
				matched = true
				if !seen[k.Name] {
					seen[k.Name] = true
					out = append(out, k)
				}
			}
		}
		if !matched {
			return nil, fmt.Errorf("unknown kernel %q%s: see cryptocost mcu list", p, suggest(p))
		}
	}
	// keep the registry's order
	slices.SortStableFunc(out, func(a, b Kernel) int { return kernelIndex(a.Name) - kernelIndex(b.Name) })
	return out, nil
}

func kernelIndex(name string) int {
	return slices.IndexFunc(kernels, func(k Kernel) bool { return k.Name == name })
}

// suggest names the kernels closest to a mistyped name.
func suggest(name string) string {
	var near []string
	for _, k := range kernels {
		if strings.Contains(k.Name, name) || strings.Contains(name, k.Name) || editDistance(name, k.Name) <= 2 {
			near = append(near, k.Name)
		}
	}
	if len(near) == 0 {
		return ""
	}
	if len(near) > 4 {
		near = near[:4]
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// KernelNames are the kernels' names, in their order.
func KernelNames() []string {
	out := make([]string, len(kernels))
	for i, k := range kernels {
		out[i] = k.Name
	}
	return out
}
