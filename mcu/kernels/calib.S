/*
 * calib.S: functions of exactly known cycle or instruction count and stack
 * frame, written in assembly so the compiler cannot change them, for each
 * core cryptocost builds for. cryptocost's tests count their cycles (AVR)
 * or instructions (Cortex-M, RISC-V) from the disassembly and compare with
 * what the harness measures with the target's counter; they read the frame
 * size the same way and compare with what stack painting measures.
 */
#if defined(__AVR__)
/* AVR Instruction Set Manual DS40002198A cycle counts for the AVRe+ core
 * of the ATmega328P and ATmega2560. r18, r24, r25 are call-clobbered in the
 * avr-gcc ABI; r16, r28, r29 are saved and restored. */

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

/* A nested loop of about 50 million cycles: 762 overflows. */
	.global calib_loop_nested
	.type calib_loop_nested, @function
calib_loop_nested:
	ldi r18, 250
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

#elif defined(__ARM_ARCH)
/* Thumb code that every Cortex-M runs (ARMv6-M's 16-bit subset). A loop of
 * N iterations is LDR, then N × (SUBS, BNE): 1 + 2N instructions before
 * the BX. r0 to r3 are call-clobbered (AAPCS); r4 to r6 are saved. */
	.syntax unified
	.thumb

.macro LOOP name, count
	.global \name
	.type \name, %function
	.thumb_func
\name:
	ldr r0, =\count
1:	subs r0, r0, #1
	bne 1b
	bx lr
	.ltorg
	.size \name, .-\name
.endm

/* SysTick wraps every 2^24 ticks: 5 242 880 instructions at 3.2 ticks per
 * instruction (MPS2), 4 096 000 at 4.096 (micro:bit). The loops around
 * those lengths end a few instructions either side of the first wrap. */
LOOP calib_loop_10, 10
LOOP calib_loop_1000, 1000
LOOP calib_loop_mps2_a, 2621430
LOOP calib_loop_mps2_b, 2621433
LOOP calib_loop_mps2_c, 2621436
LOOP calib_loop_mps2_d, 2621439
LOOP calib_loop_mbit_a, 2047990
LOOP calib_loop_mbit_b, 2047993
LOOP calib_loop_mbit_c, 2047996
LOOP calib_loop_mbit_d, 2047999
LOOP calib_loop_3m, 3000000

/* A nested loop of 20 × 2.5 million iterations: about 100 million
 * instructions, 19 or 24 wraps. */
	.global calib_loop_nested
	.type calib_loop_nested, %function
	.thumb_func
calib_loop_nested:
	movs r1, #20
2:	ldr r0, =2500000
1:	subs r0, r0, #1
	bne 1b
	subs r1, r1, #1
	bne 2b
	bx lr
	.ltorg
	.size calib_loop_nested, .-calib_loop_nested

/* A frame of 4 pushed registers and SIZE bytes of locals, whose deepest
 * byte ([sp], the lowest address) is written with a value other than the
 * paint. Its stack use is 16 + SIZE bytes (the return address is in LR). */
.macro FRAME name, size
	.global \name
	.type \name, %function
	.thumb_func
\name:
	push {r4, r5, r6, lr}
	sub sp, #\size
	movs r4, #0x5a
	str r4, [sp]
	add sp, #\size
	pop {r4, r5, r6, pc}
	.size \name, .-\name
.endm

FRAME calib_frame_20, 20
FRAME calib_frame_300, 300

/* Microbenchmarks for the cycle estimate: instruction sequences whose
 * cycles the cores' TRM tables fix (Cortex-M0 TRM Table 3-1, Cortex-M3 and
 * M4 TRM Table 3-1). The tests state the TRM's count for each and compare
 * it with the estimate. Each ends with BX LR, which the empty call's BX LR
 * cancels. */
.macro CYCLES name
	.global \name
	.type \name, %function
	.thumb_func
\name:
.endm

/* eight data-processing instructions: 8 cycles on every core */
CYCLES cyc_alu8
	movs r0, #1
	adds r0, r0, #1
	subs r1, r0, #1
	eors r1, r0
	ands r1, r0
	orrs r1, r0
	lsls r1, r1, #2
	mvns r2, r1
	bx lr
	.size cyc_alu8, .-cyc_alu8

/* MOV, then four independent word loads: 1 + 4 × 2 = 9 on the M0; on the
 * M3 and M4 the later three pipeline behind the first: 1 + 2 + 1 + 1 + 1
 * = 6 */
CYCLES cyc_load4
	mov r0, sp
	ldr r1, [r0]
	ldr r2, [r0, #4]
	ldr r3, [r0, #8]
	ldr r1, [r0, #12]
	bx lr
	.size cyc_load4, .-cyc_load4

/* MOV, a store, a load after it (nothing pipelines after a store), and a
 * load through the register just loaded (its address is not ready):
 * 1 + 2 + 2 + 2 = 7 on every core */
CYCLES cyc_loaddep
	mov r0, sp
	str r0, [r0]
	ldr r1, [r0]
	ldr r2, [r1]
	bx lr
	.size cyc_loaddep, .-cyc_loaddep

/* two MOVS and four MULS: 6 cycles (with the M0's small 32-cycle
 * multiplier, 130) */
CYCLES cyc_mul4
	movs r0, #3
	movs r1, #5
	muls r0, r1
	muls r0, r1
	muls r0, r1
	muls r0, r1
	bx lr
	.size cyc_mul4, .-cyc_mul4

/* PUSH and POP of four registers: (1 + 4) + (1 + 4) = 10 on every core */
CYCLES cyc_pushpop
	push {r4, r5, r6, r7}
	pop {r4, r5, r6, r7}
	bx lr
	.size cyc_pushpop, .-cyc_pushpop

/* a loop of four: MOVS, then 4 × SUBS and 3 taken BNE and one that falls
 * through: M0 1 + 4 + 3 × 3 + 1 = 15; M3 and M4 1 + 4 + 3 × (1 + P) + 1,
 * 12 to 18 for P = 1 to 3 */
CYCLES cyc_loop4
	movs r0, #4
1:	subs r0, r0, #1
	bne 1b
	bx lr
	.size cyc_loop4, .-cyc_loop4

/* a call to a leaf that returns at once, inside a frame: PUSH {r4, lr},
 * BL, the leaf's BX, POP {r4, pc} (which replaces the BX LR of the other
 * functions): M0 3 + 4 + 3 + 5 = 15; M3 and M4 3 + (1 + P) + (1 + P) +
 * (3 + P), 11 + 3P */
CYCLES cyc_call
	push {r4, lr}
	bl cyc_leaf
	pop {r4, pc}
	.size cyc_call, .-cyc_call
CYCLES cyc_leaf
	bx lr
	.size cyc_leaf, .-cyc_leaf

#if __ARM_ARCH >= 7
/* ARMv7-M only: two UMULL and one UDIV. M4: 1 + 1 + 1 + UDIV 2 to 12
 * (early termination); M3: UMULL 3 to 5 each (early termination), so
 * 1 + 6..10 + 2..12 */
CYCLES cyc_umull
	movs r0, #7
	umull r2, r3, r0, r0
	umull r2, r3, r2, r0
	udiv r1, r2, r0
	bx lr
	.size cyc_umull, .-cyc_umull
#endif

#elif defined(__riscv)
/* RV32: a loop of N iterations is LI (one or two instructions), then
 * N × (ADDI, BNEZ) before the RET. */

.macro LOOP name, count
	.global \name
	.type \name, @function
\name:
	li a0, \count
1:	addi a0, a0, -1
	bnez a0, 1b
	ret
	.size \name, .-\name
.endm

LOOP calib_loop_10, 10
LOOP calib_loop_1000, 1000
LOOP calib_loop_3m, 3000000

	.global calib_loop_nested
	.type calib_loop_nested, @function
calib_loop_nested:
	li a1, 20
2:	li a0, 2500000
1:	addi a0, a0, -1
	bnez a0, 1b
	addi a1, a1, -1
	bnez a1, 2b
	ret
	.size calib_loop_nested, .-calib_loop_nested

/* A frame of SIZE bytes whose deepest byte is written: SIZE bytes of
 * stack (the return address is in ra). */
.macro FRAME name, size
	.global \name
	.type \name, @function
\name:
	addi sp, sp, -\size
	li t0, 0x5a
	sb t0, 0(sp)
	addi sp, sp, \size
	ret
	.size \name, .-\name
.endm

FRAME calib_frame_20, 20
FRAME calib_frame_300, 300
#endif
