/*
 * hmac_sha1.c: HMAC-SHA1 from FIPS 198-1 §4 (RFC 2104):
 * H((K0 ^ opad) || H((K0 ^ ipad) || text)), as hmac_sha256.c.
 */
#include "hmac_sha1.h"

#define IPAD 0x36
#define OPAD 0x5c

static void pad_block(struct sha1 *s, const uint8_t k0[64], uint8_t pad)
{
	uint8_t b[64];
	for (uint8_t i = 0; i < 64; i++)
		b[i] = k0[i] ^ pad;
	sha1_update(s, b, 64);
}

void hmac_sha1_init(struct hmac_sha1 *m, const uint8_t *key, uint16_t keylen)
{
	uint8_t i = 0;
	if (keylen > 64) { /* FIPS 198-1 §4 step 2: hash a long key */
		sha1(m->key, key, keylen);
		i = 20;
	} else {
		for (; i < keylen; i++)
			m->key[i] = key[i];
	}
	for (; i < 64; i++)
		m->key[i] = 0;
	sha1_init(&m->inner);
	pad_block(&m->inner, m->key, IPAD);
}

void hmac_sha1_update(struct hmac_sha1 *m, const uint8_t *data, uint16_t len)
{
	sha1_update(&m->inner, data, len);
}

void hmac_sha1_final(struct hmac_sha1 *m, uint8_t mac[20])
{
	uint8_t inner[20];
	sha1_final(&m->inner, inner);
	sha1_init(&m->inner);
	pad_block(&m->inner, m->key, OPAD);
	sha1_update(&m->inner, inner, 20);
	sha1_final(&m->inner, mac);
}

void hmac_sha1(uint8_t mac[20], const uint8_t *key, uint16_t keylen, const uint8_t *data, uint16_t len)
{
	struct hmac_sha1 m;
	hmac_sha1_init(&m, key, keylen);
	hmac_sha1_update(&m, data, len);
	hmac_sha1_final(&m, mac);
}
