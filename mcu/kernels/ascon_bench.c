/* ascon_bench.c: Ascon-AEAD128's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "ascon.h"
#include "vectors_ascon.h"

static uint8_t key[16], nonce[16], ad[32], buf[128], tag[16];

/* One entry of the Ascon team's KAT file: PT and AD are prefixes of
 * 20 21 22 ... and 30 31 32 ...; CT is the ciphertext then the tag. */
static uint8_t kat(uint8_t ptlen, uint8_t adlen, const uint8_t *ct_P)
{
	memcpy_P(key, ascon_key, 16);
	memcpy_P(nonce, ascon_nonce, 16);
	memcpy_P(ad, ascon_ad, adlen);
	memcpy_P(buf, ascon_pt, ptlen);
	ascon_aead128_encrypt(buf, tag, buf, ptlen, ad, adlen, nonce, key);
	if (!mcu_equal_P(buf, ct_P, ptlen) || !mcu_equal_P(tag, ct_P + ptlen, 16))
		return 0;
	if (!ascon_aead128_decrypt(buf, buf, ptlen, tag, ad, adlen, nonce, key) ||
	    !mcu_equal_P(buf, ascon_pt, ptlen))
		return 0;
	tag[15] ^= 1; /* a forged tag must not verify */
	return !ascon_aead128_decrypt(buf, buf, ptlen, tag, ad, adlen, nonce, key);
}

static uint8_t kat_1(void) { return kat(0, 0, ascon_count_1); }
static uint8_t kat_563(void) { return kat(17, 1, ascon_count_563); }
static uint8_t kat_1089(void) { return kat(32, 32, ascon_count_1089); }

static void setup(uint8_t input)
{
	mcu_fill(key, 16, input);
	mcu_fill(nonce, 16, input + 1);
	mcu_fill(buf, sizeof buf, input + 2);
	ascon_aead128_encrypt(buf, tag, buf, sizeof buf, 0, 0, nonce, key);
}

static void op_encrypt16(void) { ascon_aead128_encrypt(buf, tag, buf, 16, 0, 0, nonce, key); }
static void op_encrypt128(void) { ascon_aead128_encrypt(buf, tag, buf, 128, 0, 0, nonce, key); }
static void op_decrypt128(void) { ascon_aead128_decrypt(buf, buf, 128, tag, 0, 0, nonce, key); }
static uint8_t check_decrypt(uint8_t input)
{
	uint8_t want[128];
	mcu_fill(want, sizeof want, input + 2);
	return memcmp(buf, want, sizeof want) == 0;
}

const char mcu_kernel[] PROGMEM = "ascon-aead128";

MCU_NAME(n_1, "sp800-232-kat-count-1");
MCU_NAME(n_563, "sp800-232-kat-count-563");
MCU_NAME(n_1089, "sp800-232-kat-count-1089");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_1, kat_1},
	{n_563, kat_563},
	{n_1089, kat_1089},
	{0, 0},
};

MCU_NAME(n_encrypt, "encrypt");
MCU_NAME(n_decrypt, "decrypt");

#define STATE (sizeof key + sizeof nonce + sizeof tag)
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_encrypt, 16, STATE + 16, MCU_SECRETS, setup, op_encrypt16, 0, 0},
	{n_encrypt, 128, STATE + 128, MCU_SECRETS, setup, op_encrypt128, 0, 0},
	{n_decrypt, 128, STATE + 128, MCU_SECRETS, setup, op_decrypt128, check_decrypt, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
