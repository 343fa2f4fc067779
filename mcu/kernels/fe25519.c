/*
 * fe25519.c: arithmetic modulo p = 2^255 − 19 with 8-bit limbs, the limb
 * the AVR's 8×8→16-bit MUL instruction works on.
 *
 * Reduction uses 2^256 ≡ 38 (mod p): a value v = lo + 2^256·hi is congruent
 * to lo + 38·hi. Each loop runs over all 32 bytes every time and carries
 * are added, never branched on, so the time is independent of the values
 * (the ladder and the signature code need that).
 */
#include "fe25519.h"
#include "mcu_int.h"

void fe_set(fe r, uint8_t small)
{
	r[0] = small;
	for (uint8_t i = 1; i < 32; i++)
		r[i] = 0;
}

void fe_copy(fe r, const fe a)
{
	for (uint8_t i = 0; i < 32; i++)
		r[i] = a[i];
}

/* fold adds 38·c (c < 2^10) to r and returns the carry out of bit 256. */
static uint8_t fold(fe r, uint16_t c)
{
	uint16_t acc = c * 38;
	for (uint8_t i = 0; i < 32; i++) {
		acc += r[i];
		r[i] = acc;
		acc >>= 8;
	}
	return acc;
}

void fe_add(fe r, const fe a, const fe b)
{
	uint16_t c = 0;
	for (uint8_t i = 0; i < 32; i++) {
		c += (uint16_t)a[i] + b[i];
		r[i] = c;
		c >>= 8;
	}
	/* a + b < 2^257: at most two folds (the second only when the first
	 * wrapped, leaving r < 38) */
	fold(r, fold(r, c));
}

void fe_sub(fe r, const fe a, const fe b)
{
	/* a − b + 2^256·borrow ≡ a − b + 38·borrow: subtract 38·borrow, twice
	 * for the same reason as in fe_add */
	uint8_t borrow = 0;
	for (uint8_t i = 0; i < 32; i++) {
		uint16_t d = (uint16_t)a[i] - b[i] - borrow;
		r[i] = d;
		borrow = (d >> 8) & 1;
	}
	for (uint8_t pass = 0; pass < 2; pass++) {
		uint16_t d = (uint16_t)r[0] - 38 * borrow;
		r[0] = d;
		borrow = (d >> 8) & 1;
		for (uint8_t i = 1; i < 32; i++) {
			d = (uint16_t)r[i] - borrow;
			r[i] = d;
			borrow = (d >> 8) & 1;
		}
	}
}

/* reduce64 reduces a 64-byte product t to 32 bytes. */
static void reduce64(fe r, const uint8_t t[64])
{
	uint16_t c = 0;
	for (uint8_t i = 0; i < 32; i++) {
		c += t[i] + 38 * (uint16_t)t[32 + i]; /* c < 2^14 */
		r[i] = c;
		c >>= 8;
	}
	fold(r, fold(r, c)); /* c ≤ 38 */
}

void fe_mul(fe r, const fe a, const fe b)
{
	/* Schoolbook by columns (product scanning): column k sums a_i·b_(k−i)
	 * into a 24-bit accumulator (32 products of 16 bits and the carry
	 * stay below 2^22), one of avr-gcc's native integer sizes. The loop
	 * bounds depend on k only. */
	uint8_t t[64];
	mcu_uint24_t acc = 0;
	for (uint8_t k = 0; k < 63; k++) {
		uint8_t lo = k < 32 ? 0 : k - 31;
		uint8_t n = (k < 32 ? k : 31) - lo + 1;
		const uint8_t *pa = a + lo, *pb = b + (k - lo);
		do
			acc += (uint16_t)*pa++ * *pb--;
		while (--n);
		t[k] = acc;
		acc >>= 8;
	}
	t[63] = acc;
	reduce64(r, t);
}

void fe_sq(fe r, const fe a)
{
	/* Column k of a·a is 2·Σ_{i<j, i+j=k} a_i·a_j, plus a_(k/2)^2 when k is
	 * even: half the byte products of fe_mul. The doubled sum of at most
	 * 16 products stays below 2^21. */
	uint8_t t[64];
	mcu_uint24_t acc = 0;
	for (uint8_t k = 0; k < 63; k++) {
		uint8_t lo = k < 32 ? 0 : k - 31;
		const uint8_t *pa = a + lo, *pb = a + (k - lo);
		mcu_uint24_t s = 0;
		while (pa < pb)
			s += (uint16_t)*pa++ * *pb--;
		acc += s + s;
		if (pa == pb) /* k even: a property of k, not of the data */
			acc += (uint16_t)*pa * *pa;
		t[k] = acc;
		acc >>= 8;
	}
	t[63] = acc;
	reduce64(r, t);
}

void fe_mul_small(fe r, const fe a, uint32_t k)
{
	uint32_t c = 0;
	for (uint8_t i = 0; i < 32; i++) {
		c += a[i] * k; /* < 2^32 for k < 2^24 */
		r[i] = c;
		c >>= 8;
	}
	/* c < 2^24: fold its bytes in as 38·c */
	uint32_t acc = c * 38;
	for (uint8_t i = 0; i < 32; i++) {
		acc += r[i];
		r[i] = acc;
		acc >>= 8;
	}
	fold(r, acc);
}

static void sqn(fe r, const fe a, uint8_t n)
{
	fe_sq(r, a);
	while (--n)
		fe_sq(r, r);
}

/* z^(2^250 − 1) and z^11, the common part of the two exponentiation
 * chains (ref10's, from Bernstein et al., "High-speed high-security
 * signatures", 2011). */
static void pow250(fe z250, fe z11, const fe z)
{
	fe z2, z9, t, z5, z10, z20, z50, z100;
	fe_sq(z2, z);           /* 2 */
	sqn(t, z2, 2);          /* 8 */
	fe_mul(z9, t, z);       /* 9 */
	fe_mul(z11, z9, z2);    /* 11 */
	fe_sq(t, z11);          /* 22 */
	fe_mul(z5, t, z9);      /* 2^5 − 1 */
	sqn(t, z5, 5);
	fe_mul(z10, t, z5);     /* 2^10 − 1 */
	sqn(t, z10, 10);
	fe_mul(z20, t, z10);    /* 2^20 − 1 */
	sqn(t, z20, 20);
	fe_mul(t, t, z20);      /* 2^40 − 1 */
	sqn(t, t, 10);
	fe_mul(z50, t, z10);    /* 2^50 − 1 */
	sqn(t, z50, 50);
	fe_mul(z100, t, z50);   /* 2^100 − 1 */
	sqn(t, z100, 100);
	fe_mul(t, t, z100);     /* 2^200 − 1 */
	sqn(t, t, 50);
	fe_mul(z250, t, z50);   /* 2^250 − 1 */
}

void fe_inv(fe r, const fe a)
{
	fe t, z11;
	pow250(t, z11, a);
	sqn(t, t, 5);           /* 2^255 − 32 */
	fe_mul(r, t, z11);      /* 2^255 − 21 = p − 2 */
}

void fe_pow2523(fe r, const fe a)
{
	fe t, z11;
	pow250(t, z11, a);
	sqn(t, t, 2);           /* 2^252 − 4 */
	fe_mul(r, t, a);        /* 2^252 − 3 = (p − 5)/8 */
}

void fe_pack(uint8_t out[32], const fe a)
{
	/* fold bit 255 (2^255 ≡ 19): v < 2^255 + 19 */
	uint8_t v[32], u[32];
	uint16_t c = (a[31] >> 7) * 19;
	for (uint8_t i = 0; i < 32; i++) {
		c += (i == 31) ? (a[i] & 0x7f) : a[i];
		v[i] = c;
		c >>= 8;
	}
	/* v ≥ p exactly when v + 19 ≥ 2^255; then v − p = v + 19 − 2^255 */
	c = 19;
	for (uint8_t i = 0; i < 32; i++) {
		c += v[i];
		u[i] = c;
		c >>= 8;
	}
	uint8_t ge = u[31] >> 7;
	u[31] &= 0x7f;
	fe_cmov(v, u, ge);
	fe_copy(out, v);
}

void fe_cswap(fe a, fe b, uint8_t bit)
{
	uint8_t mask = -bit;
	for (uint8_t i = 0; i < 32; i++) {
		uint8_t t = mask & (a[i] ^ b[i]);
		a[i] ^= t;
		b[i] ^= t;
	}
}

void fe_cmov(fe r, const fe a, uint8_t bit)
{
	uint8_t mask = -bit;
	for (uint8_t i = 0; i < 32; i++)
		r[i] ^= mask & (r[i] ^ a[i]);
}

uint8_t fe_iszero(const fe a)
{
	uint8_t p[32], d = 0;
	fe_pack(p, a);
	for (uint8_t i = 0; i < 32; i++)
		d |= p[i];
	return (uint8_t)(((uint16_t)d - 1) >> 8) & 1;
}

uint8_t fe_isneg(const fe a)
{
	uint8_t p[32];
	fe_pack(p, a);
	return p[0] & 1;
}
