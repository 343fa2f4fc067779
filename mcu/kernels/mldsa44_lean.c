/*
 * mldsa44_lean.c: ML-DSA-44 (FIPS 204), the memory-lean kernel. Same
 * functions and bytes as mldsa44.c, in two polynomials (2 KiB) of working
 * memory instead of about 50 KiB, for parts with a few KiB of SRAM — the
 * strategies of Greconici, Kannwischer and Sprenkels, "Compact Dilithium
 * Implementations on Cortex-M3 and Cortex-M4" (TCHES 2021/1), written here:
 *
 *  - Â is never held: a row of Â·v is one accumulator, each entry sampled
 *    coefficient by coefficient and multiplied in as it is drawn;
 *  - the vector v (s1, y or z) is regenerated or decoded one polynomial at
 *    a time, for every row (k·ℓ = 16 NTTs where the straightforward kernel
 *    does ℓ = 4);
 *  - s1, s2, t0 and t1 stay encoded in sk and pk and are decoded a
 *    coefficient at a time; products with the challenge c (τ = 39 ones) are
 *    sparse schoolbook products instead of NTTs;
 *  - signing writes w1's encoding into the signature's z field, where it
 *    waits for the hash and the hints, and computes w a second time for
 *    the hints instead of keeping w0 (4 KiB); z overwrites w1 at the end.
 *
 * Signing costs about twice the straightforward kernel's matrix work per
 * iteration; docs/mcu.md gives both kernels' cycles, stack and code size.
 */
#include "mldsa44.h"
#include "mldsa_poly.h"

enum { FROM_S1, FROM_Y, FROM_Z };

/* acc ← NTT^-1(Σ_j Â[i][j] ∘ NTT(v_j)) with v_j decoded from s1 in sk, z in
 * sig, or regenerated as y_j = ExpandMask(ρ'', κ + j); tmp is scratch */
static void row(mldsa_poly *acc, mldsa_poly *tmp, const uint8_t rho[32], uint8_t i, uint8_t from, const uint8_t *p,
                uint16_t kappa)
{
	memset(acc, 0, sizeof *acc);
	for (uint8_t j = 0; j < MLDSA_L; j++) {
		if (from == FROM_S1)
			mldsa_poly_unpack(tmp, p + MLDSA_SK_S1 + j * MLDSA_POLYETA_BYTES, MLDSA_ETA_BITS, MLDSA_ETA);
		else if (from == FROM_Z)
			mldsa_poly_unpack(tmp, p + MLDSA_SIG_Z + j * MLDSA_POLYZ_BYTES, MLDSA_Z_BITS, MLDSA_GAMMA1);
		else
			mldsa_poly_uniform_gamma1(tmp, p, kappa + j);
		mldsa_ntt(tmp);
		mldsa_uniform_pointwise_acc(acc, rho, j, i, tmp);
	}
	mldsa_poly_reduce(acc);
	mldsa_invntt(acc);
}

/*
 * r ← c · s in Z[X]/(X^256 + 1), exactly (no reduction mod q), for the
 * challenge in sparse form and s decoded coefficient by coefficient from
 * its encoding (w bits, BitPack offset b; shifted left by sh). Every
 * coefficient of s meets every position of c: X^(k+p) wraps to −X^(k+p−256),
 * and the sign is applied by masks, not branches.
 */
static void sparse_mul(mldsa_poly *r, const uint8_t pos[], const uint8_t neg[], const uint8_t *enc, uint8_t w, int32_t b,
                       uint8_t sh)
{
	memset(r, 0, sizeof *r);
	for (uint16_t k = 0; k < MLDSA_N; k++) {
		int32_t s = mldsa_unpack1(enc, k, w, b) * ((int32_t)1 << sh);
		for (uint8_t t = 0; t < MLDSA_TAU; t++) {
			uint16_t idx = k + pos[t];
			int32_t f = (int32_t)((uint8_t)(idx >> 8) ^ neg[t]); /* 1: subtract */
			r->c[idx & 0xFF] += (s ^ -f) + f;
		}
	}
}

/* c ← SampleInBall(c̃) in sparse form; the dense form is built in scratch */
static void challenge(uint8_t pos[MLDSA_TAU + 1], uint8_t neg[MLDSA_TAU + 1], const uint8_t ctilde[MLDSA_CTILDEBYTES],
                      mldsa_poly *scratch)
{
	int8_t *c = (int8_t *)scratch->c;
	mldsa_challenge(c, ctilde);
	mldsa44_sparse(pos, neg, c);
}

void mldsa44_keygen(uint8_t pk[MLDSA_PKBYTES], uint8_t sk[MLDSA_SKBYTES], const uint8_t seed[32])
{
	uint8_t seeds[128]; /* ρ ‖ ρ' ‖ K */
	mldsa_poly acc, tmp;
	uint8_t i;

	mldsa44_expand_seed(seeds, seed);
	memcpy(pk, seeds, 32);
	memcpy(sk + MLDSA_SK_RHO, seeds, 32);
	memcpy(sk + MLDSA_SK_KEY, seeds + 96, 32);
	/* ExpandS, encoded into sk as sampled */
	for (i = 0; i < MLDSA_L; i++)
		mldsa_poly_uniform_eta(0, sk + MLDSA_SK_S1 + i * MLDSA_POLYETA_BYTES, seeds + 32, i);
	for (i = 0; i < MLDSA_K; i++)
		mldsa_poly_uniform_eta(0, sk + MLDSA_SK_S2 + i * MLDSA_POLYETA_BYTES, seeds + 32, MLDSA_L + i);
	/* t_i = NTT^-1(Â_i ∘ NTT(s1)) + s2_i, Power2Round, encoded as produced */
	for (i = 0; i < MLDSA_K; i++) {
		row(&acc, &tmp, seeds, i, FROM_S1, sk, 0);
		for (uint16_t k = 0; k < MLDSA_N; k++) {
			int32_t t0, t = acc.c[k] + mldsa_unpack1(sk + MLDSA_SK_S2 + i * MLDSA_POLYETA_BYTES, k, MLDSA_ETA_BITS, MLDSA_ETA);
			int32_t t1 = mldsa_power2round(&t0, mldsa_caddq(t));
			mldsa_putbits(pk + 32 + i * MLDSA_POLYT1_BYTES, k, MLDSA_T1_BITS, (uint32_t)t1);
			mldsa_putbits(sk + MLDSA_SK_T0 + i * MLDSA_POLYT0_BYTES, k, MLDSA_T0_BITS, (uint32_t)((1L << (MLDSA_D - 1)) - t0));
		}
	}
	shake256(sk + MLDSA_SK_TR, 64, pk, MLDSA_PKBYTES); /* tr ← H(pk, 64) */
}

int mldsa44_sign(uint8_t sig[MLDSA_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                 const uint8_t rnd[32], const uint8_t sk[MLDSA_SKBYTES])
{
	const uint8_t *rho = sk + MLDSA_SK_RHO;
	uint8_t *w1enc = sig + MLDSA_SIG_Z, *y8 = sig + MLDSA_SIG_H;
	uint8_t mu[64], rhopp[64], pos[MLDSA_TAU + 1], neg[MLDSA_TAU + 1];
	mldsa_poly acc, tmp;
	keccak_state st;
	uint16_t kappa = 0;
	uint8_t i, reject, ones;

	if (ctxlen > 255)
		return -1;
	mldsa44_mu(mu, sk + MLDSA_SK_TR, ctx, ctxlen, m, mlen);
	keccak_init(&st, SHAKE256_RATE); /* ρ'' ← H(K‖rnd‖μ, 64) */
	keccak_absorb(&st, sk + MLDSA_SK_KEY, 32);
	keccak_absorb(&st, rnd, 32);
	keccak_absorb(&st, mu, 64);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, rhopp, 64);

	for (mldsa44_iterations = 1;; mldsa44_iterations++, kappa += MLDSA_L) {
		/* w = NTT^-1(Â ∘ NTT(y)) a row at a time; w1Encode(HighBits(w))
		 * into the z field */
		for (i = 0; i < MLDSA_K; i++) {
			row(&acc, &tmp, rho, i, FROM_Y, rhopp, kappa);
			for (uint16_t k = 0; k < MLDSA_N; k++) {
				int32_t w0;
				mldsa_putbits(w1enc + i * MLDSA_POLYW1_BYTES, k, MLDSA_W1_BITS,
				              (uint32_t)mldsa_decompose(&w0, mldsa_caddq(acc.c[k])));
			}
		}
		keccak_init(&st, SHAKE256_RATE); /* c̃ ← H(μ‖w1Encode(w1), λ/4) */
		keccak_absorb(&st, mu, 64);
		keccak_absorb(&st, w1enc, MLDSA_K * MLDSA_POLYW1_BYTES);
		keccak_finalize(&st, SHAKE_DS);
		keccak_squeeze(&st, sig, MLDSA_CTILDEBYTES);
		challenge(pos, neg, sig, &tmp);

		/* w again, row by row: r0 = LowBits(w) − cs2 must stay below
		 * γ2 − β, ct0 below γ2; h = MakeHint(−ct0, w − cs2 + ct0) */
		reject = 0;
		ones = 0;
		for (i = 0; i < MLDSA_K && !reject; i++) {
			row(&acc, &tmp, rho, i, FROM_Y, rhopp, kappa);
			sparse_mul(&tmp, pos, neg, sk + MLDSA_SK_S2 + i * MLDSA_POLYETA_BYTES, MLDSA_ETA_BITS, MLDSA_ETA, 0);
			for (uint16_t k = 0; k < MLDSA_N; k++) {
				int32_t w0, r0;
				mldsa_decompose(&w0, mldsa_caddq(acc.c[k]));
				r0 = w0 - tmp.c[k];
				acc.c[k] = r0;
				reject |= (r0 >= MLDSA_GAMMA2 - MLDSA_BETA) | (r0 <= -(MLDSA_GAMMA2 - MLDSA_BETA));
			}
			sparse_mul(&tmp, pos, neg, sk + MLDSA_SK_T0 + i * MLDSA_POLYT0_BYTES, MLDSA_T0_BITS, 1L << (MLDSA_D - 1), 0);
			for (uint16_t k = 0; k < MLDSA_N; k++) {
				int32_t ct0 = tmp.c[k];
				reject |= (ct0 >= MLDSA_GAMMA2) | (ct0 <= -MLDSA_GAMMA2);
				if (mldsa_make_hint(acc.c[k] + ct0, (int32_t)mldsa_getbits(w1enc + i * MLDSA_POLYW1_BYTES, k, MLDSA_W1_BITS))) {
					if (ones < MLDSA_OMEGA)
						y8[ones] = (uint8_t)k;
					ones++;
				}
			}
			if (ones <= MLDSA_OMEGA)
				y8[MLDSA_OMEGA + i] = ones;
		}
		if (reject || ones > MLDSA_OMEGA)
			continue;
		memset(y8 + ones, 0, MLDSA_OMEGA - ones);

		/* z_j = y_j + c s1_j, ‖z‖∞ < γ1 − β, encoded over w1's bytes */
		for (i = 0; i < MLDSA_L && !reject; i++) {
			mldsa_poly_uniform_gamma1(&tmp, rhopp, kappa + i);
			sparse_mul(&acc, pos, neg, sk + MLDSA_SK_S1 + i * MLDSA_POLYETA_BYTES, MLDSA_ETA_BITS, MLDSA_ETA, 0);
			mldsa_poly_add(&tmp, &acc);
			reject = mldsa_poly_chknorm(&tmp, MLDSA_GAMMA1 - MLDSA_BETA);
			mldsa_poly_pack(sig + MLDSA_SIG_Z + i * MLDSA_POLYZ_BYTES, &tmp, MLDSA_Z_BITS, MLDSA_GAMMA1);
		}
		if (!reject)
			return 0;
	}
}

int mldsa44_verify(const uint8_t sig[MLDSA_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                   const uint8_t pk[MLDSA_PKBYTES])
{
	const uint8_t *y8 = sig + MLDSA_SIG_H;
	uint8_t mu[64], pos[MLDSA_TAU + 1], neg[MLDSA_TAU + 1], enc[3], ct2[MLDSA_CTILDEBYTES], i, index = 0;
	mldsa_poly acc, tmp;
	keccak_state h;

	if (ctxlen > 255 || !mldsa_hints_ok(y8))
		return 0;
	for (i = 0; i < MLDSA_L; i++) /* ‖z‖∞ < γ1 − β */
		for (uint16_t k = 0; k < MLDSA_N; k++) {
			int32_t z = mldsa_unpack1(sig + MLDSA_SIG_Z + i * MLDSA_POLYZ_BYTES, k, MLDSA_Z_BITS, MLDSA_GAMMA1);
			if (z >= MLDSA_GAMMA1 - MLDSA_BETA || z <= -(MLDSA_GAMMA1 - MLDSA_BETA))
				return 0;
		}
	shake256(mu, 64, pk, MLDSA_PKBYTES);           /* tr ← H(pk, 64) */
	mldsa44_mu(mu, mu, ctx, ctxlen, m, mlen);      /* μ ← H(tr‖M', 64): tr is absorbed before μ is written */
	challenge(pos, neg, sig, &tmp);

	/* c̃' ← H(μ‖w1Encode(w1')), absorbed a row at a time */
	keccak_init(&h, SHAKE256_RATE);
	keccak_absorb(&h, mu, 64);
	for (i = 0; i < MLDSA_K; i++) {
		/* w'_Approx,i = NTT^-1(Â_i ∘ NTT(z)) − c · t1_i · 2^d; w1' ← UseHint */
		row(&acc, &tmp, pk, i, FROM_Z, sig, 0);
		sparse_mul(&tmp, pos, neg, pk + 32 + i * MLDSA_POLYT1_BYTES, MLDSA_T1_BITS, 0, MLDSA_D);
		for (uint16_t k = 0; k < MLDSA_N; k++) {
			uint8_t hint = index < y8[MLDSA_OMEGA + i] && y8[index] == k;
			index += hint;
			uint32_t w1 = (uint32_t)mldsa_use_hint(mldsa_caddq(mldsa_reduce32(acc.c[k] - tmp.c[k])), hint);
			if ((k & 3) == 0)
				enc[0] = enc[1] = enc[2] = 0;
			mldsa_putbits(enc, k & 3, MLDSA_W1_BITS, w1);
			if ((k & 3) == 3)
				keccak_absorb(&h, enc, 3);
		}
	}
	keccak_finalize(&h, SHAKE_DS);
	keccak_squeeze(&h, ct2, MLDSA_CTILDEBYTES);
	return !pq_verify(ct2, sig, MLDSA_CTILDEBYTES);
}
