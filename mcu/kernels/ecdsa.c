/*
 * ecdsa.c: ECDSA signing and verification (SEC 1 v2 §4.1.3, §4.1.4) on
 * the elliptic-curve arithmetic of ecc.h; the same file for both styles,
 * so the two kernels differ only where the libraries S004 compared differ.
 * Arithmetic modulo n is Montgomery's (ecc_bn.c) in both; the inversion
 * of the nonce and of s is each style's own (ecc_scalar_inv).
 *
 * Signing takes the same steps for every private key and nonce here; the
 * time of the whole then depends on the style's scalar multiplication and
 * inversion only.
 */
#define ECC_PARAMS_DEFINE /* the curve's constants live in this object */
#include "ecdsa.h"
#include "ecc.h"
#include "ecc_bn.h"
#include "ecc_port.h"

#if ECC_PB > ECC_NB + 1 || ECC_NB > ECC_PB + 1
#error "ecdsa.c: field and order lengths differ by more than a byte"
#endif

/* Within a byte either way, whichever is longer. */
#define WIDE (ECC_PB > ECC_NB ? ECC_PB : ECC_NB)

void ecdsa_public_key(uint8_t pub[ECDSA_PUBLIC_BYTES], const uint8_t d_be[ECC_NB])
{
	uint8_t d[ECC_NB], x[ECC_PB], y[ECC_PB];
	bn_from_be(d, d_be, ECC_NB);
	ecc_mul_base(x, y, d);
	bn_to_be(pub, x, ECC_PB);
	bn_to_be(pub + ECC_PB, y, ECC_PB);
}

/* e = the leftmost ECC_NBITS bits of the hash (SEC 1 §4.1.3 step 5),
 * reduced mod n: below 2^ECC_NBITS < 2n, so one masked subtraction. */
static void hash_to_scalar(uint8_t e[ECC_NB], const uint8_t *hash, uint8_t hash_len)
{
	uint8_t take = hash_len < ECC_NB ? hash_len : ECC_NB;
	uint8_t t[ECC_NB];
	bn_zero(t, ECC_NB);
	bn_from_be(t, hash, take);
	if (hash_len * 8 > ECC_NBITS) {
		/* secp160r1: 21 bytes are 168 bits for its 161-bit order */
		uint8_t shift = 8 * take - ECC_NBITS;
		for (uint8_t i = 0; shift && i < ECC_NB; i++)
			t[i] = (t[i] >> shift) | (i + 1 < ECC_NB ? t[i + 1] << (8 - shift) : 0);
	}
	bn_reduce_once(e, t, 0, ecc_n, ECC_NB);
}

/* r = x mod n for a coordinate x < p: p < 2n on every curve here (Hasse:
 * n is within 2√p of p + 1), so one masked subtraction. */
static void coordinate_to_scalar(uint8_t r[ECC_NB], const uint8_t x[ECC_PB])
{
	uint8_t t[WIDE + 1];
	bn_zero(t, sizeof t);
	bn_copy(t, x, ECC_PB);
	/* x < 2n: with ECC_PB ≤ ECC_NB it fits NB bytes; else the extra byte
	 * is the carry bn_reduce_once takes */
	bn_reduce_once(r, t, ECC_PB > ECC_NB ? t[ECC_NB] : 0, ecc_n, ECC_NB);
}

uint8_t ecdsa_sign(uint8_t sig[ECDSA_SIGNATURE_BYTES], const uint8_t *hash, uint8_t hash_len, const uint8_t d_be[ECC_NB],
		   const uint8_t k_be[ECC_NB])
{
	uint8_t k[ECC_NB], d[ECC_NB], r[ECC_NB], t[ECC_NB], u[ECC_NB];
	uint8_t x[ECC_PB], y[ECC_PB];
	bn_from_be(k, k_be, ECC_NB);
	bn_from_be(d, d_be, ECC_NB);

	ecc_mul_base(x, y, k); /* step 1: R = k·G */
	coordinate_to_scalar(r, x); /* steps 2–3: r = x_R mod n */

	/* step 6: s = k⁻¹(e + r·d) mod n, in Montgomery form where it helps:
	 * (r·d·R⁻¹)·R²·R⁻¹ = r·d, then (e + r·d)·(k⁻¹·R)·R⁻¹ */
	bn_mont_mul(t, r, d, ecc_n, ECC_NINV, ECC_NB);
	ecc_flash_copy(u, ecc_r2n, ECC_NB);
	bn_mont_mul(t, t, u, ecc_n, ECC_NINV, ECC_NB);
	hash_to_scalar(u, hash, hash_len);
	bn_mod_add(t, t, u, ecc_n, ECC_NB);
	ecc_scalar_inv(u, k);
	bn_mont_mul(t, t, u, ecc_n, ECC_NINV, ECC_NB);

	bn_to_be(sig, r, ECC_NB);
	bn_to_be(sig + ECC_NB, t, ECC_NB);
	/* r and s are the public output: 0 means draw another nonce */
	return !(bn_is_zero(r, ECC_NB) | bn_is_zero(t, ECC_NB));
}

/* 1 if 0 < a < m */
static uint8_t in_range(const uint8_t *a, const uint8_t *m, uint8_t len)
{
	return !bn_is_zero(a, len) && !bn_ge_vt(a, m, len);
}

uint8_t ecdsa_verify(const uint8_t sig[ECDSA_SIGNATURE_BYTES], const uint8_t *hash, uint8_t hash_len,
		     const uint8_t pub[ECDSA_PUBLIC_BYTES])
{
	uint8_t r[ECC_NB], s[ECC_NB], w[ECC_NB], u1[ECC_NB], u2[ECC_NB];
	uint8_t qx[ECC_PB], qy[ECC_PB], x[ECC_PB];
	bn_from_be(r, sig, ECC_NB);
	bn_from_be(s, sig + ECC_NB, ECC_NB);
	bn_from_be(qx, pub, ECC_PB);
	bn_from_be(qy, pub + ECC_PB, ECC_PB);
	/* step 1: r, s in [1, n − 1]; the key's coordinates below p and on
	 * the curve */
	if (!in_range(r, ecc_n, ECC_NB) || !in_range(s, ecc_n, ECC_NB))
		return 0;
	if (bn_ge_vt(qx, ecc_p, ECC_PB) || bn_ge_vt(qy, ecc_p, ECC_PB) || !ecc_on_curve(qx, qy))
		return 0;

	hash_to_scalar(u1, hash, hash_len); /* steps 2–3: e */
	ecc_scalar_inv(w, s);               /* w = s⁻¹·R */
	bn_mont_mul(u1, u1, w, ecc_n, ECC_NINV, ECC_NB); /* step 4: u1 = e·s⁻¹ */
	bn_mont_mul(u2, r, w, ecc_n, ECC_NINV, ECC_NB);  /* u2 = r·s⁻¹ */
	if (!ecc_mul_add(x, u1, u2, qx, qy))             /* step 5: u1·G + u2·Q */
		return 0;
	coordinate_to_scalar(w, x); /* steps 6–8: v = x_R mod n = r? */
	return bn_equal(w, r, ECC_NB);
}
