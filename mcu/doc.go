// Package mcu measures what cryptography costs on a microcontroller without
// the hardware. It builds C kernels (kernels/: AES-128, Speck64/128,
// PRESENT-80, ChaCha20, Ascon-AEAD128, SHA-1, SHA-256, HMAC-SHA1,
// HMAC-SHA256, X25519, Ed25519, RSA as S004 measured it and in
// Montgomery/CRT form, ECDSA on S004's SEC 2 curves and P-256 in a fast
// and a constant-time style, and the post-quantum ML-KEM-512/768 and ML-DSA-44,
// each straightforward and memory-lean, with SHA-3 — written here rather
// than vendored: portable reference C such as PQClean's keeps its constant
// tables in SRAM on AVR and has no memory-lean form, and pqm4's lean
// versions are ARM assembly) into firmware for a target — a part and the
// simulator that runs it, data in targets/*.yaml: the ATmega328P and
// ATmega2560 in the cycle-accurate simavr, Cortex-M0/M3/M4/M7 and RV32IMAC
// cores in QEMU with -icount — and turns what the firmware prints into
// ordinary cryptocost results: cycles (AVR) or instructions (QEMU, exact,
// with cycles estimated from the core's TRM where there is a table,
// cycles.go) per operation, the spread over eight secrets (the timing-leak
// report), stack high-water mark, RAM and the kernel's ROM. A kernel whose
// measured stack (Kernel.MinStack) cannot fit beside its static RAM is
// reported as not fitting the part rather than run into an overflow.
//
// The flow: NewPlan validates targets, kernels and optimisation levels;
// Toolchains finds each target's compiler and simulator (naming the Debian
// packages when one is missing); Run builds each image (Toolchain.Build,
// cached by content hash, sizes from the linker map checked against size),
// refuses images that do not fit the part, simulates the rest
// (Toolchain.Simulate, with a timeout; on a target with a cycle rule under
// the profiler plugin, profiler/), parses the firmware's lines
// (OutputParser) and converts them (Results). Every image runs its
// kernel's known-answer tests inside the simulator before anything is
// timed; a failure gives an error and no number. WriteTable prints a run
// as S004 tabulated its figures; Compare and WriteComparison put a study's
// published table (reference/s004.yaml, imported) beside the kernels
// measured on a target. BenchRequest and CompareRequest (request.go) are
// mcu bench's and mcu compare's requests, checked before any work. A run
// knows no device: package costing prices it on the device whose profile
// names the target (the Arduino Uno for the ATmega328P), from the run or
// from its shipped table of simulated cycles (costing/simulated, made by
// internal/tools/simdata).
//
// The kernels are written here rather than taken from the libraries S004
// measured (AvrCryptolib, TinyECC, Wiselib, Relic; micro-ecc for the small
// style): none is packaged for Debian, and a comparison of styles needs
// them behind one interface with everything else equal — the ECDSA kernels
// share ecdsa.c and ecc_bn.c and differ only in the curve arithmetic
// (kernels/ecc.h).
//
// The harness is written once (kernels/harness.c) with a platform file per
// core family; the kernels are portable C. The known-answer vectors are
// generated headers (kernels/vectors_*.h) made from the tables in
// vectors_test.go, where each vector names the standard it comes from and
// is checked against an independent Go implementation:
//
//	go test ./mcu -run TestVectorHeaders -update
//
// The cycle estimate and the QEMU profiler plugin are written here because
// no library does this: QEMU's own plugins (contrib/plugins) are not
// packaged in Debian, and none prices Cortex-M instruction classes.
//
// docs/mcu.md has the method, its validation, the results and the
// comparison with S004.
package mcu

import "embed"

// kernelSources are the C and assembly sources and headers of the kernels
// and the harness.
//
//go:embed kernels/*.c kernels/*.h kernels/*.S kernels/*.ld kernels/compat/avr/*.h
var kernelSources embed.FS
