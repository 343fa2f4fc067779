/* A known-answer test that fails: no number may be reported. */
#include "harness.h"

static uint8_t pass(void) { return 1; }
static uint8_t fail(void) { return 0; }
static void none(uint8_t input) { (void)input; }
static void quick(void) {}

const char mcu_kernel[] PROGMEM = "badkat";
MCU_NAME(n_pass, "passes");
MCU_NAME(n_fail, "fails");
const struct mcu_kat mcu_kats[] PROGMEM = {{n_pass, pass}, {n_fail, fail}, {0, 0}};
MCU_NAME(n_quick, "quick");
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_quick, 0, 0, 1, none, quick, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
