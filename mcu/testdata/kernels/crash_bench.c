/* An operation that executes an undefined instruction (__builtin_trap: UDF
 * on a Cortex-M, UNIMP on RISC-V): the platform's fault handler must report
 * it and stop the simulator. */
#include "harness.h"

static uint8_t kat(void) { return 1; }
static void none(uint8_t input) { (void)input; }
static void quick(void) {}
static void crash(void) { __builtin_trap(); }

const char mcu_kernel[] PROGMEM = "crash";
MCU_NAME(n_kat, "trivial");
const struct mcu_kat mcu_kats[] PROGMEM = {{n_kat, kat}, {0, 0}};
MCU_NAME(n_quick, "quick");
MCU_NAME(n_crash, "crash");
const struct mcu_op mcu_ops[] PROGMEM = {
	{n_quick, 0, 0, 1, none, quick, 0, 0},
	{n_crash, 0, 0, 1, none, crash, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0},
};
