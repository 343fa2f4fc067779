// Package sodium is cryptocost's libsodium provider ("sodium"): the
// library many embedded and mobile projects use for modern primitives.
//
// Why cgo: libsodium is C; see package openssl for how C providers are
// loaded (dlopen on the registry's first use) and timed (n calls inside C).
//
// What Debian 12's libsodium-dev (1.0.18) offers and is registered here:
// SHA-256, SHA-512 and BLAKE2b-512 (crypto_generichash with a 64-byte
// output); HMAC-SHA-256 and HMAC-SHA-512 (crypto_auth_hmacsha*_init, keyed
// once and copied per call, as a keyed Go MAC is Reset); Poly1305;
// ChaCha20-Poly1305 (IETF), XChaCha20-Poly1305 and, where the CPU has
// AES-NI and PCLMUL (crypto_aead_aes256gcm_is_available), AES-256-GCM
// with its key expanded once (beforenm); ChaCha20 (IETF) and Salsa20;
// Ed25519; X25519. libsodium has no AES-128, no SHA-1/SHA-3, no NIST
// curves and no RSA.
package sodium
