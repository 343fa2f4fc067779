/*
 * compat/avr/pgmspace.h: avr-libc's flash-access names for the targets whose
 * flash is in the data address space (Cortex-M, RISC-V), where a constant in
 * flash is read like any other variable.
 *
 * The kernels keep flash constants (S-boxes, vectors) behind PROGMEM and
 * pgm_read_byte because on the AVR's Harvard core they live in a separate
 * address space read with LPM. cryptocost adds this directory to the include
 * path only when it builds for another core, so one kernel source builds for
 * every target: here PROGMEM is nothing and the readers are plain loads.
 */
#ifndef CRYPTOCOST_COMPAT_PGMSPACE_H
#define CRYPTOCOST_COMPAT_PGMSPACE_H

#include <stdint.h>
#include <string.h>

#ifdef __AVR__
#error "compat/avr/pgmspace.h is for non-AVR targets: avr-libc provides the real one"
#endif

#define PROGMEM
#define PGM_P const char *
#define PSTR(s) (s)

#define pgm_read_byte(p) (*(const uint8_t *)(p))
#define pgm_read_word(p) (*(const uint16_t *)(p))
#define pgm_read_dword(p) (*(const uint32_t *)(p))
#define pgm_read_ptr(p) (*(void *const *)(p))

#define memcpy_P memcpy
#define memcmp_P memcmp
#define strlen_P strlen

#endif
