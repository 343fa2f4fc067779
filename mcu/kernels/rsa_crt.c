/*
 * rsa_crt.c: the RSA private-key operation as a modern implementation does
 * it, to set against S004's plain square-and-multiply (rsa_sm.c):
 *
 *  - the Chinese remainder theorem (PKCS #1 v2.2 §5.1.2, RSADP step 2b):
 *    two exponentiations mod p and mod q, each with half-size numbers and
 *    half-size exponents, joined by Garner's formula;
 *  - Montgomery multiplication (Montgomery 1985) by columns with the
 *    reduction interleaved (Koç, Acar and Kaliski, "Analyzing and comparing
 *    Montgomery multiplication algorithms", IEEE Micro 1996: FIPS), so no
 *    division at all;
 *  - a Montgomery ladder over every bit of dp and dq, masked swaps and
 *    masked final subtractions: the same instructions whatever the message
 *    and the key bits.
 */
#include "rsa_crt.h"
#include "mcu_int.h"

/* r (h+1 bytes) = a·b·R⁻¹ mod m, below 2m, for a < R and b < m: column k
 * of a·b + M·m, where the Montgomery digit M_k makes column k ≡ 0 mod 256
 * for k < h. At most 2h products of 16 bits per column: below 2^24 with the
 * carry for h ≤ 128. mq holds the h digits of M. */
static void mont_mul_raw(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t minv, uint16_t h,
			 uint8_t *mq)
{
	mcu_uint24_t acc = 0;
	for (uint16_t k = 0; k < h; k++) {
		for (uint16_t i = 0; i < k; i++) {
			/* two additions: int is 16 bits here, a sum of two
			 * products would wrap before reaching acc */
			acc += (uint16_t)a[i] * b[k - i];
			acc += (uint16_t)mq[i] * m[k - i];
		}
		acc += (uint16_t)a[k] * b[0];
		mq[k] = (uint8_t)acc * minv;
		acc += (uint16_t)mq[k] * m[0]; /* the low byte becomes 0 */
		acc >>= 8;
	}
	for (uint16_t k = h; k < 2 * h - 1; k++) {
		for (uint16_t i = k - h + 1; i < h; i++) {
			acc += (uint16_t)a[i] * b[k - i];
			acc += (uint16_t)mq[i] * m[k - i];
		}
		r[k - h] = acc;
		acc >>= 8;
	}
	r[h - 1] = acc;
	r[h] = acc >> 8;
}

/* r (h bytes) = x mod m for x < 2m (h+1 bytes): subtract m, keep the
 * difference unless it borrowed (a masked choice). r may be x. */
static void sub_if_ge(uint8_t *r, const uint8_t *x, const uint8_t *m, uint16_t h, uint8_t *tmp)
{
	uint8_t borrow = 0;
	for (uint16_t i = 0; i < h; i++) {
		uint16_t d = (uint16_t)x[i] - m[i] - borrow;
		tmp[i] = d;
		borrow = d >> 15;
	}
	uint16_t d = (uint16_t)x[h] - borrow;
	uint8_t keep = (d >> 15) - 1; /* 0xff when x ≥ m */
	for (uint16_t i = 0; i < h; i++)
		r[i] = x[i] ^ (keep & (x[i] ^ tmp[i]));
}

struct mont {
	const uint8_t *m;
	uint8_t minv;
	uint16_t h;
	uint8_t *wide, *mq, *tmp; /* h+1, h, h+1 bytes */
};

static void mont_mul(const struct mont *c, uint8_t *r, const uint8_t *a, const uint8_t *b)
{
	mont_mul_raw(c->wide, a, b, c->m, c->minv, c->h, c->mq);
	sub_if_ge(r, c->wide, c->m, c->h, c->tmp);
}

static void cswap(uint8_t *a, uint8_t *b, uint16_t h, uint8_t bit)
{
	uint8_t mask = -bit;
	for (uint16_t i = 0; i < h; i++) {
		uint8_t t = mask & (a[i] ^ b[i]);
		a[i] ^= t;
		b[i] ^= t;
	}
}

/* r = x^e mod m for a 2h-byte x, with the Montgomery ladder. */
static void exp_mod(const struct mont *c, uint8_t *r, const uint8_t *x, const uint8_t *e, const uint8_t *r2,
		    const uint8_t *r3, uint8_t *r1)
{
	uint16_t h = c->h;
	/* x·R mod m = x_lo·R²·R⁻¹ + x_hi·R³·R⁻¹, each below m */
	mont_mul(c, r, x, r2);
	mont_mul(c, r1, x + h, r3);
	uint16_t carry = 0;
	for (uint16_t i = 0; i < h; i++) {
		carry += r[i] + r1[i];
		c->wide[i] = carry;
		carry >>= 8;
	}
	c->wide[h] = carry;
	sub_if_ge(r1, c->wide, c->m, h, c->tmp); /* r1 = x·R */
	/* r = 1·R = R² · R⁻¹ with a = 1 */
	for (uint16_t i = 0; i < h; i++)
		c->tmp[i] = i == 0;
	mont_mul(c, r, c->tmp, r2);
	for (uint16_t bit = 8 * h; bit-- > 0;) {
		uint8_t b = (e[bit >> 3] >> (bit & 7)) & 1;
		cswap(r, r1, h, b);
		mont_mul(c, r1, r, r1);
		mont_mul(c, r, r, r);
		cswap(r, r1, h, b);
	}
	/* leave Montgomery form: r·1·R⁻¹ */
	for (uint16_t i = 0; i < h; i++)
		c->tmp[i] = i == 0;
	mont_mul(c, r, r, c->tmp);
}

void rsa_crt_private(uint8_t *out, const uint8_t *x, const struct rsa_crt_key *k, uint8_t *scratch)
{
	uint16_t h = k->len;
	uint8_t *m1 = out, *m2 = out + h; /* out holds m1 and m2 until the end */
	uint8_t *r1 = scratch, *wide = r1 + h + 1, *tmp = wide + h + 1, *mq = tmp + h + 1, *hv = mq + h;
	struct mont cp = {k->p, k->pinv, h, wide, mq, tmp};
	struct mont cq = {k->q, k->qinv8, h, wide, mq, tmp};

	exp_mod(&cp, m1, x, k->dp, k->r2p, k->r3p, r1); /* m1 = x^dp mod p */
	exp_mod(&cq, m2, x, k->dq, k->r2q, k->r3q, r1); /* m2 = x^dq mod q */

	/* Garner: h = qinv·(m1 − m2) mod p. m2 < q < 2p, so m2 mod p is one
	 * masked subtraction; m1 − m2' < 0 adds p back, masked too. */
	for (uint16_t i = 0; i < h; i++)
		wide[i] = m2[i];
	wide[h] = 0;
	sub_if_ge(hv, wide, k->p, h, tmp);
	uint8_t borrow = 0;
	for (uint16_t i = 0; i < h; i++) {
		uint16_t d = (uint16_t)m1[i] - hv[i] - borrow;
		hv[i] = d;
		borrow = d >> 15;
	}
	uint8_t mask = -borrow;
	uint16_t carry = 0;
	for (uint16_t i = 0; i < h; i++) {
		carry += hv[i] + (mask & k->p[i]);
		hv[i] = carry;
		carry >>= 8;
	}
	mont_mul(&cp, hv, hv, k->qinv_r); /* (m1 − m2)·qinv·R·R⁻¹ */

	/* out = m2 + h·q (2h bytes), row by row; m2 moves out of the way */
	for (uint16_t i = 0; i < h; i++)
		r1[i] = m2[i];
	for (uint16_t i = 0; i < 2 * h; i++)
		out[i] = i < h ? r1[i] : 0;
	for (uint16_t i = 0; i < h; i++) {
		uint16_t c = 0;
		for (uint16_t j = 0; j < h; j++) {
			c += out[i + j] + (uint16_t)hv[i] * k->q[j];
			out[i + j] = c;
			c >>= 8;
		}
		for (uint16_t j = i + h; j < 2 * h; j++) {
			c += out[j];
			out[j] = c;
			c >>= 8;
		}
	}
}
