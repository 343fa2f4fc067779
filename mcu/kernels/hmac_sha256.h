/* hmac_sha256.h: HMAC-SHA256 (RFC 2104, FIPS 198-1). */
#ifndef CRYPTOCOST_HMAC_SHA256_H
#define CRYPTOCOST_HMAC_SHA256_H

#include "sha256.h"

struct hmac_sha256 {
	struct sha256 inner;
	uint8_t key[64]; /* K0 of FIPS 198-1 §4: the key padded (or hashed) to a block */
};

void hmac_sha256_init(struct hmac_sha256 *m, const uint8_t *key, uint16_t keylen);
void hmac_sha256_update(struct hmac_sha256 *m, const uint8_t *data, uint16_t len);
void hmac_sha256_final(struct hmac_sha256 *m, uint8_t mac[32]);
void hmac_sha256(uint8_t mac[32], const uint8_t *key, uint16_t keylen, const uint8_t *data, uint16_t len);

#endif
