/* rsa_crt.h: the RSA private-key operation with the CRT and Montgomery
 * multiplication, in constant time. */
#ifndef CRYPTOCOST_RSA_CRT_H
#define CRYPTOCOST_RSA_CRT_H

#include <stdint.h>

/*
 * A private key in CRT form (PKCS #1 §3.2, second representation) with the
 * constants a Montgomery implementation precomputes once per key. Every
 * number is h = len bytes (half the modulus), little-endian, R = 256^h:
 * p, q the primes; dp = d mod (p−1), dq = d mod (q−1); qinv_r = q⁻¹·R mod p;
 * r2p, r3p = R², R³ mod p and r2q, r3q likewise mod q; pinv, qinv8 =
 * −p⁻¹, −q⁻¹ mod 256.
 */
struct rsa_crt_key {
	const uint8_t *p, *q, *dp, *dq, *qinv_r, *r2p, *r3p, *r2q, *r3q;
	uint8_t pinv, qinv8;
	uint16_t len;
};

/* Bytes of scratch rsa_crt_private needs. */
#define RSA_CRT_SCRATCH(h) (3 * ((h) + 1) + 2 * (h))

/* out = x^d mod n (2·len bytes each, little-endian, x < n). */
void rsa_crt_private(uint8_t *out, const uint8_t *x, const struct rsa_crt_key *k, uint8_t *scratch);

#endif
