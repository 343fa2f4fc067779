/*
 * ecc.h: what ECDSA (ecdsa.c) needs from an elliptic-curve implementation.
 * Two implement it, in the styles S004's libraries stand for:
 *
 *   ecc_fast.c  TinyECC's choices: Jacobian coordinates, wNAF (w = 4) with
 *               a fixed table of multiples of G, interleaved (Straus-Shamir)
 *               double multiplication for verification, reduction
 *               specific to the curve's prime, binary inversion. Fast,
 *               and its time follows the scalar's digits.
 *   ecc_ct.c    micro-ecc's choices made strictly constant time: a co-Z
 *               Montgomery ladder over a fixed number of bits, generic
 *               Montgomery multiplication, inversion by Fermat's little
 *               theorem. Smaller, slower, the same steps for every secret.
 *
 * The curve is chosen at compile time (ECC_CURVE_* in ecc_params.h); all
 * four have a = −3. Numbers are little-endian byte strings: field
 * elements ECC_PB bytes, scalars ECC_NB bytes.
 */
#ifndef CRYPTOCOST_ECC_H
#define CRYPTOCOST_ECC_H

#include <stdint.h>
#include "ecc_params.h"

/* (x, y) = k·G, affine, for 0 < k < n (the nonce or the private key). */
void ecc_mul_base(uint8_t x[ECC_PB], uint8_t y[ECC_PB], const uint8_t k[ECC_NB]);

/* x = the x-coordinate of u1·G + u2·Q (0 < u1, u2 < n) for a point Q on
 * the curve; returns 0 if the sum is the point at infinity, else 1. */
uint8_t ecc_mul_add(uint8_t x[ECC_PB], const uint8_t u1[ECC_NB], const uint8_t u2[ECC_NB], const uint8_t qx[ECC_PB],
		    const uint8_t qy[ECC_PB]);

/* 1 if (x, y), both below p, satisfies y² = x³ − 3x + b. */
uint8_t ecc_on_curve(const uint8_t x[ECC_PB], const uint8_t y[ECC_PB]);

/* r = a⁻¹·R mod n (R = 2^(8·ECC_NB)) for 0 < a < n: the inverse in
 * Montgomery form, ready for bn_mont_mul. */
void ecc_scalar_inv(uint8_t r[ECC_NB], const uint8_t a[ECC_NB]);

#endif
