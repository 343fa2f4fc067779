/*
 * mlkem.h: ML-KEM (FIPS 203) key generation, encapsulation and
 * decapsulation. Two kernels implement it with the same functions:
 * mlkem.c, the straightforward one (the matrix Â and every vector of
 * polynomials held in full, as the reference implementation does), and
 * mlkem_lean.c, which streams the matrix and keeps one polynomial and the
 * encryption randomness at a time. Build either with -DMLKEM_K=2 or 3.
 */
#ifndef CRYPTOCOST_MLKEM_H
#define CRYPTOCOST_MLKEM_H

#include "pq.h"
#include "mlkem_params.h"

/* ML-KEM.KeyGen_internal(d, z) (Algorithm 16): ek into pk, dk into sk. */
void mlkem_keygen(uint8_t pk[MLKEM_PKBYTES], uint8_t sk[MLKEM_SKBYTES], const uint8_t d[32], const uint8_t z[32]);

/* The same from K-PKE's two seeds instead of d (Algorithm 13 without its
 * first step, (ρ, σ) ← G(d‖k)): keys that share ρ, and so the matrix Â,
 * but not their secrets. The timing sweep of decapsulation uses it, so the
 * eight keys it compares differ only in what is secret. */
void mlkem_keygen_from_seeds(uint8_t pk[MLKEM_PKBYTES], uint8_t sk[MLKEM_SKBYTES], const uint8_t rho[32],
                             const uint8_t sigma[32], const uint8_t z[32]);

/* ML-KEM.Encaps_internal(ek, m) (Algorithm 17) after the modulus check of
 * §7.2: 0, or −1 (and nothing written) for an encapsulation key whose
 * coefficients are not all below q. */
int mlkem_encaps(uint8_t ct[MLKEM_CTBYTES], uint8_t ss[MLKEM_SSBYTES], const uint8_t pk[MLKEM_PKBYTES], const uint8_t m[32]);

/* ML-KEM.Decaps_internal(dk, c) (Algorithm 18), implicit rejection
 * included, after the hash check of §7.3: 0, or −1 (nothing written) when
 * H(ek) in dk does not match its ek. */
int mlkem_decaps(uint8_t ss[MLKEM_SSBYTES], const uint8_t ct[MLKEM_CTBYTES], const uint8_t sk[MLKEM_SKBYTES]);

/* Shared by both kernels (mlkem_kem.c): the FIPS 203 steps around K-PKE. */
void mlkem_g(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);
uint8_t mlkem_ek_ok(const uint8_t pk[MLKEM_PKBYTES]);
uint8_t mlkem_dk_ok(const uint8_t sk[MLKEM_SKBYTES]);
void mlkem_finish_sk(uint8_t sk[MLKEM_SKBYTES], const uint8_t pk[MLKEM_PKBYTES], const uint8_t z[32]);

#endif
