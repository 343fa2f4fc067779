/* x25519_bench.c: X25519's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "x25519.h"
#include "vectors_x25519.h"

static uint8_t scalar[32], u[32], out[32];

/* RFC 7748 §6.1: Alice's and Bob's public keys give the same shared
 * secret (one ladder: Bob's key with Alice's private key). */
static uint8_t kat_dh(void)
{
	memcpy_P(scalar, rfc7748_alice_priv, 32);
	memcpy_P(u, rfc7748_bob_pub, 32);
	x25519(out, scalar, u);
	return mcu_equal_P(out, rfc7748_shared, 32);
}

/* RFC 7748 §5.2: both scalar multiplication vectors (the second one's u
 * has its top bit set, which must be masked). */
static uint8_t kat_52(void)
{
	memcpy_P(scalar, rfc7748_1_k, 32);
	memcpy_P(u, rfc7748_1_u, 32);
	x25519(out, scalar, u);
	if (!mcu_equal_P(out, rfc7748_1_out, 32))
		return 0;
	memcpy_P(scalar, rfc7748_2_k, 32);
	memcpy_P(u, rfc7748_2_u, 32);
	x25519(out, scalar, u);
	return mcu_equal_P(out, rfc7748_2_out, 32);
}

/* The timed runs are known-answer tests too, on eight secrets (the first
 * two are RFC 7748 §6.1's private keys): keygen gives each one's public
 * key, the shared secret is each one with Bob's public key; the outputs of
 * x/crypto/curve25519 check them. Equal cycles on all eight is the
 * constant-time check. */
static void setup(uint8_t input)
{
	memcpy_P(scalar, x25519_secrets + 32 * input, 32);
	memcpy_P(u, rfc7748_bob_pub, 32);
}

static void op_base(void) { x25519_base(out, scalar); }
static void op_shared(void) { x25519(out, scalar, u); }

static uint8_t check_keygen(uint8_t input) { return mcu_equal_P(out, x25519_secrets_public + 32 * input, 32); }
static uint8_t check_shared(uint8_t input) { return mcu_equal_P(out, x25519_secrets_shared + 32 * input, 32); }

const char mcu_kernel[] PROGMEM = "x25519";

MCU_NAME(n_dh, "rfc7748-6.1-alice-bob");
MCU_NAME(n_52, "rfc7748-5.2");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_dh, kat_dh},
	{n_52, kat_52},
	{0, 0},
};

MCU_NAME(n_base, "keygen");
MCU_NAME(n_shared, "shared-secret");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_base, 0, sizeof scalar + sizeof out, MCU_SECRETS, setup, op_base, check_keygen, 0},
	{n_shared, 0, sizeof scalar + sizeof u + sizeof out, MCU_SECRETS, setup, op_shared, check_shared, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
