/* avr/pgmspace.h for host and Cortex-M builds of the kernels' bench files
 * (mcu/pq_test.go): flash is in the address space there, so PROGMEM data is
 * ordinary const data and the _P functions are the plain ones. */
#ifndef CRYPTOCOST_HOST_PGMSPACE_H
#define CRYPTOCOST_HOST_PGMSPACE_H
#include <stdint.h>
#include <string.h>
#define PROGMEM
#define PSTR(s) (s)
#define memcpy_P memcpy
#define pgm_read_byte(p) (*(const uint8_t *)(p))
#define pgm_read_word(p) (*(const uint16_t *)(p))
#define pgm_read_dword(p) (*(const uint32_t *)(p))
#endif
