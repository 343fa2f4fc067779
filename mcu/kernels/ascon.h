/* ascon.h: Ascon-AEAD128 (NIST SP 800-232 §4). */
#ifndef CRYPTOCOST_ASCON_H
#define CRYPTOCOST_ASCON_H

#include <stdint.h>

/* Encrypts mlen bytes of m into c (c may equal m) and writes the 16-byte
 * tag (SP 800-232 Algorithm 3). */
void ascon_aead128_encrypt(uint8_t *c, uint8_t tag[16], const uint8_t *m, uint16_t mlen,
			   const uint8_t *ad, uint16_t adlen, const uint8_t nonce[16], const uint8_t key[16]);

/* Decrypts clen bytes of c into m (m may equal c) and returns 1 if tag
 * verifies; otherwise clears m and returns 0 (Algorithm 4). */
uint8_t ascon_aead128_decrypt(uint8_t *m, const uint8_t *c, uint16_t clen, const uint8_t tag[16],
			      const uint8_t *ad, uint16_t adlen, const uint8_t nonce[16], const uint8_t key[16]);

#endif
