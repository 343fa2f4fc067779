/* 40 000 bytes of constants: more than the ATmega328P's 32 KiB of flash. */
#include "harness.h"

const uint8_t table1[20000] PROGMEM = {1};
const uint8_t table2[20000] PROGMEM = {2};
static volatile uint8_t sink;

static uint8_t kat(void) { return 1; }
static void none(uint8_t input) { (void)input; }
static void use(void) { sink = pgm_read_byte(&table1[sink]) + pgm_read_byte(&table2[sink]); }

const char mcu_kernel[] PROGMEM = "bigflash";
MCU_NAME(n_kat, "trivial");
const struct mcu_kat mcu_kats[] PROGMEM = {{n_kat, kat}, {0, 0}};
MCU_NAME(n_use, "use");
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_use, 0, 0, 1, none, use, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
