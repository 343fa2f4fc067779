// mbedTLS 2.28 libmbedcrypto behind ccjob.h. See doc.go.
#include "ccjob.h"
#include "mbedtls_cc.h"

#if __has_include(<mbedtls/version.h>)
#include <dlfcn.h>
#include <mbedtls/cipher.h>
#include <mbedtls/cmac.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/ecdh.h>
#include <mbedtls/ecdsa.h>
#include <mbedtls/entropy.h>
#include <mbedtls/md.h>
#include <mbedtls/poly1305.h>
#include <mbedtls/version.h>

#define FUNCS(X)                                                                                           \
	X(mbedtls_version_get_string_full) X(mbedtls_md_info_from_string) X(mbedtls_md) X(mbedtls_md_init)       \
	X(mbedtls_md_setup) X(mbedtls_md_free) X(mbedtls_md_hmac_starts) X(mbedtls_md_hmac_reset)                \
	X(mbedtls_md_hmac_update) X(mbedtls_md_hmac_finish) X(mbedtls_md_get_size) X(mbedtls_md_get_type)       \
	X(mbedtls_cipher_info_from_string) X(mbedtls_cipher_init) X(mbedtls_cipher_setup) X(mbedtls_cipher_free) \
	X(mbedtls_cipher_setkey) X(mbedtls_cipher_set_padding_mode) X(mbedtls_cipher_crypt)                     \
	X(mbedtls_cipher_update) X(mbedtls_cipher_reset) X(mbedtls_cipher_auth_encrypt_ext)                     \
	X(mbedtls_cipher_auth_decrypt_ext) X(mbedtls_cipher_cmac_starts) X(mbedtls_cipher_cmac_update)          \
	X(mbedtls_cipher_cmac_finish) X(mbedtls_cipher_cmac_reset) X(mbedtls_poly1305_mac)                      \
	X(mbedtls_entropy_init) X(mbedtls_entropy_func) X(mbedtls_ctr_drbg_init) X(mbedtls_ctr_drbg_seed)        \
	X(mbedtls_ctr_drbg_random) X(mbedtls_ecp_keypair_init) X(mbedtls_ecp_keypair_free)                      \
	X(mbedtls_ecp_group_load) X(mbedtls_ecp_read_key) X(mbedtls_ecp_mul) X(mbedtls_ecp_point_read_binary)   \
	X(mbedtls_ecp_point_write_binary) X(mbedtls_ecp_check_pubkey) X(mbedtls_ecp_gen_key)                    \
	X(mbedtls_mpi_init) X(mbedtls_mpi_free) X(mbedtls_mpi_write_binary) X(mbedtls_mpi_write_binary_le)      \
	X(mbedtls_ecdsa_write_signature) X(mbedtls_ecdsa_read_signature) X(mbedtls_ecdh_compute_shared)

FUNCS(CC_DECLARE)

static void *cc_handle;
static const char *cc_soname = "libmbedcrypto.so.7";
static mbedtls_entropy_context entropy;
static mbedtls_ctr_drbg_context drbg;

int mc_load(char *version, size_t vlen, char *err, size_t errlen) {
	cc_handle = dlopen(cc_soname, RTLD_NOW | RTLD_LOCAL);
	if (!cc_handle) {
		CC_ERR(err, errlen, "cannot open %s: %s", cc_soname, dlerror());
		return -1;
	}
	FUNCS(CC_RESOLVE)
	P(mbedtls_entropy_init)(&entropy);
	P(mbedtls_ctr_drbg_init)(&drbg);
	if (P(mbedtls_ctr_drbg_seed)(&drbg, P(mbedtls_entropy_func), &entropy, (const unsigned char *)"cryptocost", 10)) {
		CC_ERR(err, errlen, "seeding CTR_DRBG failed");
		return -1;
	}
	char v[64] = "";
	P(mbedtls_version_get_string_full)(v);
	snprintf(version, vlen, "%s", v);
	return 0;
}

static int rng(void *p, unsigned char *out, size_t n) { return P(mbedtls_ctr_drbg_random)(p, out, n); }

// Curves: "ECDSA:P-256:SHA256", "ECDH:P-256", "X25519", "X448".
typedef struct {
	const char *name;
	mbedtls_ecp_group_id id;
	int len, le; // scalar/field bytes; little-endian (RFC 7748) encodings
} mc_curve;

static const mc_curve *mc_curve_of(const char *alg, const char **hash) {
	static const mc_curve curves[] = {
		{"P-224", MBEDTLS_ECP_DP_SECP224R1, 28, 0}, {"P-256", MBEDTLS_ECP_DP_SECP256R1, 32, 0},
		{"P-384", MBEDTLS_ECP_DP_SECP384R1, 48, 0}, {"P-521", MBEDTLS_ECP_DP_SECP521R1, 66, 0},
		{"X25519", MBEDTLS_ECP_DP_CURVE25519, 32, 1}, {"X448", MBEDTLS_ECP_DP_CURVE448, 56, 1},
		// MBEDTLS_ECP_DP_SECP256K1_ENABLED, MBEDTLS_ECP_DP_BP{256,384,512}R1_ENABLED in Debian's config.h
		{"secp256k1", MBEDTLS_ECP_DP_SECP256K1, 32, 0}, {"brainpoolP256r1", MBEDTLS_ECP_DP_BP256R1, 32, 0},
		{"brainpoolP384r1", MBEDTLS_ECP_DP_BP384R1, 48, 0}, {"brainpoolP512r1", MBEDTLS_ECP_DP_BP512R1, 64, 0},
	};
	static __thread char buf[64];
	char *part[3];
	int n = cc_split(alg, buf, sizeof buf, part, 3);
	const char *c = n >= 2 ? part[1] : part[0];
	if (hash) *hash = n >= 3 ? part[2] : NULL;
	for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
		if (!strcmp(curves[i].name, c)) return &curves[i];
	return NULL;
}

static int mc_write_pub(const mc_curve *c, mbedtls_ecp_keypair *k, uint8_t *pub, size_t *publen) {
	size_t n = 0;
	if (P(mbedtls_ecp_point_write_binary)(&k->grp, &k->Q, MBEDTLS_ECP_PF_UNCOMPRESSED, &n, pub, *publen)) return -1;
	*publen = n;
	return 0;
}

// mc_key reads a raw private key (and computes its public point) or a raw
// public key into k.
static int mc_key(const mc_curve *c, mbedtls_ecp_keypair *k, const uint8_t *priv, size_t privlen, const uint8_t *pub, size_t publen) {
	P(mbedtls_ecp_keypair_init)(k);
	if (priv) {
		if ((size_t)c->len != privlen || P(mbedtls_ecp_read_key)(c->id, k, priv, privlen)) return -1;
		return P(mbedtls_ecp_mul)(&k->grp, &k->Q, &k->d, &k->grp.G, rng, &drbg);
	}
	if (P(mbedtls_ecp_group_load)(&k->grp, c->id) || P(mbedtls_ecp_point_read_binary)(&k->grp, &k->Q, pub, publen)) return -1;
	return P(mbedtls_ecp_check_pubkey)(&k->grp, &k->Q);
}

int mc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) {
	const mc_curve *c = mc_curve_of(alg, NULL);
	mbedtls_ecp_keypair k;
	P(mbedtls_ecp_keypair_init)(&k);
	int rc = !c || (size_t)c->len > *privlen || P(mbedtls_ecp_gen_key)(c->id, &k, rng, &drbg) ||
	         (c->le ? P(mbedtls_mpi_write_binary_le)(&k.d, priv, c->len) : P(mbedtls_mpi_write_binary)(&k.d, priv, c->len)) ||
	         mc_write_pub(c, &k, pub, publen);
	P(mbedtls_ecp_keypair_free)(&k);
	if (rc) {
		CC_ERR(err, errlen, "%s: key generation failed", alg);
		return -1;
	}
	*privlen = c->len;
	return 0;
}

int mc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) {
	const mc_curve *c = mc_curve_of(alg, NULL);
	mbedtls_ecp_keypair k;
	int rc = !c || mc_key(c, &k, priv, privlen, NULL, 0) || mc_write_pub(c, &k, pub, publen);
	if (c) P(mbedtls_ecp_keypair_free)(&k);
	if (rc) {
		CC_ERR(err, errlen, "%s: bad private key", alg);
		return -1;
	}
	return 0;
}

struct cc_job {
	int kind;
	cc_inputs in;
	uint8_t *out;
	size_t outcap, outlen;
	const mbedtls_md_info_t *md;
	mbedtls_md_context_t mdctx;
	int mdctx_set;
	mbedtls_cipher_context_t cctx;
	int cctx_set, mode, cmac, poly1305, taglen, block;
	const mc_curve *curve;
	mbedtls_ecp_keypair key, peer;
	int keys;
	uint8_t dg[MBEDTLS_MD_MAX_SIZE];
};

void mc_free(cc_job *j) {
	if (!j) return;
	cc_free_inputs(&j->in);
	free(j->out);
	if (j->mdctx_set) P(mbedtls_md_free)(&j->mdctx);
	if (j->cctx_set) P(mbedtls_cipher_free)(&j->cctx);
	if (j->keys & 1) P(mbedtls_ecp_keypair_free)(&j->key);
	if (j->keys & 2) P(mbedtls_ecp_keypair_free)(&j->peer);
	free(j);
}

static int mc_cipher(cc_job *j, const char *name, const uint8_t *key, size_t keylen, mbedtls_operation_t op) {
	const mbedtls_cipher_info_t *info = P(mbedtls_cipher_info_from_string)(name);
	if (!info) return -1;
	P(mbedtls_cipher_init)(&j->cctx);
	j->cctx_set = 1;
	j->mode = info->mode;
	j->block = info->block_size;
	if (P(mbedtls_cipher_setup)(&j->cctx, info)) return -1;
	if (key && P(mbedtls_cipher_setkey)(&j->cctx, key, (int)keylen * 8, op)) return -1;
	return 0;
}

static const int mc_nin[] = {[CC_DIGEST] = 1, [CC_MAC] = 2, [CC_SEAL] = 4, [CC_OPEN] = 4, [CC_ENCRYPT] = 3,
                             [CC_DECRYPT] = 3, [CC_SIGN] = 2, [CC_VERIFY] = 3, [CC_KEYGEN] = 0, [CC_DERIVE] = 2};

cc_job *mc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) {
	if (kind < CC_DIGEST || kind > CC_DERIVE) {
		CC_ERR(err, errlen, "unknown job kind %d", kind);
		return NULL;
	}
	cc_job *j = calloc(1, sizeof *j);
	if (!j) return NULL;
	j->kind = kind;
	int rc = cc_copy_inputs(&j->in, in, nin, mc_nin[kind], err, errlen);
	cc_inputs *x = &j->in;
	char buf[64], *part[3];
	const char *hash;
	cc_split(alg, buf, sizeof buf, part, 3);
	j->outcap = 256;
	if (!rc) switch (kind) {
		case CC_DIGEST: rc = !(j->md = P(mbedtls_md_info_from_string)(alg)); break;
		case CC_MAC:
			// "HMAC:SHA256" (keyed once, reset per call), "CMAC:AES-128-ECB", "POLY1305".
			if (!strcmp(part[0], "HMAC")) {
				P(mbedtls_md_init)(&j->mdctx);
				j->mdctx_set = 1;
				rc = !part[1] || !(j->md = P(mbedtls_md_info_from_string)(part[1])) || P(mbedtls_md_setup)(&j->mdctx, j->md, 1) ||
				     P(mbedtls_md_hmac_starts)(&j->mdctx, x->p[0], x->n[0]);
			} else if (!strcmp(part[0], "CMAC")) {
				j->cmac = 1;
				rc = !part[1] || mc_cipher(j, part[1], NULL, 0, MBEDTLS_ENCRYPT) ||
				     P(mbedtls_cipher_cmac_starts)(&j->cctx, x->p[0], x->n[0] * 8);
			} else {
				j->poly1305 = 1;
				rc = x->n[0] != 32;
			}
			break;
		case CC_SEAL:
		case CC_OPEN:
			// "AES-128-GCM", "AES-128-CCM:8", "CHACHA20-POLY1305": key set once.
			j->taglen = part[1] ? atoi(part[1]) : 16;
			rc = mc_cipher(j, part[0], x->p[0], x->n[0], kind == CC_SEAL ? MBEDTLS_ENCRYPT : MBEDTLS_DECRYPT) ||
			     (kind == CC_OPEN && x->n[3] < (size_t)j->taglen);
			j->outcap = x->n[3] + j->taglen;
			break;
		case CC_ENCRYPT:
		case CC_DECRYPT:
			rc = mc_cipher(j, alg, x->p[0], x->n[0], kind == CC_ENCRYPT ? MBEDTLS_ENCRYPT : MBEDTLS_DECRYPT) ||
			     (j->mode == MBEDTLS_MODE_CBC && P(mbedtls_cipher_set_padding_mode)(&j->cctx, MBEDTLS_PADDING_NONE));
			j->outcap = x->n[2] + 32;
			break;
		case CC_SIGN:
		case CC_VERIFY:
			if (!(j->curve = mc_curve_of(alg, &hash)) || !hash || !(j->md = P(mbedtls_md_info_from_string)(hash))) {
				rc = -1;
				break;
			}
			j->keys = 1;
			rc = kind == CC_SIGN ? mc_key(j->curve, &j->key, x->p[0], x->n[0], NULL, 0)
			                     : mc_key(j->curve, &j->key, NULL, 0, x->p[0], x->n[0]);
			break;
		case CC_KEYGEN: rc = !(j->curve = mc_curve_of(alg, NULL)); break;
		case CC_DERIVE:
			// The peer is read and checked once; each call multiplies.
			if (!(j->curve = mc_curve_of(alg, NULL))) {
				rc = -1;
				break;
			}
			j->keys = 3;
			rc = mc_key(j->curve, &j->key, x->p[0], x->n[0], NULL, 0) || mc_key(j->curve, &j->peer, NULL, 0, x->p[1], x->n[1]);
			j->outcap = j->curve->len;
			break;
		}
	if (rc && !err[0]) CC_ERR(err, errlen, "%s: unsupported, or bad key or parameters", alg);
	if (!rc && !(j->out = malloc(j->outcap))) rc = -1;
	if (rc) {
		mc_free(j);
		return NULL;
	}
	return j;
}

static int mc_once(cc_job *j) {
	cc_inputs *x = &j->in;
	size_t n = 0;
	switch (j->kind) {
	case CC_DIGEST:
		j->outlen = P(mbedtls_md_get_size)(j->md);
		return P(mbedtls_md)(j->md, x->p[0], x->n[0], j->out);
	case CC_MAC:
		if (j->poly1305) {
			j->outlen = 16;
			return P(mbedtls_poly1305_mac)(x->p[0], x->p[1], x->n[1], j->out);
		}
		if (j->cmac) {
			j->outlen = 16;
			return P(mbedtls_cipher_cmac_reset)(&j->cctx) || P(mbedtls_cipher_cmac_update)(&j->cctx, x->p[1], x->n[1]) ||
			       P(mbedtls_cipher_cmac_finish)(&j->cctx, j->out);
		}
		j->outlen = P(mbedtls_md_get_size)(j->md);
		return P(mbedtls_md_hmac_reset)(&j->mdctx) || P(mbedtls_md_hmac_update)(&j->mdctx, x->p[1], x->n[1]) ||
		       P(mbedtls_md_hmac_finish)(&j->mdctx, j->out);
	case CC_SEAL: {
		int rc = P(mbedtls_cipher_auth_encrypt_ext)(&j->cctx, x->p[1], x->n[1], x->p[2], x->n[2], x->p[3], x->n[3], j->out,
		                                            j->outcap, &n, j->taglen);
		j->outlen = n;
		return rc;
	}
	case CC_OPEN: {
		int rc = P(mbedtls_cipher_auth_decrypt_ext)(&j->cctx, x->p[1], x->n[1], x->p[2], x->n[2], x->p[3], x->n[3], j->out,
		                                            j->outcap, &n, j->taglen);
		j->outlen = n;
		return rc;
	}
	case CC_ENCRYPT:
	case CC_DECRYPT:
		if (j->mode == MBEDTLS_MODE_ECB) {
			// mbedTLS's ECB takes one block per update.
			for (size_t i = 0; i + j->block <= x->n[2]; i += j->block)
				if (P(mbedtls_cipher_update)(&j->cctx, x->p[2] + i, j->block, j->out + i, &n)) return -1;
			j->outlen = x->n[2];
			return 0;
		}
		if (P(mbedtls_cipher_crypt)(&j->cctx, x->p[1], x->n[1], x->p[2], x->n[2], j->out, &n)) return -1;
		j->outlen = n;
		return 0;
	case CC_SIGN:
	case CC_VERIFY: {
		int dl = P(mbedtls_md_get_size)(j->md);
		if (P(mbedtls_md)(j->md, x->p[1], x->n[1], j->dg)) return -1;
		if (j->kind == CC_VERIFY)
			return P(mbedtls_ecdsa_read_signature)(&j->key, j->dg, dl, x->p[2], x->n[2]) ? -2 : 0;
		// With MBEDTLS_ECDSA_DETERMINISTIC (Debian's build) this is RFC 6979.
		if (P(mbedtls_ecdsa_write_signature)(&j->key, P(mbedtls_md_get_type)(j->md), j->dg, dl, j->out, &n, rng, &drbg)) return -1;
		j->outlen = n;
		return 0;
	}
	case CC_KEYGEN: {
		mbedtls_ecp_keypair k;
		P(mbedtls_ecp_keypair_init)(&k);
		int rc = P(mbedtls_ecp_gen_key)(j->curve->id, &k, rng, &drbg);
		P(mbedtls_ecp_keypair_free)(&k);
		return rc;
	}
	case CC_DERIVE: {
		mbedtls_mpi z;
		P(mbedtls_mpi_init)(&z);
		int rc = P(mbedtls_ecdh_compute_shared)(&j->key.grp, &z, &j->peer.Q, &j->key.d, rng, &drbg) ||
		         (j->curve->le ? P(mbedtls_mpi_write_binary_le)(&z, j->out, j->curve->len)
		                       : P(mbedtls_mpi_write_binary)(&z, j->out, j->curve->len));
		P(mbedtls_mpi_free)(&z);
		j->outlen = j->curve->len;
		return rc;
	}
	}
	return -1;
}

int mc_run(cc_job *j, long n) {
	for (long i = 0; i < n; i++)
		if (mc_once(j)) return -1;
	return 0;
}

const uint8_t *mc_output(cc_job *j, size_t *n) {
	*n = j->outlen;
	return j->out;
}

#else

int mc_load(char *version, size_t vlen, char *err, size_t errlen) {
	CC_ERR(err, errlen, "built without mbedTLS's headers (<mbedtls/version.h> was not found)");
	return -2;
}
cc_job *mc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) { return NULL; }
int mc_run(cc_job *j, long n) { return -1; }
const uint8_t *mc_output(cc_job *j, size_t *n) { *n = 0; return NULL; }
void mc_free(cc_job *j) {}
int mc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) { return -1; }
int mc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) { return -1; }
#endif

void mc_null(void) {}
