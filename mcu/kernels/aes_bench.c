/*
 * aes_bench.c: AES-128's known-answer tests and timed operations, including
 * the two FELICS scenarios (Dinu et al., "Triathlon of lightweight block
 * ciphers for the Internet of Things", J. Cryptogr. Eng. 2019, §3.2):
 * encrypting 128 bytes in CBC mode, and 16 bytes in CTR mode.
 */
#include <string.h>
#include "harness.h"
#include "aes.h"
#include "vectors_aes.h"

static uint8_t key[16], rk[AES128_ROUND_KEYS], iv[16], buf[128];

/* FIPS 197 Appendix C.1: AES-128 encrypts and decrypts one block. */
static uint8_t kat_c1(void)
{
	memcpy_P(key, fips197_c1_key, 16);
	memcpy_P(buf, fips197_c1_pt, 16);
	aes128_expand_key(rk, key);
	aes128_encrypt(buf, rk);
	if (!mcu_equal_P(buf, fips197_c1_ct, 16))
		return 0;
	aes128_decrypt(buf, rk);
	return mcu_equal_P(buf, fips197_c1_pt, 16);
}

/* FIPS 197 Appendix A.1: the last round key of the expansion. */
static uint8_t kat_a1(void)
{
	memcpy_P(key, fips197_a1_key, 16);
	aes128_expand_key(rk, key);
	return mcu_equal_P(rk, fips197_a1_key, 16) && mcu_equal_P(rk + 160, fips197_a1_w40_43, 16);
}

/* SP 800-38A F.2.1 and F.2.2: CBC-AES128 over 64 bytes. */
static uint8_t kat_cbc(void)
{
	memcpy_P(key, sp800_38a_key, 16);
	aes128_expand_key(rk, key);
	memcpy_P(iv, sp800_38a_cbc_iv, 16);
	memcpy_P(buf, sp800_38a_pt, 64);
	aes128_cbc_encrypt(buf, 64, iv, rk);
	if (!mcu_equal_P(buf, sp800_38a_cbc_ct, 64))
		return 0;
	memcpy_P(iv, sp800_38a_cbc_iv, 16);
	aes128_cbc_decrypt(buf, 64, iv, rk);
	return mcu_equal_P(buf, sp800_38a_pt, 64);
}

/* SP 800-38A F.5.1: CTR-AES128 over 64 bytes. */
static uint8_t kat_ctr(void)
{
	memcpy_P(key, sp800_38a_key, 16);
	aes128_expand_key(rk, key);
	memcpy_P(iv, sp800_38a_ctr_iv, 16);
	memcpy_P(buf, sp800_38a_pt, 64);
	aes128_ctr(buf, 64, iv, rk);
	return mcu_equal_P(buf, sp800_38a_ctr_ct, 64);
}

/* Timed inputs: a key, IV and data derived from the input number. */
static void setup(uint8_t input)
{
	mcu_fill(key, 16, input);
	mcu_fill(iv, 16, input + 100);
	mcu_fill(buf, 128, input + 200);
	aes128_expand_key(rk, key);
}

static void op_expand(void) { aes128_expand_key(rk, key); }
static void op_encrypt(void) { aes128_encrypt(buf, rk); }
static void op_decrypt(void) { aes128_decrypt(buf, rk); }
static void op_cbc_encrypt(void) { aes128_cbc_encrypt(buf, 128, iv, rk); }
static void op_cbc_decrypt(void) { aes128_cbc_decrypt(buf, 128, iv, rk); }
static void op_ctr(void) { aes128_ctr(buf, 16, iv, rk); }

const char mcu_kernel[] PROGMEM = "aes128";

MCU_NAME(n_c1, "fips197-c1");
MCU_NAME(n_a1, "fips197-a1-key-expansion");
MCU_NAME(n_cbc, "sp800-38a-f2-cbc");
MCU_NAME(n_ctr, "sp800-38a-f5-ctr");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_c1, kat_c1},
	{n_a1, kat_a1},
	{n_cbc, kat_cbc},
	{n_ctr, kat_ctr},
	{0, 0},
};

MCU_NAME(n_expand, "key-schedule");
MCU_NAME(n_encrypt, "encrypt");
MCU_NAME(n_decrypt, "decrypt");
MCU_NAME(n_cbc_encrypt, "cbc-encrypt");
MCU_NAME(n_cbc_decrypt, "cbc-decrypt");
MCU_NAME(n_ctr_op, "ctr");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_expand, 0, sizeof key + sizeof rk, MCU_SECRETS, setup, op_expand, 0, 0},
	{n_encrypt, 16, 16 + sizeof rk, MCU_SECRETS, setup, op_encrypt, 0, 0},
	{n_decrypt, 16, 16 + sizeof rk, MCU_SECRETS, setup, op_decrypt, 0, 0},
	{n_cbc_encrypt, 128, sizeof buf + sizeof iv + sizeof rk, MCU_SECRETS, setup, op_cbc_encrypt, 0, 0},
	{n_cbc_decrypt, 128, sizeof buf + sizeof iv + sizeof rk, MCU_SECRETS, setup, op_cbc_decrypt, 0, 0},
	{n_ctr_op, 16, 16 + sizeof iv + sizeof rk, MCU_SECRETS, setup, op_ctr, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
