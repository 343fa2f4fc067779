/* 20 000 bytes of zeroed data: more than the micro:bit's 16 KiB of SRAM. */
#include "harness.h"

static volatile uint8_t big[20000];

static uint8_t kat(void) { return 1; }
static void none(uint8_t input) { (void)input; }
static void use(void) { big[big[0]] = 1; }

const char mcu_kernel[] PROGMEM = "bigbss32";
MCU_NAME(n_kat, "trivial");
const struct mcu_kat mcu_kats[] PROGMEM = {{n_kat, kat}, {0, 0}};
MCU_NAME(n_use, "use");
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_use, 0, 0, 1, none, use, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
