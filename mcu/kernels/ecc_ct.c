/*
 * ecc_ct.c: elliptic-curve arithmetic the way a small library such as
 * micro-ecc (K. MacKay) does it, made constant time throughout:
 *
 *  - every field element in Montgomery form, one generic Montgomery
 *    multiplication for the field and for the group order (ecc_bn.c): no
 *    code specific to a prime, so one small object serves every curve;
 *  - the Montgomery ladder with co-Z coordinates (Goundar, Joye, Miyaji,
 *    Rivain and Venelli, "Scalar multiplication on Weierstraß elliptic
 *    curves from Co-Z arithmetic", J. Cryptographic Engineering 2011:
 *    XYCZ-ADD and XYCZ-ADDC; the final 1/Z recovered from the base point
 *    as in micro-ecc's EccPoint_mult), two additions per scalar bit
 *    whatever the bit, the bit choosing only a masked swap;
 *  - the scalar regularised first: k + n or k + 2n, whichever has bit
 *    ECC_NBITS set (chosen with a mask), so every scalar has the same
 *    length and the ladder the same number of steps;
 *  - inversion by Fermat's little theorem, a^(p−2) (and a^(n−2) for the
 *    nonce), whose steps follow the public exponent only.
 *
 * Verification uses the same ladder twice and one affine addition: the
 * library stays small, and verification handles no secret.
 */
#include "ecc.h"
#include "ecc_bn.h"
#include "ecc_port.h"

typedef uint8_t fe[ECC_PB];

static void fm_mul(fe r, const fe a, const fe b) { bn_mont_mul(r, a, b, ecc_p, ECC_PINV, ECC_PB); }
static void fm_sqr(fe r, const fe a) { bn_mont_mul(r, a, a, ecc_p, ECC_PINV, ECC_PB); }
static void fm_add(fe r, const fe a, const fe b) { bn_mod_add(r, a, b, ecc_p, ECC_PB); }
static void fm_sub(fe r, const fe a, const fe b) { bn_mod_sub(r, a, b, ecc_p, ECC_PB); }

/* r = a·R mod p (a from flash when flash is set) */
static void to_mont(fe r, const uint8_t *a, uint8_t flash)
{
	fe t, r2;
	if (flash)
		ecc_flash_copy(t, a, ECC_PB);
	else
		bn_copy(t, a, ECC_PB);
	ecc_flash_copy(r2, ecc_r2p, ECC_PB);
	fm_mul(r, t, r2);
}

/* r = a·R⁻¹ mod p: out of Montgomery form */
static void from_mont(fe r, const fe a)
{
	fe one = {1};
	fm_mul(r, a, one);
}

/* (x, y) = (x·z², y·z³) */
static void apply_z(fe x, fe y, const fe z)
{
	fe t;
	fm_sqr(t, z);
	fm_mul(x, x, t);
	fm_mul(t, t, z);
	fm_mul(y, y, t);
}

/* (x, y, z) = 2(x, y, z) in Jacobian coordinates for a = −3 (micro-ecc's
 * double_jacobian_default): B = 3/2·(x² − z⁴), A = x·y², x3 = B² − 2A,
 * y3 = B(A − x3) − y⁴, z3 = y·z. Used once per ladder. */
static void double_jacobian(fe x, fe y, fe z)
{
	fe t4, t5;
	fm_sqr(t4, y);      /* y² */
	fm_mul(t5, x, t4);  /* A = x·y² */
	fm_sqr(t4, t4);     /* y⁴ */
	fm_mul(y, y, z);    /* z3 = y·z */
	fm_sqr(z, z);       /* z² */
	fm_add(x, x, z);    /* x + z² */
	fm_add(z, z, z);    /* 2z² */
	fm_sub(z, x, z);    /* x − z² */
	fm_mul(x, x, z);    /* x² − z⁴ */
	fm_add(z, x, x);
	fm_add(x, x, z);    /* 3(x² − z⁴) */
	bn_mod_half(x, x, ecc_p, ECC_PB); /* B */
	fm_sqr(z, x);       /* B² */
	fm_sub(z, z, t5);
	fm_sub(z, z, t5);   /* x3 = B² − 2A */
	fm_sub(t5, t5, z);  /* A − x3 */
	fm_mul(x, x, t5);   /* B(A − x3) */
	fm_sub(t4, x, t4);  /* y3 */
	bn_copy(x, z, ECC_PB);
	bn_copy(z, y, ECC_PB);
	bn_copy(y, t4, ECC_PB);
}

/* XYCZ-ADD: P = (x1, y1), Q = (x2, y2) with the same Z in; out
 * (x1, y1) = P with the new Z, (x2, y2) = P + Q. 4M + 2S. */
static void xycz_add(fe x1, fe y1, fe x2, fe y2)
{
	fe t5;
	fm_sub(t5, x2, x1);
	fm_sqr(t5, t5);     /* A = (x2 − x1)² */
	fm_mul(x1, x1, t5); /* B = x1·A */
	fm_mul(x2, x2, t5); /* C = x2·A */
	fm_sub(y2, y2, y1);
	fm_sqr(t5, y2);     /* D = (y2 − y1)² */
	fm_sub(t5, t5, x1);
	fm_sub(t5, t5, x2); /* x3 = D − B − C */
	fm_sub(x2, x2, x1);
	fm_mul(y1, y1, x2); /* y1·(C − B) */
	fm_sub(x2, x1, t5);
	fm_mul(y2, y2, x2); /* (y2 − y1)(B − x3) */
	fm_sub(y2, y2, y1); /* y3 */
	bn_copy(x2, t5, ECC_PB);
}

/* XYCZ-ADDC: out (x1, y1) = P − Q, (x2, y2) = P + Q, same Z. 5M + 3S. */
static void xycz_addc(fe x1, fe y1, fe x2, fe y2)
{
	fe t5, t6, t7;
	fm_sub(t5, x2, x1);
	fm_sqr(t5, t5);     /* A */
	fm_mul(x1, x1, t5); /* B */
	fm_mul(x2, x2, t5); /* C */
	fm_add(t5, y2, y1);
	fm_sub(y2, y2, y1);
	fm_sub(t6, x2, x1);
	fm_mul(y1, y1, t6); /* E = y1·(C − B) */
	fm_add(t6, x1, x2); /* B + C */
	fm_sqr(x2, y2);     /* D */
	fm_sub(x2, x2, t6); /* x3 = D − (B + C) */
	fm_sub(t7, x1, x2);
	fm_mul(y2, y2, t7);
	fm_sub(y2, y2, y1); /* y3 = (y2 − y1)(B − x3) − E */
	fm_sqr(t7, t5);     /* F = (y2 + y1)² */
	fm_sub(t7, t7, t6); /* x3' = F − (B + C) */
	fm_sub(t6, t7, x1);
	fm_mul(t6, t6, t5);
	fm_sub(y1, t6, y1); /* y3' = (y2 + y1)(x3' − B) − E */
	bn_copy(x1, t7, ECC_PB);
}

#define KR_BYTES (ECC_NB + 1)

static uint8_t kbit(const uint8_t *k, uint16_t i) { return (k[i >> 3] >> (i & 7)) & 1; }

/* kr = k + n if that has bit ECC_NBITS set, else k + 2n: a scalar of
 * exactly ECC_NBITS + 1 bits with kr·P = k·P. */
static void regularise(uint8_t kr[KR_BYTES], const uint8_t k[ECC_NB])
{
	uint8_t n[KR_BYTES], k2[KR_BYTES];
	bn_copy(n, ecc_n, ECC_NB);
	n[ECC_NB] = 0;
	bn_copy(kr, k, ECC_NB);
	kr[ECC_NB] = 0;
	bn_add(kr, kr, n, KR_BYTES);
	bn_add(k2, kr, n, KR_BYTES);
	bn_cmov(kr, k2, kbit(kr, ECC_NBITS) ^ 1, KR_BYTES);
}

/* (x, y) = kr·(x, y), all in Montgomery form, for a regularised scalar. */
static void ladder(fe x, fe y, const uint8_t kr[KR_BYTES])
{
	fe rx[2], ry[2], z;
	uint8_t swapped = 0, b;

	/* (R1, R0) = (2P, P) with a common Z: the top bit is 1 */
	bn_copy(rx[1], x, ECC_PB);
	bn_copy(ry[1], y, ECC_PB);
	bn_copy(rx[0], x, ECC_PB);
	bn_copy(ry[0], y, ECC_PB);
	ecc_flash_copy(z, ecc_r2p, ECC_PB);
	{
		fe one = {1};
		fm_mul(z, z, one); /* 1 in Montgomery form */
	}
	double_jacobian(rx[1], ry[1], z);
	apply_z(rx[0], ry[0], z);

	/* For bit b, with (A, B) = b ? (R1, R0) : (R0, R1): A ← A − B... then
	 * B ← A + B: micro-ecc's XYcZ_addC(R[1−nb], R[nb]) and XYcZ_add(R[nb],
	 * R[1−nb]) with nb = !b. The swap puts A in slot 0; consecutive swaps
	 * are merged. */
	for (uint16_t i = ECC_NBITS - 1; i > 0; i--) {
		b = kbit(kr, i);
		bn_cswap(rx[0], rx[1], b ^ swapped, ECC_PB);
		bn_cswap(ry[0], ry[1], b ^ swapped, ECC_PB);
		swapped = b;
		xycz_addc(rx[0], ry[0], rx[1], ry[1]);
		xycz_add(rx[1], ry[1], rx[0], ry[0]);
	}
	b = kbit(kr, 0);
	bn_cswap(rx[0], rx[1], b ^ swapped, ECC_PB);
	bn_cswap(ry[0], ry[1], b ^ swapped, ECC_PB);
	xycz_addc(rx[0], ry[0], rx[1], ry[1]);

	/* 1/Z = yP·X_A / (xP·Y_A·(X1 − X0)), X1 − X0 in unswapped slots:
	 * X_B − X_A, negated when b = 1 */
	{
		fe d, nd;
		fm_sub(d, rx[1], rx[0]);
		fm_sub(nd, rx[0], rx[1]);
		bn_cmov(d, nd, b, ECC_PB);
		fm_mul(z, d, ry[0]);
		fm_mul(z, z, x);
		bn_mont_inv(z, z, ecc_p, ECC_PINV, ECC_PB);
		fm_mul(z, z, y);
		fm_mul(z, z, rx[0]);
	}
	xycz_add(rx[1], ry[1], rx[0], ry[0]);
	bn_cswap(rx[0], rx[1], b, ECC_PB);
	bn_cswap(ry[0], ry[1], b, ECC_PB);
	apply_z(rx[0], ry[0], z);
	bn_copy(x, rx[0], ECC_PB);
	bn_copy(y, ry[0], ECC_PB);
}

/* (x, y) = k·(x, y) for 0 < k < n, x and y in Montgomery form, except for
 * k = 1, n − 2 and n − 1: with those an intermediate multiple of the
 * ladder is 0 or n (the point at infinity, which co-Z formulas cannot
 * hold) and the result is wrong. Callers handle the three. */
static void mul(fe x, fe y, const uint8_t k[ECC_NB])
{
	uint8_t kr[KR_BYTES];
	regularise(kr, k);
	ladder(x, y, kr);
}

/* whether k is 1, n − 1 or n − 2 (each 1 or 0), in constant time */
static void exceptional(const uint8_t k[ECC_NB], uint8_t *one, uint8_t *minus1, uint8_t *minus2)
{
	uint8_t t[ECC_NB], small[ECC_NB];
	bn_zero(small, ECC_NB);
	small[0] = 1;
	*one = bn_equal(k, small, ECC_NB);
	bn_sub(t, ecc_n, small, ECC_NB);
	*minus1 = bn_equal(k, t, ECC_NB);
	small[0] = 2;
	bn_sub(t, ecc_n, small, ECC_NB);
	*minus2 = bn_equal(k, t, ECC_NB);
}

void ecc_mul_base(uint8_t x[ECC_PB], uint8_t y[ECC_PB], const uint8_t k[ECC_NB])
{
	fe gx, gy, ny, zero = {0};
	uint8_t one, minus1, minus2;
	to_mont(x, ecc_gx, 1);
	to_mont(y, ecc_gy, 1);
	mul(x, y, k);
	/* the exceptional scalars' answers, G, −G and −2G, from constants
	 * and chosen with masks: the same steps for every k */
	exceptional(k, &one, &minus1, &minus2);
	to_mont(gx, ecc_gx, 1);
	to_mont(gy, ecc_gy, 1);
	fm_sub(ny, zero, gy);
	bn_cmov(x, gx, one | minus1, ECC_PB);
	bn_cmov(y, gy, one, ECC_PB);
	bn_cmov(y, ny, minus1, ECC_PB);
	to_mont(gx, ecc_g2[0], 1);
	to_mont(gy, ecc_g2[1], 1);
	fm_sub(ny, zero, gy);
	bn_cmov(x, gx, minus2, ECC_PB);
	bn_cmov(y, ny, minus2, ECC_PB);
	from_mont(x, x);
	from_mont(y, y);
}

/* (x3, y3) = (x1, y1) + (x2, y2) in affine coordinates, Montgomery form;
 * returns 0 for the point at infinity. Public values only: it branches. */
static uint8_t affine_add(fe x3, fe y3, const fe x1, const fe y1, const fe x2, const fe y2)
{
	fe l, t, u;
	/* λ = (y2 − y1)/(x2 − x1), or 3(x1² − 1)/(2y1) for the same point */
	fm_sub(t, x2, x1);
	if (bn_is_zero(t, ECC_PB)) {
		fm_add(t, y1, y2);
		if (bn_is_zero(t, ECC_PB))
			return 0; /* opposite points (or y = 0) */
		to_mont(u, (const uint8_t[ECC_PB]){1}, 0);
		fm_sqr(l, x1);
		fm_sub(l, l, u);
		fm_add(u, l, l);
		fm_add(l, l, u);
	} else {
		fm_sub(l, y2, y1);
	}
	bn_mont_inv(t, t, ecc_p, ECC_PINV, ECC_PB);
	fm_mul(l, l, t);
	fm_sqr(t, l);
	fm_sub(t, t, x1);
	fm_sub(t, t, x2); /* x3 = λ² − x1 − x2 */
	fm_sub(u, x1, t);
	fm_mul(u, u, l);
	fm_sub(y3, u, y1); /* y3 = λ(x1 − x3) − y1 */
	bn_copy(x3, t, ECC_PB);
	return 1;
}

/* (x, y) = k·(x, y) for any 0 < k < n, public k: the exceptional scalars
 * by branches. */
static void mul_public(fe x, fe y, const uint8_t k[ECC_NB])
{
	uint8_t one, minus1, minus2;
	fe zero = {0};
	exceptional(k, &one, &minus1, &minus2);
	if (one)
		return;
	if (minus2) { /* −2P */
		fe px, py;
		bn_copy(px, x, ECC_PB);
		bn_copy(py, y, ECC_PB);
		affine_add(x, y, px, py, px, py); /* P has odd order n: 2P ≠ O */
	}
	if (minus1 || minus2) {
		fm_sub(y, zero, y);
		return;
	}
	mul(x, y, k);
}

uint8_t ecc_mul_add(uint8_t x[ECC_PB], const uint8_t u1[ECC_NB], const uint8_t u2[ECC_NB], const uint8_t qx[ECC_PB],
		    const uint8_t qy[ECC_PB])
{
	fe x1, y1, x2, y2;
	to_mont(x2, qx, 0);
	to_mont(y2, qy, 0);
	mul_public(x2, y2, u2);
	if (bn_is_zero(u1, ECC_NB)) { /* u1 = 0 only if the hash is 0 mod n */
		from_mont(x, x2);
		return 1;
	}
	to_mont(x1, ecc_gx, 1);
	to_mont(y1, ecc_gy, 1);
	mul_public(x1, y1, u1);
	if (!affine_add(x1, y1, x1, y1, x2, y2))
		return 0;
	from_mont(x, x1);
	return 1;
}

uint8_t ecc_on_curve(const uint8_t x[ECC_PB], const uint8_t y[ECC_PB])
{
	fe xm, l, r, t;
	to_mont(xm, x, 0);
	to_mont(l, y, 0);
	fm_sqr(l, l);
	fm_sqr(r, xm);
	fm_mul(r, r, xm);
	fm_add(t, xm, xm);
	fm_add(t, t, xm);
	fm_sub(r, r, t);
	to_mont(t, ecc_b, 1);
	fm_add(r, r, t);
	return bn_equal(l, r, ECC_PB);
}

void ecc_scalar_inv(uint8_t r[ECC_NB], const uint8_t a[ECC_NB])
{
	uint8_t r2[ECC_NB];
	ecc_flash_copy(r2, ecc_r2n, ECC_NB);
	bn_mont_mul(r, a, r2, ecc_n, ECC_NINV, ECC_NB); /* a·R */
	bn_mont_inv(r, r, ecc_n, ECC_NINV, ECC_NB);     /* a⁻¹·R */
}
