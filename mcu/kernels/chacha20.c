/*
 * chacha20.c: ChaCha20 from RFC 8439. Additions, XORs and fixed rotations
 * only: constant time on any core. The rotations by 16 and 8 are byte
 * renamings, by 12 and 7 a byte and a few bits (rotate.h).
 */
#include "chacha20.h"
#include "rotate.h"

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The quarter round of §2.1 on four words of the state. */
#define QR(a, b, c, d)                                  \
	do {                                            \
		x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 16); \
		x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 12); \
		x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 8);  \
		x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 7);  \
	} while (0)

void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter, const uint8_t nonce[12])
{
	uint32_t s[16], x[16];
	/* §2.3: "expand 32-byte k", key, counter, nonce (little-endian words) */
	s[0] = 0x61707865;
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	for (uint8_t i = 0; i < 8; i++)
		s[4 + i] = load32(key + 4 * i);
	s[12] = counter;
	for (uint8_t i = 0; i < 3; i++)
		s[13 + i] = load32(nonce + 4 * i);
	for (uint8_t i = 0; i < 16; i++)
		x[i] = s[i];
	for (uint8_t i = 0; i < 10; i++) { /* 20 rounds: column then diagonal */
		QR(0, 4, 8, 12);
		QR(1, 5, 9, 13);
		QR(2, 6, 10, 14);
		QR(3, 7, 11, 15);
		QR(0, 5, 10, 15);
		QR(1, 6, 11, 12);
		QR(2, 7, 8, 13);
		QR(3, 4, 9, 14);
	}
	for (uint8_t i = 0; i < 16; i++) {
		uint32_t v = x[i] + s[i];
		out[4 * i] = v;
		out[4 * i + 1] = v >> 8;
		out[4 * i + 2] = v >> 16;
		out[4 * i + 3] = v >> 24;
	}
}

void chacha20_xor(uint8_t *buf, uint16_t len, const uint8_t key[32], uint32_t counter, const uint8_t nonce[12])
{
	uint8_t ks[64];
	while (len) {
		uint8_t n = len < 64 ? len : 64;
		chacha20_block(ks, key, counter++, nonce);
		for (uint8_t i = 0; i < n; i++)
			buf[i] ^= ks[i];
		buf += n;
		len -= n;
	}
}
