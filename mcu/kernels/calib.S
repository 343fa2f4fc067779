/*
 * calib.S: functions of exactly known cycle count and stack frame, written
 * in assembly so the compiler cannot change them. cryptocost's tests count
 * their cycles from the disassembly (AVR Instruction Set Manual DS40002198A
 * cycle counts for the ATmega328P's AVRe+ core) and compare with what the
 * harness measures with Timer1; they read the frame size the same way and
 * compare with what stack painting measures.
 *
 * r18, r24, r25 are call-clobbered in the avr-gcc ABI; r16, r28, r29 are
 * saved and restored.
 */

/* A counted loop: ldi, ldi, then N × (sbiw 2 + brne 2) − 1 (the last brne
 * falls through: 1 cycle). */
.macro LOOP16 name, count
	.global \name
	.type \name, @function
\name:
	ldi r24, lo8(\count)
	ldi r25, hi8(\count)
1:	sbiw r24, 1
	brne 1b
	ret
	.size \name, .-\name
.endm

/* Around the first Timer1 overflow (65 536 cycles) and far beyond it. */
LOOP16 calib_loop_10, 10
LOOP16 calib_loop_1000, 1000
LOOP16 calib_loop_16380, 16380
LOOP16 calib_loop_16381, 16381
LOOP16 calib_loop_16382, 16382
LOOP16 calib_loop_16383, 16383
LOOP16 calib_loop_16384, 16384
LOOP16 calib_loop_16385, 16385
LOOP16 calib_loop_50000, 50000

/* A nested loop of about 4 million cycles: 61 overflows. */
	.global calib_loop_nested
	.type calib_loop_nested, @function
calib_loop_nested:
	ldi r18, 20
2:	ldi r24, lo8(50000)
	ldi r25, hi8(50000)
1:	sbiw r24, 1
	brne 1b
	dec r18
	brne 2b
	ret
	.size calib_loop_nested, .-calib_loop_nested

/* A frame of 3 pushes and SIZE bytes of locals, whose deepest byte (Y+1,
 * the lowest address) is written with a value other than the paint. Its
 * stack use is 2 (return address) + 3 + SIZE bytes. */
.macro FRAME name, size
	.global \name
	.type \name, @function
\name:
	push r16
	push r28
	push r29
	in r28, 0x3d		; SPL
	in r29, 0x3e		; SPH
	subi r28, lo8(\size)
	sbci r29, hi8(\size)
	in r0, 0x3f		; SREG
	cli
	out 0x3e, r29
	out 0x3f, r0
	out 0x3d, r28
	ldi r16, 0x5a
	std Y+1, r16
	subi r28, lo8(-(\size))
	sbci r29, hi8(-(\size))
	in r0, 0x3f
	cli
	out 0x3e, r29
	out 0x3f, r0
	out 0x3d, r28
	pop r29
	pop r28
	pop r16
	ret
	.size \name, .-\name
.endm

FRAME calib_frame_20, 20
FRAME calib_frame_300, 300
