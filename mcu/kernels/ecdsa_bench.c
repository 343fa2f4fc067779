/*
 * ecdsa_bench.c: ECDSA's known-answer tests and timed operations, built
 * once per curve (-DECC_CURVE_SECP128R1, _SECP160R1, _SECP192R1, _P256) and
 * style (ecc_fast.c or ecc_ct.c linked in).
 *
 * Every timed run is also a known answer: input i signs the message of
 * RFC 6979 §A.2 ("sample", SHA-256) with private key i and its RFC 6979
 * nonce, and the public key and signature must equal the ones computed by
 * Go (vectors_ecdsa_*.h; on P-256 and secp192r1 input 0 is the RFC's own
 * vector). Key generation and signing run on MCU_SECRETS (8) different
 * secrets with the same message, so their cycles show whether the time
 * depends on the secret; verification handles no secret and runs twice.
 * The signature covers hashing the message, as an application's call
 * would; the nonce is an input (RFC 6979's HMAC-DRBG derivation, or a
 * random generator, is not timed).
 */
#include <string.h>
#include "harness.h"
#include "ecdsa.h"
#include "sha256.h"

#if defined(ECC_CURVE_SECP128R1)
#include "vectors_ecdsa_secp128r1.h"
#elif defined(ECC_CURVE_SECP160R1)
#include "vectors_ecdsa_secp160r1.h"
#elif defined(ECC_CURVE_SECP192R1)
#include "vectors_ecdsa_secp192r1.h"
#elif defined(ECC_CURVE_P256)
#include "vectors_ecdsa_p256.h"
#endif

/* Key generation and signing are timed on MCU_SECRETS (8) secrets, the
 * keys and nonces the vector headers hold. A test build may time fewer
 * (MCU_MAX_INPUTS), or (ECDSA_SIGN_ONLY) time signing alone; the
 * known-answer tests always run. */
#if MCU_SECRETS > 8
#error "the ECDSA vector headers hold 8 keys and nonces"
#endif

static uint8_t d[ECC_NB], k[ECC_NB], pub[ECDSA_PUBLIC_BYTES], sig[ECDSA_SIGNATURE_BYTES], msg[sizeof ecdsa_msg];
static uint8_t ok;

static void setup(uint8_t input)
{
	memcpy_P(d, ecdsa_d + input * ECC_NB, ECC_NB);
	memcpy_P(k, ecdsa_k + input * ECC_NB, ECC_NB);
	memcpy_P(pub, ecdsa_pub + input * ECDSA_PUBLIC_BYTES, ECDSA_PUBLIC_BYTES);
	memcpy_P(sig, ecdsa_sig + input * ECDSA_SIGNATURE_BYTES, ECDSA_SIGNATURE_BYTES);
	memcpy_P(msg, ecdsa_msg, sizeof msg);
	ok = 0;
}

static void op_keygen(void) { ecdsa_public_key(pub, d); }

static void op_sign(void)
{
	uint8_t h[32];
	sha256(h, msg, sizeof msg);
	ok = ecdsa_sign(sig, h, sizeof h, d, k);
}

static void op_verify(void)
{
	uint8_t h[32];
	sha256(h, msg, sizeof msg);
	ok = ecdsa_verify(sig, h, sizeof h, pub);
}

static uint8_t check_keygen(uint8_t input) { return mcu_equal_P(pub, ecdsa_pub + input * ECDSA_PUBLIC_BYTES, ECDSA_PUBLIC_BYTES); }
static uint8_t check_sign(uint8_t input) { return ok && mcu_equal_P(sig, ecdsa_sig + input * ECDSA_SIGNATURE_BYTES, ECDSA_SIGNATURE_BYTES); }
static uint8_t check_verify(uint8_t input) { (void)input; return ok; }

/* Verification accepts input 0's signature and rejects it on a message
 * with one bit changed. (The host tests, ecchost_test.go, try more
 * forgeries: s changed, r = 0, a key off the curve.) */
static uint8_t kat_accept(void)
{
	setup(0);
	op_verify();
	return ok;
}

static uint8_t kat_forgery(void)
{
	setup(0);
	msg[0] ^= 1;
	op_verify();
	return !ok;
}

const char mcu_kernel[] PROGMEM = "ecdsa-" ECC_CURVE_NAME;

MCU_NAME(n_accept, "verify-accepts-vector-0");
MCU_NAME(n_forgery, "verify-rejects-forgery");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_accept, kat_accept},
	{n_forgery, kat_forgery},
	{0, 0},
};

MCU_NAME(n_keygen, "keygen");
MCU_NAME(n_sign, "sign");
MCU_NAME(n_verify, "verify");

const struct mcu_op mcu_ops[] PROGMEM = {
#ifndef ECDSA_SIGN_ONLY
	{n_keygen, 0, sizeof d + sizeof pub, MCU_SECRETS, setup, op_keygen, check_keygen, 0},
#endif
	{n_sign, sizeof msg, sizeof d + sizeof k + sizeof msg + sizeof sig, MCU_SECRETS, setup, op_sign, check_sign, 0},
#ifndef ECDSA_SIGN_ONLY
	{n_verify, sizeof msg, sizeof pub + sizeof msg + sizeof sig, 2, setup, op_verify, check_verify, 0},
#endif
	{0, 0, 0, 0, 0, 0, 0, 0},
};
