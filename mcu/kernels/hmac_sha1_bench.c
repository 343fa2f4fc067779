/* hmac_sha1_bench.c: HMAC-SHA1's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "hmac_sha1.h"
#include "vectors_hmac_sha1.h"

static uint8_t key[80], msg[1024], mac[20];

static uint8_t kat(const uint8_t *k_P, uint16_t klen, const uint8_t *m_P, uint16_t mlen, const uint8_t *want_P)
{
	memcpy_P(key, k_P, klen);
	memcpy_P(msg, m_P, mlen);
	hmac_sha1(mac, key, klen, msg, mlen);
	return mcu_equal_P(mac, want_P, 20);
}

/* RFC 2202 §3 test cases 1, 2 and 6: a 20-byte key, a short key, and a key
 * longer than a block (hashed first). */
static uint8_t kat_1(void) { return kat(rfc2202_1_key, sizeof rfc2202_1_key, rfc2202_1_data, sizeof rfc2202_1_data, rfc2202_1_mac); }
static uint8_t kat_2(void) { return kat(rfc2202_2_key, sizeof rfc2202_2_key, rfc2202_2_data, sizeof rfc2202_2_data, rfc2202_2_mac); }
static uint8_t kat_6(void) { return kat(rfc2202_6_key, sizeof rfc2202_6_key, rfc2202_6_data, sizeof rfc2202_6_data, rfc2202_6_mac); }

/* Secret i: a 20-byte key (the hash's output size, RFC 2104 §3's minimum
 * recommended length) derived from i; the message is the same for all. */
static void setup(uint8_t input)
{
	mcu_fill(key, 20, input);
	mcu_fill(msg, sizeof msg, 100);
}

static void op_mac32(void) { hmac_sha1(mac, key, 20, msg, 32); }
static void op_mac1k(void) { hmac_sha1(mac, key, 20, msg, 1024); }

const char mcu_kernel[] PROGMEM = "hmac-sha1";

MCU_NAME(n_1, "rfc2202-tc1");
MCU_NAME(n_2, "rfc2202-tc2");
MCU_NAME(n_6, "rfc2202-tc6");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_1, kat_1},
	{n_2, kat_2},
	{n_6, kat_6},
	{0, 0},
};

MCU_NAME(n_mac, "mac");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_mac, 32, 20 + 32 + sizeof mac, MCU_SECRETS, setup, op_mac32, 0, 0},
	{n_mac, 1024, 20 + sizeof msg + sizeof mac, MCU_SECRETS, setup, op_mac1k, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
