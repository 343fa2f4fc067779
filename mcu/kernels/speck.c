/*
 * speck.c: Speck64/128 from Beaulieu et al., "The SIMON and SPECK Families
 * of Lightweight Block Ciphers" (ePrint 2013/404, §4.2): 32-bit words,
 * α = 8, β = 3, 27 rounds. Addition, rotation and XOR only: constant time
 * on any core; the rotation by 8 is a byte renaming here.
 */
#include "speck.h"
#include "rotate.h"

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

void speck64_128_expand_key(uint32_t rk[SPECK64_128_ROUNDS], const uint8_t key[16])
{
	/* §4.2: l_{i+3} = (k_i + (l_i >>> 8)) ^ i, k_{i+1} = (k_i <<< 3) ^ l_{i+3};
	 * three l words in a rolling window. */
	uint32_t k = load32(key), l[3];
	for (uint8_t i = 0; i < 3; i++)
		l[i] = load32(key + 4 + 4 * i);
	for (uint8_t i = 0; i < SPECK64_128_ROUNDS; i++) {
		rk[i] = k;
		uint32_t li = (k + rotr32(l[i % 3], 8)) ^ i;
		l[i % 3] = li;
		k = rotl32(k, 3) ^ li;
	}
}

void speck64_128_encrypt(uint8_t block[8], const uint32_t rk[SPECK64_128_ROUNDS])
{
	uint32_t y = load32(block), x = load32(block + 4);
	for (uint8_t i = 0; i < SPECK64_128_ROUNDS; i++) {
		x = (rotr32(x, 8) + y) ^ rk[i];
		y = rotl32(y, 3) ^ x;
	}
	store32(block, y);
	store32(block + 4, x);
}

void speck64_128_decrypt(uint8_t block[8], const uint32_t rk[SPECK64_128_ROUNDS])
{
	uint32_t y = load32(block), x = load32(block + 4);
	for (uint8_t i = SPECK64_128_ROUNDS; i-- > 0;) {
		y = rotr32(y ^ x, 3);
		x = rotl32((x ^ rk[i]) - y, 8);
	}
	store32(block, y);
	store32(block + 4, x);
}

void speck64_128_cbc_encrypt(uint8_t *buf, uint16_t len, uint8_t iv[8], const uint32_t rk[SPECK64_128_ROUNDS])
{
	const uint8_t *prev = iv;
	for (; len >= 8; len -= 8, buf += 8) {
		for (uint8_t i = 0; i < 8; i++)
			buf[i] ^= prev[i];
		speck64_128_encrypt(buf, rk);
		prev = buf;
	}
	for (uint8_t i = 0; i < 8; i++)
		iv[i] = prev[i];
}
