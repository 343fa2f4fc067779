// OpenSSL 3 libcrypto through EVP, behind ccjob.h. See doc.go.
#include "ccjob.h"
#include "openssl_cc.h"

#if __has_include(<openssl/evp.h>)
#include <dlfcn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#define FUNCS(X)                                                                                   \
	X(OpenSSL_version) X(ERR_get_error) X(ERR_error_string_n) X(EVP_MD_fetch) X(EVP_MD_free)      \
	X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_DigestInit_ex) X(EVP_DigestUpdate)                 \
	X(EVP_DigestFinal_ex) X(EVP_DigestFinalXOF) X(EVP_MAC_fetch) X(EVP_MAC_free)                  \
	X(EVP_MAC_CTX_new) X(EVP_MAC_CTX_free) X(EVP_MAC_CTX_set_params) X(EVP_MAC_init)              \
	X(EVP_MAC_update) X(EVP_MAC_final) X(OSSL_PARAM_construct_utf8_string)                         \
	X(OSSL_PARAM_construct_end) X(EVP_CIPHER_fetch) X(EVP_CIPHER_free) X(EVP_CIPHER_CTX_new)      \
	X(EVP_CIPHER_CTX_free) X(EVP_CipherInit_ex) X(EVP_CipherUpdate) X(EVP_CipherFinal_ex)         \
	X(EVP_CIPHER_CTX_set_padding) X(EVP_CIPHER_CTX_ctrl) X(EVP_PKEY_new_raw_private_key)          \
	X(EVP_PKEY_new_raw_public_key) X(EVP_PKEY_get_raw_private_key) X(EVP_PKEY_get_raw_public_key) \
	X(EVP_PKEY_free) X(EVP_PKEY_CTX_new) X(EVP_PKEY_CTX_new_from_name) X(EVP_PKEY_CTX_free)       \
	X(EVP_PKEY_keygen_init) X(EVP_PKEY_keygen) X(EVP_PKEY_CTX_set_group_name)                     \
	X(EVP_PKEY_fromdata_init) X(EVP_PKEY_fromdata) X(EVP_PKEY_sign_init) X(EVP_PKEY_sign)         \
	X(EVP_PKEY_verify_init) X(EVP_PKEY_verify) X(EVP_PKEY_derive_init) X(EVP_PKEY_derive_set_peer) \
	X(EVP_PKEY_derive) X(EVP_DigestSignInit) X(EVP_DigestSign) X(EVP_DigestVerifyInit)            \
	X(EVP_DigestVerify) X(EVP_PKEY_get_bn_param) X(EVP_PKEY_get_octet_string_param)               \
	X(OSSL_PARAM_BLD_new) X(OSSL_PARAM_BLD_push_utf8_string) X(OSSL_PARAM_BLD_push_BN)            \
	X(OSSL_PARAM_BLD_push_octet_string) X(OSSL_PARAM_BLD_to_param) X(OSSL_PARAM_BLD_free)         \
	X(OSSL_PARAM_free) X(BN_bin2bn) X(BN_free) X(BN_bn2binpad) X(EC_GROUP_new_by_curve_name)      \
	X(EC_GROUP_free) X(EC_POINT_new) X(EC_POINT_free) X(EC_POINT_mul) X(EC_POINT_point2oct)

FUNCS(CC_DECLARE)

static void *cc_handle;
static const char *cc_soname = "libcrypto.so.3";

int oc_load(char *version, size_t vlen, char *err, size_t errlen) {
	cc_handle = dlopen(cc_soname, RTLD_NOW | RTLD_LOCAL);
	if (!cc_handle) {
		CC_ERR(err, errlen, "cannot open %s: %s", cc_soname, dlerror());
		return -1;
	}
	FUNCS(CC_RESOLVE)
	snprintf(version, vlen, "%s", P(OpenSSL_version)(OPENSSL_VERSION));
	return 0;
}

static void oc_err(char *err, size_t errlen, const char *what) {
	char buf[256] = "no detail";
	unsigned long e = P(ERR_get_error)();
	if (e) P(ERR_error_string_n)(e, buf, sizeof buf);
	while (P(ERR_get_error)()) {
	}
	CC_ERR(err, errlen, "%s: %s", what, buf);
}

struct cc_job {
	int kind;
	cc_inputs in;
	uint8_t *out;
	size_t outcap, outlen;
	EVP_MD *md;
	EVP_MD_CTX *mdctx;
	size_t xoflen;
	EVP_MAC *mac;
	EVP_MAC_CTX *macctx;
	int mac_rekey; // one-time keys (Poly1305): key every call
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *cctx;
	int aead; // 1 GCM/ChaCha20-Poly1305, 2 CCM
	int taglen;
	EVP_PKEY *pkey, *peer;
	EVP_PKEY_CTX *pctx;
	uint8_t dg[EVP_MAX_MD_SIZE];
	int eddsa;
};

// ---- EC keys from raw encodings ----

typedef struct {
	const char *name; // OpenSSL group name
	int nid, len;     // field bytes
} oc_curve;

static const oc_curve *oc_curve_of(const char *name) {
	static const oc_curve curves[] = {
		{"P-224", NID_secp224r1, 28},
		{"P-256", NID_X9_62_prime256v1, 32},
		{"P-384", NID_secp384r1, 48},
		{"P-521", NID_secp521r1, 66},
		{"secp256k1", NID_secp256k1, 32},
		{"brainpoolP256r1", NID_brainpoolP256r1, 32},
		{"brainpoolP384r1", NID_brainpoolP384r1, 48},
		{"brainpoolP512r1", NID_brainpoolP512r1, 64},
	};
	for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
		if (!strcmp(curves[i].name, name)) return &curves[i];
	return NULL;
}

// oc_ec_public computes the uncompressed public point of scalar d.
static int oc_ec_public(const oc_curve *c, const uint8_t *d, size_t dlen, uint8_t *pub, size_t *publen) {
	EC_GROUP *g = P(EC_GROUP_new_by_curve_name)(c->nid);
	EC_POINT *q = g ? P(EC_POINT_new)(g) : NULL;
	BIGNUM *bn = P(BN_bin2bn)(d, (int)dlen, NULL);
	int ok = g && q && bn && P(EC_POINT_mul)(g, q, bn, NULL, NULL, NULL);
	size_t n = ok ? P(EC_POINT_point2oct)(g, q, POINT_CONVERSION_UNCOMPRESSED, pub, *publen, NULL) : 0;
	P(BN_free)(bn);
	P(EC_POINT_free)(q);
	P(EC_GROUP_free)(g);
	if (!n) return -1;
	*publen = n;
	return 0;
}

// oc_ec_key builds an EC key: a key pair from d (public computed), or a
// public key from an encoded point.
static EVP_PKEY *oc_ec_key(const oc_curve *c, const uint8_t *d, size_t dlen, const uint8_t *pub, size_t publen) {
	uint8_t q[1 + 2 * 66];
	size_t qlen = sizeof q;
	if (d) {
		if (oc_ec_public(c, d, dlen, q, &qlen)) return NULL;
		pub = q, publen = qlen;
	}
	OSSL_PARAM_BLD *b = P(OSSL_PARAM_BLD_new)();
	BIGNUM *bn = d ? P(BN_bin2bn)(d, (int)dlen, NULL) : NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY *k = NULL;
	EVP_PKEY_CTX *ctx = P(EVP_PKEY_CTX_new_from_name)(NULL, "EC", NULL);
	if (b && ctx && P(OSSL_PARAM_BLD_push_utf8_string)(b, OSSL_PKEY_PARAM_GROUP_NAME, c->name, 0) &&
	    P(OSSL_PARAM_BLD_push_octet_string)(b, OSSL_PKEY_PARAM_PUB_KEY, pub, publen) &&
	    (!bn || P(OSSL_PARAM_BLD_push_BN)(b, OSSL_PKEY_PARAM_PRIV_KEY, bn)) &&
	    (params = P(OSSL_PARAM_BLD_to_param)(b)) && P(EVP_PKEY_fromdata_init)(ctx) > 0) {
		if (P(EVP_PKEY_fromdata)(ctx, &k, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0) k = NULL;
	}
	P(EVP_PKEY_CTX_free)(ctx);
	P(OSSL_PARAM_free)(params);
	P(BN_free)(bn);
	P(OSSL_PARAM_BLD_free)(b);
	return k;
}

// ---- algorithm names ----
// Signatures: "ED25519", "ED448", "ECDSA:P-256:SHA256". Agreements:
// "X25519", "X448", "ECDH:P-256".

static int oc_raw_type(const char *alg) {
	if (!strcmp(alg, "ED25519")) return EVP_PKEY_ED25519;
	if (!strcmp(alg, "ED448")) return EVP_PKEY_ED448;
	if (!strcmp(alg, "X25519")) return EVP_PKEY_X25519;
	if (!strcmp(alg, "X448")) return EVP_PKEY_X448;
	return 0;
}

static EVP_PKEY_CTX *oc_keygen_ctx(const char *alg, const oc_curve **curve) {
	char buf[64], *part[3];
	cc_split(alg, buf, sizeof buf, part, 3);
	*curve = NULL;
	if (oc_raw_type(alg)) {
		EVP_PKEY_CTX *ctx = P(EVP_PKEY_CTX_new_from_name)(NULL, alg, NULL);
		if (ctx && P(EVP_PKEY_keygen_init)(ctx) > 0) return ctx;
		P(EVP_PKEY_CTX_free)(ctx);
		return NULL;
	}
	if (!part[1] || !(*curve = oc_curve_of(part[1]))) return NULL;
	EVP_PKEY_CTX *ctx = P(EVP_PKEY_CTX_new_from_name)(NULL, "EC", NULL);
	if (ctx && P(EVP_PKEY_keygen_init)(ctx) > 0 && P(EVP_PKEY_CTX_set_group_name)(ctx, (*curve)->name) > 0) return ctx;
	P(EVP_PKEY_CTX_free)(ctx);
	return NULL;
}

int oc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) {
	const oc_curve *c;
	EVP_PKEY_CTX *ctx = oc_keygen_ctx(alg, &c);
	EVP_PKEY *k = NULL;
	int rc = -1;
	if (!ctx || P(EVP_PKEY_keygen)(ctx, &k) <= 0) {
		oc_err(err, errlen, "keygen");
		goto done;
	}
	if (!c) {
		if (P(EVP_PKEY_get_raw_private_key)(k, priv, privlen) <= 0 || P(EVP_PKEY_get_raw_public_key)(k, pub, publen) <= 0) {
			oc_err(err, errlen, "raw key");
			goto done;
		}
	} else {
		BIGNUM *d = NULL;
		if (P(EVP_PKEY_get_bn_param)(k, OSSL_PKEY_PARAM_PRIV_KEY, &d) <= 0 || (size_t)c->len > *privlen ||
		    P(BN_bn2binpad)(d, priv, c->len) < 0 ||
		    P(EVP_PKEY_get_octet_string_param)(k, OSSL_PKEY_PARAM_PUB_KEY, pub, *publen, publen) <= 0) {
			P(BN_free)(d);
			oc_err(err, errlen, "EC key");
			goto done;
		}
		*privlen = c->len;
		P(BN_free)(d);
	}
	rc = 0;
done:
	P(EVP_PKEY_free)(k);
	P(EVP_PKEY_CTX_free)(ctx);
	return rc;
}

int oc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) {
	int t = oc_raw_type(alg);
	if (t) {
		EVP_PKEY *k = P(EVP_PKEY_new_raw_private_key)(t, NULL, priv, privlen);
		int ok = k && P(EVP_PKEY_get_raw_public_key)(k, pub, publen) > 0;
		P(EVP_PKEY_free)(k);
		if (!ok) oc_err(err, errlen, "raw private key");
		return ok ? 0 : -1;
	}
	char buf[64], *part[3];
	cc_split(alg, buf, sizeof buf, part, 3);
	const oc_curve *c = part[1] ? oc_curve_of(part[1]) : NULL;
	if (!c || privlen != (size_t)c->len || oc_ec_public(c, priv, privlen, pub, publen)) {
		CC_ERR(err, errlen, "%s: bad private scalar", alg);
		return -1;
	}
	return 0;
}

// ---- jobs ----

void oc_free(cc_job *j) {
	if (!j) return;
	cc_free_inputs(&j->in);
	free(j->out);
	P(EVP_MD_CTX_free)(j->mdctx);
	P(EVP_MD_free)(j->md);
	P(EVP_MAC_CTX_free)(j->macctx);
	P(EVP_MAC_free)(j->mac);
	P(EVP_CIPHER_CTX_free)(j->cctx);
	P(EVP_CIPHER_free)(j->cipher);
	P(EVP_PKEY_CTX_free)(j->pctx);
	P(EVP_PKEY_free)(j->pkey);
	P(EVP_PKEY_free)(j->peer);
	free(j);
}

static int oc_new_digest(cc_job *j, const char *alg, char *err, size_t errlen) {
	char buf[64], *part[2];
	cc_split(alg, buf, sizeof buf, part, 2); // "SHAKE128:32": an XOF read to 32 bytes
	if (!(j->md = P(EVP_MD_fetch)(NULL, part[0], NULL)) || !(j->mdctx = P(EVP_MD_CTX_new)())) {
		oc_err(err, errlen, part[0]);
		return -1;
	}
	j->xoflen = part[1] ? (size_t)atoi(part[1]) : 0;
	j->outcap = j->xoflen ? j->xoflen : EVP_MAX_MD_SIZE;
	return 0;
}

static int oc_digest(cc_job *j, const uint8_t *msg, size_t len, uint8_t *out, size_t *outlen) {
	unsigned int n = 0;
	if (P(EVP_DigestInit_ex)(j->mdctx, j->md, NULL) <= 0 || P(EVP_DigestUpdate)(j->mdctx, msg, len) <= 0) return -1;
	if (j->xoflen) {
		*outlen = j->xoflen;
		return P(EVP_DigestFinalXOF)(j->mdctx, out, j->xoflen) > 0 ? 0 : -1;
	}
	if (P(EVP_DigestFinal_ex)(j->mdctx, out, &n) <= 0) return -1;
	*outlen = n;
	return 0;
}

// MACs: "HMAC:SHA256", "CMAC:AES-128-CBC", "POLY1305".
static int oc_new_mac(cc_job *j, const char *alg, char *err, size_t errlen) {
	char buf[64], *part[2];
	cc_split(alg, buf, sizeof buf, part, 2);
	if (!(j->mac = P(EVP_MAC_fetch)(NULL, part[0], NULL)) || !(j->macctx = P(EVP_MAC_CTX_new)(j->mac))) {
		oc_err(err, errlen, part[0]);
		return -1;
	}
	if (part[1]) {
		OSSL_PARAM params[2] = {
			P(OSSL_PARAM_construct_utf8_string)(!strcmp(part[0], "HMAC") ? OSSL_MAC_PARAM_DIGEST : OSSL_MAC_PARAM_CIPHER, part[1], 0),
			P(OSSL_PARAM_construct_end)(),
		};
		if (P(EVP_MAC_CTX_set_params)(j->macctx, params) <= 0) {
			oc_err(err, errlen, part[1]);
			return -1;
		}
	}
	j->mac_rekey = !strcmp(part[0], "POLY1305");
	// A reusable key is set once; each call re-initialises with it
	// (EVP_MAC_init with a NULL key), as a keyed Go MAC is Reset.
	if (!j->mac_rekey && P(EVP_MAC_init)(j->macctx, j->in.p[0], j->in.n[0], NULL) <= 0) {
		oc_err(err, errlen, "MAC key");
		return -1;
	}
	j->outcap = EVP_MAX_MD_SIZE;
	return 0;
}

// AEADs: "AES-128-GCM", "ChaCha20-Poly1305", "AES-128-CCM:8" (CCM's tag
// length). The key is set once; each call sets the nonce, as TLS does per
// record and `openssl speed -evp` does per call.
static int oc_new_aead(cc_job *j, const char *alg, char *err, size_t errlen) {
	char buf[64], *part[2];
	cc_split(alg, buf, sizeof buf, part, 2);
	int enc = j->kind == CC_SEAL;
	j->aead = strstr(part[0], "CCM") ? 2 : 1;
	j->taglen = part[1] ? atoi(part[1]) : 16;
	size_t ctlen = j->in.n[3];
	if (!enc) {
		if (ctlen < (size_t)j->taglen) {
			CC_ERR(err, errlen, "ciphertext shorter than the tag");
			return -1;
		}
		ctlen -= j->taglen;
	}
	if (!(j->cipher = P(EVP_CIPHER_fetch)(NULL, part[0], NULL)) || !(j->cctx = P(EVP_CIPHER_CTX_new)()) ||
	    P(EVP_CipherInit_ex)(j->cctx, j->cipher, NULL, NULL, NULL, enc) <= 0 ||
	    P(EVP_CIPHER_CTX_ctrl)(j->cctx, EVP_CTRL_AEAD_SET_IVLEN, (int)j->in.n[1], NULL) <= 0) {
		oc_err(err, errlen, part[0]);
		return -1;
	}
	if (j->aead == 2) {
		const uint8_t *tag = enc ? NULL : j->in.p[3] + ctlen;
		if (P(EVP_CIPHER_CTX_ctrl)(j->cctx, EVP_CTRL_AEAD_SET_TAG, j->taglen, (void *)tag) <= 0) {
			oc_err(err, errlen, "CCM tag length");
			return -1;
		}
	}
	if (P(EVP_CipherInit_ex)(j->cctx, NULL, NULL, j->in.p[0], NULL, enc) <= 0) {
		oc_err(err, errlen, "key");
		return -1;
	}
	j->outcap = ctlen + (enc ? j->taglen : 0);
	return 0;
}

static int oc_aead(cc_job *j) {
	int enc = j->kind == CC_SEAL, l = 0, l2 = 0;
	const uint8_t *nonce = j->in.p[1], *ad = j->in.p[2], *in = j->in.p[3];
	size_t adlen = j->in.n[2], inlen = j->in.n[3] - (enc ? 0 : j->taglen);
	EVP_CIPHER_CTX *c = j->cctx;
	if (!enc && j->aead == 1 && P(EVP_CIPHER_CTX_ctrl)(c, EVP_CTRL_AEAD_SET_TAG, j->taglen, (void *)(in + inlen)) <= 0) return -1;
	if (!enc && j->aead == 2 && P(EVP_CIPHER_CTX_ctrl)(c, EVP_CTRL_AEAD_SET_TAG, j->taglen, (void *)(in + inlen)) <= 0) return -1;
	if (P(EVP_CipherInit_ex)(c, NULL, NULL, NULL, nonce, enc) <= 0) return -1;
	if (j->aead == 2 && P(EVP_CipherUpdate)(c, NULL, &l, NULL, (int)inlen) <= 0) return -1; // CCM: the length first
	if (adlen && P(EVP_CipherUpdate)(c, NULL, &l, ad, (int)adlen) <= 0) return -1;
	if (P(EVP_CipherUpdate)(c, j->out, &l, in, (int)inlen) <= 0) return -2; // CCM decryption verifies here
	if (j->aead == 1 && P(EVP_CipherFinal_ex)(c, j->out + l, &l2) <= 0) return -2;
	if (enc && P(EVP_CIPHER_CTX_ctrl)(c, EVP_CTRL_AEAD_GET_TAG, j->taglen, j->out + inlen) <= 0) return -1;
	j->outlen = inlen + (enc ? j->taglen : 0);
	return 0;
}

// Block modes: "AES-128-CBC" and so on, without padding (the sizes are
// whole blocks for ECB and CBC, as for the Go schemes).
static int oc_new_crypt(cc_job *j, const char *alg, char *err, size_t errlen) {
	int enc = j->kind == CC_ENCRYPT;
	if (!(j->cipher = P(EVP_CIPHER_fetch)(NULL, alg, NULL)) || !(j->cctx = P(EVP_CIPHER_CTX_new)()) ||
	    P(EVP_CipherInit_ex)(j->cctx, j->cipher, NULL, j->in.p[0], j->in.n[1] ? j->in.p[1] : NULL, enc) <= 0 ||
	    P(EVP_CIPHER_CTX_set_padding)(j->cctx, 0) <= 0) {
		oc_err(err, errlen, alg);
		return -1;
	}
	j->outcap = j->in.n[2] + 32;
	return 0;
}

static int oc_crypt(cc_job *j) {
	int l = 0, l2 = 0;
	if (P(EVP_CipherInit_ex)(j->cctx, NULL, NULL, NULL, j->in.n[1] ? j->in.p[1] : NULL, -1) <= 0 ||
	    P(EVP_CipherUpdate)(j->cctx, j->out, &l, j->in.p[2], (int)j->in.n[2]) <= 0 ||
	    P(EVP_CipherFinal_ex)(j->cctx, j->out + l, &l2) <= 0)
		return -1;
	j->outlen = l + l2;
	return 0;
}

// Signatures. EdDSA signs the message with EVP_DigestSign on one context
// (as `openssl speed ed25519` does); ECDSA hashes the message and signs the
// digest with EVP_PKEY_sign on one context (as `openssl speed ecdsa` does
// for the signing, plus the hash our schemes include).
static int oc_new_sign(cc_job *j, const char *alg, char *err, size_t errlen) {
	int sign = j->kind == CC_SIGN;
	int t = oc_raw_type(alg);
	j->outcap = 256;
	if (t) {
		j->eddsa = 1;
		j->pkey = sign ? P(EVP_PKEY_new_raw_private_key)(t, NULL, j->in.p[0], j->in.n[0])
		               : P(EVP_PKEY_new_raw_public_key)(t, NULL, j->in.p[0], j->in.n[0]);
		if (!j->pkey || !(j->mdctx = P(EVP_MD_CTX_new)()) ||
		    (sign ? P(EVP_DigestSignInit)(j->mdctx, NULL, NULL, NULL, j->pkey)
		          : P(EVP_DigestVerifyInit)(j->mdctx, NULL, NULL, NULL, j->pkey)) <= 0) {
			oc_err(err, errlen, alg);
			return -1;
		}
		return 0;
	}
	char buf[64], *part[3];
	cc_split(alg, buf, sizeof buf, part, 3);
	const oc_curve *c = part[1] ? oc_curve_of(part[1]) : NULL;
	if (!c || !part[2]) {
		CC_ERR(err, errlen, "unknown signature %s", alg);
		return -1;
	}
	j->pkey = sign ? oc_ec_key(c, j->in.p[0], j->in.n[0], NULL, 0) : oc_ec_key(c, NULL, 0, j->in.p[0], j->in.n[0]);
	if (!j->pkey || !(j->md = P(EVP_MD_fetch)(NULL, part[2], NULL)) || !(j->mdctx = P(EVP_MD_CTX_new)()) ||
	    !(j->pctx = P(EVP_PKEY_CTX_new)(j->pkey, NULL)) ||
	    (sign ? P(EVP_PKEY_sign_init)(j->pctx) : P(EVP_PKEY_verify_init)(j->pctx)) <= 0) {
		oc_err(err, errlen, alg);
		return -1;
	}
	return 0;
}

static int oc_sign(cc_job *j) {
	const uint8_t *msg = j->in.p[1];
	size_t mlen = j->in.n[1];
	if (j->eddsa) {
		size_t n = j->outcap;
		if (j->kind == CC_SIGN) {
			if (P(EVP_DigestSign)(j->mdctx, j->out, &n, msg, mlen) <= 0) return -1;
			j->outlen = n;
			return 0;
		}
		return P(EVP_DigestVerify)(j->mdctx, j->in.p[2], j->in.n[2], msg, mlen) == 1 ? 0 : -2;
	}
	size_t dl = 0, n = j->outcap;
	if (oc_digest(j, msg, mlen, j->dg, &dl)) return -1;
	if (j->kind == CC_SIGN) {
		if (P(EVP_PKEY_sign)(j->pctx, j->out, &n, j->dg, dl) <= 0) return -1;
		j->outlen = n;
		return 0;
	}
	return P(EVP_PKEY_verify)(j->pctx, j->in.p[2], j->in.n[2], j->dg, dl) == 1 ? 0 : -2;
}

// Agreements: the peer is decoded, checked and set once (set_peer), then
// each call derives, as `openssl speed ecdh` times it.
static int oc_new_derive(cc_job *j, const char *alg, char *err, size_t errlen) {
	int t = oc_raw_type(alg);
	if (t) {
		j->pkey = P(EVP_PKEY_new_raw_private_key)(t, NULL, j->in.p[0], j->in.n[0]);
		j->peer = P(EVP_PKEY_new_raw_public_key)(t, NULL, j->in.p[1], j->in.n[1]);
	} else {
		char buf[64], *part[2];
		cc_split(alg, buf, sizeof buf, part, 2);
		const oc_curve *c = part[1] ? oc_curve_of(part[1]) : NULL;
		if (!c) {
			CC_ERR(err, errlen, "unknown agreement %s", alg);
			return -1;
		}
		j->pkey = oc_ec_key(c, j->in.p[0], j->in.n[0], NULL, 0);
		j->peer = oc_ec_key(c, NULL, 0, j->in.p[1], j->in.n[1]);
	}
	if (!j->pkey || !j->peer || !(j->pctx = P(EVP_PKEY_CTX_new)(j->pkey, NULL)) || P(EVP_PKEY_derive_init)(j->pctx) <= 0 ||
	    P(EVP_PKEY_derive_set_peer)(j->pctx, j->peer) <= 0) {
		oc_err(err, errlen, "peer or key rejected");
		return -1;
	}
	j->outcap = 256;
	return 0;
}

static int oc_derive(cc_job *j) {
	size_t n = j->outcap;
	if (P(EVP_PKEY_derive)(j->pctx, j->out, &n) <= 0) return -1;
	j->outlen = n;
	return 0;
}

static const int oc_nin[] = {[CC_DIGEST] = 1, [CC_MAC] = 2, [CC_SEAL] = 4, [CC_OPEN] = 4, [CC_ENCRYPT] = 3,
                             [CC_DECRYPT] = 3, [CC_SIGN] = 2, [CC_VERIFY] = 3, [CC_KEYGEN] = 0, [CC_DERIVE] = 2};

cc_job *oc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) {
	if (kind < CC_DIGEST || kind > CC_DERIVE) {
		CC_ERR(err, errlen, "unknown job kind %d", kind);
		return NULL;
	}
	cc_job *j = calloc(1, sizeof *j);
	if (!j) return NULL;
	j->kind = kind;
	int rc = cc_copy_inputs(&j->in, in, nin, oc_nin[kind], err, errlen);
	const oc_curve *c;
	if (!rc) switch (kind) {
		case CC_DIGEST: rc = oc_new_digest(j, alg, err, errlen); break;
		case CC_MAC: rc = oc_new_mac(j, alg, err, errlen); break;
		case CC_SEAL:
		case CC_OPEN: rc = oc_new_aead(j, alg, err, errlen); break;
		case CC_ENCRYPT:
		case CC_DECRYPT: rc = oc_new_crypt(j, alg, err, errlen); break;
		case CC_SIGN:
		case CC_VERIFY: rc = oc_new_sign(j, alg, err, errlen); break;
		case CC_KEYGEN:
			if (!(j->pctx = oc_keygen_ctx(alg, &c))) {
				oc_err(err, errlen, alg);
				rc = -1;
			}
			break;
		case CC_DERIVE: rc = oc_new_derive(j, alg, err, errlen); break;
		}
	if (!rc && !(j->out = malloc(j->outcap ? j->outcap : 1))) rc = -1;
	if (rc) {
		oc_free(j);
		return NULL;
	}
	return j;
}

int oc_run(cc_job *j, long n) {
	int rc = 0;
	for (long i = 0; i < n && !rc; i++) {
		switch (j->kind) {
		case CC_DIGEST: rc = oc_digest(j, j->in.p[0], j->in.n[0], j->out, &j->outlen); break;
		case CC_MAC:
			if (P(EVP_MAC_init)(j->macctx, j->mac_rekey ? j->in.p[0] : NULL, j->mac_rekey ? j->in.n[0] : 0, NULL) <= 0 ||
			    P(EVP_MAC_update)(j->macctx, j->in.p[1], j->in.n[1]) <= 0 ||
			    P(EVP_MAC_final)(j->macctx, j->out, &j->outlen, j->outcap) <= 0)
				rc = -1;
			break;
		case CC_SEAL:
		case CC_OPEN: rc = oc_aead(j); break;
		case CC_ENCRYPT:
		case CC_DECRYPT: rc = oc_crypt(j); break;
		case CC_SIGN:
		case CC_VERIFY: rc = oc_sign(j); break;
		case CC_KEYGEN: {
			EVP_PKEY *k = NULL;
			rc = P(EVP_PKEY_keygen)(j->pctx, &k) > 0 ? 0 : -1;
			P(EVP_PKEY_free)(k);
			break;
		}
		case CC_DERIVE: rc = oc_derive(j); break;
		}
	}
	if (rc)
		while (P(ERR_get_error)()) {
		}
	return rc;
}

const uint8_t *oc_output(cc_job *j, size_t *n) {
	*n = j->outlen;
	return j->out;
}

#else // no headers at build time: the provider is compiled in as absent

const uint8_t *oc_output(cc_job *j, size_t *n) { *n = 0; return NULL; }
int oc_load(char *version, size_t vlen, char *err, size_t errlen) {
	(void)version, (void)vlen;
	CC_ERR(err, errlen, "built without OpenSSL's headers (<openssl/evp.h> was not found)");
	return -2;
}
cc_job *oc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) { return NULL; }
int oc_run(cc_job *j, long n) { return -1; }
void oc_free(cc_job *j) {}
int oc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) { return -1; }
int oc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) { return -1; }
#endif

void oc_null(void) {}
