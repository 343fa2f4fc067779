/*
 * ecc_fast.c: elliptic-curve arithmetic the way TinyECC (Liu and Ning,
 * IPSN 2008) makes it fast, in portable C:
 *
 *  - field multiplication by columns into a double-length product, then a
 *    reduction specific to the prime: for the SEC 2 primes p = 2^(8·PB) −
 *    2^S − 1 (SEC 2 v1.0 §2.3.1, §2.4.2, §2.5.2: S = 97, 31, 64) the high
 *    half folds down as hi·(2^S + 1); for P-256 the word-wise formula of
 *    FIPS 186-4 Appendix D.2.3;
 *  - Jacobian coordinates, X/Z², Y/Z³ (Guide to Elliptic Curve Cryptography,
 *    Hankerson, Menezes and Vanstone 2004, §3.2.2): doubling for a = −3 in
 *    3M + 5S (dbl-2001-b, Bernstein and Lange's Explicit-Formulas Database)
 *    and mixed Jacobian-affine addition in 8M + 3S (Guide Algorithm 3.22);
 *  - the width-4 NAF of the scalar (Guide Algorithm 3.35): one addition per
 *    five bits on average, with the odd multiples G, 3G, 5G, 7G fixed in
 *    flash (TinyECC precomputes its window once at start-up; here the Go
 *    side computes the table, ecc_params.h);
 *  - verification as one interleaved loop over both wNAFs (Straus-Shamir:
 *    Guide Algorithm 3.51), the multiples of Q computed per call;
 *  - inversion by the binary extended Euclidean algorithm (ecc_bn.c).
 *
 * Its time depends on the scalar: how many non-zero wNAF digits, how long
 * the NAF is, how many steps the inversion takes. That is the point of
 * measuring it beside ecc_ct.c.
 */
#include "ecc.h"
#include "ecc_bn.h"
#include "ecc_port.h"

typedef uint8_t fe[ECC_PB];

/* ---- reduction modulo p */

#if defined(ECC_P_PSEUDO_MERSENNE)
#define PM_Q (ECC_P_PSEUDO_MERSENNE / 8)
#define PM_B (ECC_P_PSEUDO_MERSENNE % 8)

/* The buffer a fold writes: lo plus hi·2^S plus carries. */
#define PM_LEN (ECC_PB + PM_Q + 2)
#if PM_LEN > 2 * ECC_PB
#error "ecc_fast.c: 2^S too large for the product buffer"
#endif

/* t[off…] += (hi·2^b) for an h-byte hi, 0 ≤ b < 8, the carry running up
 * to t[PM_LEN − 1]. */
static void add_shifted(uint8_t *t, uint8_t off, const uint8_t *hi, uint8_t h, uint8_t b)
{
	uint16_t c = 0;
	uint8_t spill = 0;
	uint8_t i = 0;
	for (; i < h; i++) {
		uint16_t x = (uint16_t)hi[i] << b;
		c += t[off + i] + (uint8_t)(x | spill);
		spill = x >> 8;
		t[off + i] = c;
		c >>= 8;
	}
	c += spill;
	for (i += off; c && i < PM_LEN; i++) {
		c += t[i];
		t[i] = c;
		c >>= 8;
	}
}

/* r = t mod p for a 2·PB-byte t (destroyed). v = lo + hi·2^(8·PB) ≡ lo + hi
 * + hi·2^S: each fold lowers v by hi·p, and a few folds (two or three on
 * secp160r1 and secp192r1, up to five on secp128r1, whose S = 97 is large)
 * leave v below 2^(8·PB) < 2p. */
static void reduce(fe r, uint8_t *t)
{
	uint8_t hi[ECC_PB];
	uint8_t len = 2 * ECC_PB;
	while (len > ECC_PB) {
		uint8_t h = len - ECC_PB;
		bn_copy(hi, t + ECC_PB, h);
		bn_zero(t + ECC_PB, PM_LEN - ECC_PB);
		add_shifted(t, 0, hi, h, 0);
		add_shifted(t, PM_Q, hi, h, PM_B);
		len = PM_LEN;
		while (len > ECC_PB && t[len - 1] == 0)
			len--;
	}
	bn_reduce_once(r, t, 0, ecc_p, ECC_PB);
}

#elif defined(ECC_P_NIST256)

/* FIPS 186-4 Appendix D.2.3: with c = (c15, …, c0) in 32-bit words,
 * c ≡ T + 2·S1 + 2·S2 + S3 + S4 − D1 − D2 − D3 − D4 (mod p). Row i lists
 * the words that add to (or, NEG, subtract from) result word i; TWICE
 * counts one twice. */
#define TWICE 0x10
#define NEG 0x20
#define END 0xff
static const uint8_t nist_rows[8][8] ECC_FLASH = {
	{0, 8, 9, NEG | 11, NEG | 12, NEG | 13, NEG | 14, END},
	{1, 9, 10, NEG | 12, NEG | 13, NEG | 14, NEG | 15, END},
	{2, 10, 11, NEG | 13, NEG | 14, NEG | 15, END, END},
	{3, TWICE | 11, TWICE | 12, 13, NEG | 15, NEG | 8, NEG | 9, END},
	{4, TWICE | 12, TWICE | 13, 14, NEG | 9, NEG | 10, END, END},
	{5, TWICE | 13, TWICE | 14, 15, NEG | 10, NEG | 11, END, END},
	{6, TWICE | 14, TWICE | 15, 14, 13, NEG | 8, NEG | 9, END},
	{7, TWICE | 15, 15, 8, NEG | 10, NEG | 11, NEG | 12, NEG | 13},
};

/* the signed carry out of byte position: (acc − low byte)/256, exact */
#define CARRY(acc) ((int16_t)((acc) - (uint8_t)(acc)) / 256)

static void reduce(fe r, uint8_t *t)
{
	uint8_t row[8];
	int16_t acc = 0;
	for (uint8_t j = 0; j < 32; j++) {
		if ((j & 3) == 0)
			ecc_flash_copy(row, nist_rows[j >> 2], 8);
		for (uint8_t e = 0; e < 8 && row[e] != END; e++) {
			int16_t v = t[4 * (row[e] & 15) + (j & 3)];
			if (row[e] & TWICE)
				v += v;
			if (row[e] & NEG)
				acc -= v;
			else
				acc += v;
		}
		r[j] = acc;
		acc = CARRY(acc);
	}
	/* r + c·2^256 with a small signed c; 2^256 ≡ 2^224 − 2^192 − 2^96 + 1
	 * (mod p). Each pass leaves a carry of at most ±1, the next none. */
	int16_t c = acc;
	while (c != 0) {
		acc = 0;
		for (uint8_t j = 0; j < 32; j++) {
			acc += r[j];
			if (j == 0 || j == 28)
				acc += c;
			if (j == 12 || j == 24)
				acc -= c;
			r[j] = acc;
			acc = CARRY(acc);
		}
		c = acc;
	}
	bn_reduce_once(r, r, 0, ecc_p, ECC_PB);
}
#else
#error "ecc_fast.c: no reduction for this curve's prime"
#endif

static void fe_mul(fe r, const fe a, const fe b)
{
	uint8_t t[2 * ECC_PB];
	bn_mul(t, a, b, ECC_PB);
	reduce(r, t);
}

static void fe_sqr(fe r, const fe a)
{
	uint8_t t[2 * ECC_PB];
	bn_sqr(t, a, ECC_PB);
	reduce(r, t);
}

static void fe_add(fe r, const fe a, const fe b) { bn_mod_add(r, a, b, ecc_p, ECC_PB); }
static void fe_sub(fe r, const fe a, const fe b) { bn_mod_sub(r, a, b, ecc_p, ECC_PB); }

/* ---- points */

/* A point in Jacobian coordinates; z = 0 is the point at infinity. */
struct jac {
	fe x, y, z;
};

static void jac_set_affine(struct jac *p, const fe x, const fe y)
{
	bn_copy(p->x, x, ECC_PB);
	bn_copy(p->y, y, ECC_PB);
	bn_zero(p->z, ECC_PB);
	p->z[0] = 1;
}

/* p = 2p for a = −3 (dbl-2001-b): δ = Z², γ = Y², β = X·γ,
 * α = 3(X − δ)(X + δ); X3 = α² − 8β, Z3 = (Y + Z)² − γ − δ,
 * Y3 = α(4β − X3) − 8γ². */
static void jac_double(struct jac *p)
{
	fe delta, gamma, beta, alpha, t;
	if (bn_is_zero(p->z, ECC_PB))
		return;
	fe_sqr(delta, p->z);
	fe_sqr(gamma, p->y);
	fe_mul(beta, p->x, gamma);
	fe_sub(t, p->x, delta);
	fe_add(alpha, p->x, delta);
	fe_mul(alpha, alpha, t);
	fe_add(t, alpha, alpha);
	fe_add(alpha, alpha, t);
	fe_add(t, p->y, p->z);
	fe_sqr(t, t);
	fe_sub(t, t, gamma);
	fe_sub(p->z, t, delta);
	fe_add(beta, beta, beta);
	fe_add(beta, beta, beta); /* 4β */
	fe_sqr(p->x, alpha);
	fe_add(t, beta, beta);
	fe_sub(p->x, p->x, t);
	fe_sub(beta, beta, p->x);
	fe_mul(p->y, alpha, beta);
	fe_sqr(gamma, gamma);
	fe_add(gamma, gamma, gamma);
	fe_add(gamma, gamma, gamma);
	fe_add(gamma, gamma, gamma); /* 8γ² */
	fe_sub(p->y, p->y, gamma);
}

/* p = p + (x2, y2), the second point affine (Guide Algorithm 3.22). */
static void jac_add_affine(struct jac *p, const fe x2, const fe y2)
{
	fe t1, t2, t3, t4;
	if (bn_is_zero(p->z, ECC_PB)) {
		jac_set_affine(p, x2, y2);
		return;
	}
	fe_sqr(t1, p->z);
	fe_mul(t2, t1, p->z);
	fe_mul(t1, t1, x2);
	fe_mul(t2, t2, y2);
	fe_sub(t1, t1, p->x); /* H */
	fe_sub(t2, t2, p->y); /* r */
	if (bn_is_zero(t1, ECC_PB)) {
		if (bn_is_zero(t2, ECC_PB)) { /* the same point: double it */
			jac_set_affine(p, x2, y2);
			jac_double(p);
		} else { /* opposite points */
			bn_zero(p->z, ECC_PB);
		}
		return;
	}
	fe_mul(p->z, p->z, t1);
	fe_sqr(t3, t1);
	fe_mul(t4, t3, t1);
	fe_mul(t3, t3, p->x);
	fe_add(t1, t3, t3);
	fe_sqr(p->x, t2);
	fe_sub(p->x, p->x, t1);
	fe_sub(p->x, p->x, t4);
	fe_sub(t3, t3, p->x);
	fe_mul(t3, t3, t2);
	fe_mul(t4, t4, p->y);
	fe_sub(p->y, t3, t4);
}

/* (x, y) = p in affine coordinates (y may be NULL); p is not infinity. */
static void jac_to_affine(fe x, fe y, const struct jac *p)
{
	fe zi, zi2;
	bn_inv_vt(zi, p->z, ecc_p, ECC_PB);
	fe_sqr(zi2, zi);
	fe_mul(x, p->x, zi2);
	if (y) {
		fe_mul(zi2, zi2, zi);
		fe_mul(y, p->y, zi2);
	}
}

/* ---- width-4 NAF */

/* At most one digit more than the order has bits; digits are odd in
 * −7…7 or zero, two to a byte. */
#define NAF_DIGITS (ECC_NBITS + 1)
#define NAF_BYTES ((NAF_DIGITS + 1) / 2)

/* Guide Algorithm 3.35: while k > 0, a digit k mods 16 when k is odd (and
 * k −= digit), else 0; k /= 2. Returns the number of digits. */
static uint16_t wnaf(uint8_t naf[NAF_BYTES], const uint8_t k[ECC_NB])
{
	uint8_t d[ECC_NB + 1];
	uint16_t n = 0;
	bn_copy(d, k, ECC_NB);
	d[ECC_NB] = 0;
	bn_zero(naf, NAF_BYTES);
	while (!bn_is_zero(d, ECC_NB + 1)) {
		uint8_t digit = 0;
		if (d[0] & 1) {
			digit = d[0] & 15;
			/* k − digit with digit in −7…7: subtract the low nibble,
			 * and add 16 back when the digit is negative */
			uint16_t c = (uint16_t)d[0] - digit + (digit >= 8 ? 16 : 0);
			d[0] = c;
			for (uint8_t i = 1; i <= ECC_NB && (c >> 8); i++) {
				c = (uint16_t)d[i] + 1;
				d[i] = c;
			}
		}
		naf[n >> 1] |= digit << (4 * (n & 1));
		for (uint8_t i = 0; i <= ECC_NB; i++)
			d[i] = (d[i] >> 1) | (i < ECC_NB ? d[i + 1] << 7 : 0);
		n++;
	}
	return n;
}

static int8_t naf_digit(const uint8_t naf[NAF_BYTES], uint16_t i)
{
	int8_t v = (naf[i >> 1] >> (4 * (i & 1))) & 15;
	return v >= 8 ? v - 16 : v;
}

/* p = p + d·T for a wNAF digit d ≠ 0 and the table T = (P, 3P, 5P, 7P);
 * the table is in flash when flash is set. −(x, y) = (x, −y). */
static void add_digit(struct jac *p, int8_t d, const uint8_t (*table)[2][ECC_PB], uint8_t flash)
{
	fe x, y;
	uint8_t j = (d < 0 ? -d : d) >> 1;
	if (flash) {
		ecc_flash_copy(x, table[j][0], ECC_PB);
		ecc_flash_copy(y, table[j][1], ECC_PB);
	} else {
		bn_copy(x, table[j][0], ECC_PB);
		bn_copy(y, table[j][1], ECC_PB);
	}
	if (d < 0) {
		fe zero = {0};
		fe_sub(y, zero, y);
	}
	jac_add_affine(p, x, y);
}

void ecc_mul_base(uint8_t x[ECC_PB], uint8_t y[ECC_PB], const uint8_t k[ECC_NB])
{
	uint8_t naf[NAF_BYTES];
	struct jac p;
	uint16_t n = wnaf(naf, k);
	bn_zero(p.z, ECC_PB);
	while (n-- > 0) {
		jac_double(&p);
		int8_t d = naf_digit(naf, n);
		if (d)
			add_digit(&p, d, ecc_gtab, 1);
	}
	jac_to_affine(x, y, &p);
}

uint8_t ecc_mul_add(uint8_t x[ECC_PB], const uint8_t u1[ECC_NB], const uint8_t u2[ECC_NB], const uint8_t qx[ECC_PB],
		    const uint8_t qy[ECC_PB])
{
	uint8_t q[4][2][ECC_PB]; /* Q, 3Q, 5Q, 7Q, affine */
	uint8_t naf1[NAF_BYTES], naf2[NAF_BYTES];
	fe x2, y2;
	struct jac p;

	/* 2Q, then (2j + 1)Q = (2j − 1)Q + 2Q; each made affine so that the
	 * main loop's additions are the cheaper mixed ones */
	bn_copy(q[0][0], qx, ECC_PB);
	bn_copy(q[0][1], qy, ECC_PB);
	jac_set_affine(&p, qx, qy);
	jac_double(&p);
	jac_to_affine(x2, y2, &p);
	for (uint8_t j = 1; j < 4; j++) {
		jac_set_affine(&p, q[j - 1][0], q[j - 1][1]);
		jac_add_affine(&p, x2, y2);
		jac_to_affine(q[j][0], q[j][1], &p);
	}

	uint16_t n1 = wnaf(naf1, u1), n2 = wnaf(naf2, u2);
	uint16_t n = n1 > n2 ? n1 : n2;
	bn_zero(p.z, ECC_PB);
	while (n-- > 0) {
		jac_double(&p);
		int8_t d = n < n1 ? naf_digit(naf1, n) : 0;
		if (d)
			add_digit(&p, d, ecc_gtab, 1);
		d = n < n2 ? naf_digit(naf2, n) : 0;
		if (d)
			add_digit(&p, d, (const uint8_t(*)[2][ECC_PB])q, 0);
	}
	if (bn_is_zero(p.z, ECC_PB))
		return 0;
	jac_to_affine(x, 0, &p);
	return 1;
}

uint8_t ecc_on_curve(const uint8_t x[ECC_PB], const uint8_t y[ECC_PB])
{
	fe l, r, t;
	fe_sqr(l, y);
	fe_sqr(r, x);
	fe_mul(r, r, x);
	fe_add(t, x, x);
	fe_add(t, t, x);
	fe_sub(r, r, t);
	ecc_flash_copy(t, ecc_b, ECC_PB);
	fe_add(r, r, t);
	return bn_equal(l, r, ECC_PB);
}

void ecc_scalar_inv(uint8_t r[ECC_NB], const uint8_t a[ECC_NB])
{
	uint8_t t[ECC_NB], r2[ECC_NB];
	bn_inv_vt(t, a, ecc_n, ECC_NB);
	ecc_flash_copy(r2, ecc_r2n, ECC_NB);
	bn_mont_mul(r, t, r2, ecc_n, ECC_NINV, ECC_NB); /* a⁻¹·R²·R⁻¹ */
}
