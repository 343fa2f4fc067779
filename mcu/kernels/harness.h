/*
 * harness.h: what a kernel's bench file gives the cryptocost MCU harness.
 *
 * A firmware image is the harness (harness.c), one kernel (the algorithm,
 * e.g. aes.c) and that kernel's bench file (e.g. aes_bench.c: known-answer
 * tests and timed operations). The harness runs every known-answer test
 * first, then times each operation with Timer1 and measures its stack by
 * painting; it prints one line per result over the UART (the line format is
 * documented in harness.c and parsed by cryptocost's mcu package).
 */
#ifndef CRYPTOCOST_HARNESS_H
#define CRYPTOCOST_HARNESS_H

#include <stdint.h>
#include <avr/pgmspace.h>

/* A known-answer test: returns 1 when the output equals the vector. */
struct mcu_kat {
	const char *name; /* in flash: declare with MCU_NAME */
	uint8_t (*run)(void);
};

/* One timed operation. */
struct mcu_op {
	const char *name;  /* in flash */
	uint16_t bytes;    /* input bytes for bulk operations, 0 otherwise */
	uint16_t state;    /* bytes of caller-held state the operation uses:
	                      context, key, input and output buffers (sizeof) */
	uint8_t inputs;    /* distinct inputs to time it on (>= 1); equal
	                      cycles on all of them is what constant time means
	                      on a cache-less core */
	void (*setup)(uint8_t input);   /* prepares input number i, untimed */
	void (*run)(void);              /* the timed operation */
	uint8_t (*check)(uint8_t input);/* 1 if the output is right; NULL: none */
	void (*probe)(void);            /* NULL, or prepares a shorter run of the
	                                   same code path (same functions, same
	                                   frames) for the interrupt-free stack
	                                   measurement, when rerunning the whole
	                                   operation would cost minutes */
};

/* Defined by each kernel's bench file. Both tables end with a zero entry
 * and live in flash. */
extern const char mcu_kernel[] PROGMEM;
extern const struct mcu_kat mcu_kats[] PROGMEM;
extern const struct mcu_op mcu_ops[] PROGMEM;

/* mcu_equal compares n bytes of RAM with n bytes of flash (vectors live in
 * flash to leave the 2 KiB of SRAM to the kernel). */
uint8_t mcu_equal_P(const uint8_t *ram, const uint8_t *flash, uint16_t n);

/* mcu_fill writes n bytes derived from seed: a deterministic, cheap input
 * generator for the timed runs (xorshift; not a secret source). */
void mcu_fill(uint8_t *out, uint16_t n, uint8_t seed);

/* MCU_NAME declares a name string in flash for the tables above. */
#define MCU_NAME(id, text) static const char id[] PROGMEM = text

#endif
