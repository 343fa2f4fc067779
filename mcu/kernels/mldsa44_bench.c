/*
 * mldsa44_bench.c: ML-DSA-44's known-answer tests and timed operations,
 * for either kernel (mldsa44.c or mldsa44_lean.c: same functions).
 *
 * Known answers (vectors_mldsa.h, checked in mcu/pqvectors_test.go): NIST
 * ACVP ML-DSA-keyGen (FIPS 204) for key generation; for signing, the
 * deterministic signature (rnd = 0) of a message with a context under that
 * key, made by CIRCL and checked there; verification accepts it and
 * rejects it with a byte of the signature, of the message or of the
 * context changed. Every timed run is checked too.
 *
 * Timing sweep (MCU_SECRETS, eight inputs per operation; the tests build
 * images that time one, MCU_MAX_INPUTS):
 *  - keygen: eight seeds ξ;
 *  - sign: the keys of those eight seeds (made untimed in setup), one
 *    message. Signing repeats its loop until a candidate passes the
 *    rejection tests, a number of times that follows from key and message
 *    (FIPS 204 §3.4; 4.25 on average for ML-DSA-44): the spread over the
 *    eight keys is mostly whole iterations, not a leak of the key, and
 *    sampling the matrix from ρ (public) varies too. Neither operation is
 *    claimed constant time; docs/mcu.md gives the iterations of each input.
 *  - verify: the known-answer signature (public data).
 *
 * Buffers share one arena, as an application on a small part would: a
 * region the size of sk (holding sk, or pk to verify) and one the size of
 * a signature (holding the signature, or pk from key generation).
 */
#include <string.h>
#include "harness.h"
#include "mldsa44.h"
#include "fips202.h"
#include "vectors_mldsa.h"

static uint8_t x[MLDSA_SKBYTES];  /* sk, or pk for verify */
static uint8_t y[MLDSA_SIGBYTES]; /* signature, or pk from keygen */
static uint8_t seed[32], msg[sizeof mldsa44_kat_msg], ctx[sizeof mldsa44_kat_ctx];
static const uint8_t rnd[32]; /* zero: the deterministic variant */
static int status;

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

static uint8_t kat_keygen(void)
{
	memcpy_P(seed, mldsa44_acvp_seed, 32);
	mldsa44_keygen(y, x, seed);
	return mcu_equal_P(y, mldsa44_acvp_pk, MLDSA_PKBYTES) && mcu_equal_P(x, mldsa44_acvp_sk, MLDSA_SKBYTES);
}

static uint8_t kat_sign(void)
{
	memcpy_P(x, mldsa44_acvp_sk, MLDSA_SKBYTES);
	memcpy_P(msg, mldsa44_kat_msg, sizeof msg);
	memcpy_P(ctx, mldsa44_kat_ctx, sizeof ctx);
	return mldsa44_sign(y, msg, sizeof msg, ctx, sizeof ctx, rnd, x) == 0 && mcu_equal_P(y, mldsa44_kat_sig, MLDSA_SIGBYTES);
}

static void load_verify(void)
{
	memcpy_P(x, mldsa44_acvp_pk, MLDSA_PKBYTES);
	memcpy_P(y, mldsa44_kat_sig, MLDSA_SIGBYTES);
	memcpy_P(msg, mldsa44_kat_msg, sizeof msg);
	memcpy_P(ctx, mldsa44_kat_ctx, sizeof ctx);
}

static uint8_t kat_verify(void)
{
	load_verify();
	if (mldsa44_verify(y, msg, sizeof msg, ctx, sizeof ctx, x) != 1)
		return 0;
	y[MLDSA_SIG_Z + 7] ^= 1; /* a coefficient of z */
	if (mldsa44_verify(y, msg, sizeof msg, ctx, sizeof ctx, x) != 0)
		return 0;
	y[MLDSA_SIG_Z + 7] ^= 1;
	msg[0] ^= 1;
	if (mldsa44_verify(y, msg, sizeof msg, ctx, sizeof ctx, x) != 0)
		return 0;
	msg[0] ^= 1;
	return mldsa44_verify(y, msg, sizeof msg, ctx, sizeof ctx - 1, x) == 0;
}

static void setup_keygen(uint8_t i) { memcpy_P(seed, mldsa44_sweep_seeds + 32 * i, 32); }
static void op_keygen(void) { mldsa44_keygen(y, x, seed); }
static uint8_t check_keygen(uint8_t i) { return digest_is(y, MLDSA_PKBYTES, x, MLDSA_SKBYTES, mldsa44_sweep_keys_sha3 + 32 * i); }

static void setup_sign(uint8_t i)
{
	setup_keygen(i);
	op_keygen(); /* pk into y is overwritten by the signature */
	memcpy_P(msg, mldsa44_sweep_msg, sizeof msg);
}
static void op_sign(void) { status = mldsa44_sign(y, msg, sizeof msg, 0, 0, rnd, x); }
static uint8_t check_sign(uint8_t i) { return status == 0 && digest_is(y, MLDSA_SIGBYTES, 0, 0, mldsa44_sweep_sigs_sha3 + 32 * i); }

static void setup_verify(uint8_t i)
{
	(void)i;
	load_verify();
}
static void op_verify(void) { status = mldsa44_verify(y, msg, sizeof msg, ctx, sizeof ctx, x); }
static uint8_t check_verify(uint8_t i)
{
	(void)i;
	return status == 1;
}

const char mcu_kernel[] PROGMEM = "mldsa44";

MCU_NAME(n_kat_keygen, "acvp-keygen");
MCU_NAME(n_kat_sign, "circl-deterministic-sign");
MCU_NAME(n_kat_verify, "verify-and-reject-forgeries");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_kat_keygen, kat_keygen},
	{n_kat_sign, kat_sign},
	{n_kat_verify, kat_verify},
	{0, 0},
};

MCU_NAME(n_keygen, "keygen");
MCU_NAME(n_sign, "sign");
MCU_NAME(n_verify, "verify");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_keygen, 0, 32 + MLDSA_PKBYTES + MLDSA_SKBYTES, MCU_SECRETS, setup_keygen, op_keygen, check_keygen, 0},
	{n_sign, sizeof msg, MLDSA_SKBYTES + MLDSA_SIGBYTES + sizeof msg, MCU_SECRETS, setup_sign, op_sign, check_sign, 0},
	{n_verify, sizeof msg, MLDSA_PKBYTES + MLDSA_SIGBYTES + sizeof msg + sizeof ctx, 1, setup_verify, op_verify, check_verify, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
