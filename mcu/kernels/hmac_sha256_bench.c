/* hmac_sha256_bench.c: HMAC-SHA256's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "hmac_sha256.h"
#include "vectors_hmac_sha256.h"

static uint8_t key[131], msg[1024], mac[32];

static uint8_t kat(const uint8_t *k_P, uint16_t klen, const uint8_t *m_P, uint16_t mlen, const uint8_t *want_P)
{
	memcpy_P(key, k_P, klen);
	memcpy_P(msg, m_P, mlen);
	hmac_sha256(mac, key, klen, msg, mlen);
	return mcu_equal_P(mac, want_P, 32);
}

/* RFC 4231 §4.2, §4.3 and §4.7: a short key, a key shorter than the
 * output, and a key longer than a block (hashed first). */
static uint8_t kat_1(void) { return kat(rfc4231_1_key, sizeof rfc4231_1_key, rfc4231_1_data, sizeof rfc4231_1_data, rfc4231_1_mac); }
static uint8_t kat_2(void) { return kat(rfc4231_2_key, sizeof rfc4231_2_key, rfc4231_2_data, sizeof rfc4231_2_data, rfc4231_2_mac); }
static uint8_t kat_6(void) { return kat(rfc4231_6_key, sizeof rfc4231_6_key, rfc4231_6_data, sizeof rfc4231_6_data, rfc4231_6_mac); }

static void setup(uint8_t input)
{
	mcu_fill(key, 32, input);
	mcu_fill(msg, sizeof msg, 100); /* the secret changes, not the message */
}

/* A 32-byte key, as HKDF or a pre-shared key would give. */
static void op_mac32(void) { hmac_sha256(mac, key, 32, msg, 32); }
static void op_mac1k(void) { hmac_sha256(mac, key, 32, msg, 1024); }

const char mcu_kernel[] PROGMEM = "hmac-sha256";

MCU_NAME(n_1, "rfc4231-tc1");
MCU_NAME(n_2, "rfc4231-tc2");
MCU_NAME(n_6, "rfc4231-tc6");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_1, kat_1},
	{n_2, kat_2},
	{n_6, kat_6},
	{0, 0},
};

MCU_NAME(n_mac, "mac");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_mac, 32, 32 + 32 + sizeof mac, MCU_SECRETS, setup, op_mac32, 0, 0},
	{n_mac, 1024, 32 + sizeof msg + sizeof mac, MCU_SECRETS, setup, op_mac1k, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
