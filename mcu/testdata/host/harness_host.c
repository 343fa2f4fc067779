/*
 * harness_host.c: runs a kernel's bench file (its known-answer tests, then
 * every operation on every input, checked) outside the simulator: natively
 * with the host's gcc, or as Cortex-M4 code under qemu-arm's user mode
 * (-DHOST_ARM_LINUX: Linux system calls for output, no C library start-up),
 * where the stack of each operation is measured by painting too. mcu/pq_test.go
 * builds and runs it. Output, one line each:
 *
 *   host 1 kernel=NAME
 *   kat NAME pass|fail
 *   op NAME input=I check=pass|fail|none [iterations=N] [stack=N]
 *
 * (iterations: ML-DSA signing's loop count, on sign operations)
 *   end kats=N failed=N
 */
#include <stdint.h>
#include <string.h>
#include "harness.h"

/* ML-DSA's signing loop count, when the kernel has one */
extern uint16_t mldsa44_iterations __attribute__((weak));

#ifdef HOST_ARM_LINUX
static long sys3(long n, long a, long b, long c)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r7 __asm__("r7") = n;
	__asm__ volatile("svc 0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
	return r0;
}
static void out(const char *s, size_t n) { sys3(4, 1, (long)s, (long)n); } /* write(1, s, n) */
#else
#include <unistd.h>
static void out(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(1, s, n);
		if (w <= 0)
			return;
		s += w, n -= (size_t)w;
	}
}
#endif

static void put(const char *s) { out(s, strlen(s)); }

static void putu(unsigned long v)
{
	char b[24];
	int i = sizeof b;
	do
		b[--i] = (char)('0' + v % 10);
	while (v /= 10);
	out(b + i, sizeof b - i);
}

#ifdef HOST_ARM_LINUX
/* Stack painting below the caller's stack pointer: 256 KiB (the straightforward
 * ML-DSA needs about 50), inside the 8 MiB qemu-arm maps for the stack. */
#define PAINT_WORDS (64 * 1024)
#define PAINT 0xC5C5C5C5u
static unsigned long __attribute__((noinline)) measure(void (*fn)(void))
{
	/* volatile: a loop the compiler turned into a memset call would paint
	 * over that call's own frame */
	volatile uint32_t *sp, *p;
	__asm__ volatile("mov %0, sp" : "=r"(sp));
	for (p = sp - PAINT_WORDS; p < sp; p++)
		*p = PAINT;
	fn();
	for (p = sp - PAINT_WORDS; p < sp && *p == PAINT; p++)
		;
	return (unsigned long)((volatile char *)sp - (volatile char *)p);
}
#endif

uint8_t mcu_equal_P(const uint8_t *ram, const uint8_t *flash, uint16_t n) { return memcmp(ram, flash, n) == 0; }

void mcu_fill(uint8_t *o, uint16_t n, uint8_t seed)
{
	uint16_t x = 0x9e37 ^ ((uint16_t)seed << 8 | seed);
	while (n--) {
		x ^= x << 7;
		x ^= x >> 9;
		x ^= x << 8;
		*o++ = (uint8_t)x;
	}
}

int main(void)
{
	unsigned kats = 0, failed = 0;
	put("host 1 kernel=");
	put(mcu_kernel);
	put("\n");
	for (const struct mcu_kat *k = mcu_kats; k->run; k++) {
		uint8_t ok = k->run();
		kats++;
		failed += !ok;
		put("kat ");
		put(k->name);
		put(ok ? " pass\n" : " fail\n");
	}
	for (const struct mcu_op *op = mcu_ops; !failed && op->run; op++)
		for (uint8_t in = 0; in < op->inputs; in++) {
			op->setup(in);
#ifdef HOST_ARM_LINUX
			unsigned long stack = measure(op->run);
#else
			op->run();
#endif
			put("op ");
			put(op->name);
			put(" input=");
			putu(in);
			put(" check=");
			if (!op->check) {
				put("none");
			} else if (op->check(in)) {
				put("pass");
			} else {
				put("fail");
				failed++;
			}
			if (&mldsa44_iterations && strcmp(op->name, "sign") == 0) {
				put(" iterations=");
				putu(mldsa44_iterations);
			}
#ifdef HOST_ARM_LINUX
			put(" stack=");
			putu(stack);
#endif
			put("\n");
		}
	put("end kats=");
	putu(kats);
	put(" failed=");
	putu(failed);
	put("\n");
	return failed != 0;
}

#ifdef HOST_ARM_LINUX
void _start(void)
{
	sys3(1, main(), 0, 0); /* exit */
	for (;;)
		;
}
#endif
