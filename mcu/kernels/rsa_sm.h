/* rsa_sm.h: the RSA private-key operation as S004 measured it. */
#ifndef CRYPTOCOST_RSA_SM_H
#define CRYPTOCOST_RSA_SM_H

#include <stdint.h>

/*
 * out = x^d mod n. All numbers are len bytes, little-endian; n has exactly
 * 8·len bits (its top byte is at least 0x80, as every RSA modulus of that
 * size has) and x < n. scratch holds 2·len bytes. With RSA_KEY_IN_FLASH
 * defined at compile time, n and d are addresses in flash.
 */
void rsa_sm_private(uint8_t *out, const uint8_t *x, const uint8_t *d, const uint8_t *n, uint16_t len, uint8_t *scratch);

#endif
