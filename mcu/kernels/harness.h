/*
 * harness.h: what a kernel's bench file gives the cryptocost MCU harness.
 *
 * A firmware image is the harness (harness.c and the target's platform file,
 * platform_avr.c, platform_arm.c or platform_rv32.c), one kernel (the
 * algorithm, e.g. aes.c) and that kernel's bench file (e.g. aes_bench.c:
 * known-answer tests and timed operations). The harness runs every
 * known-answer test first, then times each operation with the target's
 * counter and measures its stack by painting; it prints one line per result
 * over the UART (the line format is documented in harness.c and parsed by
 * cryptocost's mcu package).
 *
 * The same bench file builds for every target: constants in flash are
 * declared PROGMEM and read with pgm_read_byte or memcpy_P as avr-libc
 * names them; off the AVR those are plain reads (compat/avr/pgmspace.h).
 * Remember that int is 16 bits on the AVR and 32 bits elsewhere.
 *
 * Secrets. An operation that handles a secret — a key schedule, encryption
 * or decryption under a key, a MAC, a signature, a scalar multiplication, a
 * private-key operation — declares inputs = 8 (MCU_SECRETS) and its setup(i)
 * loads secret number i: a different key, scalar or nonce for each i, not
 * only a different message. cryptocost reports the spread of cycles (or
 * instructions) over the eight as the operation's timing leak: "constant
 * time (0 cycles spread over 8 secrets)" or "leaks: ...". Operations on
 * public data only (hashing, verification) may use fewer inputs.
 */
#ifndef CRYPTOCOST_HARNESS_H
#define CRYPTOCOST_HARNESS_H

#include <stdint.h>
#include <avr/pgmspace.h>

/* The number of secrets a secret-handling operation is timed on. */
#define MCU_SECRETS 8

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
	uint8_t inputs;    /* distinct inputs to time it on (>= 1); for an
	                      operation on a secret, MCU_SECRETS different
	                      secrets. Equal cycles on all of them is what
	                      constant time means on a cache-less core */
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
 * flash to leave the SRAM to the kernel). */
uint8_t mcu_equal_P(const uint8_t *ram, const uint8_t *flash, uint16_t n);

/* mcu_fill writes n bytes derived from seed: a deterministic, cheap input
 * generator for the timed runs (xorshift; not a secret source). */
void mcu_fill(uint8_t *out, uint16_t n, uint8_t seed);

/* mcu_stack_room is the number of bytes between the end of .bss and the
 * caller's stack pointer: what the caller's callees may still use. */
uint32_t mcu_stack_room(void);

/* MCU_NAME declares a name string in flash for the tables above. */
#define MCU_NAME(id, text) static const char id[] PROGMEM = text

#endif
