/*
 * mlkem_bench.c: ML-KEM's known-answer tests and timed operations, built
 * once per parameter set (-DMLKEM_K=2: ML-KEM-512, 3: ML-KEM-768) with
 * either kernel (mlkem.c or mlkem_lean.c: same functions).
 *
 * Known answers (vectors_mlkem.h, checked in mcu/pqvectors_test.go): NIST
 * ACVP ML-KEM-keyGen and -encapDecap (FIPS 203) for each function, and
 * Wycheproof's implicit-rejection case; every timed run is checked too.
 *
 * Timing sweep (MCU_SECRETS, eight inputs per operation; the tests build
 * images that time one, MCU_MAX_INPUTS):
 *  - keygen: eight seeds (d, z). ρ follows from d, and SampleNTT's
 *    rejections on it — public, ρ is in ek — vary the time: keygen is not
 *    claimed constant time.
 *  - encaps: one ek, eight messages m (the secret of encapsulation).
 *  - decaps: eight keys that share ρ (mlkem_keygen_from_seeds), so only
 *    secrets differ, and alternately a valid ciphertext and one with a bit
 *    flipped (implicit rejection): valid and rejected must take the same
 *    cycles too. The expected key is the one encapsulated (even inputs) or
 *    J(z‖c) (odd), both computed untimed in setup.
 *
 * Buffers share one arena, as an application on a small part would: a
 * region the size of dk (holding dk, or ek for encapsulation) and one the
 * size of the larger of ek and c.
 */
#include <string.h>
#include "harness.h"
#include "mlkem.h"
#include "fips202.h"
#include "vectors_mlkem.h"

#if MLKEM_K == 2
#define V(name) mlkem512_##name
#else
#define V(name) mlkem768_##name
#endif

#define YBYTES (MLKEM_PKBYTES > MLKEM_CTBYTES ? MLKEM_PKBYTES : MLKEM_CTBYTES)
static uint8_t x[MLKEM_SKBYTES]; /* dk, or ek for encaps */
static uint8_t y[YBYTES];        /* ek from keygen, or c */
static uint8_t seed[64], m[32], ss[32], want[32];
static int status;

/* SHA3-256 of a‖b equals the 32 bytes at d in flash */
static uint8_t digest_is(const uint8_t *a, uint16_t alen, const uint8_t *b, uint16_t blen, const uint8_t *d)
{
	keccak_state st;
	uint8_t h[32];
	keccak_init(&st, SHA3_256_RATE);
	keccak_absorb(&st, a, alen);
	keccak_absorb(&st, b, blen);
	keccak_finalize(&st, SHA3_DS);
	keccak_squeeze(&st, h, 32);
	return mcu_equal_P(h, d, 32);
}

/* ACVP keyGen: ML-KEM.KeyGen_internal(d, z) gives ek and dk */
static uint8_t kat_keygen(void)
{
	memcpy_P(seed, V(keygen_d), 32);
	memcpy_P(seed + 32, V(keygen_z), 32);
	mlkem_keygen(y, x, seed, seed + 32);
	return mcu_equal_P(y, V(keygen_ek), MLKEM_PKBYTES) && mcu_equal_P(x, V(keygen_dk), MLKEM_SKBYTES);
}

/* ACVP encapDecap (encapsulation): Encaps_internal(ek, m) gives c and K;
 * an ek with a coefficient ≥ q is refused (§7.2 modulus check) */
static uint8_t kat_encaps(void)
{
	memcpy_P(x, V(encaps_ek), MLKEM_PKBYTES);
	memcpy_P(m, V(encaps_m), 32);
	if (mlkem_encaps(y, ss, x, m) || !mcu_equal_P(y, V(encaps_c), MLKEM_CTBYTES) || !mcu_equal_P(ss, V(encaps_k), 32))
		return 0;
	x[0] = 0xFF, x[1] |= 0x0F; /* first coefficient 4095 */
	return mlkem_encaps(y, ss, x, m) == -1;
}

/* ACVP encapDecap (decapsulation) with an expanded dk; a dk whose H(ek)
 * does not match is refused (§7.3 hash check) */
static uint8_t kat_decaps(void)
{
	memcpy_P(x, V(decaps_dk), MLKEM_SKBYTES);
	memcpy_P(y, V(decaps_c), MLKEM_CTBYTES);
	if (mlkem_decaps(ss, y, x) || !mcu_equal_P(ss, V(decaps_k), 32))
		return 0;
	x[MLKEM_POLYVECBYTES + MLKEM_PKBYTES] ^= 1;
	return mlkem_decaps(ss, y, x) == -1;
}

/* Wycheproof: a ciphertext that does not re-encrypt gives J(z‖c) */
static uint8_t kat_reject(void)
{
	memcpy_P(seed, V(seed_dz), 64);
	mlkem_keygen(y, x, seed, seed + 32);
	memcpy_P(y, V(seed_c), MLKEM_CTBYTES);
	return mlkem_decaps(ss, y, x) == 0 && mcu_equal_P(ss, V(seed_k), 32);
}

static void setup_keygen(uint8_t i) { memcpy_P(seed, V(sweep_dz) + 64 * i, 64); }
static void op_keygen(void) { mlkem_keygen(y, x, seed, seed + 32); }
static uint8_t check_keygen(uint8_t i) { return digest_is(y, MLKEM_PKBYTES, x, MLKEM_SKBYTES, V(sweep_keys_sha3) + 32 * i); }

static void setup_encaps(uint8_t i)
{
	memcpy_P(x, V(keygen_ek), MLKEM_PKBYTES);
	memcpy_P(m, V(sweep_m) + 32 * i, 32);
}
static void op_encaps(void) { status = mlkem_encaps(y, ss, x, m); }
static uint8_t check_encaps(uint8_t i) { return status == 0 && digest_is(y, MLKEM_CTBYTES, ss, 32, V(sweep_ct_sha3) + 32 * i); }

static void setup_decaps(uint8_t i)
{
	uint8_t rho[32];
	keccak_state st;
	memcpy_P(rho, V(sweep_rho), 32);
	memcpy_P(seed, V(sweep_sigma_z) + 64 * i, 64);
	mlkem_keygen_from_seeds(y, x, rho, seed, seed + 32);
	memcpy_P(m, V(sweep_m), 32);
	mlkem_encaps(y, want, x + MLKEM_POLYVECBYTES, m); /* ek is inside dk */
	if (i & 1) {
		y[i] ^= 0x10; /* no longer re-encrypts: K = J(z‖c) */
		keccak_init(&st, SHAKE256_RATE);
		keccak_absorb(&st, seed + 32, 32);
		keccak_absorb(&st, y, MLKEM_CTBYTES);
		keccak_finalize(&st, SHAKE_DS);
		keccak_squeeze(&st, want, 32);
	}
}
static void op_decaps(void) { status = mlkem_decaps(ss, y, x); }
static uint8_t check_decaps(uint8_t i)
{
	(void)i;
	return status == 0 && memcmp(ss, want, 32) == 0;
}

#if MLKEM_K == 2
const char mcu_kernel[] PROGMEM = "mlkem512";
#else
const char mcu_kernel[] PROGMEM = "mlkem768";
#endif

MCU_NAME(n_kat_keygen, "acvp-keygen");
MCU_NAME(n_kat_encaps, "acvp-encaps");
MCU_NAME(n_kat_decaps, "acvp-decaps");
MCU_NAME(n_kat_reject, "wycheproof-implicit-rejection");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_kat_keygen, kat_keygen},
	{n_kat_encaps, kat_encaps},
	{n_kat_decaps, kat_decaps},
	{n_kat_reject, kat_reject},
	{0, 0},
};

MCU_NAME(n_keygen, "keygen");
MCU_NAME(n_encaps, "encaps");
MCU_NAME(n_decaps, "decaps");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_keygen, 0, 64 + MLKEM_PKBYTES + MLKEM_SKBYTES, MCU_SECRETS, setup_keygen, op_keygen, check_keygen, 0},
	{n_encaps, 0, MLKEM_PKBYTES + 32 + MLKEM_CTBYTES + 32, MCU_SECRETS, setup_encaps, op_encaps, check_encaps, 0},
	{n_decaps, 0, MLKEM_SKBYTES + MLKEM_CTBYTES + 32, MCU_SECRETS, setup_decaps, op_decaps, check_decaps, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
