/* ed25519.h: Ed25519 (RFC 8032 §5.1), pure (no prehash, no context). */
#ifndef CRYPTOCOST_ED25519_H
#define CRYPTOCOST_ED25519_H

#include <stdint.h>

/* The public key of a 32-byte private key (seed), §5.1.5. */
void ed25519_public_key(uint8_t pk[32], const uint8_t seed[32]);

/* sig = R ‖ S over m (§5.1.6); pk must be seed's public key. */
void ed25519_sign(uint8_t sig[64], const uint8_t *m, uint16_t mlen, const uint8_t seed[32], const uint8_t pk[32]);

/* 1 if sig is a valid signature of m under pk (§5.1.7), else 0. */
uint8_t ed25519_verify(const uint8_t sig[64], const uint8_t *m, uint16_t mlen, const uint8_t pk[32]);

#endif
