package mcu

import (
	"bufio"
	"bytes"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cloudflare/circl/kem"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
)

// The post-quantum kernels' vectors: vectors_mlkem.h and vectors_mldsa.h.
//
// Known answers come from the standards' test vectors — NIST ACVP for
// ML-KEM key generation, encapsulation and decapsulation and for ML-DSA key
// generation, Wycheproof for ML-KEM's implicit rejection — each checked
// here against CIRCL and, for ML-KEM-768, Go's crypto/mlkem as well. The
// timing sweeps' inputs are derived from labels with SHAKE256 and their
// expected outputs (SHA3-256 digests, so eight keys cost 256 B of flash)
// are computed with CIRCL; for ML-KEM-768 crypto/mlkem must agree, and
// every ML-DSA signature must verify under CIRCL.
func init() {
	pqKEMSets = append(pqKEMSets,
		kemSet{name: "ML-KEM-512", prefix: "mlkem512", file: "../scheme/testdata/kex/mlkem512.txt", scheme: mlkem512.Scheme()},
		kemSet{name: "ML-KEM-768", prefix: "mlkem768", file: "../scheme/testdata/kex/mlkem768.txt", scheme: mlkem768.Scheme(), crypto: goMLKEM768{}},
	)
	headers = append(headers, mlkemHeader(), mldsaHeader())
}

// kemSet is one ML-KEM parameter set: CIRCL's implementation, and Go's
// crypto/mlkem where it has the set (ML-KEM-768, not ML-KEM-512).
type kemSet struct {
	name, prefix, file string
	scheme             kem.Scheme
	crypto             interface {
		keygen(dz []byte) (ek []byte, err error)
		encaps(ek, m []byte) (c, k []byte, err error)
		decaps(dz, c []byte) ([]byte, error)
	}
}

var pqKEMSets []kemSet

type goMLKEM768 struct{}

func (goMLKEM768) keygen(dz []byte) ([]byte, error) {
	dk, err := mlkem.NewDecapsulationKey768(dz)
	if err != nil {
		return nil, err
	}
	return dk.EncapsulationKey().Bytes(), nil
}

func (goMLKEM768) encaps(ek, m []byte) ([]byte, []byte, error) {
	key, err := mlkem.NewEncapsulationKey768(ek)
	if err != nil {
		return nil, nil, err
	}
	k, c, err := mlkemtest.Encapsulate768(key, m)
	return c, k, err
}

func (goMLKEM768) decaps(dz, c []byte) ([]byte, error) {
	dk, err := mlkem.NewDecapsulationKey768(dz)
	if err != nil {
		return nil, err
	}
	return dk.Decapsulate(c)
}

// pqSweeps is the number of inputs of each timing sweep (PQ_INPUTS).
const pqSweeps = 8

// label derives n bytes from a label (SHAKE256): inputs anyone can
// regenerate, with no structure a kernel could take a shortcut on.
func label(s string, n int) []byte { return sha3.SumSHAKE256([]byte(s), n) }

func sha3cat(parts ...[]byte) []byte {
	h := sha3.New256()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// readKV reads a "name = hex" file with "#" comments; each value's source
// is the block of comment lines before it.
func readKV(file string) (map[string]string, map[string]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	vals, srcs := map[string]string{}, map[string]string{}
	last, fresh := "", true // the comment block before a value
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if c, ok := strings.CutPrefix(line, "#"); ok {
			if fresh {
				last, fresh = strings.TrimSpace(c), false
			} else {
				last += " " + strings.TrimSpace(c)
			}
			continue
		}
		fresh = true
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		vals[name] = strings.TrimSpace(val)
		srcs[name] = last
	}
	return vals, srcs, sc.Err()
}

// mlkemHeader is vectors_mlkem.h: both parameter sets.
func mlkemHeader() header {
	var vs []vector
	var errs []error
	for _, set := range pqKEMSets {
		v, err := kemVectors(set)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", set.name, err))
		}
		vs = append(vs, v...)
	}
	return header{"vectors_mlkem.h", vs, func(t *testing.T, v func(string) []byte) {
		for _, err := range errs {
			t.Fatal(err)
		}
		for _, set := range pqKEMSets {
			checkKEM(t, set, func(name string) []byte { return v(set.prefix + "_" + name) })
		}
	}}
}

func kemVectors(set kemSet) ([]vector, error) {
	vals, srcs, err := readKV(set.file)
	if err != nil {
		return nil, err
	}
	var vs []vector
	for _, n := range []string{"keygen_d", "keygen_z", "keygen_ek", "keygen_dk", "encaps_ek", "encaps_m", "encaps_c", "encaps_k",
		"decaps_dk", "decaps_c", "decaps_k", "seed_dz", "seed_c", "seed_k"} {
		if vals[n] == "" {
			return nil, fmt.Errorf("%s has no %s", set.file, n)
		}
		vs = append(vs, vector{set.prefix + "_" + n, vals[n], set.name + ", " + srcs[n] + " (" + strings.TrimPrefix(set.file, "../") + ")"})
	}
	// keygen sweep: eight (d, z), the digests of their (ek, dk)
	dz := label("cryptocost "+set.name+" keygen sweep", 64*pqSweeps)
	var keys, ms, cts []byte
	for i := range pqSweeps {
		ek, dk := kemKeys(set.scheme, dz[64*i:64*i+64])
		keys = append(keys, sha3cat(ek, dk)...)
	}
	// encaps sweep: the ACVP key generation's ek, eight messages m
	ms = label("cryptocost "+set.name+" encaps sweep", 32*pqSweeps)
	ek, _ := hex.DecodeString(vals["keygen_ek"])
	for i := range pqSweeps {
		c, k, err := kemEncaps(set.scheme, ek, ms[32*i:32*i+32])
		if err != nil {
			return nil, err
		}
		cts = append(cts, sha3cat(c, k)...)
	}
	sweep := "timing sweep input (SHAKE256 of a label, see pqvectors_test.go)"
	vs = append(vs,
		vector{set.prefix + "_sweep_dz", hex.EncodeToString(dz), set.name + " keygen " + sweep},
		vector{set.prefix + "_sweep_keys_sha3", hex.EncodeToString(keys), set.name + ": SHA3-256(ek‖dk) of each sweep seed, from CIRCL"},
		vector{set.prefix + "_sweep_m", hex.EncodeToString(ms), set.name + " encaps " + sweep},
		vector{set.prefix + "_sweep_ct_sha3", hex.EncodeToString(cts), set.name + ": SHA3-256(c‖K) of each sweep message under keygen_ek, from CIRCL"},
		vector{set.prefix + "_sweep_rho", hex.EncodeToString(label("cryptocost "+set.name+" decaps sweep rho", 32)), set.name + " decaps " + sweep + ": the shared ρ"},
		vector{set.prefix + "_sweep_sigma_z", hex.EncodeToString(label("cryptocost "+set.name+" decaps sweep sigma z", 64*pqSweeps)), set.name + " decaps " + sweep + ": each key's σ‖z"},
	)
	return vs, nil
}

func kemKeys(s kem.Scheme, dz []byte) (ek, dk []byte) {
	pk, sk := s.DeriveKeyPair(dz)
	ek, _ = pk.MarshalBinary()
	dk, _ = sk.MarshalBinary()
	return ek, dk
}

func kemEncaps(s kem.Scheme, ek, m []byte) (c, k []byte, err error) {
	pk, err := s.UnmarshalBinaryPublicKey(ek)
	if err != nil {
		return nil, nil, err
	}
	return s.EncapsulateDeterministically(pk, m)
}

func kemDecaps(s kem.Scheme, dk, c []byte) ([]byte, error) {
	sk, err := s.UnmarshalBinaryPrivateKey(dk)
	if err != nil {
		return nil, err
	}
	return s.Decapsulate(sk, c)
}

// checkKEM proves the ACVP and Wycheproof vectors with CIRCL (and
// crypto/mlkem), and the sweep digests with crypto/mlkem where it exists.
func checkKEM(t *testing.T, set kemSet, v func(string) []byte) {
	t.Helper()
	s := set.scheme
	dz := append(v("keygen_d"), v("keygen_z")...)
	ek, dk := kemKeys(s, dz)
	eq(t, set.name+" ACVP keyGen ek", ek, v("keygen_ek"))
	eq(t, set.name+" ACVP keyGen dk", dk, v("keygen_dk"))
	c, k, err := kemEncaps(s, v("encaps_ek"), v("encaps_m"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, set.name+" ACVP encapsulation c", c, v("encaps_c"))
	eq(t, set.name+" ACVP encapsulation K", k, v("encaps_k"))
	k, err = kemDecaps(s, v("decaps_dk"), v("decaps_c"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, set.name+" ACVP decapsulation K", k, v("decaps_k"))
	_, sdk := kemKeys(s, v("seed_dz"))
	k, err = kemDecaps(s, sdk, v("seed_c"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, set.name+" Wycheproof implicit rejection K", k, v("seed_k"))
	if set.crypto == nil {
		return
	}
	g := set.crypto
	gek, err := g.keygen(dz)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, set.name+" crypto/mlkem ek", gek, v("keygen_ek"))
	gc, gk, err := g.encaps(v("encaps_ek"), v("encaps_m"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, set.name+" crypto/mlkem c", gc, v("encaps_c"))
	eq(t, set.name+" crypto/mlkem K", gk, v("encaps_k"))
	gk, err = g.decaps(v("seed_dz"), v("seed_c"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, set.name+" crypto/mlkem implicit rejection", gk, v("seed_k"))
	sweepDZ, keys, ms, cts := v("sweep_dz"), v("sweep_keys_sha3"), v("sweep_m"), v("sweep_ct_sha3")
	for i := range pqSweeps {
		// crypto/mlkem does not export the expanded dk: its ek and a
		// decapsulation of CIRCL's ciphertext stand for it
		gek, err := g.keygen(sweepDZ[64*i : 64*i+64])
		if err != nil {
			t.Fatal(err)
		}
		ek, dk := kemKeys(s, sweepDZ[64*i:64*i+64])
		if !bytes.Equal(gek, ek) {
			t.Errorf("%s sweep key %d: crypto/mlkem's ek differs from CIRCL's", set.name, i)
		}
		eq(t, fmt.Sprintf("%s sweep key %d digest", set.name, i), sha3cat(ek, dk), keys[32*i:32*i+32])
		gc, gk, err := g.encaps(v("keygen_ek"), ms[32*i:32*i+32])
		if err != nil {
			t.Fatal(err)
		}
		eq(t, fmt.Sprintf("%s sweep encapsulation %d digest", set.name, i), sha3cat(gc, gk), cts[32*i:32*i+32])
	}
}

// mldsaHeader is vectors_mldsa.h.
func mldsaHeader() header {
	vs, err := mldsaVectors()
	return header{"vectors_mldsa.h", vs, func(t *testing.T, v func(string) []byte) {
		if err != nil {
			t.Fatal(err)
		}
		checkMLDSA(t, v)
	}}
}

const mldsaACVPFile = "testdata/mldsa44_acvp_keygen.txt"

func mldsaVectors() ([]vector, error) {
	vals, _, err := readKV(mldsaACVPFile)
	if err != nil {
		return nil, err
	}
	src := "ML-DSA-44, NIST ACVP-Server ML-DSA-keyGen-FIPS204 vsId 42 tgId 1 tcId 1 (mcu/" + mldsaACVPFile + ")"
	seed, _ := hex.DecodeString(vals["seed"])
	if len(seed) != mldsa44.SeedSize {
		return nil, fmt.Errorf("%s: seed of %d bytes", mldsaACVPFile, len(seed))
	}
	msg := label("cryptocost ML-DSA-44 known-answer message", 32)
	ctx := []byte("cryptocost")
	_, sk := mldsa44.NewKeyFromSeed((*[32]byte)(seed))
	sig := make([]byte, mldsa44.SignatureSize)
	if err := mldsa44.SignTo(sk, msg, ctx, false, sig); err != nil {
		return nil, err
	}
	seeds := label("cryptocost ML-DSA-44 sweep seeds", 32*pqSweeps)
	smsg := label("cryptocost ML-DSA-44 sweep message", 32)
	var keys, sigs []byte
	for i := range pqSweeps {
		pk, sk := mldsa44.NewKeyFromSeed((*[32]byte)(seeds[32*i : 32*i+32]))
		keys = append(keys, sha3cat(pk.Bytes(), sk.Bytes())...)
		s := make([]byte, mldsa44.SignatureSize)
		if err := mldsa44.SignTo(sk, smsg, nil, false, s); err != nil {
			return nil, err
		}
		sigs = append(sigs, sha3cat(s)...)
	}
	sweep := "ML-DSA-44 timing sweep input (SHAKE256 of a label, see pqvectors_test.go)"
	return []vector{
		{"mldsa44_acvp_seed", vals["seed"], src + ": seed ξ"},
		{"mldsa44_acvp_pk", vals["pk"], src + ": pk"},
		{"mldsa44_acvp_sk", vals["sk"], src + ": sk"},
		{"mldsa44_kat_msg", hex.EncodeToString(msg), "a 32-byte message (SHAKE256 of a label, see pqvectors_test.go)"},
		{"mldsa44_kat_ctx", hex.EncodeToString(ctx), "the context string \"cryptocost\""},
		{"mldsa44_kat_sig", hex.EncodeToString(sig), "CIRCL ML-DSA-44: deterministic signature (FIPS 204 Algorithm 2, rnd = 0) of kat_msg with kat_ctx under the ACVP key"},
		{"mldsa44_sweep_seeds", hex.EncodeToString(seeds), sweep + ": eight seeds ξ"},
		{"mldsa44_sweep_keys_sha3", hex.EncodeToString(keys), "CIRCL ML-DSA-44: SHA3-256(pk‖sk) of each sweep seed"},
		{"mldsa44_sweep_msg", hex.EncodeToString(smsg), sweep + ": the message"},
		{"mldsa44_sweep_sigs_sha3", hex.EncodeToString(sigs), "CIRCL ML-DSA-44: SHA3-256 of the deterministic signature of sweep_msg (empty context) under each sweep key"},
	}, nil
}

// checkMLDSA proves the ACVP key with CIRCL, and that every signature in
// the header is one CIRCL's verification accepts.
func checkMLDSA(t *testing.T, v func(string) []byte) {
	t.Helper()
	pk, sk := mldsa44.NewKeyFromSeed((*[32]byte)(v("mldsa44_acvp_seed")))
	eq(t, "ML-DSA-44 ACVP keyGen pk", pk.Bytes(), v("mldsa44_acvp_pk"))
	eq(t, "ML-DSA-44 ACVP keyGen sk", sk.Bytes(), v("mldsa44_acvp_sk"))
	if !mldsa44.Verify(pk, v("mldsa44_kat_msg"), v("mldsa44_kat_ctx"), v("mldsa44_kat_sig")) {
		t.Error("CIRCL rejects the known-answer signature")
	}
	seeds, keys, sigs := v("mldsa44_sweep_seeds"), v("mldsa44_sweep_keys_sha3"), v("mldsa44_sweep_sigs_sha3")
	for i := range pqSweeps {
		pk, sk := mldsa44.NewKeyFromSeed((*[32]byte)(seeds[32*i : 32*i+32]))
		eq(t, fmt.Sprintf("ML-DSA-44 sweep key %d digest", i), sha3cat(pk.Bytes(), sk.Bytes()), keys[32*i:32*i+32])
		s := make([]byte, mldsa44.SignatureSize)
		if err := mldsa44.SignTo(sk, v("mldsa44_sweep_msg"), nil, false, s); err != nil {
			t.Fatal(err)
		}
		if !mldsa44.Verify(pk, v("mldsa44_sweep_msg"), nil, s) {
			t.Errorf("ML-DSA-44 sweep signature %d does not verify", i)
		}
		eq(t, fmt.Sprintf("ML-DSA-44 sweep signature %d digest", i), sha3cat(s), sigs[32*i:32*i+32])
	}
}
