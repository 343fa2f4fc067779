/*
 * mldsa44.c: ML-DSA-44 (FIPS 204), the straightforward kernel — the shape
 * of the reference implementation (pqm4's and PQClean's "clean"
 * Dilithium): the matrix Â (16 polynomials, 16 KiB) is expanded in full,
 * and s1, s2, t0 (in the NTT domain), y, w, z and the hint are held as
 * vectors of polynomials: about 50 KiB of stack to sign. Written here from
 * the standard; mldsa44_lean.c computes the same bytes in a few KiB.
 */
#include "mldsa44.h"
#include "mldsa_poly.h"

typedef struct {
	mldsa_poly v[MLDSA_L];
} polyvecl;
typedef struct {
	mldsa_poly v[MLDSA_K];
} polyveck;

/* ExpandA (Algorithm 32): Â[i][j] = RejNTTPoly(ρ‖j‖i) */
static void expand_a(polyvecl a[MLDSA_K], const uint8_t rho[32])
{
	for (uint8_t i = 0; i < MLDSA_K; i++)
		for (uint8_t j = 0; j < MLDSA_L; j++)
			mldsa_poly_uniform(&a[i].v[j], rho, j, i);
}

/* w_i = Σ_j Â[i][j] ∘ v̂_j (·2^-32), reduced for the inverse NTT */
static void matrix_mul(polyveck *w, const polyvecl a[MLDSA_K], const polyvecl *v)
{
	for (uint8_t i = 0; i < MLDSA_K; i++) {
		mldsa_poly_pointwise(&w->v[i], &a[i].v[0], &v->v[0]);
		for (uint8_t j = 1; j < MLDSA_L; j++)
			mldsa_poly_pointwise_acc(&w->v[i], &a[i].v[j], &v->v[j]);
		mldsa_poly_reduce(&w->v[i]);
	}
}

void mldsa44_keygen(uint8_t pk[MLDSA_PKBYTES], uint8_t sk[MLDSA_SKBYTES], const uint8_t seed[32])
{
	uint8_t seeds[128]; /* ρ ‖ ρ' ‖ K */
	polyvecl a[MLDSA_K], s1, s1hat;
	polyveck s2, t1, t0;
	uint8_t i;

	mldsa44_expand_seed(seeds, seed);
	expand_a(a, seeds);
	/* ExpandS (Algorithm 33): s1 from nonces 0 … ℓ−1, s2 from ℓ … ℓ+k−1 */
	for (i = 0; i < MLDSA_L; i++)
		mldsa_poly_uniform_eta(&s1.v[i], 0, seeds + 32, i);
	for (i = 0; i < MLDSA_K; i++)
		mldsa_poly_uniform_eta(&s2.v[i], 0, seeds + 32, MLDSA_L + i);
	s1hat = s1;
	for (i = 0; i < MLDSA_L; i++)
		mldsa_ntt(&s1hat.v[i]);
	/* t = NTT^-1(Â ∘ NTT(s1)) + s2; (t1, t0) ← Power2Round(t) */
	matrix_mul(&t1, a, &s1hat);
	for (i = 0; i < MLDSA_K; i++) {
		mldsa_invntt(&t1.v[i]);
		mldsa_poly_add(&t1.v[i], &s2.v[i]);
		mldsa_poly_caddq(&t1.v[i]);
		for (uint16_t n = 0; n < MLDSA_N; n++)
			t1.v[i].c[n] = mldsa_power2round(&t0.v[i].c[n], t1.v[i].c[n]);
	}
	/* pkEncode (Algorithm 22), tr ← H(pk, 64), skEncode (Algorithm 24) */
	memcpy(pk, seeds, 32);
	for (i = 0; i < MLDSA_K; i++)
		mldsa_poly_pack(pk + 32 + i * MLDSA_POLYT1_BYTES, &t1.v[i], MLDSA_T1_BITS, 0);
	memcpy(sk + MLDSA_SK_RHO, seeds, 32);
	memcpy(sk + MLDSA_SK_KEY, seeds + 96, 32);
	shake256(sk + MLDSA_SK_TR, 64, pk, MLDSA_PKBYTES);
	for (i = 0; i < MLDSA_L; i++)
		mldsa_poly_pack(sk + MLDSA_SK_S1 + i * MLDSA_POLYETA_BYTES, &s1.v[i], MLDSA_ETA_BITS, MLDSA_ETA);
	for (i = 0; i < MLDSA_K; i++)
		mldsa_poly_pack(sk + MLDSA_SK_S2 + i * MLDSA_POLYETA_BYTES, &s2.v[i], MLDSA_ETA_BITS, MLDSA_ETA);
	for (i = 0; i < MLDSA_K; i++)
		mldsa_poly_pack(sk + MLDSA_SK_T0 + i * MLDSA_POLYT0_BYTES, &t0.v[i], MLDSA_T0_BITS, 1L << (MLDSA_D - 1));
}

int mldsa44_sign(uint8_t sig[MLDSA_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                 const uint8_t rnd[32], const uint8_t sk[MLDSA_SKBYTES])
{
	uint8_t mu[64], rhopp[64];
	polyvecl a[MLDSA_K], s1, y, z;
	polyveck s2, t0, w1, w0, h;
	mldsa_poly cp;
	int8_t c[MLDSA_N];
	keccak_state st;
	uint16_t kappa = 0;
	uint8_t i, n;

	if (ctxlen > 255)
		return -1;
	/* skDecode (Algorithm 25), with s1, s2, t0 taken to the NTT domain */
	for (i = 0; i < MLDSA_L; i++) {
		mldsa_poly_unpack(&s1.v[i], sk + MLDSA_SK_S1 + i * MLDSA_POLYETA_BYTES, MLDSA_ETA_BITS, MLDSA_ETA);
		mldsa_ntt(&s1.v[i]);
	}
	for (i = 0; i < MLDSA_K; i++) {
		mldsa_poly_unpack(&s2.v[i], sk + MLDSA_SK_S2 + i * MLDSA_POLYETA_BYTES, MLDSA_ETA_BITS, MLDSA_ETA);
		mldsa_ntt(&s2.v[i]);
		mldsa_poly_unpack(&t0.v[i], sk + MLDSA_SK_T0 + i * MLDSA_POLYT0_BYTES, MLDSA_T0_BITS, 1L << (MLDSA_D - 1));
		mldsa_ntt(&t0.v[i]);
	}
	expand_a(a, sk + MLDSA_SK_RHO);
	mldsa44_mu(mu, sk + MLDSA_SK_TR, ctx, ctxlen, m, mlen);
	/* ρ'' ← H(K‖rnd‖μ, 64) */
	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, sk + MLDSA_SK_KEY, 32);
	keccak_absorb(&st, rnd, 32);
	keccak_absorb(&st, mu, 64);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, rhopp, 64);

	for (mldsa44_iterations = 1;; mldsa44_iterations++, kappa += MLDSA_L) {
		/* y ← ExpandMask(ρ'', κ); w ← NTT^-1(Â ∘ NTT(y)); w1 ← HighBits(w) */
		for (i = 0; i < MLDSA_L; i++) {
			mldsa_poly_uniform_gamma1(&y.v[i], rhopp, kappa + i);
			z.v[i] = y.v[i];
			mldsa_ntt(&z.v[i]);
		}
		matrix_mul(&w1, a, &z);
		for (i = 0; i < MLDSA_K; i++) {
			mldsa_invntt(&w1.v[i]);
			mldsa_poly_caddq(&w1.v[i]);
			for (uint16_t k = 0; k < MLDSA_N; k++)
				w1.v[i].c[k] = mldsa_decompose(&w0.v[i].c[k], w1.v[i].c[k]);
			mldsa_poly_pack(sig + MLDSA_SIG_Z + i * MLDSA_POLYW1_BYTES, &w1.v[i], MLDSA_W1_BITS, 0);
		}
		/* c̃ ← H(μ‖w1Encode(w1), λ/4); c ← SampleInBall(c̃); the encoded
		 * w1 sits in the signature's z field until z overwrites it */
		keccak_init(&st, SHAKE256_RATE);
		keccak_absorb(&st, mu, 64);
		keccak_absorb(&st, sig + MLDSA_SIG_Z, MLDSA_K * MLDSA_POLYW1_BYTES);
		keccak_finalize(&st, SHAKE_DS);
		keccak_squeeze(&st, sig, MLDSA_CTILDEBYTES);
		mldsa_challenge(c, sig);
		for (uint16_t k = 0; k < MLDSA_N; k++)
			cp.c[k] = c[k];
		mldsa_ntt(&cp);

		/* z ← y + ⟨⟨c s1⟩⟩; reject if ‖z‖∞ ≥ γ1 − β */
		for (i = 0; i < MLDSA_L; i++) {
			mldsa_poly_pointwise(&z.v[i], &cp, &s1.v[i]);
			mldsa_invntt(&z.v[i]);
			mldsa_poly_add(&z.v[i], &y.v[i]);
			mldsa_poly_reduce(&z.v[i]);
		}
		n = 0;
		for (i = 0; i < MLDSA_L; i++)
			n |= mldsa_poly_chknorm(&z.v[i], MLDSA_GAMMA1 - MLDSA_BETA);
		if (n)
			continue;
		/* r0 ← LowBits(w − ⟨⟨c s2⟩⟩); reject if ‖r0‖∞ ≥ γ2 − β */
		for (i = 0; i < MLDSA_K; i++) {
			mldsa_poly_pointwise(&h.v[i], &cp, &s2.v[i]);
			mldsa_invntt(&h.v[i]);
			mldsa_poly_sub(&w0.v[i], &h.v[i]);
			mldsa_poly_reduce(&w0.v[i]);
			n |= mldsa_poly_chknorm(&w0.v[i], MLDSA_GAMMA2 - MLDSA_BETA);
		}
		if (n)
			continue;
		/* ⟨⟨c t0⟩⟩; reject if ‖c t0‖∞ ≥ γ2; h ← MakeHint(−ct0, w − cs2 + ct0) */
		for (i = 0; i < MLDSA_K; i++) {
			mldsa_poly_pointwise(&h.v[i], &cp, &t0.v[i]);
			mldsa_invntt(&h.v[i]);
			mldsa_poly_reduce(&h.v[i]);
			n |= mldsa_poly_chknorm(&h.v[i], MLDSA_GAMMA2);
		}
		if (n)
			continue;
		/* HintBitPack (Algorithm 20) as the hints are made; too many → reject */
		uint8_t ones = 0, *y8 = sig + MLDSA_SIG_H;
		for (i = 0; i < MLDSA_K; i++) {
			mldsa_poly_add(&w0.v[i], &h.v[i]);
			for (uint16_t k = 0; k < MLDSA_N; k++)
				if (mldsa_make_hint(w0.v[i].c[k], w1.v[i].c[k])) {
					if (ones < MLDSA_OMEGA)
						y8[ones] = (uint8_t)k;
					ones++;
				}
			if (ones <= MLDSA_OMEGA)
				y8[MLDSA_OMEGA + i] = ones;
		}
		if (ones > MLDSA_OMEGA)
			continue;
		memset(y8 + ones, 0, MLDSA_OMEGA - ones);
		/* sigEncode (Algorithm 26): c̃ is in place, z after it */
		for (i = 0; i < MLDSA_L; i++)
			mldsa_poly_pack(sig + MLDSA_SIG_Z + i * MLDSA_POLYZ_BYTES, &z.v[i], MLDSA_Z_BITS, MLDSA_GAMMA1);
		return 0;
	}
}

int mldsa44_verify(const uint8_t sig[MLDSA_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                   const uint8_t pk[MLDSA_PKBYTES])
{
	uint8_t tr[64], mu[64], w1buf[MLDSA_K * MLDSA_POLYW1_BYTES], ct2[MLDSA_CTILDEBYTES];
	polyvecl a[MLDSA_K], z;
	polyveck t1, w;
	mldsa_poly cp;
	int8_t c[MLDSA_N];
	const uint8_t *y8 = sig + MLDSA_SIG_H;
	keccak_state st;
	uint8_t i, index = 0;

	if (ctxlen > 255 || !mldsa_hints_ok(y8))
		return 0;
	/* sigDecode (Algorithm 27); ‖z‖∞ < γ1 − β */
	for (i = 0; i < MLDSA_L; i++) {
		mldsa_poly_unpack(&z.v[i], sig + MLDSA_SIG_Z + i * MLDSA_POLYZ_BYTES, MLDSA_Z_BITS, MLDSA_GAMMA1);
		if (mldsa_poly_chknorm(&z.v[i], MLDSA_GAMMA1 - MLDSA_BETA))
			return 0;
		mldsa_ntt(&z.v[i]);
	}
	shake256(tr, 64, pk, MLDSA_PKBYTES); /* tr ← H(pk, 64) */
	mldsa44_mu(mu, tr, ctx, ctxlen, m, mlen);
	mldsa_challenge(c, sig);
	for (uint16_t k = 0; k < MLDSA_N; k++)
		cp.c[k] = c[k];
	mldsa_ntt(&cp);
	expand_a(a, pk);
	/* w'_Approx ← NTT^-1(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1 · 2^d)); w1' ← UseHint(h, w') */
	matrix_mul(&w, a, &z);
	for (i = 0; i < MLDSA_K; i++) {
		mldsa_poly_unpack(&t1.v[i], pk + 32 + i * MLDSA_POLYT1_BYTES, MLDSA_T1_BITS, 0);
		mldsa_poly_shiftl(&t1.v[i]);
		mldsa_ntt(&t1.v[i]);
		mldsa_poly_pointwise(&t1.v[i], &cp, &t1.v[i]);
		mldsa_poly_sub(&w.v[i], &t1.v[i]);
		mldsa_poly_reduce(&w.v[i]);
		mldsa_invntt(&w.v[i]);
		mldsa_poly_caddq(&w.v[i]);
		for (uint16_t k = 0; k < MLDSA_N; k++) {
			uint8_t hint = index < y8[MLDSA_OMEGA + i] && y8[index] == k;
			index += hint;
			w.v[i].c[k] = mldsa_use_hint(w.v[i].c[k], hint);
		}
		mldsa_poly_pack(w1buf + i * MLDSA_POLYW1_BYTES, &w.v[i], MLDSA_W1_BITS, 0);
	}
	/* c̃' ← H(μ‖w1Encode(w1'), λ/4); valid if c̃' = c̃ */
	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, mu, 64);
	keccak_absorb(&st, w1buf, sizeof w1buf);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, ct2, MLDSA_CTILDEBYTES);
	return !pq_verify(ct2, sig, MLDSA_CTILDEBYTES);
}
