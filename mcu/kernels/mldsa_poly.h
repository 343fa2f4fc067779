/*
 * mldsa_poly.h: arithmetic on polynomials of R_q = Z_8380417[X]/(X^256 + 1)
 * for ML-DSA (FIPS 204 §7.4–7.6, §7.1–7.3), shared by the straightforward
 * kernel (mldsa44.c) and the memory-lean one (mldsa44_lean.c).
 */
#ifndef CRYPTOCOST_MLDSA_POLY_H
#define CRYPTOCOST_MLDSA_POLY_H

#include "pq.h"
#include "fips202.h"
#include "mldsa_params.h"

typedef struct {
	int32_t c[MLDSA_N];
} mldsa_poly;

int32_t mldsa_fqmul(int32_t a, int32_t b); /* a · b · 2^-32 mod q */
int32_t mldsa_reduce32(int32_t a);
int32_t mldsa_caddq(int32_t a);

void mldsa_ntt(mldsa_poly *a);
void mldsa_invntt(mldsa_poly *a); /* NTT^-1, times 2^32 (undoes a Montgomery product) */
void mldsa_poly_reduce(mldsa_poly *a);
void mldsa_poly_caddq(mldsa_poly *a);
void mldsa_poly_add(mldsa_poly *r, const mldsa_poly *a);
void mldsa_poly_sub(mldsa_poly *r, const mldsa_poly *a); /* r −= a */
void mldsa_poly_shiftl(mldsa_poly *a);                   /* a · 2^d */
void mldsa_poly_pointwise(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);     /* r = a ∘ b · 2^-32 */
void mldsa_poly_pointwise_acc(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b); /* r += a ∘ b · 2^-32 */
uint8_t mldsa_poly_chknorm(const mldsa_poly *a, int32_t bound); /* 1 if some |a_i| ≥ bound */

/* RejNTTPoly(ρ‖x‖y) (Algorithm 30): into r, or — the lean form — each
 * coefficient multiplied into r += coefficient · b_i · 2^-32 as it is drawn */
void mldsa_poly_uniform(mldsa_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y);
void mldsa_uniform_pointwise_acc(mldsa_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const mldsa_poly *b);
/* RejBoundedPoly(ρ'‖n) (Algorithm 31) for η = 2: into r, or packed (bits,
 * η − a) into out when r is NULL */
void mldsa_poly_uniform_eta(mldsa_poly *r, uint8_t *out, const uint8_t rho[64], uint16_t n);
/* ExpandMask's polynomial (Algorithm 34, step 4): BitUnpack(H(ρ''‖n), γ1 − 1, γ1) */
void mldsa_poly_uniform_gamma1(mldsa_poly *r, const uint8_t rho[64], uint16_t n);
/* SampleInBall (Algorithm 29) into c (coefficients −1, 0, 1) */
void mldsa_challenge(int8_t c[MLDSA_N], const uint8_t ctilde[MLDSA_CTILDEBYTES]);

/* Power2Round (Algorithm 35), Decompose (36), MakeHint (39), UseHint (40),
 * on a standard representative a in [0, q) */
int32_t mldsa_power2round(int32_t *a0, int32_t a);
int32_t mldsa_decompose(int32_t *a0, int32_t a);
uint8_t mldsa_make_hint(int32_t a0, int32_t a1);
int32_t mldsa_use_hint(int32_t a, uint8_t hint);

/* Bit packing (Algorithms 16–19): value i of w bits, little-endian bit
 * order. A coefficient a is stored as b − a for b > 0 (BitPack) and as a for
 * b = 0 (SimpleBitPack). */
uint32_t mldsa_getbits(const uint8_t *p, uint16_t i, uint8_t w);
void mldsa_putbits(uint8_t *p, uint16_t i, uint8_t w, uint32_t v);
int32_t mldsa_unpack1(const uint8_t *p, uint16_t i, uint8_t w, int32_t b);
void mldsa_poly_pack(uint8_t *out, const mldsa_poly *a, uint8_t w, int32_t b);
void mldsa_poly_unpack(mldsa_poly *r, const uint8_t *in, uint8_t w, int32_t b);

/* HintBitUnpack's checks (Algorithm 21) on an encoded hint: 1 if valid
 * (at most ω ones, indices strictly increasing within each row, unused
 * bytes zero) */
uint8_t mldsa_hints_ok(const uint8_t h[MLDSA_OMEGA + MLDSA_K]);

#endif
