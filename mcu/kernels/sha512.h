/* sha512.h: SHA-512 (FIPS 180-4 §6.4), as Ed25519 needs it. */
#ifndef CRYPTOCOST_SHA512_H
#define CRYPTOCOST_SHA512_H

#include <stdint.h>

struct sha512 {
	uint64_t h[8];
	uint8_t block[128];
	uint32_t bytes; /* message length so far */
	uint8_t used;
};

void sha512_init(struct sha512 *s);
void sha512_update(struct sha512 *s, const uint8_t *data, uint16_t len);
void sha512_final(struct sha512 *s, uint8_t out[64]);

#endif
