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

/* The timed runs are known-answer tests too: keygen on Alice's and Bob's
 * private keys (RFC 7748 §6.1), the shared secret on the two vectors of
 * §5.2. Equal cycles on both inputs is the constant-time check. */
static void setup_keygen(uint8_t input)
{
	memcpy_P(scalar, input ? rfc7748_bob_priv : rfc7748_alice_priv, 32);
}

static void setup_shared(uint8_t input)
{
	memcpy_P(scalar, input ? rfc7748_2_k : rfc7748_1_k, 32);
	memcpy_P(u, input ? rfc7748_2_u : rfc7748_1_u, 32);
}

static void op_base(void) { x25519_base(out, scalar); }
static void op_shared(void) { x25519(out, scalar, u); }

static uint8_t check_keygen(uint8_t input) { return mcu_equal_P(out, input ? rfc7748_bob_pub : rfc7748_alice_pub, 32); }
static uint8_t check_shared(uint8_t input) { return mcu_equal_P(out, input ? rfc7748_2_out : rfc7748_1_out, 32); }

const char mcu_kernel[] PROGMEM = "x25519";

MCU_NAME(n_dh, "rfc7748-6.1-alice-bob");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_dh, kat_dh},
	{0, 0},
};

MCU_NAME(n_base, "keygen");
MCU_NAME(n_shared, "shared-secret");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_base, 0, sizeof scalar + sizeof out, 2, setup_keygen, op_base, check_keygen, 0},
	{n_shared, 0, sizeof scalar + sizeof u + sizeof out, 2, setup_shared, op_shared, check_shared, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
