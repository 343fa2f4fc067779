// Package wolfssl is cryptocost's wolfSSL provider ("wolfssl"): wolfCrypt,
// the crypto layer of the TLS library many embedded products ship.
//
// Why cgo: wolfSSL is C; see package openssl for how C providers are
// loaded (dlopen of libwolfssl.so.35 on the registry's first use) and
// timed (n calls inside C). <wolfssl/options.h> is included first: it is
// the build's configuration, and wolfCrypt's structures change layout with
// it; every function is called through the header's own prototype, and the
// package builds with -Werror=implicit-function-declaration.
//
// What Debian 12's libwolfssl-dev (5.5.4; its options.h read for this
// list) offers and is registered here: MD5, SHA-1, SHA-2 (not SHA-512/256),
// SHA-3 (wc_Hash), BLAKE2b-512 and BLAKE2s-256 (HAVE_BLAKE2B/2S); HMAC,
// AES-CMAC (WOLFSSL_CMAC, keyed once and copied per call), Poly1305; AES
// ECB (HAVE_AES_ECB), CBC, OFB (WOLFSSL_AES_OFB), CTR (WOLFSSL_AES_COUNTER);
// AES-GCM, AES-CCM (HAVE_AESCCM), ChaCha20-Poly1305, XChaCha20-Poly1305
// (HAVE_XCHACHA); ChaCha20; Ed25519, Ed448 (HAVE_ED448); ECDSA on
// P-224/256/384/521; X25519, X448 (HAVE_CURVE448), ECDH on P-256/384/521;
// ECDSA and ECDH on secp256k1 (HAVE_ECC_KOBLITZ) and brainpoolP256r1/
// P384r1/P512r1 (HAVE_ECC_BRAINPOOL; no ECC_USER_CURVES, so every size).
// Not registered: SHAKE128 (WOLFSSL_NO_SHAKE128); RIPEMD-160 is built in
// (WOLFSSL_RIPEMD) but wc_Hash has no type for it.
//
// Where wolfCrypt's behaviour differs from what RFC 7748 asks of an X25519
// or X448 function, the glue does what the RFC says and the known-answer
// test shows it: scalars are clamped and X25519's u-coordinate top bit
// masked before import (wolfCrypt's X448 computes with unclamped bits, and
// its X25519 import rejects a set top bit), and an all-zero shared secret
// from a low-order peer is rejected (Debian builds without
// WOLFSSL_ECDHX_SHARED_NOT_ZERO, so the library returns it).
//
// wolfCrypt's one-shot ChaCha20-Poly1305 takes the key on every call (its
// API has no keyed context), so each timed call includes the ChaCha20 key
// setup; the other AEADs set the key once.
package wolfssl
