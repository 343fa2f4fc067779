// Package mcu measures what cryptography costs on a microcontroller without
// the hardware. It builds C kernels (kernels/: AES-128, Speck64/128,
// PRESENT-80, ChaCha20, Ascon-AEAD128, SHA-256, HMAC-SHA256, X25519,
// Ed25519, RSA as S004 measured it and in Montgomery/CRT form, and ECDSA
// on S004's SEC 2 curves and P-256 in a fast and a constant-time style) with
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
// number. WriteTable prints a run as S004 tabulated its figures; Compare
// and WriteComparison put a study's published table (reference/s004.yaml,
// imported) beside the kernels measured; AddEnergy prices a run on a
// device's active power.
//
// The kernels are written here rather than taken from the libraries S004
// measured (AvrCryptolib, TinyECC, Wiselib, Relic; micro-ecc for the small
// style): none is packaged for Debian, and a comparison of styles needs
// them behind one interface with everything else equal — the ECDSA kernels
// share ecdsa.c and ecc_bn.c and differ only in the curve arithmetic
// (kernels/ecc.h).
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
