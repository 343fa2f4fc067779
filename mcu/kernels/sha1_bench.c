/* sha1_bench.c: SHA-1's known-answer tests and timed operations. */
#include <string.h>
#include "harness.h"
#include "sha1.h"
#include "vectors_sha1.h"

static uint8_t msg[1024], digest[20];
static uint32_t h[5];

static uint8_t kat(const uint8_t *m_P, uint16_t len, const uint8_t *want_P)
{
	memcpy_P(msg, m_P, len);
	sha1(digest, msg, len);
	return mcu_equal_P(digest, want_P, 20);
}

/* FIPS 180-4 examples (NIST, SHA1.pdf): one block and two blocks. */
static uint8_t kat_abc(void) { return kat(sha1_abc_msg, sizeof sha1_abc_msg, sha1_abc_md); }
static uint8_t kat_two(void) { return kat(sha1_2block_msg, sizeof sha1_2block_msg, sha1_2block_md); }

/* Hashing handles public data: two inputs show it does not depend on it. */
static void setup(uint8_t input)
{
	mcu_fill(msg, sizeof msg, input);
	mcu_fill((uint8_t *)h, sizeof h, input + 1);
}

static void op_compress(void) { sha1_compress(h, msg); }
static void op_hash32(void) { sha1(digest, msg, 32); }
static void op_hash1k(void) { sha1(digest, msg, 1024); }

const char mcu_kernel[] PROGMEM = "sha1";

MCU_NAME(n_abc, "fips180-4-abc");
MCU_NAME(n_two, "fips180-4-two-blocks");

const struct mcu_kat mcu_kats[] PROGMEM = {
	{n_abc, kat_abc},
	{n_two, kat_two},
	{0, 0},
};

MCU_NAME(n_compress, "compress");
MCU_NAME(n_hash, "hash");

const struct mcu_op mcu_ops[] PROGMEM = {
	{n_compress, 64, sizeof h + 64, 2, setup, op_compress, 0, 0},
	{n_hash, 32, 32 + sizeof digest, 2, setup, op_hash32, 0, 0},
	{n_hash, 1024, sizeof msg + sizeof digest, 2, setup, op_hash1k, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
