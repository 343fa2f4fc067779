/* sha256.h: SHA-256 (FIPS 180-4 §6.2). */
#ifndef CRYPTOCOST_SHA256_H
#define CRYPTOCOST_SHA256_H

#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint8_t block[64];
	uint32_t bytes; /* message length so far: up to 4 GiB, plenty here */
	uint8_t used;   /* bytes of block filled */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const uint8_t *data, uint16_t len);
void sha256_final(struct sha256 *s, uint8_t out[32]);
void sha256(uint8_t out[32], const uint8_t *data, uint16_t len);

/* One compression of a 64-byte block into h (§6.2.2). */
void sha256_compress(uint32_t h[8], const uint8_t block[64]);

#endif
