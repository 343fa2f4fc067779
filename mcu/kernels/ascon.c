/*
 * ascon.c: Ascon-AEAD128 from NIST SP 800-232, for 8-bit cores.
 *
 * The 320-bit state is five 64-bit words S0..S4, each kept as its 8 bytes in
 * the standard's little-endian order (SP 800-232 Appendix A). On an 8-bit
 * core this is the natural slicing: the S-box layer is bitwise, so it runs
 * on byte j of all five words at once, and a rotation by 8q + r bits is
 * byte j taking bits from bytes j+q and j+q+1. Bitwise logic and fixed
 * rotations only: constant time on any core.
 */
#include <avr/pgmspace.h>
#include "ascon.h"

typedef uint8_t word[8]; /* a 64-bit state word, little-endian */

/* SP 800-232 §4.1.1: the initial value 0x00001000808c0001, little-endian. */
static const uint8_t IV[8] PROGMEM = {0x01, 0x00, 0x8c, 0x80, 0x00, 0x10, 0x00, 0x00};

/* Round constants c_i of Ascon-p (SP 800-232 Table 5); p[r] uses the last r. */
static const uint8_t RC[16] PROGMEM = {
	0x3c, 0x2d, 0x1e, 0x0f, 0xf0, 0xe1, 0xd2, 0xc3,
	0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b,
};

/* BITS8 is bits s..s+7 of a 16-bit value, shifting at most 4 times: right
 * by s, or left by 8 − s and take the high byte. */
#define BITS8(a, s) ((s) <= 4 ? (uint8_t)((a) >> (s)) : (uint8_t)((uint16_t)((a) << (8 - (s))) >> 8))

/* x ^= (x >>> r1) ^ (x >>> r2): one word of the linear layer pL (§3.4).
 * Inlined so the shift amounts and byte offsets are constants. */
static inline __attribute__((always_inline)) void sigma(uint8_t x[8], uint8_t r1, uint8_t r2)
{
	uint8_t t[8];
	uint8_t q1 = r1 / 8, s1 = r1 % 8, q2 = r2 / 8, s2 = r2 % 8;
	for (uint8_t j = 0; j < 8; j++) {
		/* byte j of x >>> (8q + s): bits from bytes j+q and j+q+1 */
		uint16_t a = x[(j + q1) & 7] | (uint16_t)x[(j + q1 + 1) & 7] << 8;
		uint16_t b = x[(j + q2) & 7] | (uint16_t)x[(j + q2 + 1) & 7] << 8;
		t[j] = x[j] ^ BITS8(a, s1) ^ BITS8(b, s2);
	}
	for (uint8_t j = 0; j < 8; j++)
		x[j] = t[j];
}

/* Ascon-p[rounds] (SP 800-232 §3): pC, pS (the designers' bitsliced
 * S-box, Ascon v1.2 specification Fig. 5) and pL. */
static void permute(word s[5], uint8_t rounds)
{
	for (uint8_t r = 16 - rounds; r < 16; r++) {
		s[2][0] ^= pgm_read_byte(&RC[r]);
		for (uint8_t j = 0; j < 8; j++) {
			uint8_t x0 = s[0][j], x1 = s[1][j], x2 = s[2][j], x3 = s[3][j], x4 = s[4][j];
			x0 ^= x4;
			x4 ^= x3;
			x2 ^= x1;
			uint8_t t0 = ~x0 & x1, t1 = ~x1 & x2, t2 = ~x2 & x3, t3 = ~x3 & x4, t4 = ~x4 & x0;
			x0 ^= t1;
			x1 ^= t2;
			x2 ^= t3;
			x3 ^= t4;
			x4 ^= t0;
			x1 ^= x0;
			x0 ^= x4;
			x3 ^= x2;
			x2 = ~x2;
			s[0][j] = x0;
			s[1][j] = x1;
			s[2][j] = x2;
			s[3][j] = x3;
			s[4][j] = x4;
		}
		sigma(s[0], 19, 28);
		sigma(s[1], 61, 39);
		sigma(s[2], 1, 6);
		sigma(s[3], 10, 17);
		sigma(s[4], 7, 41);
	}
}

static void xor_bytes(uint8_t *dst, const uint8_t *src, uint8_t n)
{
	while (n--)
		*dst++ ^= *src++;
}

/* Initialisation and associated data: Algorithm 3 steps 1–11. */
static void start(word s[5], const uint8_t key[16], const uint8_t nonce[16], const uint8_t *ad, uint16_t adlen)
{
	for (uint8_t j = 0; j < 8; j++) {
		s[0][j] = pgm_read_byte(&IV[j]);
		s[1][j] = key[j];
		s[2][j] = key[8 + j];
		s[3][j] = nonce[j];
		s[4][j] = nonce[8 + j];
	}
	permute(s, 12);
	xor_bytes(s[3], key, 16); /* S3 and S4 are contiguous */
	if (adlen) {
		for (; adlen >= 16; adlen -= 16, ad += 16) {
			xor_bytes(s[0], ad, 16);
			permute(s, 8);
		}
		/* the last block, padded with 0x01 after the data (Algorithm 2) */
		xor_bytes(s[0], ad, adlen);
		s[0][adlen] ^= 0x01; /* byte adlen of the 16-byte rate S0‖S1 */
		permute(s, 8);
	}
	s[4][7] ^= 0x80; /* domain separation: the top bit of S4 (step 11) */
}

/* Finalisation: Algorithm 3 steps 19–21. */
static void finish(word s[5], const uint8_t key[16], uint8_t tag[16])
{
	xor_bytes(s[2], key, 16);
	permute(s, 12);
	for (uint8_t j = 0; j < 16; j++)
		tag[j] = s[3][j] ^ key[j];
}

void ascon_aead128_encrypt(uint8_t *c, uint8_t tag[16], const uint8_t *m, uint16_t mlen,
			   const uint8_t *ad, uint16_t adlen, const uint8_t nonce[16], const uint8_t key[16])
{
	word s[5];
	uint8_t *rate = s[0];
	start(s, key, nonce, ad, adlen);
	for (;; mlen -= 16, m += 16, c += 16) {
		uint8_t n = mlen < 16 ? mlen : 16;
		xor_bytes(rate, m, n);
		for (uint8_t j = 0; j < n; j++)
			c[j] = rate[j];
		if (n < 16) {
			rate[n] ^= 0x01;
			break;
		}
		permute(s, 8);
	}
	finish(s, key, tag);
}

uint8_t ascon_aead128_decrypt(uint8_t *m, const uint8_t *c, uint16_t clen, const uint8_t tag[16],
			      const uint8_t *ad, uint16_t adlen, const uint8_t nonce[16], const uint8_t key[16])
{
	word s[5];
	uint8_t *rate = s[0], want[16], diff = 0;
	uint8_t *out = m;
	uint16_t len = clen;
	start(s, key, nonce, ad, adlen);
	for (;; len -= 16, m += 16, c += 16) {
		uint8_t n = len < 16 ? len : 16;
		for (uint8_t j = 0; j < n; j++) {
			uint8_t cj = c[j];
			m[j] = rate[j] ^ cj;
			rate[j] = cj;
		}
		if (n < 16) {
			rate[n] ^= 0x01;
			break;
		}
		permute(s, 8);
	}
	finish(s, key, want);
	for (uint8_t j = 0; j < 16; j++) /* compare without an early exit */
		diff |= want[j] ^ tag[j];
	if (diff) {
		while (clen--)
			*out++ = 0;
		return 0;
	}
	return 1;
}
