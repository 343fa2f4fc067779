/*
 * sha256.c: SHA-256 from FIPS 180-4, for 8-bit cores with 2 KiB of SRAM:
 * the round constants stay in flash and the message schedule is a rolling
 * 16-word window (64 bytes) instead of the 64-word array of §6.2.2.
 * No branch or table index depends on the data.
 */
#include <avr/pgmspace.h>
#include "sha256.h"
#include "rotate.h"

/* §4.2.2: the first 32 bits of the fractional parts of the cube roots of
 * the first 64 primes (generated from that definition). */
static const uint32_t K[64] PROGMEM = {
	0x428a2f98UL, 0x71374491UL, 0xb5c0fbcfUL, 0xe9b5dba5UL,
	0x3956c25bUL, 0x59f111f1UL, 0x923f82a4UL, 0xab1c5ed5UL,
	0xd807aa98UL, 0x12835b01UL, 0x243185beUL, 0x550c7dc3UL,
	0x72be5d74UL, 0x80deb1feUL, 0x9bdc06a7UL, 0xc19bf174UL,
	0xe49b69c1UL, 0xefbe4786UL, 0x0fc19dc6UL, 0x240ca1ccUL,
	0x2de92c6fUL, 0x4a7484aaUL, 0x5cb0a9dcUL, 0x76f988daUL,
	0x983e5152UL, 0xa831c66dUL, 0xb00327c8UL, 0xbf597fc7UL,
	0xc6e00bf3UL, 0xd5a79147UL, 0x06ca6351UL, 0x14292967UL,
	0x27b70a85UL, 0x2e1b2138UL, 0x4d2c6dfcUL, 0x53380d13UL,
	0x650a7354UL, 0x766a0abbUL, 0x81c2c92eUL, 0x92722c85UL,
	0xa2bfe8a1UL, 0xa81a664bUL, 0xc24b8b70UL, 0xc76c51a3UL,
	0xd192e819UL, 0xd6990624UL, 0xf40e3585UL, 0x106aa070UL,
	0x19a4c116UL, 0x1e376c08UL, 0x2748774cUL, 0x34b0bcb5UL,
	0x391c0cb3UL, 0x4ed8aa4aUL, 0x5b9cca4fUL, 0x682e6ff3UL,
	0x748f82eeUL, 0x78a5636fUL, 0x84c87814UL, 0x8cc70208UL,
	0x90befffaUL, 0xa4506cebUL, 0xbef9a3f7UL, 0xc67178f2UL,
};

/* §5.3.3: the first 32 bits of the fractional parts of the square roots of
 * the first 8 primes. */
static const uint32_t H0[8] PROGMEM = {
	0x6a09e667UL, 0xbb67ae85UL, 0x3c6ef372UL, 0xa54ff53aUL,
	0x510e527fUL, 0x9b05688cUL, 0x1f83d9abUL, 0x5be0cd19UL,
};

#define ROTR(x, n) rotr32((x), (n))

void sha256_compress(uint32_t h[8], const uint8_t block[64])
{
	uint32_t w[16], v[8];
	for (uint8_t i = 0; i < 16; i++)
		w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
		       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
	for (uint8_t i = 0; i < 8; i++)
		v[i] = h[i];
	for (uint8_t t = 0; t < 64; t++) {
		uint32_t wt;
		if (t < 16) { /* the round number, not data */
			wt = w[t];
		} else {
			/* W_t = σ1(W_{t-2}) + W_{t-7} + σ0(W_{t-15}) + W_{t-16}, in
			 * a window of 16: index t mod 16 holds W_{t-16}. */
			uint32_t w2 = w[(t - 2) & 15], w15 = w[(t - 15) & 15];
			uint32_t s0 = ROTR(w15, 7) ^ ROTR(w15, 18) ^ (w15 >> 3);
			uint32_t s1 = ROTR(w2, 17) ^ ROTR(w2, 19) ^ (w2 >> 10);
			wt = w[t & 15] += s1 + w[(t - 7) & 15] + s0;
		}
		uint32_t e = v[4], a = v[0];
		uint32_t t1 = v[7] + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) +
			      ((e & v[5]) ^ (~e & v[6])) + pgm_read_dword(&K[t]) + wt;
		uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) +
			      ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
		for (uint8_t i = 7; i > 0; i--)
			v[i] = v[i - 1];
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (uint8_t i = 0; i < 8; i++)
		h[i] += v[i];
}

void sha256_init(struct sha256 *s)
{
	memcpy_P(s->h, H0, sizeof s->h);
	s->bytes = 0;
	s->used = 0;
}

void sha256_update(struct sha256 *s, const uint8_t *data, uint16_t len)
{
	s->bytes += len;
	while (len--) {
		s->block[s->used++] = *data++;
		if (s->used == 64) {
			sha256_compress(s->h, s->block);
			s->used = 0;
		}
	}
}

void sha256_final(struct sha256 *s, uint8_t out[32])
{
	/* §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the length in bits as a
	 * 64-bit big-endian integer. */
	uint32_t bits_hi = s->bytes >> 29, bits_lo = s->bytes << 3;
	s->block[s->used++] = 0x80;
	if (s->used > 56) {
		while (s->used < 64)
			s->block[s->used++] = 0;
		sha256_compress(s->h, s->block);
		s->used = 0;
	}
	while (s->used < 56)
		s->block[s->used++] = 0;
	for (uint8_t i = 0; i < 4; i++) {
		s->block[56 + i] = bits_hi >> (24 - 8 * i);
		s->block[60 + i] = bits_lo >> (24 - 8 * i);
	}
	sha256_compress(s->h, s->block);
	for (uint8_t i = 0; i < 32; i++)
		out[i] = s->h[i / 4] >> (24 - 8 * (i & 3));
}

void sha256(uint8_t out[32], const uint8_t *data, uint16_t len)
{
	struct sha256 s;
	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, out);
}
