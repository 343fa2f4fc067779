/* sha1.h: SHA-1 (FIPS 180-4 §6.1). S003's and S000's hash; broken for
 * collision resistance (SHAttered, 2017), still what HMAC-SHA1 in old
 * protocols uses. */
#ifndef CRYPTOCOST_SHA1_H
#define CRYPTOCOST_SHA1_H

#include <stdint.h>

struct sha1 {
	uint32_t h[5];
	uint8_t block[64];
	uint32_t bytes; /* message length so far: up to 4 GiB, plenty here */
	uint8_t used;   /* bytes of block filled */
};

void sha1_init(struct sha1 *s);
void sha1_update(struct sha1 *s, const uint8_t *data, uint16_t len);
void sha1_final(struct sha1 *s, uint8_t out[20]);
void sha1(uint8_t out[20], const uint8_t *data, uint16_t len);

/* One compression of a 64-byte block into h (§6.1.2). */
void sha1_compress(uint32_t h[5], const uint8_t block[64]);

#endif
