/*
 * calib_bench.c: the harness's own check. Each operation is a function
 * from calib.S whose cycle or instruction count and stack frame
 * cryptocost's tests derive from the disassembly; this kernel has no
 * known-answer test of its own.
 */
#include "harness.h"

static void none(uint8_t input) { (void)input; }

const char mcu_kernel[] PROGMEM = "calibration";

const struct mcu_kat mcu_kats[] PROGMEM = {{0, 0}};

#define DECLARE(fn) void fn(void); MCU_NAME(n_##fn, #fn);
#define OP(fn) {n_##fn, 0, 0, 1, none, fn, 0, 0}

#if defined(__AVR__)
#define CALIB(X) X(calib_loop_10) X(calib_loop_1000) X(calib_loop_16380) X(calib_loop_16381) \
	X(calib_loop_16382) X(calib_loop_16383) X(calib_loop_16384) X(calib_loop_16385) X(calib_loop_50000) \
	X(calib_loop_nested) X(calib_frame_20) X(calib_frame_300)
#elif defined(__ARM_ARCH)
#if __ARM_ARCH >= 7
#define V7M(X) X(cyc_umull)
#else
#define V7M(X)
#endif
#define CALIB(X) X(calib_loop_10) X(calib_loop_1000) X(calib_loop_mps2_a) X(calib_loop_mps2_b) \
	X(calib_loop_mps2_c) X(calib_loop_mps2_d) X(calib_loop_mbit_a) X(calib_loop_mbit_b) X(calib_loop_mbit_c) \
	X(calib_loop_mbit_d) X(calib_loop_3m) X(calib_loop_nested) X(calib_frame_20) X(calib_frame_300) \
	X(cyc_alu8) X(cyc_load4) X(cyc_loaddep) X(cyc_mul4) X(cyc_pushpop) X(cyc_loop4) X(cyc_call) V7M(X)
#else
#define CALIB(X) X(calib_loop_10) X(calib_loop_1000) X(calib_loop_3m) X(calib_loop_nested) \
	X(calib_frame_20) X(calib_frame_300)
#endif

CALIB(DECLARE)

#define ENTRY(fn) OP(fn),
const struct mcu_op mcu_ops[] PROGMEM = {
	CALIB(ENTRY)
	{0, 0, 0, 0, 0, 0, 0, 0},
};
