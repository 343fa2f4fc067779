/*
 * mlkem_poly.h: arithmetic on polynomials of R_q = Z_3329[X]/(X^256 + 1)
 * for ML-KEM (FIPS 203 §4), shared by the straightforward kernel (mlkem.c)
 * and the memory-lean one (mlkem_lean.c).
 *
 * Coefficients are int16_t. NTT-domain products are Montgomery products
 * (a·b·2^-16 mod q), as in the Kyber reference implementation; the
 * conversions are noted where they happen.
 */
#ifndef CRYPTOCOST_MLKEM_POLY_H
#define CRYPTOCOST_MLKEM_POLY_H

#include "pq.h"
#include "fips202.h"
#include "mlkem_params.h"

typedef struct {
	int16_t c[MLKEM_N];
} mlkem_poly;

int16_t mlkem_fqmul(int16_t a, int16_t b);
int16_t mlkem_barrett(int16_t a);

void mlkem_ntt(mlkem_poly *r);
void mlkem_invntt(mlkem_poly *r);
void mlkem_poly_reduce(mlkem_poly *r);
void mlkem_poly_tomont(mlkem_poly *r);
void mlkem_poly_add(mlkem_poly *r, const mlkem_poly *a);
void mlkem_poly_sub(mlkem_poly *r, const mlkem_poly *a); /* r = a − r */
void mlkem_poly_zero(mlkem_poly *r);

/* r += a ∘ b (MultiplyNTTs, Algorithm 11), a Montgomery product */
void mlkem_basemul_acc(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b);
/* the same with b given as ByteEncode_12 bytes (a key's ŝ or t̂) */
void mlkem_basemul_acc_packed(mlkem_poly *r, const mlkem_poly *a, const uint8_t b[MLKEM_POLYBYTES]);
void mlkem_basemul_acc_packed2(mlkem_poly *r, const uint8_t a[MLKEM_POLYBYTES], const uint8_t b[MLKEM_POLYBYTES]);

/* SampleNTT(ρ‖x‖y) (Algorithm 7) into r */
void mlkem_poly_uniform(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y);
/* r += SampleNTT(ρ‖x‖y) ∘ b, without holding the sampled polynomial */
void mlkem_uniform_basemul_acc(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const mlkem_poly *b);
void mlkem_uniform_basemul_acc_packed(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const uint8_t b[MLKEM_POLYBYTES]);

/* SamplePolyCBD_η(PRF_η(s, n)) (Algorithms 8 and §4.1): set r, or add to r */
void mlkem_poly_cbd(mlkem_poly *r, uint8_t eta, const uint8_t s[32], uint8_t n);
void mlkem_poly_cbd_add(mlkem_poly *r, uint8_t eta, const uint8_t s[32], uint8_t n);

/* ByteEncode_12 / ByteDecode_12 (Algorithms 5, 6) */
void mlkem_poly_tobytes(uint8_t out[MLKEM_POLYBYTES], const mlkem_poly *a);
void mlkem_poly_frombytes(mlkem_poly *r, const uint8_t in[MLKEM_POLYBYTES]);
/* 1 if every 12-bit value is below q (the modulus check of §7.2) */
uint8_t mlkem_poly_bytes_ok(const uint8_t in[MLKEM_POLYBYTES]);

/* ByteEncode_d(Compress_d(a)) and Decompress_d(ByteDecode_d(in)), §4.2.1,
 * for d = d_u (10) and d_v (4); the _cmp forms return 0 when the encoding of
 * a equals in, 1 otherwise, in constant time, without writing it out. */
void mlkem_poly_compress_du(uint8_t out[MLKEM_POLYDU_BYTES], const mlkem_poly *a);
uint8_t mlkem_poly_compress_du_cmp(const uint8_t in[MLKEM_POLYDU_BYTES], const mlkem_poly *a);
void mlkem_poly_decompress_du(mlkem_poly *r, const uint8_t in[MLKEM_POLYDU_BYTES]);
void mlkem_poly_compress_dv(uint8_t out[MLKEM_POLYDV_BYTES], const mlkem_poly *a);
uint8_t mlkem_poly_compress_dv_cmp(const uint8_t in[MLKEM_POLYDV_BYTES], const mlkem_poly *a);
void mlkem_poly_decompress_dv(mlkem_poly *r, const uint8_t in[MLKEM_POLYDV_BYTES]);

/* Decompress_1(ByteDecode_1(m)), added to r; ByteEncode_1(Compress_1(a)) */
void mlkem_poly_frommsg_add(mlkem_poly *r, const uint8_t m[32]);
void mlkem_poly_tomsg(uint8_t m[32], const mlkem_poly *a);

#endif
