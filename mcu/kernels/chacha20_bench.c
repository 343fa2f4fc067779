/* chacha20_bench.c: ChaCha20's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "chacha20.h"
#include "vectors_chacha20.h"

static uint8_t key[32], nonce[12], buf[128];

/* RFC 8439 §2.3.2: the block function. */
static uint8_t kat_block(void)
{
	memcpy_P(key, rfc8439_key, 32);
	memcpy_P(nonce, rfc8439_232_nonce, 12);
	chacha20_block(buf, key, 1, nonce);
	return mcu_equal_P(buf, rfc8439_232_block, 64);
}

/* RFC 8439 §2.4.2: 114 bytes from counter 1. */
static uint8_t kat_encrypt(void)
{
	memcpy_P(key, rfc8439_key, 32);
	memcpy_P(nonce, rfc8439_242_nonce, 12);
	memcpy_P(buf, rfc8439_242_pt, sizeof rfc8439_242_pt);
	chacha20_xor(buf, sizeof rfc8439_242_pt, key, 1, nonce);
	return mcu_equal_P(buf, rfc8439_242_ct, sizeof rfc8439_242_ct);
}

static void setup(uint8_t input)
{
	mcu_fill(key, 32, input);
	mcu_fill(nonce, 12, input + 1);
	mcu_fill(buf, sizeof buf, input + 2);
}

static void op_block(void) { chacha20_block(buf, key, 1, nonce); }
static void op_encrypt(void) { chacha20_xor(buf, 128, key, 1, nonce); }

const char mcu_kernel[] PROGMEM = "chacha20";

MCU_NAME(n_block_kat, "rfc8439-2.3.2-block");
MCU_NAME(n_encrypt_kat, "rfc8439-2.4.2-encrypt");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_block_kat, kat_block},
	{n_encrypt_kat, kat_encrypt},
	{0, 0},
};

MCU_NAME(n_block, "block");
MCU_NAME(n_encrypt, "encrypt");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_block, 64, sizeof key + sizeof nonce + 64, MCU_SECRETS, setup, op_block, 0, 0},
	{n_encrypt, 128, sizeof key + sizeof nonce + sizeof buf, MCU_SECRETS, setup, op_encrypt, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
