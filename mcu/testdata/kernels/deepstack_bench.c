/* An operation whose stack runs 8 bytes into .bss: a frame sized at run
 * time to reach past the end of .bss, every byte of it written, as a real
 * overflow writes what it uses. (Painting sees written bytes, not reserved
 * ones: a frame that is never written is invisible to it.) */
#include "harness.h"

static uint8_t kat(void) { return 1; }
static void none(uint8_t input) { (void)input; }
static void deep(void)
{
	uint32_t n = mcu_stack_room() + 8;
	volatile uint8_t frame[n];
	for (uint32_t i = 0; i < n; i++)
		frame[i] = 0x5a;
}
static void shallow(void)
{
	volatile uint8_t frame[16];
	for (uint8_t i = 0; i < 16; i++)
		frame[i] = 0x5a;
}

const char mcu_kernel[] PROGMEM = "deepstack";
MCU_NAME(n_kat, "trivial");
const struct mcu_kat mcu_kats[] PROGMEM = {{n_kat, kat}, {0, 0}};
MCU_NAME(n_shallow, "shallow");
MCU_NAME(n_deep, "deep");
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_shallow, 0, 0, 1, none, shallow, 0, 0},
	{n_deep, 0, 0, 1, none, deep, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
