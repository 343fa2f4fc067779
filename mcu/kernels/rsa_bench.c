/*
 * rsa_bench.c: the RSA private-key operation, built once per key size
 * (RSA_BITS = 512, 1024 or 2048) and variant:
 *   RSA_SM              S004's square-and-multiply, key in SRAM
 *   RSA_SM + RSA_KEY_IN_FLASH   the same with n and d read from flash
 *   RSA_CRT             Montgomery ladder with the CRT (key in SRAM)
 * The keys were made by OpenSSL with e = 3, as in S004; vectors_rsa.h holds
 * them and two messages (EMSA-PKCS1-v1_5 encodings, RFC 8017 §9.2) with
 * their signatures m^d mod n, computed with Go's math/big.
 */
#include <string.h>
#include "harness.h"
#include "vectors_rsa.h"

#define LEN (RSA_BITS / 8)
#define HALF (LEN / 2)

static uint8_t x[LEN], out[LEN];

#if defined(RSA_CRT)
#include "rsa_crt.h"

static uint8_t p[HALF], q[HALF], dp[HALF], dq[HALF], qinv_r[HALF], r2p[HALF], r3p[HALF], r2q[HALF], r3q[HALF];
static uint8_t scratch[RSA_CRT_SCRATCH(HALF)];
static const struct rsa_crt_key key = {p, q, dp, dq, qinv_r, r2p, r3p, r2q, r3q, RSA_PINV, RSA_QINV8, HALF};
#define KEY_STATE (9 * HALF)

static void load_key(void)
{
	memcpy_P(p, rsa_p, HALF);
	memcpy_P(q, rsa_q, HALF);
	memcpy_P(dp, rsa_dp, HALF);
	memcpy_P(dq, rsa_dq, HALF);
	memcpy_P(qinv_r, rsa_qinv_r, HALF);
	memcpy_P(r2p, rsa_r2p, HALF);
	memcpy_P(r3p, rsa_r3p, HALF);
	memcpy_P(r2q, rsa_r2q, HALF);
	memcpy_P(r3q, rsa_r3q, HALF);
}

static void op_private(void) { rsa_crt_private(out, x, &key, scratch); }
#define PROBE 0 /* the ladder runs over every bit whatever the key: no shortcut */

const struct mcu_kat mcu_kats[] PROGMEM = {{0, 0}};

#else
#include "rsa_sm.h"

static uint8_t scratch[2 * LEN];
#ifdef RSA_KEY_IN_FLASH
#define N rsa_n
#define D rsa_d
static const uint8_t E[LEN] PROGMEM = {3};
#define KEY_STATE 0
static void load_key(void) {}
#else
static uint8_t N[LEN], D[LEN], E[LEN];
#define KEY_STATE (2 * LEN)
static void load_key(void)
{
	memcpy_P(N, rsa_n, LEN);
	memcpy_P(D, rsa_d, LEN);
	memset(E, 0, LEN);
	E[0] = 3;
}
#endif

static const uint8_t *exponent = D;
static void op_private(void) { rsa_sm_private(out, x, exponent, N, LEN, scratch); }

/* The stack probe: the same function with the exponent 3, which runs the
 * same calls with the same frames; the depth does not depend on d. */
static void probe(void)
{
	load_key();
	memcpy_P(x, rsa_s0, LEN);
	exponent = E;
}
#define PROBE probe

/* The public operation s^3 mod n with the same code and key storage: it
 * must give back the first message. */
static uint8_t kat_public(void)
{
	load_key();
	memcpy_P(x, rsa_s0, LEN);
	rsa_sm_private(out, x, E, N, LEN, scratch);
	return mcu_equal_P(out, rsa_m0, LEN);
}

MCU_NAME(n_public, "pkcs1-v1.5-signature-e3");
const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_public, kat_public},
	{0, 0},
};
#endif

/* Input 0 and 1: the two messages; the output is checked against the
 * signature computed with math/big, so the timed run is also the private
 * operation's known-answer test. */
static void setup(uint8_t input)
{
	load_key();
	memcpy_P(x, input ? rsa_m1 : rsa_m0, LEN);
#if !defined(RSA_CRT)
	exponent = D;
#endif
}

static uint8_t check(uint8_t input) { return mcu_equal_P(out, input ? rsa_s1 : rsa_s0, LEN); }

#if defined(RSA_CRT)
const char mcu_kernel[] PROGMEM = "rsa-crt";
#define INPUTS 2 /* constant time: both messages must take the same cycles */
#elif defined(RSA_KEY_IN_FLASH)
const char mcu_kernel[] PROGMEM = "rsa-sm-flash";
#define INPUTS 1
#else
const char mcu_kernel[] PROGMEM = "rsa-sm-sram";
#define INPUTS 1
#endif

MCU_NAME(n_private, "private");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_private, 0, KEY_STATE + sizeof x + sizeof out + sizeof scratch, INPUTS, setup, op_private, check, PROBE},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
