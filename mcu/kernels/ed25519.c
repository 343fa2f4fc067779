/*
 * ed25519.c: Ed25519 from RFC 8032 §5.1, on the field arithmetic of
 * fe25519.c, in the shape of TweetNaCl (Bernstein et al., 2014).
 *
 * Points are in extended twisted Edwards coordinates (X:Y:Z:T), x = X/Z,
 * y = Y/Z, xy = T/Z, added with the unified formula of Hisil et al.
 * (Asiacrypt 2008, §3.1, "add-2008-hwcd-3"), which also doubles.
 * Signing multiplies the base point by secrets with a ladder of conditional
 * swaps (two additions per bit, whatever the bit) and reduces mod L bit by
 * bit with masked subtractions: no branch or index depends on secret data.
 * Verification handles public data only and uses Straus' joint double-and-
 * add, which is not constant time and need not be.
 */
#include <avr/pgmspace.h>
#include "ed25519.h"
#include "fe25519.h"
#include "sha512.h"

struct ge {
	fe x, y, z, t;
};

/* Curve constants (RFC 8032 §5.1), little-endian, computed from their
 * definitions: d = −121665/121666, 2d, sqrt(−1) = 2^((p−1)/4), the base
 * point B = (x, 4/5) with x even, and the group order
 * L = 2^252 + 27742317777372353535851937790883648493. */
static const uint8_t D[32] PROGMEM = {
	0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
	0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52};
static const uint8_t D2[32] PROGMEM = {
	0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83, 0x82, 0x9a, 0x14, 0xe0, 0x00,
	0x30, 0xd1, 0xf3, 0xee, 0xf2, 0x80, 0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24};
static const uint8_t SQRTM1[32] PROGMEM = {
	0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f,
	0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b};
static const uint8_t BX[32] PROGMEM = {
	0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95, 0x60, 0xc7, 0x2c, 0x69,
	0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0, 0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21};
static const uint8_t BY[32] PROGMEM = {
	0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66};
static const uint8_t BT[32] PROGMEM = {
	0xa3, 0xdd, 0xb7, 0xa5, 0xb3, 0x8a, 0xde, 0x6d, 0xf5, 0x52, 0x51, 0x77, 0x80, 0x9f, 0xf0, 0x20,
	0x7d, 0xe3, 0xab, 0x64, 0x8e, 0x4e, 0xea, 0x66, 0x65, 0x76, 0x8b, 0xd7, 0x0f, 0x5f, 0x87, 0x67};
static const uint8_t L[32] PROGMEM = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10};

static void ge_neutral(struct ge *p)
{
	fe_set(p->x, 0);
	fe_set(p->y, 1);
	fe_set(p->z, 1);
	fe_set(p->t, 0);
}

static void ge_base(struct ge *p)
{
	memcpy_P(p->x, BX, 32);
	memcpy_P(p->y, BY, 32);
	fe_set(p->z, 1);
	memcpy_P(p->t, BT, 32);
}

/* p = p + q (q may be p). */
static void ge_add(struct ge *p, const struct ge *q)
{
	fe a, b, c, d, t, e, f, g, h;
	fe_sub(a, p->y, p->x);
	fe_sub(t, q->y, q->x);
	fe_mul(a, a, t);
	fe_add(b, p->x, p->y);
	fe_add(t, q->x, q->y);
	fe_mul(b, b, t);
	fe_mul(c, p->t, q->t);
	memcpy_P(t, D2, 32);
	fe_mul(c, c, t);
	fe_mul(d, p->z, q->z);
	fe_add(d, d, d);
	fe_sub(e, b, a);
	fe_sub(f, d, c);
	fe_add(g, d, c);
	fe_add(h, b, a);
	fe_mul(p->x, e, f);
	fe_mul(p->y, h, g);
	fe_mul(p->z, g, f);
	fe_mul(p->t, e, h);
}

static void ge_cswap(struct ge *p, struct ge *q, uint8_t bit)
{
	fe_cswap(p->x, q->x, bit);
	fe_cswap(p->y, q->y, bit);
	fe_cswap(p->z, q->z, bit);
	fe_cswap(p->t, q->t, bit);
}

/* p = [s]B in constant time (q is scratch). */
static void ge_scalarmult_base(struct ge *p, const uint8_t s[32])
{
	struct ge q;
	ge_neutral(p);
	ge_base(&q);
	for (uint16_t i = 256; i-- > 0;) {
		uint8_t b = (s[i >> 3] >> (i & 7)) & 1;
		ge_cswap(p, &q, b);
		ge_add(&q, p);
		ge_add(p, p);
		ge_cswap(p, &q, b);
	}
}

/* The encoding of §5.1.2: y, with the low bit of x in bit 255. */
static void ge_pack(uint8_t out[32], const struct ge *p)
{
	fe zi, x, y;
	fe_inv(zi, p->z);
	fe_mul(x, p->x, zi);
	fe_mul(y, p->y, zi);
	fe_pack(out, y);
	out[31] ^= fe_isneg(x) << 7;
}

/* Decodes a point (§5.1.3) and negates it; 0 if it is not on the curve or
 * y is not below p. Public data: the branches are allowed. */
static uint8_t ge_unpack_neg(struct ge *r, const uint8_t in[32])
{
	fe num, den, den2, t, chk;
	uint8_t y[32];
	fe_copy(r->y, in);
	r->y[31] &= 0x7f;
	fe_pack(y, r->y);
	for (uint8_t i = 0; i < 31; i++)
		if (y[i] != in[i])
			return 0; /* y ≥ p */
	if (y[31] != (in[31] & 0x7f))
		return 0;
	fe_set(r->z, 1);
	/* x² = (y² − 1)/(d·y² + 1) = u/v; x = u·v³·(u·v⁷)^((p−5)/8) */
	fe_sq(num, r->y);
	memcpy_P(t, D, 32);
	fe_mul(den, num, t);
	fe_sub(num, num, r->z);
	fe_add(den, den, r->z);
	fe_sq(den2, den);
	fe_mul(t, den2, den);     /* v³ */
	fe_sq(chk, den2);
	fe_mul(chk, chk, den2);   /* v⁶ */
	fe_mul(chk, chk, den);    /* v⁷ */
	fe_mul(chk, chk, num);    /* u·v⁷ */
	fe_pow2523(chk, chk);
	fe_mul(chk, chk, t);
	fe_mul(r->x, chk, num);   /* u·v³·(u·v⁷)^((p−5)/8) */
	fe_sq(chk, r->x);
	fe_mul(chk, chk, den);
	fe_sub(chk, chk, num);
	if (!fe_iszero(chk)) {
		memcpy_P(t, SQRTM1, 32);
		fe_mul(r->x, r->x, t);
		fe_sq(chk, r->x);
		fe_mul(chk, chk, den);
		fe_sub(chk, chk, num);
		if (!fe_iszero(chk))
			return 0;
	}
	if (fe_isneg(r->x) == (in[31] >> 7)) { /* negate: x → −x */
		fe_set(t, 0);
		fe_sub(r->x, t, r->x);
	}
	fe_mul(r->t, r->x, r->y);
	return 1;
}

/* r = x mod L for a 64-byte x: Horner over its 512 bits, acc = 2·acc + bit
 * then acc −= L if that does not go negative (a masked choice). acc stays
 * below L < 2^253, so 32 bytes hold 2·acc + 1. */
static void mod_l(uint8_t r[32], const uint8_t x[64])
{
	uint8_t l[32], t[32];
	memcpy_P(l, L, 32);
	for (uint8_t i = 0; i < 32; i++)
		r[i] = 0;
	for (uint16_t bit = 512; bit-- > 0;) {
		uint8_t carry = (x[bit >> 3] >> (bit & 7)) & 1;
		for (uint8_t i = 0; i < 32; i++) {
			uint8_t v = r[i] << 1 | carry;
			carry = r[i] >> 7;
			r[i] = v;
		}
		uint8_t borrow = 0;
		for (uint8_t i = 0; i < 32; i++) {
			uint16_t d = (uint16_t)r[i] - l[i] - borrow;
			t[i] = d;
			borrow = (d >> 8) & 1;
		}
		uint8_t keep = borrow - 1; /* 0xff: acc ≥ L, take t */
		for (uint8_t i = 0; i < 32; i++)
			r[i] ^= keep & (r[i] ^ t[i]);
	}
}

/* s = (r + k·a) mod L (§5.1.6 step 5). */
static void sc_muladd(uint8_t s[32], const uint8_t r[32], const uint8_t k[32], const uint8_t a[32])
{
	uint8_t t[64];
	for (uint8_t i = 0; i < 64; i++)
		t[i] = i < 32 ? r[i] : 0; /* start from r, add k·a row by row */
	for (uint8_t i = 0; i < 32; i++) {
		uint16_t c = 0;
		for (uint8_t j = 0; j < 32; j++) {
			c += t[i + j] + (uint16_t)k[i] * a[j];
			t[i + j] = c;
			c >>= 8;
		}
		for (uint8_t j = i + 32; j < 64; j++) { /* carry to the top */
			c += t[j];
			t[j] = c;
			c >>= 8;
		}
	}
	mod_l(s, t);
}

static void hash_mod_l(uint8_t out[32], const uint8_t *a, uint8_t alen, const uint8_t *b, uint8_t blen,
		       const uint8_t *m, uint16_t mlen)
{
	struct sha512 h;
	uint8_t d[64];
	sha512_init(&h);
	sha512_update(&h, a, alen);
	sha512_update(&h, b, blen);
	sha512_update(&h, m, mlen);
	sha512_final(&h, d);
	mod_l(out, d);
}

/* §5.1.5: a is the clamped first half of SHA-512(seed). */
static void expand(uint8_t az[64], const uint8_t seed[32])
{
	struct sha512 h;
	sha512_init(&h);
	sha512_update(&h, seed, 32);
	sha512_final(&h, az);
	az[0] &= 248;
	az[31] &= 127;
	az[31] |= 64;
}

void ed25519_public_key(uint8_t pk[32], const uint8_t seed[32])
{
	uint8_t az[64];
	struct ge a;
	expand(az, seed);
	ge_scalarmult_base(&a, az);
	ge_pack(pk, &a);
}

void ed25519_sign(uint8_t sig[64], const uint8_t *m, uint16_t mlen, const uint8_t seed[32], const uint8_t pk[32])
{
	uint8_t az[64], r[32], k[32];
	struct ge p;
	expand(az, seed);
	hash_mod_l(r, az + 32, 32, 0, 0, m, mlen);  /* r = SHA-512(prefix ‖ M) */
	ge_scalarmult_base(&p, r);
	ge_pack(sig, &p);                            /* R */
	hash_mod_l(k, sig, 32, pk, 32, m, mlen);    /* k = SHA-512(R ‖ A ‖ M) */
	sc_muladd(sig + 32, r, k, az);               /* S = r + k·a mod L */
}

uint8_t ed25519_verify(const uint8_t sig[64], const uint8_t *m, uint16_t mlen, const uint8_t pk[32])
{
	uint8_t k[32], rcheck[32];
	struct ge neg_a, b, ba, p;

	/* §5.1.7 step 1: S must be below L (no malleable signatures) */
	uint8_t lb;
	for (uint8_t i = 32; i-- > 0;) {
		lb = pgm_read_byte(&L[i]);
		if (sig[32 + i] < lb)
			break;
		if (sig[32 + i] > lb || i == 0)
			return 0;
	}
	if (!ge_unpack_neg(&neg_a, pk))
		return 0;
	hash_mod_l(k, sig, 32, pk, 32, m, mlen);

	/* [S]B + [k](−A) by Straus' method: one doubling per bit and an
	 * addition of B, −A or B − A where the bits say so. */
	ge_base(&b);
	ba = b;
	ge_add(&ba, &neg_a);
	ge_neutral(&p);
	for (uint16_t i = 256; i-- > 0;) {
		uint8_t sb = (sig[32 + (i >> 3)] >> (i & 7)) & 1;
		uint8_t kb = (k[i >> 3] >> (i & 7)) & 1;
		ge_add(&p, &p);
		if (sb && kb)
			ge_add(&p, &ba);
		else if (sb)
			ge_add(&p, &b);
		else if (kb)
			ge_add(&p, &neg_a);
	}
	ge_pack(rcheck, &p);
	uint8_t diff = 0;
	for (uint8_t i = 0; i < 32; i++)
		diff |= rcheck[i] ^ sig[i];
	return diff == 0;
}
