/* An operation that never returns: the simulation must be killed. */
#include "harness.h"

static uint8_t kat(void) { return 1; }
static void none(uint8_t input) { (void)input; }
static void quick(void) {}
static void spin(void)
{
	for (;;)
		__asm__ volatile("nop");
}

const char mcu_kernel[] PROGMEM = "hang";
MCU_NAME(n_kat, "trivial");
const struct mcu_kat mcu_kats[] PROGMEM = {{n_kat, kat}, {0, 0}};
MCU_NAME(n_quick, "quick");
MCU_NAME(n_spin, "spin");
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_quick, 0, 0, 1, none, quick, 0, 0},
	{n_spin, 0, 0, 1, none, spin, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
