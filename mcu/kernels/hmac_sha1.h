/* hmac_sha1.h: HMAC-SHA1 (RFC 2104, FIPS 198-1). */
#ifndef CRYPTOCOST_HMAC_SHA1_H
#define CRYPTOCOST_HMAC_SHA1_H

#include "sha1.h"

struct hmac_sha1 {
	struct sha1 inner;
	uint8_t key[64]; /* K0 of FIPS 198-1 §4: the key padded (or hashed) to a block */
};

void hmac_sha1_init(struct hmac_sha1 *m, const uint8_t *key, uint16_t keylen);
void hmac_sha1_update(struct hmac_sha1 *m, const uint8_t *data, uint16_t len);
void hmac_sha1_final(struct hmac_sha1 *m, uint8_t mac[20]);
void hmac_sha1(uint8_t mac[20], const uint8_t *key, uint16_t keylen, const uint8_t *data, uint16_t len);

#endif
