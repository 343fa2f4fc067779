/*
 * mlkem.c: ML-KEM (FIPS 203), the straightforward kernel — the shape of
 * the reference implementation (pqm4's and PQClean's "clean" Kyber): the
 * whole matrix Â is sampled into memory first, and s, e, t̂, r, e1, u are
 * held as vectors of polynomials. Written here from the standard; the lean
 * kernel (mlkem_lean.c) computes the same bytes in a fraction of the RAM.
 */
#include "mlkem.h"
#include "mlkem_poly.h"

typedef struct {
	mlkem_poly v[MLKEM_K];
} polyvec;

/* Â[i][j] = SampleNTT(ρ‖j‖i) (Algorithm 13 step 6), or its transpose
 * Â[j][i] = SampleNTT(ρ‖i‖j) for encryption (Algorithm 14 step 19: Âᵀ) */
static void gen_matrix(polyvec a[MLKEM_K], const uint8_t rho[32], uint8_t transposed)
{
	for (uint8_t i = 0; i < MLKEM_K; i++)
		for (uint8_t j = 0; j < MLKEM_K; j++) {
			if (transposed)
				mlkem_poly_uniform(&a[i].v[j], rho, i, j);
			else
				mlkem_poly_uniform(&a[i].v[j], rho, j, i);
		}
}

/* r = Σ_j a_j ∘ b_j, reduced */
static void inner(mlkem_poly *r, const polyvec *a, const polyvec *b)
{
	mlkem_poly_zero(r);
	for (uint8_t j = 0; j < MLKEM_K; j++)
		mlkem_basemul_acc(r, &a->v[j], &b->v[j]);
	mlkem_poly_reduce(r);
}

/* K-PKE.KeyGen (Algorithm 13) from (ρ, σ), then dk as Algorithm 16 */
void mlkem_keygen_from_seeds(uint8_t pk[MLKEM_PKBYTES], uint8_t sk[MLKEM_SKBYTES], const uint8_t rho[32],
                             const uint8_t sigma[32], const uint8_t z[32])
{
	polyvec a[MLKEM_K], s, e, t;
	uint8_t i;

	gen_matrix(a, rho, 0);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_cbd(&s.v[i], MLKEM_ETA1, sigma, i);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_cbd(&e.v[i], MLKEM_ETA1, sigma, MLKEM_K + i);
	for (i = 0; i < MLKEM_K; i++) {
		mlkem_ntt(&s.v[i]);
		mlkem_ntt(&e.v[i]);
	}
	for (i = 0; i < MLKEM_K; i++) {
		inner(&t.v[i], &a[i], &s);
		mlkem_poly_tomont(&t.v[i]); /* undo MultiplyNTTs' 2^-16 */
		mlkem_poly_add(&t.v[i], &e.v[i]);
		mlkem_poly_reduce(&t.v[i]);
	}
	for (i = 0; i < MLKEM_K; i++) {
		mlkem_poly_tobytes(pk + i * MLKEM_POLYBYTES, &t.v[i]);
		mlkem_poly_tobytes(sk + i * MLKEM_POLYBYTES, &s.v[i]);
	}
	memcpy(pk + MLKEM_POLYVECBYTES, rho, 32);
	mlkem_finish_sk(sk, pk, z);
}

/* K-PKE.Encrypt(ek, m, r) (Algorithm 14) */
static void encrypt(uint8_t ct[MLKEM_CTBYTES], const uint8_t pk[MLKEM_PKBYTES], const uint8_t m[32], const uint8_t coins[32])
{
	polyvec at[MLKEM_K], t, y, e1, u;
	mlkem_poly v, e2;
	uint8_t i;

	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_frombytes(&t.v[i], pk + i * MLKEM_POLYBYTES);
	gen_matrix(at, pk + MLKEM_POLYVECBYTES, 1);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_cbd(&y.v[i], MLKEM_ETA1, coins, i);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_cbd(&e1.v[i], MLKEM_ETA2, coins, MLKEM_K + i);
	mlkem_poly_cbd(&e2, MLKEM_ETA2, coins, 2 * MLKEM_K);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_ntt(&y.v[i]);
	for (i = 0; i < MLKEM_K; i++)
		inner(&u.v[i], &at[i], &y);
	inner(&v, &t, &y);
	for (i = 0; i < MLKEM_K; i++) {
		mlkem_invntt(&u.v[i]);
		mlkem_poly_add(&u.v[i], &e1.v[i]);
		mlkem_poly_reduce(&u.v[i]);
		mlkem_poly_compress_du(ct + i * MLKEM_POLYDU_BYTES, &u.v[i]);
	}
	mlkem_invntt(&v);
	mlkem_poly_add(&v, &e2);
	mlkem_poly_frommsg_add(&v, m);
	mlkem_poly_reduce(&v);
	mlkem_poly_compress_dv(ct + MLKEM_K * MLKEM_POLYDU_BYTES, &v);
}

/* K-PKE.Decrypt(dk_PKE, c) (Algorithm 15) */
static void decrypt(uint8_t m[32], const uint8_t ct[MLKEM_CTBYTES], const uint8_t sk[MLKEM_SKBYTES])
{
	polyvec u, s;
	mlkem_poly v, w;
	uint8_t i;

	for (i = 0; i < MLKEM_K; i++) {
		mlkem_poly_decompress_du(&u.v[i], ct + i * MLKEM_POLYDU_BYTES);
		mlkem_poly_frombytes(&s.v[i], sk + i * MLKEM_POLYBYTES);
	}
	mlkem_poly_decompress_dv(&v, ct + MLKEM_K * MLKEM_POLYDU_BYTES);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_ntt(&u.v[i]);
	inner(&w, &s, &u);
	mlkem_invntt(&w);
	mlkem_poly_sub(&w, &v); /* w = v − NTT^-1(ŝᵀ ∘ NTT(u)) */
	mlkem_poly_reduce(&w);
	mlkem_poly_tomsg(m, &w);
}

int mlkem_encaps(uint8_t ct[MLKEM_CTBYTES], uint8_t ss[MLKEM_SSBYTES], const uint8_t pk[MLKEM_PKBYTES], const uint8_t m[32])
{
	uint8_t h[32], kr[64];
	if (!mlkem_ek_ok(pk))
		return -1;
	sha3_256(h, pk, MLKEM_PKBYTES);
	mlkem_g(kr, m, 32, h, 32); /* (K, r) ← G(m‖H(ek)) */
	encrypt(ct, pk, m, kr + 32);
	memcpy(ss, kr, 32);
	return 0;
}

int mlkem_decaps(uint8_t ss[MLKEM_SSBYTES], const uint8_t ct[MLKEM_CTBYTES], const uint8_t sk[MLKEM_SKBYTES])
{
	uint8_t m[32], kr[64], kbar[32], cmp[MLKEM_CTBYTES];
	const uint8_t *pk = sk + MLKEM_POLYVECBYTES, *h = pk + MLKEM_PKBYTES, *z = h + 32;
	keccak_state st;

	if (!mlkem_dk_ok(sk))
		return -1;
	decrypt(m, ct, sk);
	mlkem_g(kr, m, 32, h, 32); /* (K', r') ← G(m'‖h) */
	/* K̄ ← J(z‖c) = SHAKE256(z‖c, 32), computed whatever the outcome */
	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, z, 32);
	keccak_absorb(&st, ct, MLKEM_CTBYTES);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, kbar, 32);
	encrypt(cmp, pk, m, kr + 32);
	memcpy(ss, kr, 32);
	pq_cmov(ss, kbar, 32, pq_verify(ct, cmp, MLKEM_CTBYTES));
	return 0;
}
