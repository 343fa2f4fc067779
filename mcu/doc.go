// Package mcu measures what cryptography costs on a microcontroller without
// the hardware. It builds C kernels (kernels/: AES-128, Speck64/128,
// PRESENT-80, ChaCha20, Ascon-AEAD128, SHA-256, HMAC-SHA256, X25519,
// Ed25519, RSA as S004 measured it and in Montgomery/CRT form, and the
// post-quantum ML-KEM-512/768 and ML-DSA-44, each straightforward and
// memory-lean, with SHA-3 — written here rather than vendored: portable
// reference C such as PQClean's keeps its constant tables in SRAM on AVR
// and has no memory-lean form, and pqm4's lean versions are ARM assembly)
// with
// avr-gcc into firmware for a target — the ATmega328P of an Arduino Uno —
// runs each image in the cycle-accurate simulator simavr, and turns what
// the firmware prints into ordinary cryptocost results: cycles and time per
// operation, stack high-water mark, RAM and the kernel's ROM.
//
// The flow: NewPlan validates a target, kernels and optimisation levels;
// Run builds each image (Toolchain.Build, cached by content hash, sizes
// from the linker map checked against avr-size), refuses images that do
// not fit the part, simulates the rest (Toolchain.Simulate, with a
// timeout), parses the firmware's lines (OutputParser) and converts them
// (Results). Every image runs its kernel's known-answer tests inside the
// simulator before anything is timed; a failure gives an error and no
// number. WriteTable prints a run as S004 tabulated its figures; AddEnergy
// prices a run on a device's active power.
//
// The known-answer vectors are generated headers (kernels/vectors_*.h)
// made from the tables in vectors_test.go, where each vector names the
// standard it comes from and is checked against an independent Go
// implementation:
//
//	go test ./mcu -run TestVectorHeaders -update
//
// docs/mcu.md has the method, the results and the comparison with S004.
package mcu

import "embed"

// kernelSources are the C and assembly sources and headers of the kernels
// and the harness.
//
//go:embed kernels/*.c kernels/*.h kernels/*.S
var kernelSources embed.FS
