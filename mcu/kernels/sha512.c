/*
 * sha512.c: SHA-512 from FIPS 180-4 §6.4: round constants in flash, a
 * rolling 16-word message schedule (128 bytes instead of 640), rotations
 * by whole bytes plus a few bits (rotate.h). No branch or index depends on
 * the data.
 */
#include <avr/pgmspace.h>
#include "sha512.h"
#include "rotate.h"

/* §4.2.3: the first 64 bits of the fractional parts of the cube roots of
 * the first 80 primes (generated from that definition). */
static const uint64_t K[80] PROGMEM = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL,
	0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
	0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
	0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
	0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
	0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL,
	0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
	0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
	0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
	0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL,
	0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL,
	0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
	0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
	0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
	0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL,
	0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL,
	0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
	0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
	0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
	0xd192e819d6ef5218ULL, 0xd69906245565a910ULL,
	0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
	0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
	0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
	0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
	0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL,
	0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL,
	0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
	0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
	0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
	0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
	0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL,
	0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
	0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
	0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

/* §5.3.5: the first 64 bits of the fractional parts of the square roots of
 * the first 8 primes. */
static const uint64_t H0[8] PROGMEM = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
	0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
	0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
	0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static uint64_t load64(const uint8_t *p)
{
	uint64_t v = 0;
	for (uint8_t i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t K_at(uint8_t t)
{
	uint64_t v;
	memcpy_P(&v, &K[t], 8);
	return v;
}

static void compress(uint64_t h[8], const uint8_t block[128])
{
	uint64_t w[16], v[8];
	for (uint8_t i = 0; i < 16; i++)
		w[i] = load64(block + 8 * i);
	for (uint8_t i = 0; i < 8; i++)
		v[i] = h[i];
	for (uint8_t t = 0; t < 80; t++) {
		uint64_t wt;
		if (t < 16) { /* the round number, not data */
			wt = w[t];
		} else {
			uint64_t w2 = w[(t - 2) & 15], w15 = w[(t - 15) & 15];
			uint64_t s0 = rotr64(w15, 1) ^ rotr64(w15, 8) ^ (w15 >> 7);
			uint64_t s1 = rotr64(w2, 19) ^ rotr64(w2, 61) ^ (w2 >> 6);
			wt = w[t & 15] += s1 + w[(t - 7) & 15] + s0;
		}
		uint64_t e = v[4], a = v[0];
		uint64_t t1 = v[7] + (rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41)) +
			      ((e & v[5]) ^ (~e & v[6])) + K_at(t) + wt;
		uint64_t t2 = (rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39)) +
			      ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
		for (uint8_t i = 7; i > 0; i--)
			v[i] = v[i - 1];
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (uint8_t i = 0; i < 8; i++)
		h[i] += v[i];
}

void sha512_init(struct sha512 *s)
{
	memcpy_P(s->h, H0, sizeof s->h);
	s->bytes = 0;
	s->used = 0;
}

void sha512_update(struct sha512 *s, const uint8_t *data, uint16_t len)
{
	s->bytes += len;
	while (len--) {
		s->block[s->used++] = *data++;
		if (s->used == 128) {
			compress(s->h, s->block);
			s->used = 0;
		}
	}
}

void sha512_final(struct sha512 *s, uint8_t out[64])
{
	/* §5.1.2: a 1 bit, zeros to 112 mod 128 bytes, the length in bits as a
	 * 128-bit big-endian integer (the top 93 bits are zero here). */
	uint32_t bits_hi = s->bytes >> 29, bits_lo = s->bytes << 3;
	s->block[s->used++] = 0x80;
	if (s->used > 112) {
		while (s->used < 128)
			s->block[s->used++] = 0;
		compress(s->h, s->block);
		s->used = 0;
	}
	while (s->used < 120)
		s->block[s->used++] = 0;
	for (uint8_t i = 0; i < 4; i++) {
		s->block[120 + i] = bits_hi >> (24 - 8 * i);
		s->block[124 + i] = bits_lo >> (24 - 8 * i);
	}
	compress(s->h, s->block);
	for (uint8_t i = 0; i < 64; i++)
		out[i] = s->h[i / 8] >> (56 - 8 * (i & 7));
}
