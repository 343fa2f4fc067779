// Package remotesign is the S001 scenario, `cryptocost scenario
// remote-sign`: a phone as a remote signing token. A signing service (the
// Server, S001's phone) holds one key per signature scheme of the registry
// and answers a client (S001's PC) over a stream channel — plain TCP or
// TLS 1.3 with the signer as the TLS server — through the link emulator.
// The client's signature benchmark sends K documents of different sizes R
// times each (S001: 5 × 20) and reports each round trip split into
// hashing, signing and transfer (the signer times its own work and
// returns the durations), the TLS handshake and record overhead, the
// bytes of every message and on the wire, and — priced on the signer's
// device profile and the link's radio — joules per signature and
// signatures per battery.
//
// The protocol is small and length-prefixed (protocol.go documents every
// field); the client verifies every signature with the scheme's own
// Verify, and every byte the link carried is attributed and checked
// against the messages' encodings before a number is reported
// (Accounting). docs/scenario-remote-sign.md shows results.
package remotesign
