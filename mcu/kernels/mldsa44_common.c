/*
 * mldsa44_common.c: the ML-DSA-44 steps both kernels share (FIPS 204 §5,
 * §6): seed expansion, the message representative μ of the pure signature
 * and the sparse form of a challenge.
 */
#include "mldsa44.h"
#include "fips202.h"

uint16_t mldsa44_iterations;

/* (ρ, ρ', K) ← H(ξ‖IntegerToBytes(k, 1)‖IntegerToBytes(ℓ, 1), 128)
 * (Algorithm 6, step 1) */
void mldsa44_expand_seed(uint8_t out[128], const uint8_t seed[32])
{
	keccak_state st;
	const uint8_t kl[2] = {MLDSA_K, MLDSA_L};
	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, seed, 32);
	keccak_absorb(&st, kl, 2);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, out, 128);
}

/* μ ← H(tr‖M', 64) (Algorithm 7, step 6) for the pure signature's
 * M' = IntegerToBytes(0, 1) ‖ IntegerToBytes(|ctx|, 1) ‖ ctx ‖ m (Algorithm 2,
 * step 10; Algorithm 3, step 5), absorbed piece by piece instead of built.
 * ctxlen must be at most 255. */
void mldsa44_mu(uint8_t mu[64], const uint8_t tr[64], const uint8_t *ctx, size_t ctxlen, const uint8_t *m, size_t mlen)
{
	keccak_state st;
	const uint8_t pre[2] = {0, (uint8_t)ctxlen};
	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, tr, 64);
	keccak_absorb(&st, pre, 2);
	keccak_absorb(&st, ctx, ctxlen);
	keccak_absorb(&st, m, mlen);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, mu, 64);
}

uint8_t mldsa44_sparse(uint8_t pos[MLDSA_TAU + 1], uint8_t neg[MLDSA_TAU + 1], const int8_t c[MLDSA_N])
{
	uint8_t n = 0;
	for (uint16_t i = 0; i < MLDSA_N; i++) {
		/* written at every step, kept when c_i ≠ 0: c_i is −1, 0 or 1,
		 * so its low bit says nonzero and its top bit negative */
		pos[n] = (uint8_t)i;
		neg[n] = ((uint8_t)c[i] >> 7) & 1;
		n += (uint8_t)c[i] & 1;
	}
	return n;
}
