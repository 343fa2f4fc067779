/*
 * rsa_bench.c: the RSA private-key operation, built once per key size
 * (RSA_BITS = 512, 1024 or 2048) and variant:
 *   RSA_SM              S004's square-and-multiply, key in SRAM
 *   RSA_SM + RSA_KEY_IN_FLASH   the same with n and d read from flash
 *   RSA_CRT             Montgomery ladder with the CRT (key in SRAM)
 * The keys were made by OpenSSL with e = 3, as in S004; vectors_rsa.h holds
 * eight of them per size and a message (an EMSA-PKCS1-v1_5 encoding, RFC
 * 8017 §9.2) with its signature m^d mod n under each key, computed with
 * Go's math/big. The private operation is timed on the eight keys — eight
 * secrets, one message — and each output is checked.
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
static struct rsa_crt_key key = {p, q, dp, dq, qinv_r, r2p, r3p, r2q, r3q, 0, 0, HALF};
#define KEY_STATE (9 * HALF)

static void load_key(uint8_t i)
{
	memcpy_P(p, rsa_p[i], HALF);
	memcpy_P(q, rsa_q[i], HALF);
	memcpy_P(dp, rsa_dp[i], HALF);
	memcpy_P(dq, rsa_dq[i], HALF);
	memcpy_P(qinv_r, rsa_qinv_r[i], HALF);
	memcpy_P(r2p, rsa_r2p[i], HALF);
	memcpy_P(r3p, rsa_r3p[i], HALF);
	memcpy_P(r2q, rsa_r2q[i], HALF);
	memcpy_P(r3q, rsa_r3q[i], HALF);
	key.pinv = pgm_read_byte(&rsa_pinv[i]);
	key.qinv8 = pgm_read_byte(&rsa_qinv8[i]);
}

static void op_private(void) { rsa_crt_private(out, x, &key, scratch); }
#define PROBE 0 /* the ladder runs over every bit whatever the key: no shortcut */

/* The second message under key 0: the CRT recombination on another input. */
static uint8_t kat_private(void)
{
	load_key(0);
	memcpy_P(x, rsa_m1, LEN);
	rsa_crt_private(out, x, &key, scratch);
	return mcu_equal_P(out, rsa_s1, LEN);
}

MCU_NAME(n_private_kat, "pkcs1-v1.5-signature-key0-m1");
const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_private_kat, kat_private},
	{0, 0},
};

#else
#include "rsa_sm.h"

static uint8_t scratch[2 * LEN];
static const uint8_t E[LEN] PROGMEM = {3};
#ifdef RSA_KEY_IN_FLASH
static const uint8_t *N = rsa_n[0], *D = rsa_d[0];
#define KEY_STATE 0
static void load_key(uint8_t i)
{
	N = rsa_n[i];
	D = rsa_d[i];
}
static const uint8_t *public_exponent(void) { return E; }
#else
static uint8_t N[LEN], D[LEN], E_ram[LEN];
#define KEY_STATE (2 * LEN)
static void load_key(uint8_t i)
{
	memcpy_P(N, rsa_n[i], LEN);
	memcpy_P(D, rsa_d[i], LEN);
}
static const uint8_t *public_exponent(void)
{
	memcpy_P(E_ram, E, LEN);
	return E_ram;
}
#endif

static const uint8_t *exponent;
static void op_private(void) { rsa_sm_private(out, x, exponent, N, LEN, scratch); }

/* The stack probe: the same function with the exponent 3, which runs the
 * same calls with the same frames; the depth does not depend on d. */
static void probe(void)
{
	load_key(0);
	memcpy_P(x, rsa_s[0], LEN);
	exponent = public_exponent();
}
#define PROBE probe

/* The public operation s^3 mod n with the same code and key storage: it
 * must give back the message, and the second message's signature too. */
static uint8_t kat_public(void)
{
	load_key(0);
	memcpy_P(x, rsa_s[0], LEN);
	rsa_sm_private(out, x, public_exponent(), N, LEN, scratch);
	if (!mcu_equal_P(out, rsa_m0, LEN))
		return 0;
	memcpy_P(x, rsa_s1, LEN);
	rsa_sm_private(out, x, public_exponent(), N, LEN, scratch);
	return mcu_equal_P(out, rsa_m1, LEN);
}

MCU_NAME(n_public, "pkcs1-v1.5-signature-e3");
const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_public, kat_public},
	{0, 0},
};
#endif

/* Input i: key i (secret i) and the first message; the output is checked
 * against the signature computed with math/big, so every timed run is also
 * a known-answer test of the private operation. */
static void setup(uint8_t input)
{
	load_key(input);
	memcpy_P(x, rsa_m0, LEN);
#if !defined(RSA_CRT)
	exponent = D;
#endif
}

static uint8_t check(uint8_t input) { return mcu_equal_P(out, rsa_s[input], LEN); }

#if defined(RSA_CRT)
const char mcu_kernel[] PROGMEM = "rsa-crt";
#elif defined(RSA_KEY_IN_FLASH)
const char mcu_kernel[] PROGMEM = "rsa-sm-flash";
#else
const char mcu_kernel[] PROGMEM = "rsa-sm-sram";
#endif

MCU_NAME(n_private, "private");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_private, 0, KEY_STATE + sizeof x + sizeof out + sizeof scratch, MCU_SECRETS, setup, op_private, check, PROBE},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
