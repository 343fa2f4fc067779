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
	// Verified names the known-answer tests the kernel passes first.
	Verified string
	// Slow kernels take minutes of host time: they run only when named.
	Slow bool

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
		Sources: []string{"sha256.c"}, Bench: "sha256_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "FIPS 180-4 examples (NIST SHA256.pdf): one block and two blocks"},
	{Name: "hmac-sha256", Scheme: "HMAC-SHA-256", Algorithm: "HMAC-SHA-256", Label: "HMAC-SHA-256 (32-byte key)", Family: "mac",
		Sources: []string{"hmac_sha256.c", "sha256.c"}, Bench: "hmac_sha256_bench.c", SecurityBits: 256, ConstantTime: []string{"*"},
		Verified: "RFC 4231 test cases 1, 2 and 6"},
	{Name: "x25519", Scheme: "X25519", Label: "X25519", Family: "kex",
		Sources: []string{"x25519.c", "fe25519.c"}, Bench: "x25519_bench.c", SecurityBits: 128, ConstantTime: []string{"*"},
		Verified: "RFC 7748 §5.2 (both vectors) and §6.1 (Alice's and Bob's keys, shared secret)"},
	{Name: "ed25519", Scheme: "Ed25519", Label: "Ed25519", Family: "sign",
		Sources: []string{"ed25519.c", "fe25519.c", "sha512.c"}, Bench: "ed25519_bench.c", SecurityBits: 128,
		ConstantTime: []string{"keygen", "sign"},
		Verified:     "RFC 8032 §7.1 TEST 2 and TEST SHA(abc); a forged message rejected"},
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
				Verified:     c.Verified + "; verification of a forged message rejected",
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
