// Package sensor is S004's example application as a runnable system
// (`cryptocost scenario sensor`): sensors that sleep most of the time post
// signed readings through a CoAP mirror proxy, and an application reads
// them from the proxy and checks them end to end (IETF
// draft-aks-crypto-sensors-02, seeds.md S004).
//
// The parts, all real stacks on loopback:
//
//   - A sensor generates its own key pair (ES256 or EdDSA) and identity
//     I = h(P | O) — SHA-256 over its COSE_Key and its endpoint name —
//     printed for the installer (Identity, an RFC 6920 ni URI). Nothing
//     secret is shared, except in the DTLS-PSK variant, the symmetric
//     alternative S004 weighs.
//   - The proxy (Proxy) is a CoAP resource directory (RFC 9176) and mirror
//     server on github.com/plgd-dev/go-coap: a sensor registers its
//     resources in CoRE Link Format (RFC 6690) with its public key in the
//     pk attribute (linkformat.go), the proxy checks h(pk | ep) against
//     its authorisation list, then stores what the sensor PUTs and serves
//     it to applications.
//   - Readings are SenML (RFC 8428, CBOR or JSON; senml.go) protected as
//     data objects — COSE_Sign1 (github.com/veraison/go-cose) or a JWS
//     (github.com/go-jose/go-jose/v4) — or by transport, over DTLS 1.2
//     (github.com/pion/dtls/v3) with a PSK or ECDHE-ECDSA, with or without
//     a Connection ID (RFC 9146).
//   - The sensor's radio link is a relay (Relay) through the link emulator
//     (link.WrapPacket): every datagram is recorded with its bytes, time
//     and contents, so the run checks that the link carried exactly the
//     CoAP messages (CheckBytes), counts 802.15.4 frames and air bytes
//     (AirModel) and prices the packet traces on a radio profile.
//   - The application (Application) reads through the proxy and verifies
//     signed readings against the registered key; over DTLS it can only
//     trust the proxy.
//
// Per reading and amortised over a session (a DTLS handshake per
// session), each variant reports bytes on the link and on the air, the
// crypto operations with their counts and times, energy on the sensor's
// device profile and battery life at a reading interval, beside the
// built-in sensor-reading model at the same point (model.go). The attack
// fixtures (attacks.go) show each defence at work. docs/scenario-sensor.md
// has the design and measured results.
package sensor
