package mcu

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/result"
)

// ecdsaKernels are the registry's ECDSA kernels.
func ecdsaKernels(t *testing.T) []Kernel {
	var ks []Kernel
	for _, k := range Kernels() {
		if strings.HasPrefix(k.Name, "ecdsa-") {
			ks = append(ks, k)
		}
	}
	if len(ks) != len(ecdsaCurves)*len(ecdsaStyles) {
		t.Fatalf("%d ECDSA kernels, want %d", len(ks), len(ecdsaCurves)*len(ecdsaStyles))
	}
	return ks
}

// signOnly is k timing only signing (the plan's MaxInputs says on how many
// secrets): the known-answer tests run in full; the command line times
// everything.
func signOnly(k Kernel) Kernel {
	k.Defines = append(slices.Clone(k.Defines), "-DECDSA_SIGN_ONLY")
	return k
}

// TestECDSARegistry: one kernel per curve and style; the constant-time
// style claims key generation and signing constant time, the fast style
// nothing; verification handles public data only. Fast tier.
func TestECDSARegistry(t *testing.T) {
	for _, k := range ecdsaKernels(t) {
		ct := strings.HasSuffix(k.Name, "-ct")
		if got := k.constantTime("sign") && k.constantTime("keygen") && !k.constantTime("verify"); got != ct {
			t.Errorf("%s: constant time %v", k.Name, k.ConstantTime)
		}
		if k.Family != "sign" || !strings.HasSuffix(k.Algorithm, "-SHA256") || !slices.Contains(k.Sources, "sha256.c") ||
			!k.public("verify") || k.public("sign") || k.public("keygen") {
			t.Errorf("%s: %+v", k.Name, k)
		}
	}
	for name, rsa := range map[string]int{"ecdsa-secp128r1-fast": 0, "ecdsa-secp160r1-ct": 1024, "ecdsa-secp192r1-fast": 1024, "ecdsa-p256-ct": 3072} {
		if k, _ := KernelByName(name); k.ComparableRSABits() != rsa {
			t.Errorf("%s: comparable RSA %d, want %d (SP 800-57 Table 2)", name, k.ComparableRSABits(), rsa)
		}
	}
}

// slowECDSA are the kernels whose test image costs more than half a
// billion simulated cycles (ten seconds of CPU or more): they run with
// CRYPTOCOST_SLOW_TESTS=1. The ladder's C is the same for every curve and
// TestECCOnHost checks it on all four; the command line measures them all.
var slowECDSA = []string{"ecdsa-secp192r1-ct", "ecdsa-p256-ct"}

// TestECDSAInSimulator: the ECDSA kernels at -Os pass their known-answer
// tests inside the simulator (verification accepts vector 0, rejects a
// forged message) and sign once, the signature checked against the
// vector, with RAM and ROM within the part. secp128r1's two kernels are
// TestECDSATimingLeaks's; the 32-bit targets run every operation of every
// kernel in TestKernelsInSimulator. Tier: full (simavr); about 1 billion
// simulated cycles, 20 s of CPU, and 1.8 billion more for slowECDSA.
func TestECDSAInSimulator(t *testing.T) {
	testtier.Slow(t, "simulates ECDSA on the AVR")
	uno := atmega328p(t)
	slow := os.Getenv("CRYPTOCOST_SLOW_TESTS") == "1"
	for _, k := range ecdsaKernels(t) {
		if strings.Contains(k.Name, "secp128r1") {
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			if slices.Contains(slowECDSA, k.Name) && !slow {
				t.Skip("slow: set CRYPTOCOST_SLOW_TESTS=1 to run it")
			}
			t.Parallel()
			simulator(t)
			run := runPlan(t, &Plan{Targets: []Target{uno}, Kernels: []Kernel{signOnly(k)}, Opts: []string{"Os"}, MaxInputs: 1}, 20*time.Minute)
			checkKernelRun(t, uno, run)
			if len(run.Results) != 1 || run.Results[0].Subject.Operation != "sign" {
				t.Errorf("results %+v", run.Results)
			}
		})
	}
}

// TestECDSATimingLeaks: signing with eight private keys and nonces (the
// same message) takes the same cycles on every one in the constant-time
// style, and not in the wNAF style, whose additions follow the nonce's
// digits. secp128r1, the cheapest curve; each image also runs the
// known-answer tests. The harness's leak report must say so too. Tier:
// full (simavr); about 0.6 billion simulated cycles, 13 s of CPU.
func TestECDSATimingLeaks(t *testing.T) {
	testtier.Slow(t, "simulates ECDSA on the AVR")
	uno := atmega328p(t)
	for _, c := range []struct {
		kernel string
		leaks  bool
	}{{"ecdsa-secp128r1-ct", false}, {"ecdsa-secp128r1-fast", true}} {
		t.Run(c.kernel, func(t *testing.T) {
			t.Parallel()
			simulator(t)
			k, _ := KernelByName(c.kernel)
			run := runPlan(t, &Plan{Targets: []Target{uno}, Kernels: []Kernel{signOnly(k)}, Opts: []string{"Os"}}, 20*time.Minute)
			if run.Status != result.Complete || len(run.Results) != 1 || run.Results[0].Error != "" {
				t.Fatalf("status %s, results %+v, errors %v", run.Status, run.Results, run.Errors)
			}
			r := run.Results[0]
			cycles := r.Metric("cycles")
			if len(cycles.Samples) != 8 {
				t.Fatalf("%d samples, want one per secret", len(cycles.Samples))
			}
			spread := slices.Max(cycles.Samples) - slices.Min(cycles.Samples)
			if leaks := spread > 0; leaks != c.leaks {
				t.Errorf("cycles %v: spread %.0f over 8 secrets, want leaks = %v", cycles.Samples, spread, c.leaks)
			}
			if verdict := r.Subject.Params["timing"]; strings.HasPrefix(verdict, "leaks: ") != c.leaks {
				t.Errorf("timing verdict %q, want leaks = %v", verdict, c.leaks)
			}
			if warned := len(r.Warnings) > 0; warned {
				t.Errorf("warnings %v", r.Warnings) // the fast style claims nothing constant time
			}
		})
	}
}
