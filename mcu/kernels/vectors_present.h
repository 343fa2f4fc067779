/* Generated from vectors_test.go by `go test ./mcu -run TestVectorHeaders -update`;
 * do not edit. Each vector names its source and is checked there against an
 * independent implementation. */
#ifndef CRYPTOCOST_VECTORS_PRESENT_H
#define CRYPTOCOST_VECTORS_PRESENT_H

#include <stdint.h>
#include <avr/pgmspace.h>

/* CHES 2007 PRESENT paper, Appendix I: key 0, plaintext 0 */
static const uint8_t present_ct_00[8] PROGMEM __attribute__((unused)) = {
	0x55, 0x79, 0xc1, 0x38, 0x7b, 0x22, 0x84, 0x45,
};

/* CHES 2007 PRESENT paper, Appendix I: key all ones, plaintext 0 */
static const uint8_t present_ct_0f[8] PROGMEM __attribute__((unused)) = {
	0xe7, 0x2c, 0x46, 0xc0, 0xf5, 0x94, 0x50, 0x49,
};

/* CHES 2007 PRESENT paper, Appendix I: key 0, plaintext all ones */
static const uint8_t present_ct_f0[8] PROGMEM __attribute__((unused)) = {
	0xa1, 0x12, 0xff, 0xc7, 0x2f, 0x68, 0x41, 0x7b,
};

/* CHES 2007 PRESENT paper, Appendix I: key and plaintext all ones */
static const uint8_t present_ct_ff[8] PROGMEM __attribute__((unused)) = {
	0x33, 0x33, 0xdc, 0xd3, 0x21, 0x32, 0x10, 0xd2,
};

#endif
