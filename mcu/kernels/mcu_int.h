/*
 * mcu_int.h: integer types the kernels share across targets.
 *
 * mcu_uint24_t holds at least 24 bits: avr-gcc's native __uint24 on the AVR
 * (three registers where uint32_t takes four, so column sums of byte
 * products cost less), uint32_t on the 32-bit cores.
 */
#ifndef CRYPTOCOST_MCU_INT_H
#define CRYPTOCOST_MCU_INT_H

#include <stdint.h>

#ifdef __AVR__
typedef __uint24 mcu_uint24_t;
#else
typedef uint32_t mcu_uint24_t;
#endif

#endif
