/*
 * calib_bench.c: the harness's own check. Each operation is a function
 * from calib.S whose cycle count and stack frame cryptocost's tests derive
 * from the disassembly; this kernel has no known-answer test of its own.
 */
#include "harness.h"

void calib_loop_10(void);
void calib_loop_1000(void);
void calib_loop_16380(void);
void calib_loop_16381(void);
void calib_loop_16382(void);
void calib_loop_16383(void);
void calib_loop_16384(void);
void calib_loop_16385(void);
void calib_loop_50000(void);
void calib_loop_nested(void);
void calib_frame_20(void);
void calib_frame_300(void);

static void none(uint8_t input) { (void)input; }

const char mcu_kernel[] PROGMEM = "calibration";

const struct mcu_kat mcu_kats[] PROGMEM = {{0, 0}};

#define OP(fn) {n_##fn, 0, 0, 1, none, fn, 0, 0}
MCU_NAME(n_calib_loop_10, "calib_loop_10");
MCU_NAME(n_calib_loop_1000, "calib_loop_1000");
MCU_NAME(n_calib_loop_16380, "calib_loop_16380");
MCU_NAME(n_calib_loop_16381, "calib_loop_16381");
MCU_NAME(n_calib_loop_16382, "calib_loop_16382");
MCU_NAME(n_calib_loop_16383, "calib_loop_16383");
MCU_NAME(n_calib_loop_16384, "calib_loop_16384");
MCU_NAME(n_calib_loop_16385, "calib_loop_16385");
MCU_NAME(n_calib_loop_50000, "calib_loop_50000");
MCU_NAME(n_calib_loop_nested, "calib_loop_nested");
MCU_NAME(n_calib_frame_20, "calib_frame_20");
MCU_NAME(n_calib_frame_300, "calib_frame_300");

const struct mcu_op mcu_ops[] PROGMEM = {
	OP(calib_loop_10),
	OP(calib_loop_1000),
	OP(calib_loop_16380),
	OP(calib_loop_16381),
	OP(calib_loop_16382),
	OP(calib_loop_16383),
	OP(calib_loop_16384),
	OP(calib_loop_16385),
	OP(calib_loop_50000),
	OP(calib_loop_nested),
	OP(calib_frame_20),
	OP(calib_frame_300),
	{0, 0, 0, 0, 0, 0, 0, 0},
};
