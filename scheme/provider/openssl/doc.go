// Package openssl is cryptocost's OpenSSL 3 provider: libcrypto's EVP
// interface (digests, MACs, ciphers, EVP_PKEY signatures and key agreement)
// behind the scheme registry, as provider "openssl".
//
// Why cgo: OpenSSL is C, and it is what most servers and many gateways
// run; comparing it with Go's code in one harness, under the same
// known-answer gate, is the point. The library is opened with dlopen on the
// registry's first use (see package cprov), so a binary built with the
// headers still starts where libcrypto.so.3 is missing and lists the
// provider as absent.
//
// What Debian 12's libssl-dev (OpenSSL 3.0) offers and is registered here:
// MD5, SHA-1, SHA-2, SHA-3, SHAKE, BLAKE2b-512, BLAKE2s-256 and RIPEMD-160
// (the default provider has it since 3.0.7); HMAC, CMAC and Poly1305 through
// EVP_MAC, KMAC128 and KMAC256 (empty customisation, default lengths); AES ECB/CBC/OFB/CTR, 3DES and SM4 modes; AES-GCM, AES-CCM and
// ChaCha20-Poly1305; ECDSA on P-224/256/384/521, Ed25519, Ed448; X25519,
// X448, ECDH on P-256/384/521; ECDSA and ECDH on secp256k1 and
// brainpoolP256r1/P384r1/P512r1 (the default provider's named groups). Not registered: Blowfish, CAST5, IDEA, DES,
// RC4 and Whirlpool are in the legacy provider, which is not loaded by
// default; AES-GCM-SIV arrived in 3.2; RFC 6979 deterministic ECDSA in 3.2,
// so ECDSA's vectors are verified, not reproduced.
//
// How it is timed: each Job calls the library n times inside C (see
// openssl.c). AEADs set the key once and the nonce per call, as
// `openssl speed -evp` does; ECDSA hashes the document and signs the digest
// with one EVP_PKEY_CTX; key agreement sets and checks the peer once and
// times EVP_PKEY_derive, as `openssl speed ecdh` does.
package openssl
