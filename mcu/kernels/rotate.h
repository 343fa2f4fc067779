/*
 * rotate.h: rotations for 8-bit cores. avr-gcc 5.4 compiles a 32- or 64-bit
 * shift by a constant n into a loop of n one-bit shifts over every byte;
 * a rotation by a multiple of 8 is only a renaming of bytes. So rotate by
 * whole bytes first and by at most 4 bits after (a rotation by 5–7 bits is
 * one byte one way and 3–1 bits back). With a constant n the branches fold
 * away at compile time; nothing here depends on data.
 *
 * On the 32-bit cores the plain expression is what the compilers turn into
 * one rotate instruction (Cortex-M's ROR) or two shifts and an OR (RV32IMAC,
 * which has no rotate), so it is used there instead.
 */
#ifndef CRYPTOCOST_ROTATE_H
#define CRYPTOCOST_ROTATE_H

#include <stdint.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

#ifndef __AVR__
ALWAYS_INLINE uint32_t rotr32(uint32_t x, uint8_t n) { return n % 32 ? x >> (n % 32) | x << (32 - n % 32) : x; }
ALWAYS_INLINE uint32_t rotl32(uint32_t x, uint8_t n) { return rotr32(x, (32 - n) & 31); }
ALWAYS_INLINE uint64_t rotr64(uint64_t x, uint8_t n) { return n % 64 ? x >> (n % 64) | x << (64 - n % 64) : x; }
#else
ALWAYS_INLINE uint32_t rotr32_1(uint32_t x) { return x >> 1 | x << 31; }
ALWAYS_INLINE uint32_t rotl32_1(uint32_t x) { return x << 1 | x >> 31; }

ALWAYS_INLINE uint32_t rotr32(uint32_t x, uint8_t n)
{
	uint8_t bytes = n / 8, bits = n % 8;
	if (bits > 4) {
		bytes = (bytes + 1) & 3;
		bits = 8 - bits;
		while (bytes--)
			x = x >> 8 | x << 24;
		while (bits--)
			x = rotl32_1(x);
		return x;
	}
	while (bytes--)
		x = x >> 8 | x << 24;
	while (bits--)
		x = rotr32_1(x);
	return x;
}

ALWAYS_INLINE uint32_t rotl32(uint32_t x, uint8_t n) { return rotr32(x, (32 - n) & 31); }

ALWAYS_INLINE uint64_t rotr64_1(uint64_t x) { return x >> 1 | x << 63; }
ALWAYS_INLINE uint64_t rotl64_1(uint64_t x) { return x << 1 | x >> 63; }

ALWAYS_INLINE uint64_t rotr64(uint64_t x, uint8_t n)
{
	uint8_t bytes = n / 8, bits = n % 8;
	if (bits > 4) {
		bytes = (bytes + 1) & 7;
		bits = 8 - bits;
		while (bytes--)
			x = x >> 8 | x << 56;
		while (bits--)
			x = rotl64_1(x);
		return x;
	}
	while (bytes--)
		x = x >> 8 | x << 56;
	while (bits--)
		x = rotr64_1(x);
	return x;
}
#endif

#endif
