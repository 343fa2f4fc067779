/*
 * ecdsa.h: ECDSA (SEC 1 v2 §4.1; FIPS 186-5 §6.4) over the curve chosen at
 * compile time (ecc_params.h), on either elliptic-curve implementation
 * (ecc.h). Octet strings are big-endian, as in the standards: scalars
 * ECC_NB bytes, coordinates ECC_PB bytes, a public key x ‖ y, a signature
 * r ‖ s (IEEE P1363 form).
 *
 * The hash is the caller's: any length, truncated to its leftmost
 * ECC_NBITS bits (SEC 1 §4.1.3 step 5). The kernels here use SHA-256 on
 * every curve, so on the curves shorter than 256 bits only the first 128,
 * 161 or 192 bits of the digest count.
 */
#ifndef CRYPTOCOST_ECDSA_H
#define CRYPTOCOST_ECDSA_H

#include <stdint.h>
#include "ecc_params.h"

#define ECDSA_PUBLIC_BYTES (2 * ECC_PB)
#define ECDSA_SIGNATURE_BYTES (2 * ECC_NB)

/* The public key Q = d·G of a private key 1 ≤ d < n (SEC 1 §3.2.1 step 2;
 * drawing d is the random generator's job). */
void ecdsa_public_key(uint8_t pub[ECDSA_PUBLIC_BYTES], const uint8_t d[ECC_NB]);

/* SEC 1 §4.1.3 with the nonce 1 ≤ k < n given (RFC 6979 derives it from d
 * and the hash; a random generator draws it): r = (k·G).x mod n,
 * s = k⁻¹(e + r·d) mod n. Returns 0, and no signature, if r or s is 0. */
uint8_t ecdsa_sign(uint8_t sig[ECDSA_SIGNATURE_BYTES], const uint8_t *hash, uint8_t hash_len, const uint8_t d[ECC_NB],
		   const uint8_t k[ECC_NB]);

/* SEC 1 §4.1.4, with the public key checked to be on the curve
 * (§3.2.2.1 steps 2 and 3). Returns 1 for a valid signature. */
uint8_t ecdsa_verify(const uint8_t sig[ECDSA_SIGNATURE_BYTES], const uint8_t *hash, uint8_t hash_len,
		     const uint8_t pub[ECDSA_PUBLIC_BYTES]);

#endif
