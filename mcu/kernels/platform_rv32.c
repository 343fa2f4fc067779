/*
 * platform_rv32.c: the harness's RISC-V side, run in QEMU's virt board
 * (qemu-system-riscv32 -machine virt -bios none) as a proxy for RV32IMAC
 * microcontrollers (GD32VF103, ESP32-C3 class).
 *
 * Counter: instret, the retired-instruction counter (RISC-V unprivileged
 * specification 20191213 §10.1, RDINSTRET and RDINSTRETH), read as 64 bits.
 * Under QEMU's -icount shift=0 it is the exact number of instructions
 * executed.
 * Nothing interrupts a measurement, so there are no overflow interrupts.
 *
 * Stack: full-descending, painted as on the other cores; a call's return
 * address is in ra, so a leaf that saves nothing uses 0 bytes.
 *
 * The firmware ends by writing to the virt board's SiFive test device at
 * 0x100000 (QEMU hw/misc/sifive_test.c): 0x5555 exits with status 0,
 * (1 << 16) | 0x3333 with status 1. Output goes to the board's NS16550A
 * UART at 0x10000000.
 */
#include <stdint.h>
#include "harness.h"
#include "platform.h"

#define PAINT 0xC5u
#define PAINT32 0xC5C5C5C5u

#define UART ((volatile uint8_t *)0x10000000u)
#define UART_THR 0
#define UART_LSR 5
#define LSR_THRE 0x20
#define TEST_DEVICE (*(volatile uint32_t *)0x100000u)

extern uint32_t __stack_top, __data_load, __data_start, __data_end, __bss_start, __bss_end;
int main(void);

void mcu_reset(void)
{
	uint32_t *src = &__data_load, *dst = &__data_start;
	while (dst < &__data_end)
		*dst++ = *src++;
	for (dst = &__bss_start; dst < &__bss_end;)
		*dst++ = 0;
	main();
	mcu_halt(1);
}

/* A trap (an illegal instruction, a misaligned or bad access) is reported
 * and ends the run instead of hanging until the timeout. */
void __attribute__((aligned(4), used)) mcu_trap(void)
{
	const char *s = "fault the processor took a trap\n";
	while (*s)
		mcu_putc(*s++);
	mcu_halt(1);
}

/* The entry point, at the start of RAM where QEMU's virt board jumps with
 * -bios none: the trap vector (mtvec, written with CSRRW: the assembler
 * wants the Zicsr extension named for the csrw alias), a stack, then C. */
__attribute__((naked, section(".entry"), used)) void _start(void)
{
	__asm__ volatile(
		"la t0, mcu_trap\n"
		".insn i 0x73, 1, x0, t0, 0x305\n" /* csrw mtvec, t0 */
		"la sp, __stack_top\n"
		"j mcu_reset\n");
}

void mcu_platform_init(void) {}

void mcu_putc(char c)
{
	while (!(UART[UART_LSR] & LSR_THRE))
		;
	UART[UART_THR] = (uint8_t)c;
}

void mcu_halt(uint8_t failed)
{
	TEST_DEVICE = failed ? (1u << 16) | 0x3333 : 0x5555;
	for (;;)
		;
}

static inline uint8_t *stack_pointer(void)
{
	uint8_t *sp;
	__asm__ volatile("mv %0, sp" : "=r"(sp));
	return sp;
}

uint32_t mcu_stack_room(void) { return stack_pointer() - (uint8_t *)&__bss_end; }

static inline uint64_t instret(void)
{
	uint32_t hi, lo, again;
	do {
		__asm__ volatile("rdinstreth %0" : "=r"(hi));
		__asm__ volatile("rdinstret %0" : "=r"(lo));
		__asm__ volatile("rdinstreth %0" : "=r"(again));
	} while (hi != again);
	return (uint64_t)hi << 32 | lo;
}

void __attribute__((noinline)) mcu_measure(void (*fn)(void), uint8_t timed, uint8_t calib, struct mcu_sample *s)
{
	uint8_t *top = stack_pointer();
	volatile uint32_t *w, *lo = &__bss_end, *hi = (volatile uint32_t *)top;
	uint8_t *p;
	uint64_t a, b;
	(void)timed;
	(void)calib;

	for (w = lo; w < hi; w++)
		*w = PAINT32;
	a = instret();
	mcu_trace_on();
	fn();
	mcu_trace_off();
	b = instret();

	for (w = lo; w < hi && *w == PAINT32; w++)
		;
	for (p = (uint8_t *)w; p < top && *p == PAINT; p++)
		;
	s->full = p == (uint8_t *)lo;
	s->stack = top - p;
	s->free = top - (uint8_t *)lo;
	s->count = b - a;
	s->isr_runs = 0;
}

/* No overflow to calibrate: any fixed work will do. */
void mcu_spin(void)
{
	uint32_t n = 1000;
	__asm__ volatile(
		"1: addi %0, %0, -1\n"
		"   bnez %0, 1b\n"
		: "+r"(n));
}
