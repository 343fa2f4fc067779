/* speck_bench.c: Speck64/128's known-answer test and timed operations
 * (FELICS scenario 1: 128 bytes in CBC mode). */
#include <string.h>
#include "harness.h"
#include "speck.h"
#include "vectors_speck.h"

static uint8_t key[16], iv[8], buf[128];
static uint32_t rk[SPECK64_128_ROUNDS];

/* ePrint 2013/404 Appendix C, Speck64/128. */
static uint8_t kat(void)
{
	memcpy_P(key, speck64_128_key, 16);
	memcpy_P(buf, speck64_128_pt, 8);
	speck64_128_expand_key(rk, key);
	speck64_128_encrypt(buf, rk);
	if (!mcu_equal_P(buf, speck64_128_ct, 8))
		return 0;
	speck64_128_decrypt(buf, rk);
	return mcu_equal_P(buf, speck64_128_pt, 8);
}

static void setup(uint8_t input)
{
	mcu_fill(key, 16, input);
	mcu_fill(iv, 8, input + 1);
	mcu_fill(buf, sizeof buf, input + 2);
	speck64_128_expand_key(rk, key);
}

static void op_expand(void) { speck64_128_expand_key(rk, key); }
static void op_encrypt(void) { speck64_128_encrypt(buf, rk); }
static void op_decrypt(void) { speck64_128_decrypt(buf, rk); }
static void op_cbc(void) { speck64_128_cbc_encrypt(buf, 128, iv, rk); }

const char mcu_kernel[] PROGMEM = "speck64-128";

MCU_NAME(n_kat, "eprint2013-404-appendix-c");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_kat, kat},
	{0, 0},
};

MCU_NAME(n_expand, "key-schedule");
MCU_NAME(n_encrypt, "encrypt");
MCU_NAME(n_decrypt, "decrypt");
MCU_NAME(n_cbc, "cbc-encrypt");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_expand, 0, sizeof key + sizeof rk, MCU_SECRETS, setup, op_expand, 0, 0},
	{n_encrypt, 8, 8 + sizeof rk, MCU_SECRETS, setup, op_encrypt, 0, 0},
	{n_decrypt, 8, 8 + sizeof rk, MCU_SECRETS, setup, op_decrypt, 0, 0},
	{n_cbc, 128, sizeof buf + sizeof iv + sizeof rk, MCU_SECRETS, setup, op_cbc, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
