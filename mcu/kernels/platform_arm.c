/*
 * platform_arm.c: the harness's Cortex-M side, run in QEMU on the boards
 * that stand for the parts: the Arm MPS2 FPGA images (AN385 Cortex-M3,
 * AN386 Cortex-M4, AN500 Cortex-M7) and the BBC micro:bit (nRF51822,
 * Cortex-M0). MCU_BOARD_MPS2 or MCU_BOARD_MICROBIT selects the UART.
 *
 * Counter: SysTick with CLKSOURCE = 1 (the processor clock; ARMv7-M ARM
 * B3.3, ARMv6-M ARM B3.3), reloaded from 0xFFFFFF and extended past its 24
 * bits by counting its exception. QEMU is not cycle-accurate, but run with
 * -icount shift=K it advances virtual time by exactly 2^K ns per guest
 * instruction, and SysTick counts virtual time at the board's clock (25 MHz
 * on MPS2, 16 MHz on the micro:bit), so a count of ticks is a count of
 * instructions: ticks ÷ (2^K ns × clock). cryptocost does that division
 * (with K chosen so there are more than two ticks per instruction and the
 * rounding is exact) and validates it on loops of known length.
 *
 * Stack: full-descending; the free SRAM between the end of .bss and the
 * stack pointer is painted, and the count is the bytes below the caller's
 * stack pointer that were written (a call's return address is in LR, so a
 * leaf that pushes nothing uses 0 bytes).
 *
 * The firmware ends with the semihosting call SYS_EXIT (Arm semihosting
 * specification, 0x18), whose reason code gives QEMU's exit status.
 */
#include <stdint.h>
#include "harness.h"
#include "platform.h"

#define REG(addr) (*(volatile uint32_t *)(addr))

/* SysTick and the System Control Block (ARMv7-M ARM B3.2.2, B3.3.2). */
#define SYST_CSR REG(0xE000E010)
#define SYST_RVR REG(0xE000E014)
#define SYST_CVR REG(0xE000E018)
#define SCB_ICSR REG(0xE000ED04)
#define ICSR_PENDSTSET (1u << 26)
#define ICSR_PENDSTCLR (1u << 25)

#define PAINT 0xC5u
#define PAINT32 0xC5C5C5C5u

extern uint32_t __stack_top, __data_load, __data_start, __data_end, __bss_start, __bss_end;
int main(void);

static volatile uint32_t wraps;
static const uint32_t period = 1u << 24; /* SysTick ticks per wrap: SYST_RVR + 1 */

void mcu_systick(void) { wraps++; }

static void put_fault(void);

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

static void mcu_fault(void)
{
	put_fault();
	mcu_halt(1);
}

/* The vector table (ARMv7-M ARM B1.5.3): the initial stack pointer, then
 * the exception handlers; SysTick is exception 15. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
	(void (*)(void))&__stack_top,
	mcu_reset,
	mcu_fault, /* NMI */
	mcu_fault, /* HardFault */
	mcu_fault, /* MemManage */
	mcu_fault, /* BusFault */
	mcu_fault, /* UsageFault */
	0, 0, 0, 0,
	mcu_fault, /* SVCall */
	mcu_fault, /* DebugMonitor */
	0,
	mcu_fault, /* PendSV */
	mcu_systick,
};

#if defined(MCU_BOARD_MPS2)
/* The CMSDK APB UART0 of the MPS2 FPGA images (AN385 §3.7; QEMU
 * hw/char/cmsdk-apb-uart.c): DATA, STATE (bit 0: TX buffer full), CTRL
 * (bit 0: TX enable), BAUDDIV (at least 16). */
#define UART 0x40004000u
static void uart_init(void)
{
	REG(UART + 0x10) = 16;
	REG(UART + 0x08) = 1;
}
void mcu_putc(char c)
{
	while (REG(UART + 0x04) & 1)
		;
	REG(UART + 0x00) = (uint8_t)c;
}
#elif defined(MCU_BOARD_MICROBIT)
/* The nRF51822's UART (nRF51 Series Reference Manual v3.0 §29): ENABLE = 4,
 * TASKS_STARTTX, then each byte to TXD and wait for EVENTS_TXDRDY. */
#define UART 0x40002000u
static void uart_init(void)
{
	REG(UART + 0x500) = 4;
	REG(UART + 0x008) = 1;
}
void mcu_putc(char c)
{
	REG(UART + 0x11C) = 0;
	REG(UART + 0x51C) = (uint8_t)c;
	while (!REG(UART + 0x11C))
		;
}
#else
#error "define MCU_BOARD_MPS2 or MCU_BOARD_MICROBIT"
#endif

static void put_fault(void)
{
	const char *s = "fault the processor took a fault exception\n";
	while (*s)
		mcu_putc(*s++);
}

void mcu_platform_init(void)
{
	uart_init();
	SYST_RVR = period - 1;
	SYST_CVR = 0;
	SYST_CSR = 7; /* ENABLE, TICKINT, CLKSOURCE = processor clock */
	__asm__ volatile("cpsie i" ::: "memory");
}

void mcu_halt(uint8_t failed)
{
	/* SYS_EXIT with ADP_Stopped_ApplicationExit (exit status 0) or
	 * ADP_Stopped_RunTimeErrorUnknown (status 1). */
	register uint32_t r0 __asm__("r0") = 0x18;
	register uint32_t r1 __asm__("r1") = failed ? 0x20024 : 0x20026;
	__asm__ volatile("bkpt 0xab" : : "r"(r0), "r"(r1) : "memory");
	for (;;)
		;
}

static inline uint8_t *stack_pointer(void)
{
	uint8_t *sp;
	__asm__ volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

uint32_t mcu_stack_room(void) { return stack_pointer() - (uint8_t *)&__bss_end; }

/*
 * mcu_measure paints, counts and scans; nothing but fn (and the profiler's
 * leaf markers) runs between painting and scanning. A BL writes no stack,
 * so the calls do not disturb the paint.
 */
void __attribute__((noinline)) mcu_measure(void (*fn)(void), uint8_t timed, uint8_t calib, struct mcu_sample *s)
{
	uint8_t *top = stack_pointer();
	volatile uint32_t *w, *lo = &__bss_end, *hi = (volatile uint32_t *)top;
	uint8_t *p;
	uint32_t a, b, n;

	__asm__ volatile("cpsid i" ::: "memory");
	for (w = lo; w < hi; w++)
		*w = PAINT32;
	/* Writing SYST_CVR clears it; it reloads from SYST_RVR (0xFFFFFF,
	 * never changed) on the next tick. mcu_spin is long enough to cross
	 * one wrap: calib needs nothing more. (Shortening the period for it
	 * would be cheaper, but QEMU 7.2's micro:bit SysTick then counts the
	 * later wraps one short period long.) */
	(void)calib;
	SYST_CVR = 0;
	SCB_ICSR = ICSR_PENDSTCLR;
	wraps = 0;
	if (timed)
		__asm__ volatile("cpsie i" ::: "memory");
	a = SYST_CVR;
	mcu_trace_on();
	fn();
	mcu_trace_off();
	/* Interrupts off before the reading: a wrap after it must not be
	 * counted by the handler (the straddling calibration loops caught
	 * that order wrong). */
	__asm__ volatile("cpsid i" ::: "memory");
	b = SYST_CVR;
	n = wraps;
	/* A wrap not yet serviced is pending; a large reading (the counter
	 * counts down from the reload value) says it came before it. */
	if ((SCB_ICSR & ICSR_PENDSTSET) && b >= period / 2)
		n++;
	SCB_ICSR = ICSR_PENDSTCLR;

	for (w = lo; w < hi && *w == PAINT32; w++)
		;
	for (p = (uint8_t *)w; p < top && *p == PAINT; p++)
		;
	s->full = p == (uint8_t *)lo;
	s->stack = top - p;
	s->free = top - (uint8_t *)lo;
	s->count = (uint64_t)n * period + a - b;
	s->isr_runs = timed ? wraps : 0;
	__asm__ volatile("cpsie i" ::: "memory");
}

/* 2 850 000 iterations of SUBS and BNE: 5.7 million instructions, 18.2
 * million ticks at 25 MHz and 128 ns per instruction (MPS2), 23.3 million
 * at 16 MHz and 256 ns (micro:bit): one wrap of 2^24 ticks, and less than
 * half a period after it, so that the pending flag counts it when the
 * interrupt is off. */
void mcu_spin(void)
{
	uint32_t n = 2850000;
	__asm__ volatile(
		"1: subs %0, %0, #1\n"
		"   bne 1b\n"
		: "+l"(n) : : "cc");
}
