/*
 * x25519.c: X25519 from RFC 7748 §5: the Montgomery ladder with a
 * conditional swap, 255 steps whatever the scalar, then one inversion.
 */
#include "x25519.h"
#include "fe25519.h"

/* a24 = (A − 2)/4 for Curve25519's A = 486662 (RFC 7748 §5). */
#define A24 121665

void x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
	uint8_t k[32];
	fe x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d;
	uint8_t swap = 0;

	/* decodeScalar25519 and decodeUCoordinate (§5) */
	for (uint8_t i = 0; i < 32; i++)
		k[i] = scalar[i];
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
	fe_copy(x1, u);
	x1[31] &= 127;

	fe_set(x2, 1);
	fe_set(z2, 0);
	fe_copy(x3, x1);
	fe_set(z3, 1);
	for (uint8_t t = 255; t-- > 0;) {
		uint8_t kt = (k[t >> 3] >> (t & 7)) & 1;
		swap ^= kt;
		fe_cswap(x2, x3, swap);
		fe_cswap(z2, z3, swap);
		swap = kt;

		fe_add(a, x2, z2);
		fe_sq(aa, a);
		fe_sub(b, x2, z2);
		fe_sq(bb, b);
		fe_sub(e, aa, bb);
		fe_add(c, x3, z3);
		fe_sub(d, x3, z3);
		fe_mul(d, d, a);   /* DA */
		fe_mul(c, c, b);   /* CB */
		fe_add(x3, d, c);
		fe_sq(x3, x3);
		fe_sub(z3, d, c);
		fe_sq(z3, z3);
		fe_mul(z3, z3, x1);
		fe_mul(x2, aa, bb);
		fe_mul_small(z2, e, A24);
		fe_add(z2, z2, aa);
		fe_mul(z2, z2, e);
	}
	fe_cswap(x2, x3, swap);
	fe_cswap(z2, z3, swap);
	fe_inv(z2, z2);
	fe_mul(x2, x2, z2);
	fe_pack(out, x2);
}

void x25519_base(uint8_t out[32], const uint8_t scalar[32])
{
	uint8_t nine[32];
	fe_set(nine, 9);
	x25519(out, scalar, nine);
}
