/*
 * platform_avr.c: the harness's AVR side (ATmega328P, ATmega2560), run in
 * simavr.
 *
 * Counter: Timer1 counts CPU clocks (prescaler 1: TCCR1B.CS10, ATmega328P
 * datasheet DS40002061B §15.11.2; the ATmega2560's Timer1 is the same,
 * DS2549 §17.11) and its overflow interrupt extends the 16-bit count to 48
 * bits. Timer1 is reset just before each operation, so an operation shorter
 * than 65 536 cycles runs with no interrupt at all. simavr executes every
 * instruction with the cycle count of the AVR Instruction Set Manual, so the
 * count is the part's exact cycle count.
 *
 * Stack: the free SRAM between the end of .bss/.noinit (__heap_start;
 * nothing here uses the heap) and the stack pointer is painted with PAINT.
 * The count includes the return address of the call (2 bytes on a part with
 * a 16-bit program counter, 3 on the ATmega2560). If the painted region is
 * all overwritten the stack reached .bss ("full").
 *
 * The firmware ends by sleeping with interrupts off, which ends simavr.
 */
#include <stdint.h>
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <util/delay_basic.h>

#include "harness.h"
#include "platform.h"

/* PAINT is the stack paint byte: not a plausible return-address high byte
 * (flash word addresses on these parts are below 0x20000, so the byte above
 * the low one is at most 0x01 on the ATmega2560 and below 0x40 on the
 * ATmega328P). */
#define PAINT 0xC5

extern uint8_t __heap_start; /* end of .bss and .noinit (avr-libc linker script) */

static volatile uint32_t overflows;

ISR(TIMER1_OVF_vect) { overflows++; }

/* UART0 at 2 Mbit/s (U2X0, UBRR0 = 0 at 16 MHz; DS40002061B Table 19-1),
 * fast enough that printing costs little simulated time. */
void mcu_platform_init(void)
{
	UBRR0 = 0;
	UCSR0A = _BV(U2X0);
	UCSR0B = _BV(TXEN0);
	UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
	TCCR1A = 0;
	TIMSK1 = _BV(TOIE1);
	sei();
}

void mcu_putc(char c)
{
	loop_until_bit_is_set(UCSR0A, UDRE0);
	UDR0 = c;
}

void mcu_halt(uint8_t failed)
{
	(void)failed; /* simavr has no exit status: the end line says it */
	loop_until_bit_is_set(UCSR0A, TXC0); /* let the last byte leave */
	cli();
	set_sleep_mode(SLEEP_MODE_PWR_DOWN);
	sleep_enable();
	sleep_cpu(); /* interrupts off: simavr stops here */
	for (;;)
		;
}

uint32_t mcu_stack_room(void) { return (uint8_t *)SP - &__heap_start + 1; }

/*
 * mcu_measure paints the free SRAM, runs fn with Timer1 started (preset so
 * that mcu_spin crosses the overflow when calib is set), and scans. It must
 * not call anything but fn between painting and scanning: a call would
 * write its return address into the painted region. Its own frame is set up
 * in the prologue, above SP.
 */
void __attribute__((noinline)) mcu_measure(void (*fn)(void), uint8_t timed, uint8_t calib, struct mcu_sample *s)
{
	uint8_t *p = &__heap_start;
	uint8_t *top = (uint8_t *)SP; /* SP addresses the next free byte */
	uint16_t t0, t1, preset = calib ? 0x10000 - 2000 : 0;
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
	s->count = (uint64_t)o << 16 | (uint16_t)(t1 - t0);
	s->isr_runs = runs;
	sei();
}

/* A fixed busy loop of 4 cycles per count (avr-libc's _delay_loop_2): 4000
 * cycles, across the overflow preset 2000 cycles ahead. */
void mcu_spin(void) { _delay_loop_2(1000); }
