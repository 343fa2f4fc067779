// Package timesync is the S003 scenario, `cryptocost scenario timesync`:
// SecSyWiSe, secure time synchronisation by signed broadcast. A source
// sends one signed synchronisation message per interval — node ID (16
// bits), timestamp (32 bits), update counter (32 bits) and a signature —
// over UDP to N receivers on loopback, each behind its own emulated link
// (link.WrapPacket; IEEE 802.15.4 with --link 802.15.4). Every receiver
// runs the study's defences: it rejects a message whose counter is not
// newer than the last one it accepted without verifying it (replays cost
// nothing), and it verifies at most one signature per interval (a flood
// of forged messages then costs precision, not battery). A message that
// verifies sets the receiver's simulated clock, and the deviation from
// the source's clock after synchronisation is reported.
//
// Signatures: RSA-1024 and RSA-2048 with public exponent 3 (keys made
// here from math/big-checked primes, signed and verified by the registry's
// PKCS#1 v1.5 schemes, which are exponent-agnostic), ECDSA P-256 (the
// registry's), and — for comparison with the study's TinyECC curves only —
// ECDSA over SEC 2 secp128r1, secp160r1 and secp192r1 by a generic,
// variable-time, benchmarking-only implementation marked INSECURE
// (insecure_ecdsa.go).
//
// Per receiver and interval the scenario reports the verification cost
// (time and CPU here; with --device, on the device), the bytes and
// packets received, and with --device and --link the radio energy of each
// receiver's packet trace — beside the built-in secsywise model
// (the measured: section of model/models/secsywise.yaml binds its outputs to these results).
package timesync
