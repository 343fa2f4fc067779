/*
 * mlkem_kem.c: the ML-KEM steps around K-PKE (FIPS 203 §7), shared by the
 * straightforward and the lean kernel: the hashes G and H, the input
 * checks, and the assembly of the decapsulation key.
 */
#include "mlkem.h"
#include "fips202.h"
#include "mlkem_poly.h"

/* G(a‖b) = SHA3-512 (§4.1), without copying a‖b into one buffer */
void mlkem_g(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	keccak_state st;
	keccak_init(&st, SHA3_512_RATE);
	keccak_absorb(&st, a, alen);
	keccak_absorb(&st, b, blen);
	keccak_finalize(&st, SHA3_DS);
	keccak_squeeze(&st, out, 64);
}

/* §7.2 modulus check: ByteEncode_12(ByteDecode_12(t̂)) = t̂, that is every
 * 12-bit value of the encoded t̂ is below q. */
uint8_t mlkem_ek_ok(const uint8_t pk[MLKEM_PKBYTES])
{
	uint8_t ok = 1;
	for (uint8_t i = 0; i < MLKEM_K; i++)
		ok &= mlkem_poly_bytes_ok(pk + i * MLKEM_POLYBYTES);
	return ok;
}

/* §7.3 hash check: H(dk[384k : 768k + 32]) = dk[768k + 32 : 768k + 64] */
uint8_t mlkem_dk_ok(const uint8_t sk[MLKEM_SKBYTES])
{
	uint8_t h[32];
	sha3_256(h, sk + MLKEM_POLYVECBYTES, MLKEM_PKBYTES);
	return !pq_verify(h, sk + MLKEM_POLYVECBYTES + MLKEM_PKBYTES, 32);
}

/* dk = dk_PKE ‖ ek ‖ H(ek) ‖ z (Algorithm 16, step 3); dk_PKE is in place */
void mlkem_finish_sk(uint8_t sk[MLKEM_SKBYTES], const uint8_t pk[MLKEM_PKBYTES], const uint8_t z[32])
{
	memcpy(sk + MLKEM_POLYVECBYTES, pk, MLKEM_PKBYTES);
	sha3_256(sk + MLKEM_POLYVECBYTES + MLKEM_PKBYTES, pk, MLKEM_PKBYTES);
	memcpy(sk + MLKEM_SKBYTES - 32, z, 32);
}

void mlkem_keygen(uint8_t pk[MLKEM_PKBYTES], uint8_t sk[MLKEM_SKBYTES], const uint8_t d[32], const uint8_t z[32])
{
	uint8_t rs[64];
	const uint8_t k = MLKEM_K;
	mlkem_g(rs, d, 32, &k, 1); /* (ρ, σ) ← G(d‖k), Algorithm 13 step 1 */
	mlkem_keygen_from_seeds(pk, sk, rs, rs + 32, z);
}
