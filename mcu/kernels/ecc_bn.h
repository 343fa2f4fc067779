/*
 * ecc_bn.h: arithmetic on little-endian byte strings for the elliptic-curve
 * kernels (ecc_fast.c, ecc_ct.c, ecdsa.c): 8-bit limbs, the operand size of
 * the AVR's 8×8→16-bit MUL instruction. Lengths are in bytes, at most
 * ECC_MAXB. Every function takes the same steps whatever the values (loop
 * bounds depend on the lengths only, choices are masks) unless its name
 * ends in _vt (variable time).
 */
#ifndef CRYPTOCOST_ECC_BN_H
#define CRYPTOCOST_ECC_BN_H

#include <stdint.h>
#include "ecc_params.h"

/* The largest operand: the order of P-256 plus one byte for the
 * regularised scalar (ecc_ct.c) and for the Montgomery carry. */
#define ECC_MAXB (ECC_NB > ECC_PB ? ECC_NB + 1 : ECC_PB + 1)

void bn_copy(uint8_t *r, const uint8_t *a, uint8_t len);
void bn_zero(uint8_t *r, uint8_t len);
/* bn_from_be/bn_to_be convert from/to a big-endian octet string (SEC 1
 * §2.3.8 Octet-String-to-Integer) of the same length. */
void bn_from_be(uint8_t *r, const uint8_t *be, uint8_t len);
void bn_to_be(uint8_t *be, const uint8_t *a, uint8_t len);

/* r = a + b, returns the carry; r = a − b, returns the borrow. r may be a
 * or b. */
uint8_t bn_add(uint8_t *r, const uint8_t *a, const uint8_t *b, uint8_t len);
uint8_t bn_sub(uint8_t *r, const uint8_t *a, const uint8_t *b, uint8_t len);
/* 1 if a is zero, else 0 (constant time). */
uint8_t bn_is_zero(const uint8_t *a, uint8_t len);
/* 1 if a = b, else 0 (constant time). */
uint8_t bn_equal(const uint8_t *a, const uint8_t *b, uint8_t len);
/* Swap a and b when bit is 1, with masks. */
void bn_cswap(uint8_t *a, uint8_t *b, uint8_t bit, uint8_t len);
/* r = bit ? a : r, with masks. */
void bn_cmov(uint8_t *r, const uint8_t *a, uint8_t bit, uint8_t len);

/* r = a mod m for a < 2m given as len bytes plus a carry byte hi (0 or 1):
 * one masked subtraction. */
void bn_reduce_once(uint8_t *r, const uint8_t *a, uint8_t hi, const uint8_t *m, uint8_t len);
/* r = a + b mod m and r = a − b mod m for a, b < m. */
void bn_mod_add(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t len);
void bn_mod_sub(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t len);
/* r = a/2 mod m (m odd, a < m). */
void bn_mod_half(uint8_t *r, const uint8_t *a, const uint8_t *m, uint8_t len);

/* Montgomery multiplication (Montgomery 1985): r = a·b·R⁻¹ mod m, R =
 * 2^(8·len), for a, b < m, m odd; minv = −m⁻¹ mod 256. Product and
 * reduction interleaved by columns (Koç, Acar and Kaliski 1996, FIPS). */
void bn_mont_mul(uint8_t *r, const uint8_t *a, const uint8_t *b, const uint8_t *m, uint8_t minv, uint8_t len);
/* r = a^(m−2)·R mod m for a in Montgomery form (a·R): the inverse by
 * Fermat's little theorem (m prime), in Montgomery form. The exponent is
 * public, so its bits choose the steps; the time does not depend on a. */
void bn_mont_inv(uint8_t *r, const uint8_t *a, const uint8_t *m, uint8_t minv, uint8_t len);

/* r (2·len bytes) = a·b and r = a², by columns (product scanning). */
void bn_mul(uint8_t *r, const uint8_t *a, const uint8_t *b, uint8_t len);
void bn_sqr(uint8_t *r, const uint8_t *a, uint8_t len);

/* 1 if a ≥ b (variable time). */
uint8_t bn_ge_vt(const uint8_t *a, const uint8_t *b, uint8_t len);
/* r = a⁻¹ mod m (m odd, 0 < a < m) by the binary extended Euclidean
 * algorithm (Hankerson, Menezes and Vanstone, Guide to Elliptic Curve
 * Cryptography, Algorithm 2.22): shifts and subtractions only, no
 * multiplication, but its steps follow the bits of a. */
void bn_inv_vt(uint8_t *r, const uint8_t *a, const uint8_t *m, uint8_t len);

#endif
