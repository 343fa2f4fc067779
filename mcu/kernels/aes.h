/* aes.h: AES-128 (FIPS 197), byte-oriented for 8-bit cores. */
#ifndef CRYPTOCOST_AES_H
#define CRYPTOCOST_AES_H

#include <stdint.h>

#define AES_BLOCK 16
#define AES128_ROUND_KEYS 176 /* 11 round keys of 16 bytes (FIPS 197 §5.2) */

void aes128_expand_key(uint8_t rk[AES128_ROUND_KEYS], const uint8_t key[16]);
void aes128_encrypt(uint8_t block[16], const uint8_t rk[AES128_ROUND_KEYS]);
void aes128_decrypt(uint8_t block[16], const uint8_t rk[AES128_ROUND_KEYS]);

/* CBC (SP 800-38A §6.2) in place over len bytes, a multiple of 16; iv is
 * updated to the last ciphertext block so calls can be chained. */
void aes128_cbc_encrypt(uint8_t *buf, uint16_t len, uint8_t iv[16], const uint8_t rk[AES128_ROUND_KEYS]);
void aes128_cbc_decrypt(uint8_t *buf, uint16_t len, uint8_t iv[16], const uint8_t rk[AES128_ROUND_KEYS]);

/* CTR (SP 800-38A §6.5) in place over len bytes; ctr is a 128-bit
 * big-endian counter block, advanced once per block. */
void aes128_ctr(uint8_t *buf, uint16_t len, uint8_t ctr[16], const uint8_t rk[AES128_ROUND_KEYS]);

#endif
