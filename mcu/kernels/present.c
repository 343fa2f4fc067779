/*
 * present.c: PRESENT-80 from Bogdanov et al., "PRESENT: An Ultra-Lightweight
 * Block Cipher" (CHES 2007, §3): 31 rounds of addRoundKey, sBoxLayer and
 * pLayer, then a final addRoundKey.
 *
 * pLayer moves bit i to 16·i mod 63 (bit 63 stays): bit a of input nibble b
 * becomes bit b of output word a (a = 0..3, b = 0..15). So the S-box and the
 * permutation run together, nibble by nibble, shifting each S-box output's
 * four bits into four 16-bit words; no bit is moved one at a time. The S-box is a 16-byte table in flash
 * (a lookup takes the same time for every index on this cache-less core);
 * no branch depends on data.
 */
#include <avr/pgmspace.h>
#include "present.h"

/* §3, "sBoxLayer", and its inverse. */
static const uint8_t S[16] PROGMEM = {0xc, 0x5, 0x6, 0xb, 0x9, 0x0, 0xa, 0xd, 0x3, 0xe, 0xf, 0x8, 0x4, 0x7, 0x1, 0x2};
static const uint8_t SI[16] PROGMEM = {0x5, 0xe, 0xf, 0x8, 0xc, 0x1, 0x2, 0xd, 0xb, 0x4, 0x6, 0x3, 0x0, 0x7, 0x9, 0xa};

/* The state as four 16-bit words, w[0] holding bits 15..0. */
static void load(uint16_t w[4], const uint8_t b[8])
{
	for (uint8_t i = 0; i < 4; i++)
		w[i] = (uint16_t)b[7 - 2 * i] | (uint16_t)b[6 - 2 * i] << 8;
}

static void store(uint8_t b[8], const uint16_t w[4])
{
	for (uint8_t i = 0; i < 4; i++) {
		b[7 - 2 * i] = w[i];
		b[6 - 2 * i] = w[i] >> 8;
	}
}

static void add_round_key(uint16_t w[4], const uint8_t k[8])
{
	uint16_t kw[4];
	load(kw, k);
	for (uint8_t i = 0; i < 4; i++)
		w[i] ^= kw[i];
}

/* sBoxLayer then pLayer: input nibbles b = 0..15 in order, each S-box
 * output's bit a shifted into the top of word a, so that after 16 nibbles
 * bit b of word a is bit a of nibble b. */
static void sp_layer(uint16_t w[4])
{
	uint16_t w0 = 0, w1 = 0, w2 = 0, w3 = 0;
	for (uint8_t i = 0; i < 4; i++) {
		uint16_t in = w[i];
		for (uint8_t j = 0; j < 4; j++) {
			uint8_t nib = pgm_read_byte(&S[in & 15]);
			in >>= 4;
			w0 = w0 >> 1 | (uint16_t)(nib & 1) << 15;
			w1 = w1 >> 1 | (uint16_t)(nib & 2) << 14;
			w2 = w2 >> 1 | (uint16_t)(nib & 4) << 13;
			w3 = w3 >> 1 | (uint16_t)(nib & 8) << 12;
		}
	}
	w[0] = w0;
	w[1] = w1;
	w[2] = w2;
	w[3] = w3;
}

/* The inverse: nibble b of the output gathers bit b of the four input
 * words, through the inverse S-box, shifted in from the top of its word. */
static void sp_layer_inv(uint16_t w[4])
{
	uint16_t i0 = w[0], i1 = w[1], i2 = w[2], i3 = w[3];
	for (uint8_t o = 0; o < 4; o++) {
		uint16_t out = 0;
		for (uint8_t j = 0; j < 4; j++) {
			uint8_t nib = (i0 & 1) | (i1 & 1) << 1 | (i2 & 1) << 2 | (i3 & 1) << 3;
			i0 >>= 1;
			i1 >>= 1;
			i2 >>= 1;
			i3 >>= 1;
			out = out >> 4 | (uint16_t)pgm_read_byte(&SI[nib]) << 12;
		}
		w[o] = out;
	}
}

void present80_expand_key(uint8_t rk[PRESENT_ROUND_KEYS][8], const uint8_t key[10])
{
	/* §3, "The key schedule": K_i is the leftmost 64 bits of the 80-bit
	 * register k (k[0] = bits 79..72); then rotate left by 61, put the
	 * top nibble through the S-box and XOR the round counter into bits
	 * 19..15. */
	uint8_t k[10];
	for (uint8_t i = 0; i < 10; i++)
		k[i] = key[i];
	for (uint8_t r = 1;; r++) {
		for (uint8_t i = 0; i < 8; i++)
			rk[r - 1][i] = k[i];
		if (r == PRESENT_ROUND_KEYS)
			break;
		/* left by 61 = right by 19: two bytes, then three bits */
		uint8_t t[10];
		for (uint8_t i = 0; i < 10; i++)
			t[i] = k[i >= 2 ? i - 2 : i + 8];
		for (uint8_t i = 0; i < 10; i++)
			k[i] = t[i] >> 3 | t[i ? i - 1 : 9] << 5;
		k[0] = (pgm_read_byte(&S[k[0] >> 4]) << 4) | (k[0] & 15);
		k[7] ^= r >> 1;        /* counter bits 4..1 into register bits 19..16 */
		k[8] ^= (r & 1) << 7;  /* counter bit 0 into register bit 15 */
	}
}

void present80_encrypt(uint8_t block[8], const uint8_t rk[PRESENT_ROUND_KEYS][8])
{
	uint16_t w[4];
	load(w, block);
	for (uint8_t r = 0; r < 31; r++) {
		add_round_key(w, rk[r]);
		sp_layer(w);
	}
	add_round_key(w, rk[31]);
	store(block, w);
}

void present80_decrypt(uint8_t block[8], const uint8_t rk[PRESENT_ROUND_KEYS][8])
{
	uint16_t w[4];
	load(w, block);
	add_round_key(w, rk[31]);
	for (uint8_t r = 31; r-- > 0;) {
		sp_layer_inv(w);
		add_round_key(w, rk[r]);
	}
	store(block, w);
}

void present80_cbc_encrypt(uint8_t *buf, uint16_t len, uint8_t iv[8], const uint8_t rk[PRESENT_ROUND_KEYS][8])
{
	const uint8_t *prev = iv;
	for (; len >= 8; len -= 8, buf += 8) {
		for (uint8_t i = 0; i < 8; i++)
			buf[i] ^= prev[i];
		present80_encrypt(buf, rk);
		prev = buf;
	}
	for (uint8_t i = 0; i < 8; i++)
		iv[i] = prev[i];
}
