/*
 * fe25519.h: arithmetic modulo p = 2^255 − 19 for 8-bit cores, shared by
 * X25519 and Ed25519.
 *
 * An element is 32 bytes, little-endian, holding any value below 2^256
 * that is congruent to it mod p; fe_pack gives the unique value below p.
 * Every function runs the same instructions whatever the values.
 */
#ifndef CRYPTOCOST_FE25519_H
#define CRYPTOCOST_FE25519_H

#include <stdint.h>

typedef uint8_t fe[32];

void fe_set(fe r, uint8_t small);
void fe_copy(fe r, const fe a);
void fe_add(fe r, const fe a, const fe b);
void fe_sub(fe r, const fe a, const fe b);
void fe_mul(fe r, const fe a, const fe b);
void fe_sq(fe r, const fe a);
void fe_mul_small(fe r, const fe a, uint32_t k); /* k < 2^24 */
void fe_inv(fe r, const fe a);                   /* a^(p−2) */
void fe_pow2523(fe r, const fe a);               /* a^((p−5)/8) */
void fe_pack(uint8_t out[32], const fe a);       /* the value mod p */
void fe_cswap(fe a, fe b, uint8_t bit);          /* swap when bit = 1 */
void fe_cmov(fe r, const fe a, uint8_t bit);     /* r = a when bit = 1 */
uint8_t fe_iszero(const fe a);                   /* 1 if a ≡ 0 */
uint8_t fe_isneg(const fe a);                    /* the low bit of a mod p */

#endif
