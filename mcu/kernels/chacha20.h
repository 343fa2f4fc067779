/* chacha20.h: ChaCha20 (RFC 8439 §2.3–2.4), 32-bit counter, 96-bit nonce. */
#ifndef CRYPTOCOST_CHACHA20_H
#define CRYPTOCOST_CHACHA20_H

#include <stdint.h>

/* One 64-byte keystream block (§2.3). */
void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter, const uint8_t nonce[12]);

/* Encrypts or decrypts len bytes in place starting at block counter (§2.4). */
void chacha20_xor(uint8_t *buf, uint16_t len, const uint8_t key[32], uint32_t counter, const uint8_t nonce[12]);

#endif
