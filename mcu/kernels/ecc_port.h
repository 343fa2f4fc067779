/*
 * ecc_port.h: the little the elliptic-curve kernels need from the compiler
 * and the part, so that the same C99 builds for an 8-bit AVR and for any
 * other core (32-bit ARM, RISC-V, the host for tests).
 *
 *  - ecc_acc: a column accumulator of at least 24 bits. avr-gcc has a
 *    native 24-bit integer (__uint24), one byte cheaper per addition than
 *    uint32_t on an 8-bit core; elsewhere uint32_t is the natural width.
 *  - ECC_FLASH and ecc_flash_copy: constants kept in program memory. On
 *    the AVR (a Harvard machine) they are read with LPM (avr-libc's
 *    pgmspace.h); on a von Neumann core flash is ordinary memory.
 */
#ifndef CRYPTOCOST_ECC_PORT_H
#define CRYPTOCOST_ECC_PORT_H

#include <stdint.h>
#include <string.h>

#ifdef __AVR__
#include <avr/pgmspace.h>
typedef __uint24 ecc_acc;
#define ECC_FLASH PROGMEM
#define ecc_flash_copy(dst, src, n) memcpy_P((dst), (src), (n))
#else
typedef uint32_t ecc_acc;
#define ECC_FLASH
#define ecc_flash_copy(dst, src, n) memcpy((dst), (src), (n))
#endif

#endif
