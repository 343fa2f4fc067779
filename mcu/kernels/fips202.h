/*
 * fips202.h: SHA3-256, SHA3-512, SHAKE128 and SHAKE256 (FIPS 202), for the
 * post-quantum kernels: one Keccak state that absorbs and squeezes any
 * number of bytes at a time, so callers stream XOF output instead of
 * buffering it.
 */
#ifndef CRYPTOCOST_FIPS202_H
#define CRYPTOCOST_FIPS202_H

#include "pq.h"

/* Rates in bytes, FIPS 202 §6.1 and §6.2: 200 − 2·(capacity/8). */
#define SHAKE128_RATE 168
#define SHAKE256_RATE 136
#define SHA3_256_RATE 136
#define SHA3_512_RATE 72

/* Domain-separation and first padding bits (FIPS 202 §6.1, §6.2, B.2):
 * SHA3: 01 then pad10*1 → 0x06; SHAKE: 1111 then pad10*1 → 0x1F. */
#define SHA3_DS 0x06
#define SHAKE_DS 0x1F

typedef struct {
	uint64_t s[25]; /* lane (x, y) is s[x + 5y] */
	uint8_t pos;    /* absorbing: bytes of the current block taken;
	                   squeezing: bytes of the current block given */
	uint8_t rate;
} keccak_state;

void keccak_f1600(uint64_t s[25]);
void keccak_init(keccak_state *st, uint8_t rate);
void keccak_absorb(keccak_state *st, const uint8_t *in, size_t len);
void keccak_finalize(keccak_state *st, uint8_t ds);
void keccak_squeeze(keccak_state *st, uint8_t *out, size_t len);

void sha3_256(uint8_t out[32], const uint8_t *in, size_t len);
void sha3_512(uint8_t out[64], const uint8_t *in, size_t len);
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

#endif
