// wolfSSL 5.5's wolfCrypt behind ccjob.h. See doc.go.
#include "ccjob.h"
#include "wolfssl_cc.h"

#if __has_include(<wolfssl/options.h>)
// options.h first: it is the build's configuration, and the structures'
// layout depends on it.
#include <wolfssl/options.h>
#include <dlfcn.h>
#include <wolfssl/ssl.h>
#include <wolfssl/wolfcrypt/aes.h>
#include <wolfssl/wolfcrypt/blake2.h>
#include <wolfssl/wolfcrypt/chacha.h>
#include <wolfssl/wolfcrypt/chacha20_poly1305.h>
#include <wolfssl/wolfcrypt/cmac.h>
#include <wolfssl/wolfcrypt/curve25519.h>
#include <wolfssl/wolfcrypt/curve448.h>
#include <wolfssl/wolfcrypt/ecc.h>
#include <wolfssl/wolfcrypt/ed25519.h>
#include <wolfssl/wolfcrypt/ed448.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/hmac.h>
#include <wolfssl/wolfcrypt/poly1305.h>
#include <wolfssl/wolfcrypt/random.h>

#define FUNCS(X)                                                                                        \
	X(wolfSSL_lib_version) X(wc_Hash) X(wc_InitBlake2b) X(wc_Blake2bUpdate) X(wc_Blake2bFinal)            \
	X(wc_InitBlake2s) X(wc_Blake2sUpdate) X(wc_Blake2sFinal) X(wc_HmacInit) X(wc_HmacSetKey)              \
	X(wc_HmacUpdate) X(wc_HmacFinal) X(wc_HmacFree) X(wc_InitCmac) X(wc_CmacUpdate) X(wc_CmacFinal)       \
	X(wc_Poly1305SetKey) X(wc_Poly1305Update) X(wc_Poly1305Final) X(wc_AesInit) X(wc_AesFree)              \
	X(wc_AesSetKey) X(wc_AesSetIV) X(wc_AesEcbEncrypt) X(wc_AesEcbDecrypt) X(wc_AesCbcEncrypt)            \
	X(wc_AesCbcDecrypt) X(wc_AesCtrEncrypt) X(wc_AesOfbEncrypt) X(wc_AesOfbDecrypt) X(wc_AesGcmSetKey)     \
	X(wc_AesGcmEncrypt) X(wc_AesGcmDecrypt) X(wc_AesCcmSetKey) X(wc_AesCcmEncrypt) X(wc_AesCcmDecrypt)    \
	X(wc_ChaCha20Poly1305_Encrypt) X(wc_ChaCha20Poly1305_Decrypt) X(wc_XChaCha20Poly1305_Encrypt)         \
	X(wc_XChaCha20Poly1305_Decrypt) X(wc_Chacha_SetKey) X(wc_Chacha_SetIV) X(wc_Chacha_Process)           \
	X(wc_InitRng) X(wc_RNG_GenerateBlock) X(wc_ed25519_init) X(wc_ed25519_free) X(wc_ed25519_make_key)    \
	X(wc_ed25519_make_public) X(wc_ed25519_import_private_key) X(wc_ed25519_import_private_only)         \
	X(wc_ed25519_import_public) X(wc_ed25519_export_private_only) X(wc_ed25519_export_public)            \
	X(wc_ed25519_sign_msg) X(wc_ed25519_verify_msg) X(wc_ed448_init) X(wc_ed448_free) X(wc_ed448_make_key) \
	X(wc_ed448_make_public) X(wc_ed448_import_private_key) X(wc_ed448_import_private_only)               \
	X(wc_ed448_import_public) X(wc_ed448_export_private_only) X(wc_ed448_export_public)                  \
	X(wc_ed448_sign_msg) X(wc_ed448_verify_msg) X(wc_ecc_init) X(wc_ecc_free) X(wc_ecc_make_key_ex)       \
	X(wc_ecc_import_private_key_ex) X(wc_ecc_import_x963_ex) X(wc_ecc_make_pub) X(wc_ecc_export_x963)    \
	X(wc_ecc_export_private_only) X(wc_ecc_check_key) X(wc_ecc_set_rng) X(wc_ecc_sign_hash)               \
	X(wc_ecc_verify_hash) X(wc_ecc_shared_secret) X(wc_curve25519_init) X(wc_curve25519_free)             \
	X(wc_curve25519_make_key) X(wc_curve25519_make_pub) X(wc_curve25519_import_private_ex)               \
	X(wc_curve25519_import_public_ex) X(wc_curve25519_export_private_raw_ex)                              \
	X(wc_curve25519_export_public_ex) X(wc_curve25519_shared_secret_ex) X(wc_curve448_init)               \
	X(wc_curve448_free) X(wc_curve448_make_key) X(wc_curve448_make_pub) X(wc_curve448_import_private_ex) \
	X(wc_curve448_import_public_ex) X(wc_curve448_export_private_raw_ex) X(wc_curve448_export_public_ex) \
	X(wc_curve448_shared_secret_ex)

FUNCS(CC_DECLARE)

static void *cc_handle;
static const char *cc_soname = "libwolfssl.so.35";
static WC_RNG rng;

int wo_load(char *version, size_t vlen, char *err, size_t errlen) {
	cc_handle = dlopen(cc_soname, RTLD_NOW | RTLD_LOCAL);
	if (!cc_handle) {
		CC_ERR(err, errlen, "cannot open %s: %s", cc_soname, dlerror());
		return -1;
	}
	FUNCS(CC_RESOLVE)
	if (P(wc_InitRng)(&rng)) {
		CC_ERR(err, errlen, "wc_InitRng failed");
		return -1;
	}
	snprintf(version, vlen, "wolfSSL %s", P(wolfSSL_lib_version)());
	return 0;
}

enum { K_HASH = 1, K_BLAKE2B, K_BLAKE2S, K_HMAC, K_CMAC, K_POLY1305, K_AES, K_GCM, K_CCM, K_CHACHAPOLY,
       K_XCHACHAPOLY, K_CHACHA, K_ED25519, K_ED448, K_ECDSA, K_X25519, K_X448, K_ECDH };
enum { M_ECB = 1, M_CBC, M_OFB, M_CTR };

static const struct { const char *name; enum wc_HashType t; } hashes[] = {
	{"MD5", WC_HASH_TYPE_MD5}, {"SHA1", WC_HASH_TYPE_SHA}, {"SHA224", WC_HASH_TYPE_SHA224},
	{"SHA256", WC_HASH_TYPE_SHA256}, {"SHA384", WC_HASH_TYPE_SHA384}, {"SHA512", WC_HASH_TYPE_SHA512},
	{"SHA3-224", WC_HASH_TYPE_SHA3_224}, {"SHA3-256", WC_HASH_TYPE_SHA3_256}, {"SHA3-384", WC_HASH_TYPE_SHA3_384},
	{"SHA3-512", WC_HASH_TYPE_SHA3_512},
};

static int hash_of(const char *name, enum wc_HashType *t) {
	for (size_t i = 0; i < sizeof hashes / sizeof hashes[0]; i++)
		if (!strcmp(hashes[i].name, name)) return *t = hashes[i].t, 0;
	return -1;
}

static const struct { const char *name; int id, len; } curves[] = {
	{"P-224", ECC_SECP224R1, 28}, {"P-256", ECC_SECP256R1, 32}, {"P-384", ECC_SECP384R1, 48}, {"P-521", ECC_SECP521R1, 66},
	// HAVE_ECC_KOBLITZ and HAVE_ECC_BRAINPOOL in Debian's options.h
	{"secp256k1", ECC_SECP256K1, 32}, {"brainpoolP256r1", ECC_BRAINPOOLP256R1, 32},
	{"brainpoolP384r1", ECC_BRAINPOOLP384R1, 48}, {"brainpoolP512r1", ECC_BRAINPOOLP512R1, 64},
};

// RFC 7748 §5: X25519 and X448 decode the scalar with its bits clamped and
// X25519 masks the u-coordinate's top bit. wolfCrypt's import functions
// take the scalar as given (X448 then computes with unclamped bits) and
// reject a u-coordinate with the top bit set, so the raw keys are decoded
// here as the RFC says, before the library sees them; the timed
// multiplication is the library's.
static void rfc7748_scalar(uint8_t *k, size_t n) {
	if (n == 32) k[0] &= 248, k[31] = (k[31] & 127) | 64;
	if (n == 56) k[0] &= 252, k[55] |= 128;
}
static void rfc7748_u(uint8_t *u, size_t n) {
	if (n == 32) u[31] &= 127;
}

// all_zero: Debian's wolfSSL is built without WOLFSSL_ECDHX_SHARED_NOT_ZERO,
// so a low-order peer yields an all-zero secret instead of an error; the
// caller must reject it (RFC 7748 §6.1, RFC 8446 §7.4.2), and so does this
// glue, inside the timed call (a 32- or 56-byte comparison).
static int all_zero(const uint8_t *b, size_t n) {
	uint8_t acc = 0;
	for (size_t i = 0; i < n; i++) acc |= b[i];
	return acc == 0;
}

struct cc_job {
	int kind, k, mode, dec, curve, clen;
	cc_inputs in;
	uint8_t *out;
	size_t outcap, outlen;
	enum wc_HashType ht;
	int mactype, taglen;
	Hmac hmac;
	Cmac cmac0; // keyed once; each call works on a copy
	Aes aes;
	int aes_set, hmac_set;
	ChaCha chacha;
	ed25519_key ed25519;
	ed448_key ed448;
	ecc_key ecc, eccpeer;
	curve25519_key x25519, x25519peer;
	curve448_key x448, x448peer;
	int keys;
	uint8_t dg[WC_MAX_DIGEST_SIZE];
};

// parse fills the job's algorithm fields from names such as "SHA256",
// "HMAC:SHA256", "CMAC", "POLY1305", "AES:CBC", "GCM", "CCM:8",
// "CHACHA20-POLY1305", "XCHACHA20-POLY1305", "CHACHA20", "ED25519",
// "ED448", "ECDSA:P-256:SHA256", "X25519", "X448", "ECDH:P-256".
static int parse(cc_job *j, const char *alg) {
	char buf[64], *part[3];
	cc_split(alg, buf, sizeof buf, part, 3);
	const char *a = part[0];
	if (!hash_of(a, &j->ht)) return j->k = K_HASH, 0;
	if (!strcmp(a, "BLAKE2B-512")) return j->k = K_BLAKE2B, 0;
	if (!strcmp(a, "BLAKE2S-256")) return j->k = K_BLAKE2S, 0;
	if (!strcmp(a, "HMAC") && part[1] && !hash_of(part[1], &j->ht)) return j->k = K_HMAC, 0;
	if (!strcmp(a, "CMAC")) return j->k = K_CMAC, 0;
	if (!strcmp(a, "POLY1305")) return j->k = K_POLY1305, 0;
	if (!strcmp(a, "AES") && part[1]) {
		const char *m = part[1];
		j->mode = !strcmp(m, "ECB") ? M_ECB : !strcmp(m, "CBC") ? M_CBC : !strcmp(m, "OFB") ? M_OFB : !strcmp(m, "CTR") ? M_CTR : 0;
		return j->mode ? (j->k = K_AES, 0) : -1;
	}
	if (!strcmp(a, "GCM")) return j->k = K_GCM, j->taglen = 16, 0;
	if (!strcmp(a, "CCM")) return j->k = K_CCM, j->taglen = part[1] ? atoi(part[1]) : 16, 0;
	if (!strcmp(a, "CHACHA20-POLY1305")) return j->k = K_CHACHAPOLY, 0;
	if (!strcmp(a, "XCHACHA20-POLY1305")) return j->k = K_XCHACHAPOLY, 0;
	if (!strcmp(a, "CHACHA20")) return j->k = K_CHACHA, 0;
	if (!strcmp(a, "ED25519")) return j->k = K_ED25519, 0;
	if (!strcmp(a, "ED448")) return j->k = K_ED448, 0;
	if (!strcmp(a, "X25519")) return j->k = K_X25519, 0;
	if (!strcmp(a, "X448")) return j->k = K_X448, 0;
	if ((!strcmp(a, "ECDSA") || !strcmp(a, "ECDH")) && part[1]) {
		for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
			if (!strcmp(curves[i].name, part[1])) j->curve = curves[i].id, j->clen = curves[i].len;
		if (!j->curve) return -1;
		if (!strcmp(a, "ECDH")) return j->k = K_ECDH, 0;
		return part[2] && !hash_of(part[2], &j->ht) ? (j->k = K_ECDSA, 0) : -1;
	}
	return -1;
}

// ecc_load imports a raw private scalar (computing its public point) or a
// SEC 1 public point into key.
static int ecc_load(cc_job *j, ecc_key *key, const uint8_t *priv, size_t privlen, const uint8_t *pub, size_t publen) {
	if (P(wc_ecc_init)(key)) return -1;
	if (priv) {
		if (privlen != (size_t)j->clen || P(wc_ecc_import_private_key_ex)(priv, privlen, NULL, 0, key, j->curve) ||
		    P(wc_ecc_make_pub)(key, NULL))
			return -1;
	} else if (P(wc_ecc_import_x963_ex)(pub, publen, key, j->curve) || P(wc_ecc_check_key)(key))
		return -1;
	return P(wc_ecc_set_rng)(key, &rng);
}

static int ecc_export(ecc_key *k, int clen, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen) {
	word32 pl = *publen, dl = priv ? *privlen : 0;
	if (P(wc_ecc_export_x963)(k, pub, &pl)) return -1;
	*publen = pl;
	if (priv) {
		if (P(wc_ecc_export_private_only)(k, priv, &dl) || dl > (word32)clen) return -1;
		if (dl < (word32)clen) { // left-pad to the field length
			memmove(priv + (clen - dl), priv, dl);
			memset(priv, 0, clen - dl);
		}
		*privlen = clen;
	}
	return 0;
}

int wo_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) {
	cc_job j = {0};
	int rc = parse(&j, alg);
	word32 pl = *publen, dl = *privlen;
	if (!rc) switch (j.k) {
		case K_ED25519:
			rc = P(wc_ed25519_init)(&j.ed25519) || P(wc_ed25519_make_key)(&rng, 32, &j.ed25519) ||
			     P(wc_ed25519_export_private_only)(&j.ed25519, priv, &dl) || P(wc_ed25519_export_public)(&j.ed25519, pub, &pl);
			P(wc_ed25519_free)(&j.ed25519);
			break;
		case K_ED448:
			rc = P(wc_ed448_init)(&j.ed448) || P(wc_ed448_make_key)(&rng, 57, &j.ed448) ||
			     P(wc_ed448_export_private_only)(&j.ed448, priv, &dl) || P(wc_ed448_export_public)(&j.ed448, pub, &pl);
			P(wc_ed448_free)(&j.ed448);
			break;
		case K_X25519:
			rc = P(wc_curve25519_init)(&j.x25519) || P(wc_curve25519_make_key)(&rng, 32, &j.x25519) ||
			     P(wc_curve25519_export_private_raw_ex)(&j.x25519, priv, &dl, EC25519_LITTLE_ENDIAN) ||
			     P(wc_curve25519_export_public_ex)(&j.x25519, pub, &pl, EC25519_LITTLE_ENDIAN);
			P(wc_curve25519_free)(&j.x25519);
			break;
		case K_X448:
			rc = P(wc_curve448_init)(&j.x448) || P(wc_curve448_make_key)(&rng, 56, &j.x448) ||
			     P(wc_curve448_export_private_raw_ex)(&j.x448, priv, &dl, EC448_LITTLE_ENDIAN) ||
			     P(wc_curve448_export_public_ex)(&j.x448, pub, &pl, EC448_LITTLE_ENDIAN);
			P(wc_curve448_free)(&j.x448);
			break;
		case K_ECDSA:
		case K_ECDH:
			rc = P(wc_ecc_init)(&j.ecc) || P(wc_ecc_make_key_ex)(&rng, j.clen, &j.ecc, j.curve) ||
			     ecc_export(&j.ecc, j.clen, pub, publen, priv, privlen);
			P(wc_ecc_free)(&j.ecc);
			if (!rc) return 0;
			break;
		default: rc = -1;
		}
	if (rc) {
		CC_ERR(err, errlen, "%s: key generation failed", alg);
		return -1;
	}
	*publen = pl, *privlen = dl;
	return 0;
}

int wo_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) {
	cc_job j = {0};
	int rc = parse(&j, alg);
	word32 pl = *publen;
	if (!rc) switch (j.k) {
		case K_ED25519:
			rc = privlen != 32 || P(wc_ed25519_init)(&j.ed25519) || P(wc_ed25519_import_private_only)(priv, 32, &j.ed25519) ||
			     P(wc_ed25519_make_public)(&j.ed25519, pub, 32);
			P(wc_ed25519_free)(&j.ed25519);
			pl = 32;
			break;
		case K_ED448:
			rc = privlen != 57 || P(wc_ed448_init)(&j.ed448) || P(wc_ed448_import_private_only)(priv, 57, &j.ed448) ||
			     P(wc_ed448_make_public)(&j.ed448, pub, 57);
			P(wc_ed448_free)(&j.ed448);
			pl = 57;
			break;
		case K_X25519:
		case K_X448: {
			uint8_t k[56];
			int n = j.k == K_X25519 ? 32 : 56;
			if (privlen != (size_t)n) {
				rc = -1;
				break;
			}
			memcpy(k, priv, n);
			rfc7748_scalar(k, n);
			rc = j.k == K_X25519 ? P(wc_curve25519_make_pub)(32, pub, 32, k) : P(wc_curve448_make_pub)(56, pub, 56, k);
			pl = n;
			break;
		}
		case K_ECDSA:
		case K_ECDH:
			rc = ecc_load(&j, &j.ecc, priv, privlen, NULL, 0) || ecc_export(&j.ecc, j.clen, pub, publen, NULL, NULL);
			P(wc_ecc_free)(&j.ecc);
			if (!rc) return 0;
			break;
		default: rc = -1;
		}
	if (rc) {
		CC_ERR(err, errlen, "%s: bad private key", alg);
		return -1;
	}
	*publen = pl;
	return 0;
}

void wo_free(cc_job *j) {
	if (!j) return;
	cc_free_inputs(&j->in);
	free(j->out);
	if (j->aes_set) P(wc_AesFree)(&j->aes);
	if (j->hmac_set) P(wc_HmacFree)(&j->hmac);
	if (j->keys & 1) {
		switch (j->k) {
		case K_ED25519: P(wc_ed25519_free)(&j->ed25519); break;
		case K_ED448: P(wc_ed448_free)(&j->ed448); break;
		case K_ECDSA:
		case K_ECDH: P(wc_ecc_free)(&j->ecc); break;
		case K_X25519: P(wc_curve25519_free)(&j->x25519); break;
		case K_X448: P(wc_curve448_free)(&j->x448); break;
		}
	}
	if (j->keys & 2) {
		switch (j->k) {
		case K_ECDH: P(wc_ecc_free)(&j->eccpeer); break;
		case K_X25519: P(wc_curve25519_free)(&j->x25519peer); break;
		case K_X448: P(wc_curve448_free)(&j->x448peer); break;
		}
	}
	free(j);
}

static const int wo_nin[] = {[CC_DIGEST] = 1, [CC_MAC] = 2, [CC_SEAL] = 4, [CC_OPEN] = 4, [CC_ENCRYPT] = 3,
                             [CC_DECRYPT] = 3, [CC_SIGN] = 2, [CC_VERIFY] = 3, [CC_KEYGEN] = 0, [CC_DERIVE] = 2};

cc_job *wo_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) {
	if (kind < CC_DIGEST || kind > CC_DERIVE) {
		CC_ERR(err, errlen, "unknown job kind %d", kind);
		return NULL;
	}
	cc_job *j = calloc(1, sizeof *j);
	if (!j) return NULL;
	j->kind = kind;
	j->dec = kind == CC_DECRYPT || kind == CC_OPEN;
	int rc = parse(j, alg) || cc_copy_inputs(&j->in, in, nin, wo_nin[kind], err, errlen);
	cc_inputs *x = &j->in;
	j->outcap = 256;
	if (!rc) switch (j->k) {
		case K_HMAC:
			j->hmac_set = 1;
			rc = P(wc_HmacInit)(&j->hmac, NULL, INVALID_DEVID) || P(wc_HmacSetKey)(&j->hmac, (int)j->ht, x->p[0], x->n[0]);
			break;
		case K_CMAC: rc = P(wc_InitCmac)(&j->cmac0, x->p[0], x->n[0], WC_CMAC_AES, NULL); break;
		case K_POLY1305: rc = x->n[0] != 32; break;
		case K_AES:
			j->aes_set = 1;
			j->outcap = x->n[2];
			// CTR and OFB decrypt with the encryption key schedule.
			rc = P(wc_AesInit)(&j->aes, NULL, INVALID_DEVID) ||
			     P(wc_AesSetKey)(&j->aes, x->p[0], x->n[0], x->n[1] ? x->p[1] : NULL,
			                     j->dec && (j->mode == M_ECB || j->mode == M_CBC) ? AES_DECRYPTION : AES_ENCRYPTION);
			break;
		case K_GCM:
		case K_CCM:
			j->aes_set = 1;
			j->outcap = x->n[3] + j->taglen;
			rc = (j->dec && x->n[3] < (size_t)j->taglen) || P(wc_AesInit)(&j->aes, NULL, INVALID_DEVID) ||
			     (j->k == K_GCM ? P(wc_AesGcmSetKey)(&j->aes, x->p[0], x->n[0]) : P(wc_AesCcmSetKey)(&j->aes, x->p[0], x->n[0]));
			break;
		case K_CHACHAPOLY:
			j->outcap = x->n[3] + 16;
			rc = x->n[0] != 32 || x->n[1] != 12 || (j->dec && x->n[3] < 16);
			break;
		case K_XCHACHAPOLY:
			j->outcap = x->n[3] + 16;
			rc = x->n[0] != 32 || x->n[1] != 24 || (j->dec && x->n[3] < 16);
			break;
		case K_CHACHA:
			j->outcap = x->n[2];
			rc = x->n[1] != 12 || P(wc_Chacha_SetKey)(&j->chacha, x->p[0], x->n[0]);
			break;
		case K_ED25519:
			if (kind == CC_KEYGEN) break;
			j->keys = 1;
			rc = P(wc_ed25519_init)(&j->ed25519);
			if (!rc && kind == CC_SIGN) {
				uint8_t pub[32];
				rc = x->n[0] != 32 || P(wc_ed25519_import_private_only)(x->p[0], 32, &j->ed25519) ||
				     P(wc_ed25519_make_public)(&j->ed25519, pub, 32) ||
				     P(wc_ed25519_import_private_key)(x->p[0], 32, pub, 32, &j->ed25519);
			} else if (!rc)
				rc = P(wc_ed25519_import_public)(x->p[0], x->n[0], &j->ed25519);
			break;
		case K_ED448:
			if (kind == CC_KEYGEN) break;
			j->keys = 1;
			rc = P(wc_ed448_init)(&j->ed448);
			if (!rc && kind == CC_SIGN) {
				uint8_t pub[57];
				rc = x->n[0] != 57 || P(wc_ed448_import_private_only)(x->p[0], 57, &j->ed448) ||
				     P(wc_ed448_make_public)(&j->ed448, pub, 57) || P(wc_ed448_import_private_key)(x->p[0], 57, pub, 57, &j->ed448);
			} else if (!rc)
				rc = P(wc_ed448_import_public)(x->p[0], x->n[0], &j->ed448);
			break;
		case K_ECDSA:
			if (kind == CC_KEYGEN) break;
			j->keys = 1;
			rc = kind == CC_SIGN ? ecc_load(j, &j->ecc, x->p[0], x->n[0], NULL, 0) : ecc_load(j, &j->ecc, NULL, 0, x->p[0], x->n[0]);
			break;
		case K_ECDH:
			if (kind == CC_KEYGEN) break;
			// The peer is imported and checked once; each call multiplies.
			j->keys = 3;
			rc = ecc_load(j, &j->ecc, x->p[0], x->n[0], NULL, 0) || ecc_load(j, &j->eccpeer, NULL, 0, x->p[1], x->n[1]);
			break;
		case K_X25519:
			if (kind == CC_KEYGEN) break;
			j->keys = 3;
			rfc7748_scalar(x->p[0], x->n[0]);
			rfc7748_u(x->p[1], x->n[1]);
			rc = P(wc_curve25519_init)(&j->x25519) || P(wc_curve25519_init)(&j->x25519peer) ||
			     P(wc_curve25519_import_private_ex)(x->p[0], x->n[0], &j->x25519, EC25519_LITTLE_ENDIAN) ||
			     P(wc_curve25519_import_public_ex)(x->p[1], x->n[1], &j->x25519peer, EC25519_LITTLE_ENDIAN);
			break;
		case K_X448:
			if (kind == CC_KEYGEN) break;
			j->keys = 3;
			rfc7748_scalar(x->p[0], x->n[0]);
			rc = P(wc_curve448_init)(&j->x448) || P(wc_curve448_init)(&j->x448peer) ||
			     P(wc_curve448_import_private_ex)(x->p[0], x->n[0], &j->x448, EC448_LITTLE_ENDIAN) ||
			     P(wc_curve448_import_public_ex)(x->p[1], x->n[1], &j->x448peer, EC448_LITTLE_ENDIAN);
			break;
		}
	if (rc && !err[0]) CC_ERR(err, errlen, "%s: unsupported, or bad key or parameters", alg);
	if (!rc && !(j->out = malloc(j->outcap ? j->outcap : 1))) rc = -1;
	if (rc) {
		wo_free(j);
		return NULL;
	}
	return j;
}

static int wo_once(cc_job *j) {
	cc_inputs *x = &j->in;
	word32 n = (word32)j->outcap;
	int res = 0;
	switch (j->k) {
	case K_HASH:
		{
			static const int sizes[] = {[WC_HASH_TYPE_MD5] = 16, [WC_HASH_TYPE_SHA] = 20, [WC_HASH_TYPE_SHA224] = 28,
			                            [WC_HASH_TYPE_SHA256] = 32, [WC_HASH_TYPE_SHA384] = 48, [WC_HASH_TYPE_SHA512] = 64,
			                            [WC_HASH_TYPE_SHA3_224] = 28, [WC_HASH_TYPE_SHA3_256] = 32,
			                            [WC_HASH_TYPE_SHA3_384] = 48, [WC_HASH_TYPE_SHA3_512] = 64};
			j->outlen = sizes[j->ht];
		}
		return P(wc_Hash)(j->ht, x->p[0], x->n[0], j->out, j->outlen);
	case K_BLAKE2B: {
		Blake2b b;
		j->outlen = 64;
		return P(wc_InitBlake2b)(&b, 64) || P(wc_Blake2bUpdate)(&b, x->p[0], x->n[0]) || P(wc_Blake2bFinal)(&b, j->out, 64);
	}
	case K_BLAKE2S: {
		Blake2s b;
		j->outlen = 32;
		return P(wc_InitBlake2s)(&b, 32) || P(wc_Blake2sUpdate)(&b, x->p[0], x->n[0]) || P(wc_Blake2sFinal)(&b, j->out, 32);
	}
	case K_HMAC: {
		// wc_HmacFinal leaves the key's inner state ready for the next message.
		int rc = P(wc_HmacUpdate)(&j->hmac, x->p[1], x->n[1]) || P(wc_HmacFinal)(&j->hmac, j->out);
		static const int sizes[] = {[WC_HASH_TYPE_SHA] = 20, [WC_HASH_TYPE_SHA256] = 32, [WC_HASH_TYPE_SHA512] = 64};
		j->outlen = sizes[j->ht];
		return rc;
	}
	case K_CMAC: {
		Cmac c = j->cmac0;
		n = 16;
		int rc = P(wc_CmacUpdate)(&c, x->p[1], x->n[1]) || P(wc_CmacFinal)(&c, j->out, &n);
		j->outlen = n;
		return rc;
	}
	case K_POLY1305: {
		Poly1305 p;
		j->outlen = 16;
		return P(wc_Poly1305SetKey)(&p, x->p[0], 32) || P(wc_Poly1305Update)(&p, x->p[1], x->n[1]) || P(wc_Poly1305Final)(&p, j->out);
	}
	case K_AES: {
		const uint8_t *src = x->p[2];
		word32 sz = (word32)x->n[2];
		j->outlen = sz;
		if (j->mode != M_ECB && P(wc_AesSetIV)(&j->aes, x->p[1])) return -1;
		switch (j->mode) {
		case M_ECB: return j->dec ? P(wc_AesEcbDecrypt)(&j->aes, j->out, src, sz) : P(wc_AesEcbEncrypt)(&j->aes, j->out, src, sz);
		case M_CBC: return j->dec ? P(wc_AesCbcDecrypt)(&j->aes, j->out, src, sz) : P(wc_AesCbcEncrypt)(&j->aes, j->out, src, sz);
		case M_OFB: return j->dec ? P(wc_AesOfbDecrypt)(&j->aes, j->out, src, sz) : P(wc_AesOfbEncrypt)(&j->aes, j->out, src, sz);
		case M_CTR: return P(wc_AesCtrEncrypt)(&j->aes, j->out, src, sz);
		}
		return -1;
	}
	case K_GCM:
	case K_CCM: {
		const uint8_t *nonce = x->p[1], *ad = x->p[2], *src = x->p[3];
		word32 nl = (word32)x->n[1], adl = (word32)x->n[2], sz = (word32)x->n[3] - (j->dec ? j->taglen : 0);
		j->outlen = sz + (j->dec ? 0 : j->taglen);
		if (j->k == K_GCM)
			return j->dec ? P(wc_AesGcmDecrypt)(&j->aes, j->out, src, sz, nonce, nl, src + sz, j->taglen, ad, adl)
			              : P(wc_AesGcmEncrypt)(&j->aes, j->out, src, sz, nonce, nl, j->out + sz, j->taglen, ad, adl);
		return j->dec ? P(wc_AesCcmDecrypt)(&j->aes, j->out, src, sz, nonce, nl, src + sz, j->taglen, ad, adl)
		              : P(wc_AesCcmEncrypt)(&j->aes, j->out, src, sz, nonce, nl, j->out + sz, j->taglen, ad, adl);
	}
	case K_CHACHAPOLY: {
		word32 sz = (word32)x->n[3] - (j->dec ? 16 : 0);
		j->outlen = sz + (j->dec ? 0 : 16);
		return j->dec ? P(wc_ChaCha20Poly1305_Decrypt)(x->p[0], x->p[1], x->p[2], x->n[2], x->p[3], sz, x->p[3] + sz, j->out)
		              : P(wc_ChaCha20Poly1305_Encrypt)(x->p[0], x->p[1], x->p[2], x->n[2], x->p[3], sz, j->out, j->out + sz);
	}
	case K_XCHACHAPOLY:
		j->outlen = x->n[3] + (j->dec ? -16 : 16);
		return j->dec ? P(wc_XChaCha20Poly1305_Decrypt)(j->out, j->outcap, x->p[3], x->n[3], x->p[2], x->n[2], x->p[1], 24, x->p[0], 32)
		              : P(wc_XChaCha20Poly1305_Encrypt)(j->out, j->outcap, x->p[3], x->n[3], x->p[2], x->n[2], x->p[1], 24, x->p[0], 32);
	case K_CHACHA:
		j->outlen = x->n[2];
		return P(wc_Chacha_SetIV)(&j->chacha, x->p[1], 0) || P(wc_Chacha_Process)(&j->chacha, j->out, x->p[2], x->n[2]);
	case K_ED25519:
		if (j->kind == CC_KEYGEN) {
			ed25519_key k;
			int rc = P(wc_ed25519_init)(&k) || P(wc_ed25519_make_key)(&rng, 32, &k);
			P(wc_ed25519_free)(&k);
			return rc;
		}
		if (j->kind == CC_SIGN) {
			int rc = P(wc_ed25519_sign_msg)(x->p[1], x->n[1], j->out, &n, &j->ed25519);
			j->outlen = n;
			return rc;
		}
		return P(wc_ed25519_verify_msg)(x->p[2], x->n[2], x->p[1], x->n[1], &res, &j->ed25519) || res != 1 ? -2 : 0;
	case K_ED448:
		if (j->kind == CC_KEYGEN) {
			ed448_key k;
			int rc = P(wc_ed448_init)(&k) || P(wc_ed448_make_key)(&rng, 57, &k);
			P(wc_ed448_free)(&k);
			return rc;
		}
		if (j->kind == CC_SIGN) {
			int rc = P(wc_ed448_sign_msg)(x->p[1], x->n[1], j->out, &n, &j->ed448, NULL, 0);
			j->outlen = n;
			return rc;
		}
		return P(wc_ed448_verify_msg)(x->p[2], x->n[2], x->p[1], x->n[1], &res, &j->ed448, NULL, 0) || res != 1 ? -2 : 0;
	case K_ECDSA:
	case K_ECDH: {
		if (j->kind == CC_KEYGEN) {
			ecc_key k;
			int rc = P(wc_ecc_init)(&k) || P(wc_ecc_make_key_ex)(&rng, j->clen, &k, j->curve);
			P(wc_ecc_free)(&k);
			return rc;
		}
		if (j->k == K_ECDH) {
			int rc = P(wc_ecc_shared_secret)(&j->ecc, &j->eccpeer, j->out, &n);
			j->outlen = n;
			return rc;
		}
		static const int sizes[] = {[WC_HASH_TYPE_SHA256] = 32, [WC_HASH_TYPE_SHA384] = 48, [WC_HASH_TYPE_SHA512] = 64};
		word32 dl = sizes[j->ht];
		if (P(wc_Hash)(j->ht, x->p[1], x->n[1], j->dg, dl)) return -1;
		if (j->kind == CC_VERIFY) return P(wc_ecc_verify_hash)(x->p[2], x->n[2], j->dg, dl, &res, &j->ecc) || res != 1 ? -2 : 0;
		int rc = P(wc_ecc_sign_hash)(j->dg, dl, j->out, &n, &rng, &j->ecc);
		j->outlen = n;
		return rc;
	}
	case K_X25519:
		if (j->kind == CC_KEYGEN) {
			curve25519_key k;
			int rc = P(wc_curve25519_init)(&k) || P(wc_curve25519_make_key)(&rng, 32, &k);
			P(wc_curve25519_free)(&k);
			return rc;
		} else {
			int rc = P(wc_curve25519_shared_secret_ex)(&j->x25519, &j->x25519peer, j->out, &n, EC25519_LITTLE_ENDIAN);
			j->outlen = n;
			return rc || all_zero(j->out, n) ? -1 : 0;
		}
	case K_X448:
		if (j->kind == CC_KEYGEN) {
			curve448_key k;
			int rc = P(wc_curve448_init)(&k) || P(wc_curve448_make_key)(&rng, 56, &k);
			P(wc_curve448_free)(&k);
			return rc;
		} else {
			int rc = P(wc_curve448_shared_secret_ex)(&j->x448, &j->x448peer, j->out, &n, EC448_LITTLE_ENDIAN);
			j->outlen = n;
			return rc || all_zero(j->out, n) ? -1 : 0;
		}
	}
	return -1;
}

int wo_run(cc_job *j, long n) {
	for (long i = 0; i < n; i++)
		if (wo_once(j)) return -1;
	return 0;
}

const uint8_t *wo_output(cc_job *j, size_t *n) {
	*n = j->outlen;
	return j->out;
}

#else

int wo_load(char *version, size_t vlen, char *err, size_t errlen) {
	CC_ERR(err, errlen, "built without wolfSSL's headers (<wolfssl/options.h> was not found)");
	return -2;
}
cc_job *wo_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) { return NULL; }
int wo_run(cc_job *j, long n) { return -1; }
const uint8_t *wo_output(cc_job *j, size_t *n) { *n = 0; return NULL; }
void wo_free(cc_job *j) {}
int wo_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) { return -1; }
int wo_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) { return -1; }
#endif

void wo_null(void) {}
