// Package gcrypt is cryptocost's libgcrypt provider ("gcrypt"): GnuPG's
// crypto library, which has several ciphers and hashes that Go has only
// from this repository or small modules (IDEA, Tiger, Serpent, Twofish,
// Whirlpool), so their Go implementations are cross-checked against an
// independent one here.
//
// Why cgo: libgcrypt is C; see package openssl for how C providers are
// loaded (dlopen of libgcrypt.so.20 on the registry's first use) and timed
// (n calls inside C).
//
// What Debian 12's libgcrypt20-dev (1.10.1) offers and is registered here:
// MD5, SHA-1, SHA-2 (with SHA-512/256), SHA-3, BLAKE2b-512, BLAKE2s-256,
// RIPEMD-160, Whirlpool, Tiger and Tiger2 (gcry_md, one handle reset per
// call); HMAC and AES-CMAC (gcry_mac, keyed once, reset per call),
// Poly1305; AES-GCM-SIV (GCRY_CIPHER_MODE_GCM_SIV, new in 1.10; the Go
// scheme of that name is this repository's reference implementation); AES, Triple DES, Blowfish, CAST5, Twofish, Serpent, IDEA and SM4
// in ECB/CBC/OFB/CTR; AES-GCM, AES-CCM, ChaCha20-Poly1305 (the key set once,
// the nonce per call); ChaCha20, Salsa20 and RC4; Ed25519 and ECDSA on the
// NIST curves, secp256k1 and brainpoolP256r1/P384r1/P512r1
// (gcry_pk_sign over S-expressions, the key's public point
// included so signing does not recompute it; ECDSA signatures converted to
// DER here); X25519 and X448 (gcry_ecc_mul_point, which returns an all-zero
// secret for a low-order peer: the glue rejects it, RFC 7748 §6.1).
// Not registered: Ed448 and ECDH on the Weierstrass curves (NIST,
// secp256k1, Brainpool): gcrypt has them only through gcry_pk_encrypt's
// S-expression protocol.
package gcrypt
