/*
 * rsa_sm.c: the RSA private-key operation as S004 measured it on an Arduino
 * (AvrCryptolib, "no Montgomery, no CRT"): left-to-right square-and-
 * multiply over the whole private exponent d, each step a full product and
 * then a reduction mod n by schoolbook long division (Knuth, TAOCP vol. 2,
 * §4.3.1, Algorithm D; HAC Algorithm 14.20) in base 256.
 *
 * This is the baseline S004 had, not a recommendation: its time depends on
 * the bits of d and on the quotient corrections of the division, so it
 * leaks the key through timing. rsa_crt.c is the constant-time Montgomery
 * and CRT variant.
 *
 * Built twice (mcu/kernels.go): with RSA_KEY_IN_FLASH the modulus and the
 * exponent stay in flash and are read with LPM at every use, S004's "key in
 * flash" case; otherwise they are in SRAM.
 */
#include <avr/pgmspace.h>
#include "rsa_sm.h"
#include "mcu_int.h"

#ifdef RSA_KEY_IN_FLASH
#define KEY(p, i) pgm_read_byte((p) + (i))
#else
#define KEY(p, i) ((p)[i])
#endif

/* t (2·len bytes) = a·b, column by column with a 24-bit accumulator: a
 * column has at most 256 products below 2^16 for len ≤ 256, which with the
 * carry (< 2^16) stays below 2^24. */
static void mul(uint8_t *t, const uint8_t *a, const uint8_t *b, uint16_t len)
{
	mcu_uint24_t acc = 0;
	for (uint16_t k = 0; k < 2 * len - 1; k++) {
		uint16_t lo = k < len ? 0 : k - len + 1;
		uint16_t n = (k < len ? k : len - 1) - lo + 1;
		const uint8_t *pa = a + lo, *pb = b + (k - lo);
		do
			acc += (uint16_t)*pa++ * *pb--;
		while (--n);
		t[k] = acc;
		acc >>= 8;
	}
	t[2 * len - 1] = acc;
}

/* t[0..len) = t (2·len bytes) mod n: Algorithm D, one quotient byte per
 * step from the top. t < n² means t's top len bytes are already below n, so
 * the quotient has len bytes and the first step divides t[len-1 .. 2len). */
static void reduce(uint8_t *t, const uint8_t *n, uint16_t len)
{
	uint8_t n1 = KEY(n, len - 1), n2 = KEY(n, len - 2);
	for (uint16_t j = len; j-- > 0;) {
		uint8_t *u = t + j; /* u[0..len] < 256·n */
		uint8_t top = u[len];
		/* D3: estimate q from the top two digits, then correct it with
		 * the third (q is then at most one too big) */
		uint16_t num = (uint16_t)top << 8 | u[len - 1];
		uint16_t q = num / n1, r = num % n1;
		while (q > 255 || q * n2 > (r << 8 | u[len - 2])) {
			q--;
			r += n1;
			if (r > 255)
				break;
		}
		/* D4: u −= q·n */
		uint16_t carry = 0;
		uint8_t borrow = 0;
		for (uint16_t i = 0; i < len; i++) {
			carry += q * KEY(n, i);
			uint16_t d = (uint16_t)u[i] - (uint8_t)carry - borrow;
			u[i] = d;
			borrow = d >> 15;
			carry >>= 8;
		}
		uint16_t d = (uint16_t)top - carry - borrow;
		u[len] = d;
		/* D6: q was one too big (probability about 2/256): add n back */
		if (d >> 15) {
			uint16_t c = 0;
			for (uint16_t i = 0; i < len; i++) {
				c += u[i] + KEY(n, i);
				u[i] = c;
				c >>= 8;
			}
			u[len] += c;
		}
	}
}

static void mulmod(uint8_t *out, const uint8_t *a, const uint8_t *b, const uint8_t *n, uint16_t len, uint8_t *t)
{
	mul(t, a, b, len);
	reduce(t, n, len);
	for (uint16_t i = 0; i < len; i++)
		out[i] = t[i];
}

void rsa_sm_private(uint8_t *out, const uint8_t *x, const uint8_t *d, const uint8_t *n, uint16_t len, uint8_t *scratch)
{
	/* skip d's leading zero bits; out = x at the top set bit */
	uint16_t bit = 8 * len;
	while (bit && !((KEY(d, (bit - 1) >> 3) >> ((bit - 1) & 7)) & 1))
		bit--;
	for (uint16_t i = 0; i < len; i++)
		out[i] = x[i];
	if (!bit) { /* d = 0 */
		for (uint16_t i = 0; i < len; i++)
			out[i] = i == 0;
		return;
	}
	while (--bit) {
		mulmod(out, out, out, n, len, scratch);
		if ((KEY(d, (bit - 1) >> 3) >> ((bit - 1) & 7)) & 1)
			mulmod(out, out, x, n, len, scratch);
	}
}
