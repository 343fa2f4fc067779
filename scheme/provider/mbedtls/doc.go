// Package mbedtls is cryptocost's Mbed TLS provider ("mbedtls"): the
// crypto library many microcontroller SDKs ship (Zephyr, ESP-IDF, the
// Arm Mbed OS lineage), measured here on the host through cgo.
//
// Why cgo: Mbed TLS is C; see package openssl for how C providers are
// loaded (dlopen of libmbedcrypto.so.7 on the registry's first use; Mbed
// TLS has no pkg-config file) and timed (n calls inside C).
//
// What Debian 12's libmbedtls-dev (2.28, config.h read for this list)
// offers and is registered here: MD5, SHA-1, SHA-224/256/384/512 and
// RIPEMD-160 (mbedtls_md); HMAC (keyed once, reset per call), AES-CMAC
// (MBEDTLS_CMAC_C), Poly1305; AES ECB/CBC/OFB/CTR, Triple DES ECB/CBC and
// Blowfish ECB/CBC/CTR (mbedtls_cipher); AES-GCM, AES-CCM and
// ChaCha20-Poly1305 (mbedtls_cipher_auth_*_ext); ChaCha20; ECDSA on
// P-224/256/384/521 (deterministic per RFC 6979, MBEDTLS_ECDSA_DETERMINISTIC);
// ECDH on P-256/384/521 and X25519 (mbedtls_ecdh_compute_shared); ECDSA
// (deterministic) and ECDH on secp256k1 and brainpoolP256r1/P384r1/P512r1
// (MBEDTLS_ECP_DP_SECP256K1_ENABLED, MBEDTLS_ECP_DP_BP*R1_ENABLED). Mbed
// TLS 2.28 has no Ed25519 or Ed448, no SHA-3 and no BLAKE2; its Curve448
// group is declared, but mbedtls_ecp_read_key and mbedtls_ecp_mul answer
// MBEDTLS_ERR_ECP_FEATURE_UNAVAILABLE / INVALID_KEY for it, so X448 is not
// registered.
package mbedtls
