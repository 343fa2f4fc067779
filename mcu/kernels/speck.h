/* speck.h: Speck64/128 (Beaulieu et al., ePrint 2013/404). */
#ifndef CRYPTOCOST_SPECK_H
#define CRYPTOCOST_SPECK_H

#include <stdint.h>

#define SPECK64_128_ROUNDS 27

/* Bytes follow the SIMON and SPECK Implementation Guide (2019): words are
 * little-endian, the block is y then x, the key k0, l0, l1, l2. */
void speck64_128_expand_key(uint32_t rk[SPECK64_128_ROUNDS], const uint8_t key[16]);
void speck64_128_encrypt(uint8_t block[8], const uint32_t rk[SPECK64_128_ROUNDS]);
void speck64_128_decrypt(uint8_t block[8], const uint32_t rk[SPECK64_128_ROUNDS]);
/* CBC in place over len bytes, a multiple of 8; iv is updated. */
void speck64_128_cbc_encrypt(uint8_t *buf, uint16_t len, uint8_t iv[8], const uint32_t rk[SPECK64_128_ROUNDS]);

#endif
