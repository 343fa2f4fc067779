/* ed25519_bench.c: Ed25519's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "ed25519.h"
#include "vectors_ed25519.h"

static uint8_t seed[32], pk[32], msg[64], sig[64];
static uint8_t valid;

/* RFC 8032 §7.1 TEST 2: the signature of one byte, its verification, and
 * a rejected forgery (the public key is checked by the keygen operation on
 * TEST SHA(abc)). */
static uint8_t kat_test2(void)
{
	memcpy_P(seed, rfc8032_2_secret, 32);
	memcpy_P(pk, rfc8032_2_public, 32);
	memcpy_P(msg, rfc8032_2_msg, sizeof rfc8032_2_msg);
	ed25519_sign(sig, msg, sizeof rfc8032_2_msg, seed, pk);
	if (!mcu_equal_P(sig, rfc8032_2_sig, 64))
		return 0;
	if (!ed25519_verify(sig, msg, sizeof rfc8032_2_msg, pk))
		return 0;
	msg[0] ^= 1;
	return !ed25519_verify(sig, msg, sizeof rfc8032_2_msg, pk);
}

/* Keygen and sign are timed on eight secrets (the first is RFC 8032 §7.1
 * TEST SHA(abc)'s, the second ed25519_go_secret), each signing TEST
 * SHA(abc)'s 64-byte message: one message, eight secrets (and so eight
 * nonces, derived from the secret). Go's crypto/ed25519 computed each
 * public key and signature; every output is checked. */
static void setup_secret(uint8_t input)
{
	memcpy_P(seed, ed25519_secrets + 32 * input, 32);
	memcpy_P(pk, ed25519_secrets_public + 32 * input, 32);
	memcpy_P(msg, rfc8032_abc_msg, 64);
}

/* Verify handles public data only: TEST SHA(abc)'s signature, and another
 * key's signature of another message of the same length. */
static void setup_verify(uint8_t input)
{
	memcpy_P(msg, input ? ed25519_go_msg : rfc8032_abc_msg, 64);
	memcpy_P(pk, input ? ed25519_go_public : rfc8032_abc_public, 32);
	memcpy_P(sig, input ? ed25519_go_sig : rfc8032_abc_sig, 64);
}

static void op_keygen(void) { ed25519_public_key(pk, seed); }
static void op_sign(void) { ed25519_sign(sig, msg, 64, seed, pk); }
static void op_verify(void) { valid = ed25519_verify(sig, msg, 64, pk); }

static uint8_t check_keygen(uint8_t input) { return mcu_equal_P(pk, ed25519_secrets_public + 32 * input, 32); }
static uint8_t check_sign(uint8_t input) { return mcu_equal_P(sig, ed25519_secrets_sig + 64 * input, 64); }
static uint8_t check_verify(uint8_t input) { (void)input; return valid; }

const char mcu_kernel[] PROGMEM = "ed25519";

MCU_NAME(n_test2, "rfc8032-7.1-test-2");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_test2, kat_test2},
	{0, 0},
};

MCU_NAME(n_keygen, "keygen");
MCU_NAME(n_sign, "sign");
MCU_NAME(n_verify, "verify");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_keygen, 0, sizeof seed + sizeof pk, MCU_SECRETS, setup_secret, op_keygen, check_keygen, 0},
	{n_sign, 64, sizeof seed + sizeof pk + sizeof msg + sizeof sig, MCU_SECRETS, setup_secret, op_sign, check_sign, 0},
	{n_verify, 64, sizeof pk + sizeof msg + sizeof sig, 2, setup_verify, op_verify, check_verify, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
