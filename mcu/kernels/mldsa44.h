/*
 * mldsa44.h: ML-DSA-44 (FIPS 204) key generation, signing and verification.
 * Two kernels implement it with the same functions: mldsa44.c, the
 * straightforward one (the matrix Â and the vectors held in full, as the
 * reference implementation does), and mldsa44_lean.c, which expands the
 * matrix on the fly and streams the vectors through two polynomials.
 */
#ifndef CRYPTOCOST_MLDSA44_H
#define CRYPTOCOST_MLDSA44_H

#include "pq.h"
#include "mldsa_params.h"

/* ML-DSA.KeyGen_internal(ξ) (Algorithm 6): pk and sk from the 32-byte seed. */
void mldsa44_keygen(uint8_t pk[MLDSA_PKBYTES], uint8_t sk[MLDSA_SKBYTES], const uint8_t seed[32]);

/* ML-DSA.Sign (Algorithm 2, pure): M' = 0 ‖ |ctx| ‖ ctx ‖ m, then
 * ML-DSA.Sign_internal (Algorithm 7) with the 32 bytes rnd (all zero for
 * the deterministic variant). −1 if ctx is longer than 255 bytes. */
int mldsa44_sign(uint8_t sig[MLDSA_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                 const uint8_t rnd[32], const uint8_t sk[MLDSA_SKBYTES]);

/* ML-DSA.Verify (Algorithm 3, pure): 1 if sig is valid for m and ctx. */
int mldsa44_verify(const uint8_t sig[MLDSA_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                   const uint8_t pk[MLDSA_PKBYTES]);

/* Iterations of the signing loop in the last mldsa44_sign call: the loop
 * rejects a candidate with a probability set by the parameters (FIPS 204
 * §3.4; 4.25 iterations on average for ML-DSA-44), so signing time varies
 * with key and message by whole iterations. */
extern uint16_t mldsa44_iterations;

/* Shared by both kernels (mldsa44_common.c). */
void mldsa44_expand_seed(uint8_t out[128], const uint8_t seed[32]);
void mldsa44_mu(uint8_t mu[64], const uint8_t tr[64], const uint8_t *ctx, size_t ctxlen, const uint8_t *m, size_t mlen);
/* the nonzero coefficients of a challenge: positions, and 1 for each −1,
 * found in constant time; returns their number (τ) */
uint8_t mldsa44_sparse(uint8_t pos[MLDSA_TAU + 1], uint8_t neg[MLDSA_TAU + 1], const int8_t c[MLDSA_N]);

#endif
