/*
 * ecc_port.h: the little the elliptic-curve kernels need from the compiler
 * and the part, so that the same C99 builds for an 8-bit AVR and for any
 * other core (32-bit ARM, RISC-V, the host for tests).
 *
 *  - ecc_acc: a column accumulator of at least 24 bits, mcu_int.h's
 *    mcu_uint24_t: avr-gcc's native 24-bit integer on the AVR, one byte
 *    cheaper per addition than uint32_t on an 8-bit core; uint32_t, the
 *    natural width, elsewhere.
 *  - ECC_FLASH and ecc_flash_copy: constants kept in program memory. On
 *    the AVR (a Harvard machine) they are read with LPM (avr-libc's
 *    pgmspace.h); on a von Neumann core flash is ordinary memory, so the
 *    host tests build these files without the firmware's include paths.
 */
#ifndef CRYPTOCOST_ECC_PORT_H
#define CRYPTOCOST_ECC_PORT_H

#include <stdint.h>
#include <string.h>

#include "mcu_int.h"

typedef mcu_uint24_t ecc_acc;

#ifdef __AVR__
#include <avr/pgmspace.h>
#define ECC_FLASH PROGMEM
#define ecc_flash_copy(dst, src, n) memcpy_P((dst), (src), (n))
#else
#define ECC_FLASH
#define ecc_flash_copy(dst, src, n) memcpy((dst), (src), (n))
#endif

#endif
