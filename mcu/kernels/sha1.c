/*
 * sha1.c: SHA-1 from FIPS 180-4, written like sha256.c for 8-bit cores: the
 * message schedule is a rolling 16-word window (§6.1.3's alternative
 * method, 64 bytes instead of the 80-word array of §6.1.2). No branch or
 * table index depends on the data: the round function is chosen by the
 * round number.
 */
#include <avr/pgmspace.h>
#include "sha1.h"
#include "rotate.h"

/* §5.3.1: the initial hash value. */
static const uint32_t H0[5] PROGMEM = {
	0x67452301UL, 0xefcdab89UL, 0x98badcfeUL, 0x10325476UL, 0xc3d2e1f0UL,
};

void sha1_compress(uint32_t h[5], const uint8_t block[64])
{
	uint32_t w[16], a, b, c, d, e;
	for (uint8_t i = 0; i < 16; i++)
		w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
		       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (uint8_t t = 0; t < 80; t++) {
		uint32_t f, k, wt;
		if (t < 16) { /* the round number, not data */
			wt = w[t];
		} else {
			/* §6.1.3: W_s = ROTL1(W_{s+13} ^ W_{s+8} ^ W_{s+2} ^ W_s),
			 * s = t mod 16 */
			uint8_t s = t & 15;
			wt = w[s] = rotl32(w[(s + 13) & 15] ^ w[(s + 8) & 15] ^ w[(s + 2) & 15] ^ w[s], 1);
		}
		/* §4.1.1 and §4.2.1: the function and constant of each quarter */
		if (t < 20) {
			f = (b & c) ^ (~b & d);
			k = 0x5a827999UL;
		} else if (t < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1UL;
		} else if (t < 60) {
			f = (b & c) ^ (b & d) ^ (c & d);
			k = 0x8f1bbcdcUL;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6UL;
		}
		uint32_t temp = rotl32(a, 5) + f + e + k + wt;
		e = d;
		d = c;
		c = rotl32(b, 30);
		b = a;
		a = temp;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void sha1_init(struct sha1 *s)
{
	memcpy_P(s->h, H0, sizeof s->h);
	s->bytes = 0;
	s->used = 0;
}

void sha1_update(struct sha1 *s, const uint8_t *data, uint16_t len)
{
	s->bytes += len;
	while (len--) {
		s->block[s->used++] = *data++;
		if (s->used == 64) {
			sha1_compress(s->h, s->block);
			s->used = 0;
		}
	}
}

void sha1_final(struct sha1 *s, uint8_t out[20])
{
	/* §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the length in bits as a
	 * 64-bit big-endian integer. */
	uint32_t bits_hi = s->bytes >> 29, bits_lo = s->bytes << 3;
	s->block[s->used++] = 0x80;
	if (s->used > 56) {
		while (s->used < 64)
			s->block[s->used++] = 0;
		sha1_compress(s->h, s->block);
		s->used = 0;
	}
	while (s->used < 56)
		s->block[s->used++] = 0;
	for (uint8_t i = 0; i < 4; i++) {
		s->block[56 + i] = bits_hi >> (24 - 8 * i);
		s->block[60 + i] = bits_lo >> (24 - 8 * i);
	}
	sha1_compress(s->h, s->block);
	for (uint8_t i = 0; i < 20; i++)
		out[i] = s->h[i / 4] >> (24 - 8 * (i & 3));
}

void sha1(uint8_t out[20], const uint8_t *data, uint16_t len)
{
	struct sha1 s;
	sha1_init(&s);
	sha1_update(&s, data, len);
	sha1_final(&s, out);
}
