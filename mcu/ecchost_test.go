package mcu

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/scenario/timesync"
)

// TestECCOnHost builds the ECDSA kernels' C (both styles, every curve) for
// the host with gcc and checks thousands of random and edge-case answers
// against math/big: field multiplication and squaring (the reductions'
// carries), scalar multiplication, the double multiplication of
// verification, inversion mod n, and ECDSA itself. The simulator then
// runs the same code on known answers (TestKernelsInSimulator).
//
// Tier: full (needs gcc, scripts/deps/mcu-ecc.txt); about 8 s of CPU,
// most of it gcc and math/big.
func TestECCOnHost(t *testing.T) {
	gcc := testtier.RequireTool(t, "gcc", "gcc")
	for _, c := range ecdsaCurves {
		for _, st := range ecdsaStyles {
			t.Run(c.Name+"/"+st.name, func(t *testing.T) {
				t.Parallel()
				bin := filepath.Join(t.TempDir(), "ecc_host")
				args := []string{"-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-D" + c.Define, "-DECC_HOST_" + strings.ToUpper(st.name),
					"-Ikernels", "testdata/ecc_host.c", "kernels/ecdsa.c", "kernels/ecc_bn.c", "-o", bin}
				if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
					t.Fatalf("gcc: %v\n%s", err, out)
				}
				runHost(t, bin, hostQueries(t, ecdsaParams[c.Name]))
			})
		}
	}
}

// hostQuery is one command for the host program and the answer math/big
// gives.
type hostQuery struct{ what, cmd, want string }

// runHost sends every query at once (a writer goroutine: no round trip
// per query, which on a loaded machine costs more than the arithmetic) and
// compares the answers in order.
func runHost(t *testing.T, bin string, qs []hostQuery) {
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		w := bufio.NewWriter(in)
		for _, q := range qs {
			fmt.Fprintln(w, q.cmd)
		}
		w.Flush()
		in.Close()
	}()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 4096), 1<<20)
	fails := 0
	for _, q := range qs {
		if !sc.Scan() {
			t.Fatalf("the host program stopped before answering %q: %v", q.cmd, sc.Err())
		}
		if got := sc.Text(); got != q.want && fails < 10 {
			t.Errorf("%s: got %s, want %s", q.what, got, q.want)
			fails++
		}
	}
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		t.Errorf("the host program: %v", err)
	}
}

func fixedHex(v *big.Int, size int) string { return fmt.Sprintf("%0*x", 2*size, v) }

// hostQueries are the cases for one curve: random and edge-case field
// products, scalar multiplications, double multiplications, inversions and
// ECDSA, each with math/big's answer.
func hostQueries(t *testing.T, sc timesync.SEC2Curve) []hostQuery {
	c := sc.Params
	pb, nb := fieldBytes(c), orderBytes(c)
	rng := rand.New(rand.NewPCG(1, uint64(c.BitSize)))
	randBelow := func(m *big.Int) *big.Int {
		b := make([]byte, (m.BitLen()+7)/8+8)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return new(big.Int).Mod(new(big.Int).SetBytes(b), m)
	}
	one := big.NewInt(1)
	pm1 := new(big.Int).Sub(c.P, one)
	nm1 := new(big.Int).Sub(c.N, one)
	// values that stress carries: 0, 1, 2, p − 1, p − 2, 2^k − 1 and 2^k
	edges := []*big.Int{big.NewInt(0), one, big.NewInt(2), pm1, new(big.Int).Sub(c.P, big.NewInt(2))}
	for _, k := range []int{8, 31, 32, 64, 97, 127, 128, c.P.BitLen() - 1} {
		if k < c.P.BitLen() {
			edges = append(edges, new(big.Int).Sub(new(big.Int).Lsh(one, uint(k)), one), new(big.Int).Lsh(one, uint(k)))
		}
	}
	mulmod := func(a, b *big.Int) *big.Int { return new(big.Int).Mod(new(big.Int).Mul(a, b), c.P) }

	var qs []hostQuery
	ask := func(format string, args ...any) string { return fmt.Sprintf(format, args...) }
	check := func(what, cmd, want string) { qs = append(qs, hostQuery{what, cmd, want}) }
	for _, a := range edges {
		for _, b := range edges {
			check(fmt.Sprintf("F %x·%x", a, b), ask("F %s %s", fixedHex(a, pb), fixedHex(b, pb)), fixedHex(mulmod(a, b), pb))
		}
		check(fmt.Sprintf("Q %x", a), ask("Q %s", fixedHex(a, pb)), fixedHex(mulmod(a, a), pb))
	}
	for range 2000 {
		a, b := randBelow(c.P), randBelow(c.P)
		check(fmt.Sprintf("F %x·%x", a, b), ask("F %s %s", fixedHex(a, pb), fixedHex(b, pb)), fixedHex(mulmod(a, b), pb))
		check(fmt.Sprintf("Q %x", a), ask("Q %s", fixedHex(a, pb)), fixedHex(mulmod(a, a), pb))
	}

	scalars := []*big.Int{one, big.NewInt(2), big.NewInt(3), big.NewInt(7), big.NewInt(16), nm1, new(big.Int).Sub(c.N, big.NewInt(2))}
	for range 25 {
		scalars = append(scalars, new(big.Int).Add(randBelow(nm1), one))
	}
	for _, k := range scalars {
		x, y := affineMul(c, k, c.Gx, c.Gy)
		check(fmt.Sprintf("B %x", k), ask("B %s", fixedHex(k, nb)), fixedHex(x, pb)+" "+fixedHex(y, pb))
		check(fmt.Sprintf("C on %x", k), ask("C %s %s", fixedHex(x, pb), fixedHex(y, pb)), "1")
		check(fmt.Sprintf("C off %x", k), ask("C %s %s", fixedHex(x, pb), fixedHex(new(big.Int).Mod(new(big.Int).Add(y, one), c.P), pb)), "0")
		inv := new(big.Int).ModInverse(k, c.N)
		check(fmt.Sprintf("I %x", k), ask("I %s", fixedHex(k, nb)), fixedHex(inv, nb))
	}
	// u1·G + u2·Q: random, Q = ±G multiples that make the sum double or
	// vanish
	qd := new(big.Int).Add(randBelow(nm1), one)
	qx, qy := affineMul(c, qd, c.Gx, c.Gy)
	for i := range 12 {
		u1, u2 := new(big.Int).Add(randBelow(nm1), one), new(big.Int).Add(randBelow(nm1), one)
		switch i {
		case 0: // u1 + u2·d ≡ 0: the point at infinity
			u1 = new(big.Int).Mod(new(big.Int).Neg(new(big.Int).Mul(u2, qd)), c.N)
		case 1: // u1·G = u2·Q: the sum doubles
			u1 = new(big.Int).Mod(new(big.Int).Mul(u2, qd), c.N)
		}
		want := "inf"
		sum := new(big.Int).Mod(new(big.Int).Add(u1, new(big.Int).Mul(u2, qd)), c.N)
		if sum.Sign() != 0 {
			x, _ := affineMul(c, sum, c.Gx, c.Gy)
			want = fixedHex(x, pb)
		}
		check(fmt.Sprintf("M case %d", i), ask("M %s %s %s %s", fixedHex(u1, nb), fixedHex(u2, nb), fixedHex(qx, pb), fixedHex(qy, pb)), want)
	}
	// ECDSA against timesync's math/big signer and the affine verifier
	for i := range 6 {
		d, k := new(big.Int).Add(randBelow(nm1), one), new(big.Int).Add(randBelow(nm1), one)
		digest := sha256.Sum256(fmt.Appendf(nil, "message %d", i))
		key := timesync.InsecureKeyFromScalar(sc, d)
		r, s, err := key.SignWithNonce(digest[:], k)
		if err != nil {
			t.Fatal(err)
		}
		pub := fixedHex(key.X, pb) + fixedHex(key.Y, pb)
		sig := fixedHex(r, nb) + fixedHex(s, nb)
		check(fmt.Sprintf("P %d", i), ask("P %s", fixedHex(d, nb)), pub)
		check(fmt.Sprintf("S %d", i), ask("S %s %s %x", fixedHex(d, nb), fixedHex(k, nb), digest), sig)
		check(fmt.Sprintf("V %d", i), ask("V %s %x %s", sig, digest, pub), "1")
		other := sha256.Sum256([]byte("another message"))
		check(fmt.Sprintf("V %d another message", i), ask("V %s %x %s", sig, other, pub), "0")
		badS := fixedHex(r, nb) + fixedHex(new(big.Int).Mod(new(big.Int).Add(s, one), c.N), nb)
		check(fmt.Sprintf("V %d s + 1", i), ask("V %s %x %s", badS, digest, pub), "0")
		zeroR := fixedHex(big.NewInt(0), nb) + fixedHex(s, nb)
		check(fmt.Sprintf("V %d r = 0", i), ask("V %s %x %s", zeroR, digest, pub), "0")
		offCurve := fixedHex(key.X, pb) + fixedHex(new(big.Int).Mod(new(big.Int).Add(key.Y, one), c.P), pb)
		check(fmt.Sprintf("V %d key off the curve", i), ask("V %s %x %s", sig, digest, offCurve), "0")
	}
	return qs
}
