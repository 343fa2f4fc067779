/*
 * ecc_bn.c: byte-string arithmetic for the elliptic-curve kernels (see
 * ecc_bn.h). Multiplications run by columns into an accumulator of at
 * least 24 bits: a column of 2·33 products of 16 bits and its carry stays
 * below 2^23. int is 16 bits on the AVR, so every product is added on its
 * own: a sum of two would wrap before it reaches the accumulator.
 */
#include "ecc_bn.h"
#include "ecc_port.h"

void bn_copy(uint8_t *r, const uint8_t *a, uint8_t len)
{
	for (uint8_t i = 0; i < len; i++)
		r[i] = a[i];
}

void bn_zero(uint8_t *r, uint8_t len)
{
	for (uint8_t i = 0; i < len; i++)
		r[i] = 0;
}

void bn_from_be(uint8_t *r, const uint8_t *be, uint8_t len)
{
	for (uint8_t i = 0; i < len; i++)
		r[i] = be[len - 1 - i];
}

void bn_to_be(uint8_t *be, const uint8_t *a, uint8_t len)
{
	for (uint8_t i = 0; i < len; i++)
		be[i] = a[len - 1 - i];
}

uint8_t bn_add(uint8_t *r, const uint8_t *a, const uint8_t *b, uint8_t len)
{
	uint16_t c = 0;
	for (uint8_t i = 0; i < len; i++) {
		c += (uint16_t)a[i] + b[i];
		r[i] = c;
		c >>= 8;
	}
	return c;
}

uint8_t bn_sub(uint8_t *r, const uint8_t *a, const uint8_t *b, uint8_t len)
{
	uint8_t borrow = 0;
	for (uint8_t i = 0; i < len; i++) {
		uint16_t d = (uint16_t)a[i] - b[i] - borrow;
		r[i] = d;
		borrow = (d >> 8) & 1;
	}
	return borrow;
}

/* 1 for v = 0, else 0, without a branch: v − 1 wraps to 0xffff only for
 * 0. (In uint16_t: int may be wider, and a negative int shifts badly.) */
static uint8_t zero_byte(uint8_t v)
{
	uint16_t t = (uint16_t)v - 1;
	return t >> 15;
}

uint8_t bn_is_zero(const uint8_t *a, uint8_t len)
{
	uint8_t acc = 0;
	for (uint8_t i = 0; i < len; i++)
		acc |= a[i];
	return zero_byte(acc);
}

uint8_t bn_equal(const uint8_t *a, const uint8_t *b, uint8_t len)
{
	uint8_t acc = 0;
	for (uint8_t i = 0; i < len; i++)
		acc |= a[i] ^ b[i];
	return zero_byte(acc);
}

void bn_cswap(uint8_t *a, uint8_t *b, uint8_t bit, uint8_t len)
{
	uint8_t mask = -bit;
	for (uint8_t i = 0; i < len; i++) {
		uint8_t t = mask & (a[i] ^ b[i]);
		a[i] ^= t;
		b[i] ^= t;
	}
}

void bn_cmov(uint8_t *r, const uint8_t *a, uint8_t bit, uint8_t len)
{
	uint8_t mask = -bit;
	for (uint8_t i = 0; i < len; i++)
		r[i] ^= mask & (r[i] ^ a[i]);
}

void bn_reduce_once(uint8_t *r, const uint8_t *a, uint8_t hi, const uint8_t *m, uint8_t len)
{
	uint8_t t[ECC_MAXB];
	uint8_t borrow = bn_sub(t, a, m, len);
	/* a + hi·2^(8·len) ≥ m unless it borrowed with no carry to lend */
	uint8_t mask = -(hi | (borrow ^ 1));
	for (uint8_t i = 0; i < len; i++)
		r[i] = a[i] ^ (mask & (a[i] ^ t[i]));
}

void bn_mod_add(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t len)
{
	uint8_t carry = bn_add(r, a, b, len);
	bn_reduce_once(r, r, carry, m, len);
}

/* r += m when bit is 1; returns the carry. */
static uint8_t add_masked(uint8_t *r, const uint8_t *m, uint8_t bit, uint8_t len)
{
	uint8_t mask = -bit;
	uint16_t c = 0;
	for (uint8_t i = 0; i < len; i++) {
		c += (uint16_t)r[i] + (m[i] & mask);
		r[i] = c;
		c >>= 8;
	}
	return c;
}

void bn_mod_sub(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t len)
{
	uint8_t borrow = bn_sub(r, a, b, len);
	add_masked(r, m, borrow, len);
}

/* r = (r + top·2^(8·len)) / 2 */
static void shr1(uint8_t *r, uint8_t top, uint8_t len)
{
	for (uint8_t i = 0; i < len; i++) {
		uint8_t next = i + 1 < len ? r[i + 1] : top;
		r[i] = (r[i] >> 1) | (next << 7);
	}
}

void bn_mod_half(uint8_t *r, const uint8_t *a, const uint8_t *m, uint8_t len)
{
	bn_copy(r, a, len);
	/* an odd a becomes even with m added: (a + m)/2 ≡ a/2 */
	uint8_t carry = add_masked(r, m, a[0] & 1, len);
	shr1(r, carry, len);
}

/* acc + Σ x_i·y_(−i) for i < n: x runs up, y down. Two pointers only, so
 * that avr-gcc keeps both in pointer registers (with four in one loop it
 * spills them to the stack, three times slower). */
static ecc_acc mac(ecc_acc acc, const uint8_t *x, const uint8_t *y, uint8_t n)
{
	while (n--)
		acc += (uint16_t)*x++ * *y--;
	return acc;
}

void bn_mont_mul(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t minv, uint8_t len)
{
	/* Column k of a·b + q·m, where the Montgomery digit q_k makes column
	 * k ≡ 0 mod 256 for k < len; the upper columns are the result,
	 * below 2m (a·b < m·R). */
	uint8_t q[ECC_MAXB], t[ECC_MAXB];
	ecc_acc acc = 0;
	for (uint8_t k = 0; k < len; k++) {
		acc = mac(acc, a, b + k, k + 1);
		acc = mac(acc, q, m + k, k);
		q[k] = (uint8_t)acc * minv;
		acc += (uint16_t)q[k] * m[0]; /* the low byte becomes 0 */
		acc >>= 8;
	}
	for (uint8_t k = len; k < 2 * len - 1; k++) {
		uint8_t lo = k - len + 1;
		acc = mac(acc, a + lo, b + len - 1, len - lo);
		acc = mac(acc, q + lo, m + len - 1, len - lo);
		t[k - len] = acc;
		acc >>= 8;
	}
	t[len - 1] = acc;
	bn_reduce_once(r, t, acc >> 8, m, len);
}

void bn_mont_inv(uint8_t *r, const uint8_t *a, const uint8_t *m, uint8_t minv, uint8_t len)
{
	uint8_t e[ECC_MAXB], x[ECC_MAXB];
	/* e = m − 2 */
	uint8_t borrow = 2;
	for (uint8_t i = 0; i < len; i++) {
		uint16_t d = (uint16_t)m[i] - borrow;
		e[i] = d;
		borrow = (d >> 8) & 1;
	}
	bn_copy(x, a, len);
	/* left to right from the top bit of e, which starts the result as a */
	uint16_t bit = 8 * (uint16_t)len;
	while (bit > 0 && !((e[(bit - 1) >> 3] >> ((bit - 1) & 7)) & 1))
		bit--;
	bit--;
	bn_copy(r, x, len);
	while (bit-- > 0) {
		bn_mont_mul(r, r, r, m, minv, len);
		if ((e[bit >> 3] >> (bit & 7)) & 1) /* a bit of the public m */
			bn_mont_mul(r, r, x, m, minv, len);
	}
}

void bn_mul(uint8_t *r, const uint8_t *a, const uint8_t *b, uint8_t len)
{
	/* Schoolbook by columns: column k sums a_i·b_(k−i); r may not be a
	 * or b. */
	ecc_acc acc = 0;
	for (uint8_t k = 0; k < 2 * len - 1; k++) {
		uint8_t lo = k < len ? 0 : k - len + 1;
		uint8_t hi = k < len ? k : len - 1;
		acc = mac(acc, a + lo, b + (k - lo), hi - lo + 1);
		r[k] = acc;
		acc >>= 8;
	}
	r[2 * len - 1] = acc;
}

void bn_sqr(uint8_t *r, const uint8_t *a, uint8_t len)
{
	/* Column k of a² is 2·Σ_{i<j, i+j=k} a_i·a_j, plus a_(k/2)² when k is
	 * even: half the byte products of bn_mul. */
	ecc_acc acc = 0;
	for (uint8_t k = 0; k < 2 * len - 1; k++) {
		uint8_t lo = k < len ? 0 : k - len + 1;
		const uint8_t *pa = a + lo, *pb = a + (k - lo);
		ecc_acc s = 0;
		while (pa < pb)
			s += (uint16_t)*pa++ * *pb--;
		acc += s + s;
		if (pa == pb) /* k even: a property of k, not of the data */
			acc += (uint16_t)*pa * *pa;
		r[k] = acc;
		acc >>= 8;
	}
	r[2 * len - 1] = acc;
}

uint8_t bn_ge_vt(const uint8_t *a, const uint8_t *b, uint8_t len)
{
	for (uint8_t i = len; i-- > 0;) {
		if (a[i] != b[i])
			return a[i] > b[i];
	}
	return 1;
}

static uint8_t is_one_vt(const uint8_t *a, uint8_t len)
{
	if (a[0] != 1)
		return 0;
	for (uint8_t i = 1; i < len; i++)
		if (a[i])
			return 0;
	return 1;
}

void bn_inv_vt(uint8_t *r, const uint8_t *a, const uint8_t *m, uint8_t len)
{
	uint8_t u[ECC_MAXB], v[ECC_MAXB], x2[ECC_MAXB];
	bn_copy(u, a, len);
	bn_copy(v, m, len);
	bn_zero(r, len); /* r is x1 */
	bn_zero(x2, len);
	if (bn_is_zero(a, len))
		return; /* no inverse; callers never ask */
	r[0] = 1;
	while (!is_one_vt(u, len) && !is_one_vt(v, len)) {
		while (!(u[0] & 1)) {
			shr1(u, 0, len);
			bn_mod_half(r, r, m, len);
		}
		while (!(v[0] & 1)) {
			shr1(v, 0, len);
			bn_mod_half(x2, x2, m, len);
		}
		if (bn_ge_vt(u, v, len)) {
			bn_sub(u, u, v, len);
			bn_mod_sub(r, r, x2, m, len);
		} else {
			bn_sub(v, v, u, len);
			bn_mod_sub(x2, x2, r, m, len);
		}
	}
	if (!is_one_vt(u, len))
		bn_copy(r, x2, len);
}
