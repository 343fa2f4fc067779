/* present_bench.c: PRESENT-80's known-answer tests and timed operations
 * (FELICS scenario 1: 128 bytes in CBC mode). */
#include <string.h>
#include "harness.h"
#include "present.h"
#include "vectors_present.h"

static uint8_t key[10], iv[8], buf[128];
static uint8_t rk[PRESENT_ROUND_KEYS][8];

/* CHES 2007 paper, Appendix I: the four test vectors. */
static uint8_t kat(void)
{
	static const uint8_t *const cts[4] = {present_ct_00, present_ct_0f, present_ct_f0, present_ct_ff};
	for (uint8_t v = 0; v < 4; v++) {
		memset(key, (v & 1) ? 0xff : 0, 10); /* key all 0 or all 1 */
		memset(buf, (v & 2) ? 0xff : 0, 8);  /* plaintext likewise */
		present80_expand_key(rk, key);
		present80_encrypt(buf, rk);
		if (!mcu_equal_P(buf, cts[v], 8))
			return 0;
		present80_decrypt(buf, rk);
		for (uint8_t i = 0; i < 8; i++)
			if (buf[i] != ((v & 2) ? 0xff : 0))
				return 0;
	}
	return 1;
}

static void setup(uint8_t input)
{
	mcu_fill(key, 10, input);
	mcu_fill(iv, 8, input + 1);
	mcu_fill(buf, sizeof buf, input + 2);
	present80_expand_key(rk, key);
}

static void op_expand(void) { present80_expand_key(rk, key); }
static void op_encrypt(void) { present80_encrypt(buf, rk); }
static void op_decrypt(void) { present80_decrypt(buf, rk); }
static void op_cbc(void) { present80_cbc_encrypt(buf, 128, iv, rk); }

const char mcu_kernel[] PROGMEM = "present80";

MCU_NAME(n_kat, "ches2007-appendix-i");

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
