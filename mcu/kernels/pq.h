/*
 * pq.h: what the post-quantum kernels (fips202.c, mlkem*.c, mldsa*.c) need
 * from the target, and nothing else: they include only <stdint.h>,
 * <stddef.h> and <string.h> (memcpy, memset), allocate nothing, and build
 * unchanged for 8-bit AVR and 32-bit Cortex-M and RISC-V cores.
 *
 * Constant tables (NTT twiddle factors, Keccak round constants) must stay
 * out of SRAM on AVR, where a `const` array is copied into .data at start-up:
 * PQ_FLASH puts them in flash and the pq_read* macros read them back (LPM).
 * Elsewhere flash is in the address space and both are no-ops.
 *
 * `int` is 16 bits on AVR: every product or sum that can exceed 16 bits is
 * computed in an explicitly 32- or 64-bit type here. Right shifts of
 * negative values are arithmetic (GCC defines them so; C99 leaves it to the
 * implementation), which the Barrett and Montgomery reductions rely on.
 */
#ifndef CRYPTOCOST_PQ_H
#define CRYPTOCOST_PQ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__AVR__)
#include <avr/pgmspace.h>
#define PQ_FLASH PROGMEM
#define pq_read8(p) pgm_read_byte(p)
#define pq_read16(p) ((int16_t)pgm_read_word(p))
#define pq_read32(p) ((int32_t)pgm_read_dword(p))
static inline uint64_t pq_read64(const uint64_t *p)
{
	uint64_t v; /* bytes, not a 64-bit shift (a loop of one-bit shifts here) */
	memcpy_P(&v, p, sizeof v);
	return v;
}
#else
#define PQ_FLASH
#define pq_read8(p) (*(p))
#define pq_read16(p) (*(p))
#define pq_read32(p) (*(p))
#define pq_read64(p) (*(p))
#endif

/* Little-endian loads of 2, 3 and 4 bytes, whatever the core's order. */
static inline uint32_t pq_load24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

static inline uint32_t pq_load32(const uint8_t *p)
{
	return pq_load24(p) | (uint32_t)p[3] << 24;
}

/* pq_verify compares n bytes in constant time: 0 when equal, 1 otherwise. */
static inline uint8_t pq_verify(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t d = 0;
	while (n--)
		d |= *a++ ^ *b++;
	return (uint8_t)((uint16_t)(0u - d) >> 15); /* d != 0, without a branch */
}

/* pq_cmov copies src over dst when b is 1 and leaves it when b is 0, with
 * the same instructions either way. */
static inline void pq_cmov(uint8_t *dst, const uint8_t *src, size_t n, uint8_t b)
{
	uint8_t mask = (uint8_t)(0u - b);
	while (n--) {
		*dst ^= mask & (*dst ^ *src);
		dst++, src++;
	}
}

#endif
