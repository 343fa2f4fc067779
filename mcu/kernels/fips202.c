/*
 * fips202.c: Keccak-f[1600] and the sponge (FIPS 202 §3, §4), written here
 * for the post-quantum kernels. The permutation is the compact form — one
 * loop over the 24 rounds, θ by columns, ρ and π as one walk along the
 * lanes, χ by rows — which keeps the code to a few hundred bytes; unrolled
 * or bit-interleaved forms are faster on 32-bit cores and larger.
 *
 * On AVR the permutation has a second, byte-wise form (below): 64-bit
 * arithmetic is slow there. Nothing here branches on or indexes by data.
 */
#include "fips202.h"

#define ROL64(x, n) ((x) << (n) | (x) >> (64 - (n)))

/* Byte i of the state in FIPS 202's order (§B.1: lane bytes are little-endian). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE(st, i) (((uint8_t *)(st)->s)[(i) ^ 7])
#else
#define BYTE(st, i) (((uint8_t *)(st)->s)[i])
#endif

/* ι's round constants RC[i] (FIPS 202 §3.2.5, Algorithms 5 and 6),
 * generated from the rc(t) LFSR. */
static const uint64_t RC[24] PQ_FLASH = {
	0x0000000000000001ULL, 0x0000000000008082ULL,
	0x800000000000808aULL, 0x8000000080008000ULL,
	0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL,
	0x000000000000008aULL, 0x0000000000000088ULL,
	0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL,
	0x8000000000008089ULL, 0x8000000000008003ULL,
	0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL,
	0x8000000080008081ULL, 0x8000000000008080ULL,
	0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* ρ and π together (§3.2.2, §3.2.3): starting from lane (1, 0), step t
 * moves the lane to PI[t] = x + 5y of (y, 2x + 3y) and rotates it by
 * RHO[t] = (t + 1)(t + 2)/2 mod 64. */
static const uint8_t RHO[24] PQ_FLASH = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
static const uint8_t PI[24] PQ_FLASH = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};

#if defined(__AVR__)
/*
 * The 8-bit form of the same permutation. avr-gcc 5.4 compiles a 64-bit
 * shift or rotation into a loop of one-bit shifts over all eight bytes (or
 * a libgcc call that loops the same way), and keeps 64-bit variables in
 * memory, so here the state is 200 bytes (lane x + 5y is bytes 8(x + 5y)
 * to 8(x + 5y) + 7, little-endian: AVR's order) and every step works a
 * byte at a time; rotations use the hardware multiplier (rotl_lane). The
 * amounts and indices are the permutation's public constants.
 */

/* powers of two for the bit part of a rotation */
static const uint8_t POW2[8] PQ_FLASH = {1, 2, 4, 8, 16, 32, 64, 128};

/*
 * dst ← src rotated left by n bits. Bytes move by n / 8; for the other
 * n mod 8 bits each byte is multiplied by 2^(n mod 8) (AVR's MUL, two
 * cycles): the product's low byte is the byte shifted left, its high byte
 * the bits that carry into the next byte. dst and src are 8-byte lanes.
 */
static void rotl_lane(uint8_t *dst, const uint8_t *src, uint8_t n)
{
	uint8_t k = n >> 3, m = pq_read8(&POW2[n & 7]), i;
	uint16_t pr = (uint16_t)src[7] * m;
	uint8_t c = (uint8_t)(pr >> 8);
	for (i = 0; i < 8; i++) {
		pr = (uint16_t)src[i] * m;
		dst[(uint8_t)(i + k) & 7] = (uint8_t)pr | c;
		c = (uint8_t)(pr >> 8);
	}
}

void keccak_f1600(uint64_t lanes[25])
{
	uint8_t *s = (uint8_t *)lanes, *p;
	uint8_t c[40], d[8], t[8], u[8], a0[8], a1[8], round, x, y, i;

	for (round = 0; round < 24; round++) {
		/* θ: column parities c, then d_x = c_(x−1) ⊕ ROT(c_(x+1), 1) */
		for (i = 0; i < 40; i++)
			c[i] = s[i] ^ s[i + 40] ^ s[i + 80] ^ s[i + 120] ^ s[i + 160];
		for (x = 0; x < 5; x++) {
			rotl_lane(d, c + 8 * (x < 4 ? x + 1 : 0), 1);
			p = c + 8 * (x ? x - 1 : 4);
			for (i = 0; i < 8; i++)
				d[i] ^= p[i];
			for (p = s + 8 * x, y = 0; y < 5; y++, p += 40) {
				p[0] ^= d[0], p[1] ^= d[1], p[2] ^= d[2], p[3] ^= d[3];
				p[4] ^= d[4], p[5] ^= d[5], p[6] ^= d[6], p[7] ^= d[7];
			}
		}
		/* ρ and π: the lane moved last waits in t or u, alternately */
		memcpy(t, s + 8, 8);
		for (x = 0; x < 24; x++) {
			uint8_t *from = x & 1 ? u : t, *save = x & 1 ? t : u;
			p = s + 8 * pq_read8(&PI[x]);
			memcpy(save, p, 8);
			rotl_lane(p, from, pq_read8(&RHO[x]));
		}
		/* χ: a row of five lanes at a time, in place; lanes 0 and 1 of
		 * the row are kept for the last two */
		for (p = s, y = 0; y < 5; y++, p += 40) {
			memcpy(a0, p, 8);
			memcpy(a1, p + 8, 8);
			for (i = 0; i < 8; i++) {
				p[i] ^= (uint8_t)~p[8 + i] & p[16 + i];
				p[8 + i] ^= (uint8_t)~p[16 + i] & p[24 + i];
				p[16 + i] ^= (uint8_t)~p[24 + i] & p[32 + i];
				p[24 + i] ^= (uint8_t)~p[32 + i] & a0[i];
				p[32 + i] ^= (uint8_t)~a0[i] & a1[i];
			}
		}
		/* ι */
		for (i = 0; i < 8; i++)
			s[i] ^= pq_read8((const uint8_t *)&RC[round] + i);
	}
}
#else
void keccak_f1600(uint64_t s[25])
{
	uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4, t, u;
	uint8_t round, x, y;

	for (round = 0; round < 24; round++) {
		/* θ: each lane gets the parities of the columns x − 1 and x + 1
		 * (written out: an index mod 5 would be a division on AVR) */
		c0 = s[0] ^ s[5] ^ s[10] ^ s[15] ^ s[20];
		c1 = s[1] ^ s[6] ^ s[11] ^ s[16] ^ s[21];
		c2 = s[2] ^ s[7] ^ s[12] ^ s[17] ^ s[22];
		c3 = s[3] ^ s[8] ^ s[13] ^ s[18] ^ s[23];
		c4 = s[4] ^ s[9] ^ s[14] ^ s[19] ^ s[24];
		d0 = c4 ^ ROL64(c1, 1);
		d1 = c0 ^ ROL64(c2, 1);
		d2 = c1 ^ ROL64(c3, 1);
		d3 = c2 ^ ROL64(c4, 1);
		d4 = c3 ^ ROL64(c0, 1);
		for (y = 0; y < 25; y += 5) {
			s[y] ^= d0;
			s[y + 1] ^= d1;
			s[y + 2] ^= d2;
			s[y + 3] ^= d3;
			s[y + 4] ^= d4;
		}
		/* ρ and π */
		t = s[1];
		for (x = 0; x < 24; x++) {
			uint8_t j = pq_read8(&PI[x]);
			u = s[j];
			s[j] = ROL64(t, pq_read8(&RHO[x]));
			t = u;
		}
		/* χ: a row at a time */
		for (y = 0; y < 25; y += 5) {
			c0 = s[y], c1 = s[y + 1], c2 = s[y + 2], c3 = s[y + 3], c4 = s[y + 4];
			s[y] = c0 ^ (~c1 & c2);
			s[y + 1] = c1 ^ (~c2 & c3);
			s[y + 2] = c2 ^ (~c3 & c4);
			s[y + 3] = c3 ^ (~c4 & c0);
			s[y + 4] = c4 ^ (~c0 & c1);
		}
		/* ι */
		s[0] ^= pq_read64(&RC[round]);
	}
}
#endif

void keccak_init(keccak_state *st, uint8_t rate)
{
	memset(st->s, 0, sizeof st->s);
	st->pos = 0;
	st->rate = rate;
}

void keccak_absorb(keccak_state *st, const uint8_t *in, size_t len)
{
	while (len--) {
		BYTE(st, st->pos) ^= *in++;
		if (++st->pos == st->rate) {
			keccak_f1600(st->s);
			st->pos = 0;
		}
	}
}

/* keccak_finalize pads the message (the suffix bits ds, then pad10*1:
 * FIPS 202 §5.1) and switches the state to squeezing. */
void keccak_finalize(keccak_state *st, uint8_t ds)
{
	BYTE(st, st->pos) ^= ds;
	BYTE(st, st->rate - 1) ^= 0x80;
	st->pos = st->rate; /* the first squeeze permutes */
}

void keccak_squeeze(keccak_state *st, uint8_t *out, size_t len)
{
	while (len--) {
		if (st->pos == st->rate) {
			keccak_f1600(st->s);
			st->pos = 0;
		}
		*out++ = BYTE(st, st->pos);
		st->pos++;
	}
}

static void hash(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen, uint8_t rate, uint8_t ds)
{
	keccak_state st;
	keccak_init(&st, rate);
	keccak_absorb(&st, in, inlen);
	keccak_finalize(&st, ds);
	keccak_squeeze(&st, out, outlen);
}

void sha3_256(uint8_t out[32], const uint8_t *in, size_t len) { hash(out, 32, in, len, SHA3_256_RATE, SHA3_DS); }
void sha3_512(uint8_t out[64], const uint8_t *in, size_t len) { hash(out, 64, in, len, SHA3_512_RATE, SHA3_DS); }
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) { hash(out, outlen, in, inlen, SHAKE256_RATE, SHAKE_DS); }
