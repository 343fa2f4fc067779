/* x25519.h: X25519 (RFC 7748 §5). */
#ifndef CRYPTOCOST_X25519_H
#define CRYPTOCOST_X25519_H

#include <stdint.h>

/* out = X25519(scalar, u): the shared secret, or with u = 9 the public key. */
void x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void x25519_base(uint8_t out[32], const uint8_t scalar[32]);

#endif
