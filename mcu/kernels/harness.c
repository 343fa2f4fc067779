/*
 * harness.c: runs one kernel's known-answer tests, then times each of its
 * operations and measures their stack, printing the results over the UART.
 * What is target-specific — start-up, UART, counter, stack painting, how the
 * simulator is stopped — is in the platform file (platform.h); this file is
 * the same for every target.
 *
 * Counting: each operation runs once per input inside mcu_measure, which
 * reads the target's counter before and after. The fixed cost of the
 * measurement itself (reading the counter, the indirect call and return) is
 * measured on an empty operation ("calib empty"), and what one
 * counter-overflow interrupt adds is measured by running a fixed loop across
 * one overflow with and without the interrupt ("isr-with", "isr-without").
 * cryptocost converts each raw count to cycles or instructions and
 * subtracts:
 *
 *   net = count − empty − isr_runs × (isr-with − isr-without)
 *
 * Stack: the platform paints the free SRAM between the end of .bss and the
 * stack pointer before the call and finds the deepest byte written after it.
 * Painting sees bytes written, not bytes reserved. If an overflow interrupt
 * ran during an operation its frame may sit below the operation's deepest
 * point, so that stack figure is not printed and the operation (or its
 * shorter probe, see harness.h) is run once more with interrupts off just
 * for its stack.
 *
 * Output, one line each (parsed by cryptocost's mcu package; lines stay
 * under simavr's 256-character UART line buffer):
 *
 *   cryptocost-mcu 2 kernel=NAME sram-free=N
 *   calib empty=0xC isr-with=0xC isr-without=0xC stack=N
 *   kat NAME pass|fail
 *   op NAME input=I inputs=N bytes=B state=S count=0xC isr=N stack=N|-|full free=F seq=Q check=pass|fail|none
 *   stack NAME N|full [probe]
 *   end kats=N failed=N
 *
 * count values are the counter's raw counts in hexadecimal. inputs is how
 * many inputs the bench file declares (the image may be built to time fewer:
 * MCU_MAX_INPUTS). seq numbers the measurements in the order they ran, from
 * 0: the calibration's empty call, its run with the interrupt and without,
 * then each operation's runs and stack reruns; the instruction profiler
 * numbers its windows the same way.
 */
#include <stdint.h>
#include <string.h>
#include <avr/pgmspace.h>

#include "harness.h"
#include "platform.h"

/* MCU_MAX_INPUTS caps the inputs each operation is timed on: the tests
 * build images that time one or two inputs where the command line times
 * all eight secrets. */
#ifndef MCU_MAX_INPUTS
#define MCU_MAX_INPUTS 255
#endif

static uint16_t seq; /* the number of the next measurement */

static void measure(void (*fn)(void), uint8_t timed, uint8_t calib, struct mcu_sample *s)
{
	mcu_measure(fn, timed, calib, s);
	seq++;
}

/* The profiler's markers: empty leaf functions, never inlined, whose first
 * instruction the profiler watches for. */
void __attribute__((noinline, used)) mcu_trace_on(void) { __asm__ volatile(""); }
void __attribute__((noinline, used)) mcu_trace_off(void) { __asm__ volatile(""); }

static void put_P(const char *s)
{
	char c;
	while ((c = pgm_read_byte(s++)) != 0)
		mcu_putc(c);
}

#define PUT(s) put_P(PSTR(s))

static void put_u32(uint32_t v)
{
	char buf[11];
	uint8_t i = 0;
	do {
		buf[i++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (i)
		mcu_putc(buf[--i]);
}

static void put_hex(uint64_t v)
{
	static const char digits[] PROGMEM = "0123456789abcdef";
	uint8_t i, started = 0;
	PUT("0x");
	for (i = 0; i < 16; i++) {
		uint8_t nib = (uint8_t)(v >> (60 - 4 * i)) & 15;
		if (nib || started || i == 15) {
			mcu_putc(pgm_read_byte(&digits[nib]));
			started = 1;
		}
	}
}

static void empty(void) {}

static void put_stack(const struct mcu_sample *s)
{
	if (s->full)
		PUT("full");
	else
		put_u32(s->stack);
}

int main(void)
{
	struct mcu_sample s, with, without;
	uint8_t kats = 0, failed = 0;

	mcu_platform_init();

	PUT("cryptocost-mcu 2 kernel=");
	put_P(mcu_kernel);
	PUT(" sram-free=");
	put_u32(mcu_stack_room());
	mcu_putc('\n');

	measure(empty, 1, 0, &s);
	measure(mcu_spin, 1, 1, &with);
	measure(mcu_spin, 0, 1, &without);
	PUT("calib empty=");
	put_hex(s.count);
	PUT(" isr-with=");
	put_hex(with.count);
	PUT(" isr-without=");
	put_hex(without.count);
	PUT(" stack=");
	put_stack(&s);
	mcu_putc('\n');

	for (uint8_t i = 0;; i++) {
		struct mcu_kat k;
		memcpy_P(&k, &mcu_kats[i], sizeof k);
		if (!k.run)
			break;
		uint8_t ok = k.run();
		kats++;
		failed += !ok;
		PUT("kat ");
		put_P(k.name);
		mcu_putc(' ');
		if (ok)
			PUT("pass\n");
		else
			PUT("fail\n");
	}

	for (uint8_t i = 0; !failed; i++) {
		struct mcu_op op;
		uint8_t clean = 0;
		memcpy_P(&op, &mcu_ops[i], sizeof op);
		if (!op.run)
			break;
		uint8_t runs = op.inputs < MCU_MAX_INPUTS ? op.inputs : MCU_MAX_INPUTS;
		for (uint8_t in = 0; in < runs; in++) {
			uint16_t at = seq;
			op.setup(in);
			measure(op.run, 1, 0, &s);
			clean |= s.isr_runs == 0;
			PUT("op ");
			put_P(op.name);
			PUT(" input=");
			put_u32(in);
			PUT(" inputs=");
			put_u32(op.inputs);
			PUT(" bytes=");
			put_u32(op.bytes);
			PUT(" state=");
			put_u32(op.state);
			PUT(" count=");
			put_hex(s.count);
			PUT(" isr=");
			put_u32(s.isr_runs);
			PUT(" stack=");
			if (s.isr_runs == 0 || s.full)
				put_stack(&s);
			else
				mcu_putc('-');
			PUT(" free=");
			put_u32(s.free);
			PUT(" seq=");
			put_u32(at);
			PUT(" check=");
			if (!op.check) {
				PUT("none\n");
			} else if (op.check(in)) {
				PUT("pass\n");
			} else {
				PUT("fail\n");
				failed++;
			}
		}
		if (!clean) {
			/* Every timed run was interrupted: measure the stack once
			 * more with interrupts off, on the probe if there is one. */
			if (op.probe)
				op.probe();
			else
				op.setup(0);
			measure(op.run, 0, 0, &s);
			PUT("stack ");
			put_P(op.name);
			mcu_putc(' ');
			put_stack(&s);
			if (op.probe)
				PUT(" probe");
			mcu_putc('\n');
			if (!op.probe && op.check && !op.check(0)) {
				PUT("kat ");
				put_P(op.name);
				PUT("-rerun fail\n");
				failed++;
			}
		}
	}

	PUT("end kats=");
	put_u32(kats);
	PUT(" failed=");
	put_u32(failed);
	mcu_putc('\n');
	mcu_halt(failed);
}

uint8_t mcu_equal_P(const uint8_t *ram, const uint8_t *flash, uint16_t n)
{
	uint8_t diff = 0;
	while (n--)
		diff |= *ram++ ^ pgm_read_byte(flash++);
	return diff == 0;
}

void mcu_fill(uint8_t *out, uint16_t n, uint8_t seed)
{
	/* xorshift16 (Marsaglia 2003, shifts 7, 9, 8) */
	uint16_t x = 0x9e37 ^ ((uint16_t)seed << 8 | seed);
	while (n--) {
		x ^= x << 7;
		x ^= x >> 9;
		x ^= x << 8;
		*out++ = x;
	}
}
