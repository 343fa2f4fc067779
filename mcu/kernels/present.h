/* present.h: PRESENT-80 (Bogdanov et al., CHES 2007). */
#ifndef CRYPTOCOST_PRESENT_H
#define CRYPTOCOST_PRESENT_H

#include <stdint.h>

#define PRESENT_ROUND_KEYS 32 /* K_1 .. K_32, 8 bytes each */

/* Blocks and keys are big-endian byte strings, as the paper writes them. */
void present80_expand_key(uint8_t rk[PRESENT_ROUND_KEYS][8], const uint8_t key[10]);
void present80_encrypt(uint8_t block[8], const uint8_t rk[PRESENT_ROUND_KEYS][8]);
void present80_decrypt(uint8_t block[8], const uint8_t rk[PRESENT_ROUND_KEYS][8]);
/* CBC in place over len bytes, a multiple of 8; iv is updated. */
void present80_cbc_encrypt(uint8_t *buf, uint16_t len, uint8_t iv[8], const uint8_t rk[PRESENT_ROUND_KEYS][8]);

#endif
