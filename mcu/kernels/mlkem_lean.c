/*
 * mlkem_lean.c: ML-KEM (FIPS 203), the memory-lean kernel. Same functions
 * and bytes as mlkem.c, in a fraction of the RAM, for parts with a few
 * kilobytes of SRAM:
 *
 *  - the matrix Â is never held: each entry is sampled (SampleNTT) two
 *    coefficients at a time and multiplied into the accumulator as it
 *    arrives (mlkem_uniform_basemul_acc_packed);
 *  - the other operand of each product is read from its 12-bit encoding
 *    where one exists (ŝ in dk, t̂ in ek), and the encryption randomness ŷ
 *    is kept encoded (384 B per polynomial instead of 512);
 *  - noise is sampled straight into the accumulator (no e, e1, e2);
 *  - decapsulation compares the re-encryption with the ciphertext as it is
 *    produced, a polynomial at a time, instead of building c' in memory.
 *
 * Key generation holds one polynomial; encapsulation and decapsulation one
 * polynomial and ŷ (k · 384 B). The work is the same as the straightforward
 * kernel's (each matrix entry is used once either way), so it costs little
 * time; the stack measurements in docs/mcu.md give both.
 */
#include "mlkem.h"
#include "mlkem_poly.h"

/* a·2^-16 for each coefficient: the Montgomery factor a product carries,
 * given to a term added before the final multiplication by 2^16 */
static void poly_frommont_inv(mlkem_poly *r)
{
	for (uint16_t i = 0; i < MLKEM_N; i++)
		r->c[i] = mlkem_fqmul(r->c[i], 1);
}

/* K-PKE.KeyGen (Algorithm 13) from (ρ, σ), one polynomial at a time. */
void mlkem_keygen_from_seeds(uint8_t pk[MLKEM_PKBYTES], uint8_t sk[MLKEM_SKBYTES], const uint8_t rho[32],
                             const uint8_t sigma[32], const uint8_t z[32])
{
	mlkem_poly a;
	uint8_t i, j;

	/* ŝ_j = NTT(s_j), encoded straight into dk_PKE */
	for (j = 0; j < MLKEM_K; j++) {
		mlkem_poly_cbd(&a, MLKEM_ETA1, sigma, j);
		mlkem_ntt(&a);
		mlkem_poly_tobytes(sk + j * MLKEM_POLYBYTES, &a);
	}
	/* t̂_i = Σ_j Â[i][j] ∘ ŝ_j + ê_i: the accumulator starts from ê_i·2^-16
	 * so that the final ·2^16 (tomont) restores it along with the products */
	for (i = 0; i < MLKEM_K; i++) {
		mlkem_poly_cbd(&a, MLKEM_ETA1, sigma, MLKEM_K + i);
		mlkem_ntt(&a);
		poly_frommont_inv(&a);
		for (j = 0; j < MLKEM_K; j++)
			mlkem_uniform_basemul_acc_packed(&a, rho, j, i, sk + j * MLKEM_POLYBYTES);
		mlkem_poly_reduce(&a);
		mlkem_poly_tomont(&a);
		mlkem_poly_reduce(&a);
		mlkem_poly_tobytes(pk + i * MLKEM_POLYBYTES, &a);
	}
	memcpy(pk + MLKEM_POLYVECBYTES, rho, 32);
	mlkem_finish_sk(sk, pk, z);
}

/*
 * K-PKE.Encrypt(ek, m, r) (Algorithm 14), writing c to out, or — with out
 * NULL — comparing it with cmp as it is produced: then the result is 1 if
 * they differ, 0 if equal, in constant time. y is k · 384 bytes of scratch
 * for ŷ; a is the one polynomial.
 */
static uint8_t encrypt(uint8_t *out, const uint8_t *cmp, const uint8_t pk[MLKEM_PKBYTES], const uint8_t m[32],
                       const uint8_t coins[32], uint8_t y[MLKEM_POLYVECBYTES], mlkem_poly *a)
{
	const uint8_t *rho = pk + MLKEM_POLYVECBYTES;
	uint8_t i, j, d = 0;

	for (j = 0; j < MLKEM_K; j++) {
		mlkem_poly_cbd(a, MLKEM_ETA1, coins, j);
		mlkem_ntt(a);
		mlkem_poly_tobytes(y + j * MLKEM_POLYBYTES, a);
	}
	/* u_i = NTT^-1(Σ_j Â[j][i] ∘ ŷ_j) + e1_i */
	for (i = 0; i < MLKEM_K; i++) {
		mlkem_poly_zero(a);
		for (j = 0; j < MLKEM_K; j++)
			mlkem_uniform_basemul_acc_packed(a, rho, i, j, y + j * MLKEM_POLYBYTES);
		mlkem_poly_reduce(a);
		mlkem_invntt(a);
		mlkem_poly_cbd_add(a, MLKEM_ETA2, coins, MLKEM_K + i);
		mlkem_poly_reduce(a);
		if (out)
			mlkem_poly_compress_du(out + i * MLKEM_POLYDU_BYTES, a);
		else
			d |= mlkem_poly_compress_du_cmp(cmp + i * MLKEM_POLYDU_BYTES, a);
	}
	/* v = NTT^-1(t̂ᵀ ∘ ŷ) + e2 + Decompress_1(m) */
	mlkem_poly_zero(a);
	for (j = 0; j < MLKEM_K; j++)
		mlkem_basemul_acc_packed2(a, pk + j * MLKEM_POLYBYTES, y + j * MLKEM_POLYBYTES);
	mlkem_poly_reduce(a);
	mlkem_invntt(a);
	mlkem_poly_cbd_add(a, MLKEM_ETA2, coins, 2 * MLKEM_K);
	mlkem_poly_frommsg_add(a, m);
	mlkem_poly_reduce(a);
	if (out)
		mlkem_poly_compress_dv(out + MLKEM_K * MLKEM_POLYDU_BYTES, a);
	else
		d |= mlkem_poly_compress_dv_cmp(cmp + MLKEM_K * MLKEM_POLYDU_BYTES, a);
	return d;
}

int mlkem_encaps(uint8_t ct[MLKEM_CTBYTES], uint8_t ss[MLKEM_SSBYTES], const uint8_t pk[MLKEM_PKBYTES], const uint8_t m[32])
{
	uint8_t h[32], kr[64], y[MLKEM_POLYVECBYTES];
	mlkem_poly a;
	if (!mlkem_ek_ok(pk))
		return -1;
	sha3_256(h, pk, MLKEM_PKBYTES);
	mlkem_g(kr, m, 32, h, 32); /* (K, r) ← G(m‖H(ek)) */
	encrypt(ct, 0, pk, m, kr + 32, y, &a);
	memcpy(ss, kr, 32);
	return 0;
}

int mlkem_decaps(uint8_t ss[MLKEM_SSBYTES], const uint8_t ct[MLKEM_CTBYTES], const uint8_t sk[MLKEM_SKBYTES])
{
	const uint8_t *pk = sk + MLKEM_POLYVECBYTES, *h = pk + MLKEM_PKBYTES, *z = h + 32;
	uint8_t m[32], kr[64], kbar[32];
	union { /* ŷ is needed only after the decryption's u_j */
		mlkem_poly u;
		uint8_t y[MLKEM_POLYVECBYTES];
	} scratch;
	mlkem_poly a;
	keccak_state st;
	uint8_t j;

	if (!mlkem_dk_ok(sk))
		return -1;
	/* K-PKE.Decrypt (Algorithm 15): w = v − NTT^-1(Σ_j ŝ_j ∘ NTT(u_j)) */
	mlkem_poly_zero(&a);
	for (j = 0; j < MLKEM_K; j++) {
		mlkem_poly_decompress_du(&scratch.u, ct + j * MLKEM_POLYDU_BYTES);
		mlkem_ntt(&scratch.u);
		mlkem_basemul_acc_packed(&a, &scratch.u, sk + j * MLKEM_POLYBYTES);
	}
	mlkem_poly_reduce(&a);
	mlkem_invntt(&a);
	mlkem_poly_decompress_dv(&scratch.u, ct + MLKEM_K * MLKEM_POLYDU_BYTES);
	mlkem_poly_sub(&a, &scratch.u);
	mlkem_poly_reduce(&a);
	mlkem_poly_tomsg(m, &a);

	mlkem_g(kr, m, 32, h, 32); /* (K', r') ← G(m'‖h) */
	keccak_init(&st, SHAKE256_RATE); /* K̄ ← J(z‖c), whatever the outcome */
	keccak_absorb(&st, z, 32);
	keccak_absorb(&st, ct, MLKEM_CTBYTES);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, kbar, 32);
	memcpy(ss, kr, 32);
	pq_cmov(ss, kbar, 32, encrypt(0, ct, pk, m, kr + 32, scratch.y, &a));
	return 0;
}
