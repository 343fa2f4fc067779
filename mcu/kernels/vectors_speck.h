/* Generated from vectors_test.go by `go test ./mcu -run TestVectorHeaders -update`;
 * do not edit. Each vector names its source and is checked there against an
 * independent implementation. */
#ifndef CRYPTOCOST_VECTORS_SPECK_H
#define CRYPTOCOST_VECTORS_SPECK_H

#include <stdint.h>
#include <avr/pgmspace.h>

/* ePrint 2013/404 Appendix C, Speck64/128 key */
static const uint8_t speck64_128_key[16] PROGMEM __attribute__((unused)) = {
	0x00, 0x01, 0x02, 0x03, 0x08, 0x09, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13,
	0x18, 0x19, 0x1a, 0x1b,
};

/* ePrint 2013/404 Appendix C, Speck64/128 plaintext */
static const uint8_t speck64_128_pt[8] PROGMEM __attribute__((unused)) = {
	0x2d, 0x43, 0x75, 0x74, 0x74, 0x65, 0x72, 0x3b,
};

/* ePrint 2013/404 Appendix C, Speck64/128 ciphertext */
static const uint8_t speck64_128_ct[8] PROGMEM __attribute__((unused)) = {
	0x8b, 0x02, 0x4e, 0x45, 0x48, 0xa5, 0x6f, 0x8c,
};

#endif
