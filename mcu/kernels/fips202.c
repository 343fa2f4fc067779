/*
 * fips202.c: Keccak-f[1600] and the sponge (FIPS 202 §3, §4), written here
 * for the post-quantum kernels. The permutation is the compact form — one
 * loop over the 24 rounds, θ by columns, ρ and π as one walk along the
 * lanes, χ by rows — which keeps the code to a few hundred bytes; unrolled
 * or bit-interleaved forms are faster on 32-bit cores and larger.
 *
 * On AVR a 64-bit rotation by a variable amount compiles to a loop of
 * one-bit shifts; rotate.h rotates by whole bytes first (a renaming) and
 * by at most four bits after. Nothing here branches on or indexes by data.
 */
#include "fips202.h"

#if defined(__AVR__)
#include "rotate.h"
#define ROL64(x, n) rotr64((x), (uint8_t)(64 - (n)))
#else
#define ROL64(x, n) ((x) << (n) | (x) >> (64 - (n)))
#endif

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

void keccak_f1600(uint64_t s[25])
{
	uint64_t c[5], t, u;
	uint8_t round, x, y;

	for (round = 0; round < 24; round++) {
		/* θ: each lane gets the parities of two neighbouring columns */
		for (x = 0; x < 5; x++)
			c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
		for (x = 0; x < 5; x++) {
			t = c[(x + 1) % 5];
			t = c[(x + 4) % 5] ^ ROL64(t, 1);
			for (y = 0; y < 25; y += 5)
				s[y + x] ^= t;
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
			for (x = 0; x < 5; x++)
				c[x] = s[y + x];
			for (x = 0; x < 5; x++)
				s[y + x] = c[x] ^ (~c[(x + 1) % 5] & c[(x + 2) % 5]);
		}
		/* ι */
		s[0] ^= pq_read64(&RC[round]);
	}
}

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
