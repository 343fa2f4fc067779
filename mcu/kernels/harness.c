/*
 * harness.c: runs one kernel's known-answer tests, then times each of its
 * operations and measures their stack, printing the results over the UART.
 *
 * Cycles: Timer1 counts CPU clocks (prescaler 1: TCCR1B.CS10, ATmega328P
 * datasheet DS40002061B §15.11.2) and its overflow interrupt extends the
 * 16-bit count to 48 bits. Timer1 is reset just before each operation, so
 * an operation shorter than 65 536 cycles runs with no interrupt at all.
 * The fixed cost of the measurement itself (reading the timer, the indirect
 * call and return) is measured on an empty operation and printed as
 * "calib"; cryptocost subtracts it.
 *
 * Every overflow interrupt adds its handler's cycles to the operation it
 * interrupts; the harness measures that cost once ("isr", see isr_cost) and
 * prints how many times the handler ran, so cryptocost can subtract it:
 *
 *   cycles = measured − empty − isr_runs × isr
 *
 * Stack: before each operation the free SRAM between the end of .bss/.noinit
 * (__heap_start; nothing here uses the heap) and the stack pointer is
 * painted with PAINT; afterwards the lowest byte that no longer holds PAINT
 * marks the deepest point the stack reached. The count includes the 2-byte
 * return address of the call. Painting sees bytes written, not bytes
 * reserved: a frame that is never written is invisible, and a deepest byte
 * that happens to be written with 0xC5 would go unseen. If the painted
 * region is all overwritten the stack reached .bss ("full"). If the timer
 * overflow interrupt ran during an operation, its frame may sit below the
 * operation's deepest point, so that stack figure is not printed and the
 * operation (or its shorter probe, see harness.h) is run once more with
 * interrupts off just for its stack.
 *
 * Output, one line each (parsed by cryptocost's mcu package; lines stay
 * under simavr's 256-character UART line buffer):
 *
 *   cryptocost-mcu 1 kernel=NAME sram-free=N
 *   calib empty=0xC isr=N stack=N
 *   kat NAME pass|fail
 *   op NAME input=I bytes=B state=S cycles=0xC isr=N stack=N|-|full free=F check=pass|fail|none
 *   stack NAME N|full [probe]
 *   end kats=N failed=N
 *
 * The firmware then sleeps with interrupts off, which ends simavr.
 */
#include <stdint.h>
#include <string.h>
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/pgmspace.h>
#include <avr/sleep.h>
#include <util/delay_basic.h>

#include "harness.h"

/* PAINT is the stack paint byte: not a plausible return-address high byte
 * (flash word addresses on a 32 KiB part are below 0x4000). */
#define PAINT 0xC5

extern uint8_t __heap_start; /* end of .bss and .noinit (avr-libc linker script) */

static volatile uint32_t overflows;

ISR(TIMER1_OVF_vect) { overflows++; }

/* ---- UART: 2 Mbit/s (U2X0, UBRR0 = 0 at 16 MHz; DS40002061B Table 19-1),
 * fast enough that printing costs little simulated time. */

static void uart_init(void)
{
	UBRR0 = 0;
	UCSR0A = _BV(U2X0);
	UCSR0B = _BV(TXEN0);
	UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
}

static void put(char c)
{
	loop_until_bit_is_set(UCSR0A, UDRE0);
	UDR0 = c;
}

static void put_P(const char *s)
{
	char c;
	while ((c = pgm_read_byte(s++)) != 0)
		put(c);
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
		put(buf[--i]);
}

static void put_u16(uint16_t v) { put_u32(v); }

static void put_hex48(uint32_t hi, uint16_t lo)
{
	static const char digits[] PROGMEM = "0123456789abcdef";
	uint8_t b[6] = {hi >> 24, hi >> 16, hi >> 8, hi, lo >> 8, lo};
	uint8_t i = 0, started = 0;
	PUT("0x");
	for (i = 0; i < 12; i++) {
		uint8_t nib = (i & 1) ? b[i / 2] & 15 : b[i / 2] >> 4;
		if (nib || started || i == 11) {
			put(pgm_read_byte(&digits[nib]));
			started = 1;
		}
	}
}

/* ---- measurement */

/* One measurement. */
struct sample {
	uint32_t overflows; /* cycles = overflows·2^16 + ticks, ISR time included */
	uint16_t ticks;
	uint32_t isr_runs;  /* times the overflow interrupt ran during it */
	uint16_t stack;     /* bytes below the caller's stack pointer, incl. return address */
	uint16_t free;      /* painted bytes available to the operation */
	uint8_t full;       /* the stack reached __heap_start: it may have overflowed */
};

/*
 * measure paints the free SRAM, runs fn with Timer1 started at preset (the
 * overflow interrupt enabled when timed), and scans. It must not call
 * anything but fn between painting and scanning: a call would write its
 * return address into the painted region. Its own frame is set up in the
 * prologue, above SP.
 */
static void __attribute__((noinline)) measure(void (*fn)(void), uint8_t timed, uint16_t preset, struct sample *s)
{
	uint8_t *p = &__heap_start;
	uint8_t *top = (uint8_t *)SP; /* SP addresses the next free byte */
	uint16_t t0, t1;
	uint32_t o, runs;

	cli(); /* no interrupt frame may land in the paint */
	TCCR1B = 0;
	while (p <= top)
		*p++ = PAINT;
	TCCR1B = _BV(CS10); /* clock/1 */
	/* Set the count after starting the clock: simavr 1.6 drops a TCNT1
	 * written while the timer is stopped (real parts keep it either way). */
	TCNT1 = preset;
	TIFR1 = _BV(TOV1); /* writing one clears the flag */
	overflows = 0;
	if (timed)
		sei();
	t0 = TCNT1;
	fn();
	cli();
	t1 = TCNT1;
	o = runs = overflows;
	/* An overflow not yet serviced is pending in TOV1; a small t1 says it
	 * happened before this reading. */
	if ((TIFR1 & _BV(TOV1)) && t1 < 0x8000)
		o++;

	p = &__heap_start;
	while (p <= top && *p == PAINT)
		p++;
	s->full = p == &__heap_start;
	s->stack = top - p + 1;
	s->free = top - &__heap_start + 1;
	/* cycles = o·2^16 + t1 − t0, borrowing from o when t1 < t0 */
	if (t1 < t0)
		o--;
	s->overflows = o;
	s->ticks = t1 - t0;
	s->isr_runs = runs;
	sei();
}

static void empty(void) {}

/* A fixed busy loop of 4 cycles per count (avr-libc's _delay_loop_2). */
static void spin(void) { _delay_loop_2(1000); }

/*
 * isr_cost measures what one overflow interrupt adds to a timed operation
 * (response, vector jump, handler, reti): spin with Timer1 preset to
 * overflow halfway through, once with the interrupt enabled and once
 * with it disabled (the overflow is then counted from the pending flag).
 */
static uint16_t isr_cost(void)
{
	struct sample with, without;
	measure(spin, 1, 0x10000 - 2000, &with);
	measure(spin, 0, 0x10000 - 2000, &without);
	return with.ticks - without.ticks;
}

static void put_stack(const struct sample *s)
{
	if (s->full)
		PUT("full");
	else
		put_u16(s->stack);
}

int main(void)
{
	struct sample s;
	uint8_t kats = 0, failed = 0;

	uart_init();
	TCCR1A = 0;
	TIMSK1 = _BV(TOIE1);
	sei();

	PUT("cryptocost-mcu 1 kernel=");
	put_P(mcu_kernel);
	PUT(" sram-free=");
	put_u16((uint8_t *)SP - &__heap_start + 1);
	put('\n');

	measure(empty, 1, 0, &s);
	PUT("calib empty=");
	put_hex48(s.overflows, s.ticks);
	PUT(" isr=");
	put_u16(isr_cost());
	PUT(" stack=");
	put_stack(&s);
	put('\n');

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
		put(' ');
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
		for (uint8_t in = 0; in < op.inputs; in++) {
			op.setup(in);
			measure(op.run, 1, 0, &s);
			clean |= s.isr_runs == 0;
			PUT("op ");
			put_P(op.name);
			PUT(" input=");
			put_u16(in);
			PUT(" bytes=");
			put_u16(op.bytes);
			PUT(" state=");
			put_u16(op.state);
			PUT(" cycles=");
			put_hex48(s.overflows, s.ticks);
			PUT(" isr=");
			put_u32(s.isr_runs);
			PUT(" stack=");
			if (s.isr_runs == 0 || s.full)
				put_stack(&s);
			else
				put('-');
			PUT(" free=");
			put_u16(s.free);
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
			put(' ');
			put_stack(&s);
			if (op.probe)
				PUT(" probe");
			put('\n');
			if (!op.probe && op.check && !op.check(0)) {
				PUT("kat ");
				put_P(op.name);
				PUT("-rerun fail\n");
				failed++;
			}
		}
	}

	PUT("end kats=");
	put_u16(kats);
	PUT(" failed=");
	put_u16(failed);
	put('\n');
	loop_until_bit_is_set(UCSR0A, TXC0); /* let the last byte leave */

	cli();
	set_sleep_mode(SLEEP_MODE_PWR_DOWN);
	sleep_enable();
	sleep_cpu(); /* interrupts off: simavr stops here */
	for (;;)
		;
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
