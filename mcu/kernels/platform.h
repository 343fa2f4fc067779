/*
 * platform.h: what each target's platform file (platform_avr.c,
 * platform_arm.c, platform_rv32.c) gives the portable harness (harness.c):
 * start-up, a UART, a counter read around an operation with its stack
 * painted, and a way to stop the simulator.
 */
#ifndef CRYPTOCOST_PLATFORM_H
#define CRYPTOCOST_PLATFORM_H

#include <stdint.h>

/* One measurement of one call. */
struct mcu_sample {
	/* The counter's raw count over the call: CPU cycles (AVR Timer1),
	 * ticks of a board timer driven by QEMU's instruction count
	 * (Cortex-M SysTick), or retired instructions (RISC-V minstret).
	 * Interrupts that extend the counter are included. */
	uint64_t count;
	uint32_t isr_runs;  /* counter-overflow interrupts during the call */
	uint32_t stack;     /* bytes below the caller's stack pointer */
	uint32_t free;      /* painted bytes available to the call */
	uint8_t full;       /* the stack reached the end of .bss */
};

/* Sets up the UART and the counter. */
void mcu_platform_init(void);

/* Writes one byte to the UART, waiting while it is busy. */
void mcu_putc(char c);

/* Stops the simulator once the UART has sent everything; failed says a
 * known-answer test failed (it sets the exit status where there is one). */
void mcu_halt(uint8_t failed) __attribute__((noreturn));

/*
 * mcu_measure paints the free stack, runs fn once with the counter running
 * and scans the paint. timed: counter-overflow interrupts enabled (0: all
 * interrupts off, for a stack measurement free of interrupt frames; an
 * overflow is then counted from the pending flag, at most one). calib:
 * arrange the counter so that mcu_spin crosses exactly one overflow, for
 * measuring the overflow interrupt's own cost (on the AVR by presetting
 * Timer1; the Cortex-M spin is long enough by itself). Between mcu_trace_on and
 * mcu_trace_off (called right around fn) nothing but fn runs.
 */
void mcu_measure(void (*fn)(void), uint8_t timed, uint8_t calib, struct mcu_sample *s);

/* A fixed busy loop that, measured with calib set, crosses one overflow. */
void mcu_spin(void);

/* Markers around the measured call, for the instruction profiler (a QEMU
 * plugin that counts what runs between them). Leaf functions that touch no
 * stack, defined in harness.c. */
void mcu_trace_on(void);
void mcu_trace_off(void);

#endif
