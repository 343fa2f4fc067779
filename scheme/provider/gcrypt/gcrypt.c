// libgcrypt 1.10 behind ccjob.h. See doc.go.
#include "ccjob.h"
#include "gcrypt_cc.h"

#if __has_include(<gcrypt.h>)
#include <dlfcn.h>
#include <gcrypt.h>

#define FUNCS(X)                                                                                           \
	X(gcry_check_version) X(gcry_control) X(gcry_md_open) X(gcry_md_close) X(gcry_md_reset) X(gcry_md_write) \
	X(gcry_md_read) X(gcry_md_get_algo_dlen) X(gcry_mac_open) X(gcry_mac_close) X(gcry_mac_setkey)          \
	X(gcry_mac_ctl) X(gcry_mac_write) X(gcry_mac_read) X(gcry_cipher_open) X(gcry_cipher_close)             \
	X(gcry_cipher_setkey) X(gcry_cipher_setiv) X(gcry_cipher_setctr) X(gcry_cipher_ctl)                     \
	X(gcry_cipher_encrypt) X(gcry_cipher_decrypt) X(gcry_cipher_authenticate) X(gcry_cipher_gettag)         \
	X(gcry_cipher_checktag) X(gcry_ecc_mul_point) X(gcry_randomize) X(gcry_sexp_build) X(gcry_sexp_release)  \
	X(gcry_sexp_find_token) X(gcry_sexp_nth_data) X(gcry_pk_sign) X(gcry_pk_verify) X(gcry_pk_genkey)        \
	X(gcry_mpi_ec_new) X(gcry_mpi_ec_get_mpi) X(gcry_ctx_release) X(gcry_mpi_release) X(gcry_mpi_print)      \
	X(gcry_mpi_get_opaque) X(gcry_mpi_get_flag) X(gcry_mpi_scan)

FUNCS(CC_DECLARE)

static void *cc_handle;
static const char *cc_soname = "libgcrypt.so.20";

int gc_load(char *version, size_t vlen, char *err, size_t errlen) {
	cc_handle = dlopen(cc_soname, RTLD_NOW | RTLD_LOCAL);
	if (!cc_handle) {
		CC_ERR(err, errlen, "cannot open %s: %s", cc_soname, dlerror());
		return -1;
	}
	FUNCS(CC_RESOLVE)
	const char *v = P(gcry_check_version)(NULL);
	if (!v) {
		CC_ERR(err, errlen, "gcry_check_version failed");
		return -1;
	}
	P(gcry_control)(GCRYCTL_DISABLE_SECMEM, 0);
	P(gcry_control)(GCRYCTL_INITIALIZATION_FINISHED, 0);
	snprintf(version, vlen, "libgcrypt %s", v);
	return 0;
}

static const struct { const char *name; int id; } mds[] = {
	{"MD5", GCRY_MD_MD5}, {"SHA1", GCRY_MD_SHA1}, {"SHA224", GCRY_MD_SHA224}, {"SHA256", GCRY_MD_SHA256},
	{"SHA384", GCRY_MD_SHA384}, {"SHA512", GCRY_MD_SHA512}, {"SHA512_256", GCRY_MD_SHA512_256},
	{"SHA3-224", GCRY_MD_SHA3_224}, {"SHA3-256", GCRY_MD_SHA3_256}, {"SHA3-384", GCRY_MD_SHA3_384},
	{"SHA3-512", GCRY_MD_SHA3_512}, {"BLAKE2B_512", GCRY_MD_BLAKE2B_512}, {"BLAKE2S_256", GCRY_MD_BLAKE2S_256},
	{"RMD160", GCRY_MD_RMD160}, {"WHIRLPOOL", GCRY_MD_WHIRLPOOL}, {"TIGER1", GCRY_MD_TIGER1}, {"TIGER2", GCRY_MD_TIGER2},
};
static const struct { const char *name; int id; } macs[] = {
	{"HMAC_SHA1", GCRY_MAC_HMAC_SHA1}, {"HMAC_SHA256", GCRY_MAC_HMAC_SHA256}, {"HMAC_SHA512", GCRY_MAC_HMAC_SHA512},
	{"CMAC_AES", GCRY_MAC_CMAC_AES}, {"POLY1305", GCRY_MAC_POLY1305},
};
static const struct { const char *name; int id; } ciphers[] = {
	{"AES128", GCRY_CIPHER_AES128}, {"AES192", GCRY_CIPHER_AES192}, {"AES256", GCRY_CIPHER_AES256},
	{"3DES", GCRY_CIPHER_3DES}, {"BLOWFISH", GCRY_CIPHER_BLOWFISH}, {"CAST5", GCRY_CIPHER_CAST5},
	{"TWOFISH128", GCRY_CIPHER_TWOFISH128}, {"TWOFISH", GCRY_CIPHER_TWOFISH}, {"SERPENT128", GCRY_CIPHER_SERPENT128},
	{"SERPENT256", GCRY_CIPHER_SERPENT256}, {"IDEA", GCRY_CIPHER_IDEA}, {"SM4", GCRY_CIPHER_SM4},
	{"CHACHA20", GCRY_CIPHER_CHACHA20}, {"SALSA20", GCRY_CIPHER_SALSA20}, {"ARCFOUR", GCRY_CIPHER_ARCFOUR},
};
static const struct { const char *name; int id; } modes[] = {
	{"ECB", GCRY_CIPHER_MODE_ECB}, {"CBC", GCRY_CIPHER_MODE_CBC}, {"OFB", GCRY_CIPHER_MODE_OFB},
	{"CTR", GCRY_CIPHER_MODE_CTR}, {"STREAM", GCRY_CIPHER_MODE_STREAM}, {"GCM", GCRY_CIPHER_MODE_GCM},
	{"CCM", GCRY_CIPHER_MODE_CCM}, {"POLY1305", GCRY_CIPHER_MODE_POLY1305}, {"GCM_SIV", GCRY_CIPHER_MODE_GCM_SIV},
};
#define LOOKUP(table, key)                                                  \
	({                                                                      \
		const char *k_ = (key);                                             \
		int id_ = 0;                                                        \
		for (size_t i_ = 0; k_ && i_ < sizeof table / sizeof table[0]; i_++) \
			if (!strcmp(table[i_].name, k_)) id_ = table[i_].id;            \
		id_;                                                                \
	})

// Curves for signatures: "ED25519", "ECDSA:NIST P-256:SHA256:32".
struct cc_job {
	int kind, md, mac, cipher, mode, taglen, eddsa, hashlen, flen, curve;
	cc_inputs in;
	uint8_t *out;
	size_t outcap, outlen;
	gcry_md_hd_t mdh;
	gcry_mac_hd_t mach;
	gcry_cipher_hd_t ch;
	gcry_sexp_t key, data, sig;
	char curvename[32];
};

// der_rs writes r and s (big-endian, any length) as DER SEQUENCE { INTEGER
// r, INTEGER s } (RFC 3279 §2.2.3); der_parse reads one back.
static size_t der_int(uint8_t *o, const uint8_t *v, size_t n) {
	while (n > 1 && v[0] == 0) v++, n--;
	int pad = v[0] & 0x80;
	o[0] = 2, o[1] = (uint8_t)(n + (pad ? 1 : 0));
	size_t i = 2;
	if (pad) o[i++] = 0;
	memcpy(o + i, v, n);
	return i + n;
}
static size_t der_rs(uint8_t *o, const uint8_t *r, size_t rn, const uint8_t *s, size_t sn) {
	uint8_t body[2 * 70];
	size_t n = der_int(body, r, rn);
	n += der_int(body + n, s, sn);
	size_t h = 0;
	o[h++] = 0x30;
	if (n >= 128) o[h++] = 0x81;
	o[h++] = (uint8_t)n;
	memcpy(o + h, body, n);
	return h + n;
}
static int der_parse(const uint8_t *d, size_t n, const uint8_t **r, size_t *rn, const uint8_t **s, size_t *sn) {
	size_t i = 0, len;
	if (n < 2 || d[i++] != 0x30) return -1;
	len = d[i++];
	if (len == 0x81 && i < n) len = d[i++];
	else if (len > 0x80) return -1;
	if (i + len != n) return -1;
	for (int k = 0; k < 2; k++) {
		if (i + 2 > n || d[i] != 2 || d[i + 1] > 0x7f || i + 2 + d[i + 1] > n) return -1;
		const uint8_t **p = k ? s : r;
		size_t *pn = k ? sn : rn;
		*pn = d[i + 1], *p = d + i + 2;
		i += 2 + d[i + 1];
	}
	return i == n ? 0 : -1;
}

// token copies the data of (name value) in sexp into out (left-padded to
// want bytes when want > 0); returns its length or -1.
static long token(gcry_sexp_t sexp, const char *name, uint8_t *out, size_t cap, size_t want) {
	gcry_sexp_t t = P(gcry_sexp_find_token)(sexp, name, 0);
	size_t n = 0;
	const char *d = t ? P(gcry_sexp_nth_data)(t, 1, &n) : NULL;
	long rc = -1;
	if (d) {
		// Ed25519's public key may carry gcrypt's 0x40 "native" prefix.
		if (n == 33 && (uint8_t)d[0] == 0x40) d++, n--;
		// An MPI may carry a leading zero byte (its sign): drop it to fit.
		while (want && n > want && d[0] == 0) d++, n--;
		size_t pad = want > n ? want - n : 0;
		if (n + pad <= cap) {
			memset(out, 0, pad);
			memcpy(out + pad, d, n);
			rc = (long)(n + pad);
		}
	}
	P(gcry_sexp_release)(t);
	return rc;
}

static int parse_sign(cc_job *j, const char *alg) {
	char buf[64], *part[4];
	int n = cc_split(alg, buf, sizeof buf, part, 4);
	if (!strcmp(part[0], "ED25519")) {
		j->eddsa = 1, j->flen = 32;
		snprintf(j->curvename, sizeof j->curvename, "Ed25519");
		return 0;
	}
	if (!strcmp(part[0], "ECDSA") && n == 4) {
		snprintf(j->curvename, sizeof j->curvename, "%s", part[1]);
		j->md = LOOKUP(mds, part[2]);
		j->flen = atoi(part[3]);
		return j->md ? 0 : -1;
	}
	if (!strcmp(part[0], "X25519")) return j->curve = GCRY_ECC_CURVE25519, j->flen = 32, 0;
	if (!strcmp(part[0], "X448")) return j->curve = GCRY_ECC_CURVE448, j->flen = 56, 0;
	return -1;
}

// public_of computes the public key of a raw private key with gcrypt's own
// EC context ("q@eddsa": the RFC 8032 encoding; "q": SEC 1 uncompressed).
static int public_of(cc_job *j, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen) {
	if (j->curve) {
		uint8_t base[56] = {0};
		base[0] = j->curve == GCRY_ECC_CURVE25519 ? 9 : 5;
		if (privlen != (size_t)j->flen || P(gcry_ecc_mul_point)(j->curve, pub, priv, base)) return -1;
		*publen = j->flen;
		return 0;
	}
	gcry_sexp_t k = NULL;
	gcry_ctx_t ctx = NULL;
	int rc = -1;
	if (j->eddsa ? P(gcry_sexp_build)(&k, NULL, "(private-key (ecc (curve Ed25519) (flags eddsa) (d %b)))", (int)privlen, priv)
	             : P(gcry_sexp_build)(&k, NULL, "(private-key (ecc (curve %s) (d %b)))", j->curvename, (int)privlen, priv))
		return -1;
	if (!P(gcry_mpi_ec_new)(&ctx, k, NULL)) {
		gcry_mpi_t q = P(gcry_mpi_ec_get_mpi)(j->eddsa ? "q@eddsa" : "q", ctx, 1);
		if (q) {
			size_t n = 0;
			if (P(gcry_mpi_get_flag)(q, GCRYMPI_FLAG_OPAQUE)) {
				unsigned int bits = 0;
				const uint8_t *p = P(gcry_mpi_get_opaque)(q, &bits);
				n = (bits + 7) / 8;
				if (n == 33 && p[0] == 0x40) p++, n--;
				if (n <= *publen) memcpy(pub, p, n), rc = 0;
			} else if (!P(gcry_mpi_print)(GCRYMPI_FMT_USG, pub, *publen, &n, q))
				rc = 0;
			*publen = n;
			P(gcry_mpi_release)(q);
		}
		P(gcry_ctx_release)(ctx);
	}
	P(gcry_sexp_release)(k);
	return rc;
}

static int build_key(cc_job *j, int priv, const uint8_t *k, size_t n) {
	if (!priv) {
		return j->eddsa ? P(gcry_sexp_build)(&j->key, NULL, "(public-key (ecc (curve Ed25519) (flags eddsa) (q %b)))", (int)n, k)
		                : P(gcry_sexp_build)(&j->key, NULL, "(public-key (ecc (curve %s) (q %b)))", j->curvename, (int)n, k);
	}
	// The public key goes in too, so signing does not recompute it.
	uint8_t q[1 + 2 * 66];
	size_t ql = sizeof q;
	if (public_of(j, k, n, q, &ql)) return -1;
	return j->eddsa ? P(gcry_sexp_build)(&j->key, NULL, "(private-key (ecc (curve Ed25519) (flags eddsa) (q %b) (d %b)))", (int)ql, q, (int)n, k)
	                : P(gcry_sexp_build)(&j->key, NULL, "(private-key (ecc (curve %s) (q %b) (d %b)))", j->curvename, (int)ql, q, (int)n, k);
}

int gc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) {
	cc_job j = {0};
	if (parse_sign(&j, alg) || *privlen < (size_t)j.flen) {
		CC_ERR(err, errlen, "%s: no key pairs", alg);
		return -1;
	}
	if (j.curve) {
		P(gcry_randomize)(priv, j.flen, GCRY_STRONG_RANDOM);
		*privlen = j.flen;
		return public_of(&j, priv, j.flen, pub, publen) ? (CC_ERR(err, errlen, "%s: public key", alg), -1) : 0;
	}
	gcry_sexp_t parms = NULL, key = NULL;
	int rc = j.eddsa ? P(gcry_sexp_build)(&parms, NULL, "(genkey (ecc (curve Ed25519) (flags eddsa)))")
	                 : P(gcry_sexp_build)(&parms, NULL, "(genkey (ecc (curve %s)))", j.curvename);
	long dl = -1, ql = -1;
	if (!rc && !P(gcry_pk_genkey)(&key, parms)) {
		gcry_sexp_t sk = P(gcry_sexp_find_token)(key, "private-key", 0);
		dl = sk ? token(sk, "d", priv, *privlen, j.flen) : -1;
		ql = sk ? token(sk, "q", pub, *publen, 0) : -1;
		P(gcry_sexp_release)(sk);
	}
	P(gcry_sexp_release)(key);
	P(gcry_sexp_release)(parms);
	if (dl < 0 || ql < 0) {
		CC_ERR(err, errlen, "%s: key generation failed", alg);
		return -1;
	}
	*privlen = dl, *publen = ql;
	return 0;
}

int gc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) {
	cc_job j = {0};
	if (parse_sign(&j, alg) || public_of(&j, priv, privlen, pub, publen)) {
		CC_ERR(err, errlen, "%s: bad private key", alg);
		return -1;
	}
	return 0;
}

void gc_free(cc_job *j) {
	if (!j) return;
	cc_free_inputs(&j->in);
	free(j->out);
	if (j->mdh) P(gcry_md_close)(j->mdh);
	if (j->mach) P(gcry_mac_close)(j->mach);
	if (j->ch) P(gcry_cipher_close)(j->ch);
	P(gcry_sexp_release)(j->key);
	P(gcry_sexp_release)(j->data);
	P(gcry_sexp_release)(j->sig);
	free(j);
}

static const int gc_nin[] = {[CC_DIGEST] = 1, [CC_MAC] = 2, [CC_SEAL] = 4, [CC_OPEN] = 4, [CC_ENCRYPT] = 3,
                             [CC_DECRYPT] = 3, [CC_SIGN] = 2, [CC_VERIFY] = 3, [CC_KEYGEN] = 0, [CC_DERIVE] = 2};

// data builds the message s-expression: EdDSA signs the message, ECDSA
// the digest (computed per call, so the timed signature includes hashing).
static int gc_data(cc_job *j, const uint8_t *v, size_t n) {
	P(gcry_sexp_release)(j->data);
	j->data = NULL;
	return j->eddsa ? P(gcry_sexp_build)(&j->data, NULL, "(data (flags eddsa) (hash-algo sha512) (value %b))", (int)n, v)
	                : P(gcry_sexp_build)(&j->data, NULL, "(data (flags raw) (value %b))", (int)n, v);
}

cc_job *gc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) {
	if (kind < CC_DIGEST || kind > CC_DERIVE) {
		CC_ERR(err, errlen, "unknown job kind %d", kind);
		return NULL;
	}
	cc_job *j = calloc(1, sizeof *j);
	if (!j) return NULL;
	j->kind = kind;
	int rc = cc_copy_inputs(&j->in, in, nin, gc_nin[kind], err, errlen);
	cc_inputs *x = &j->in;
	char buf[64], *part[3];
	cc_split(alg, buf, sizeof buf, part, 3);
	j->outcap = 256;
	if (!rc) switch (kind) {
		case CC_DIGEST:
			rc = !(j->md = LOOKUP(mds, alg)) || P(gcry_md_open)(&j->mdh, j->md, 0);
			break;
		case CC_MAC:
			// Keyed once and reset per call; Poly1305 (one-time keys) is keyed per call.
			rc = !(j->mac = LOOKUP(macs, alg)) || P(gcry_mac_open)(&j->mach, j->mac, 0, NULL) ||
			     (j->mac != GCRY_MAC_POLY1305 && P(gcry_mac_setkey)(j->mach, x->p[0], x->n[0]));
			break;
		case CC_SEAL:
		case CC_OPEN:
			// "AES128:GCM", "AES128:CCM:8", "CHACHA20:POLY1305", "AES128:GCM_SIV": the key set once.
			j->taglen = part[2] ? atoi(part[2]) : 16;
			rc = !(j->cipher = LOOKUP(ciphers, part[0])) || !(j->mode = LOOKUP(modes, part[1])) ||
			     (kind == CC_OPEN && x->n[3] < (size_t)j->taglen) || P(gcry_cipher_open)(&j->ch, j->cipher, j->mode, 0) ||
			     P(gcry_cipher_setkey)(j->ch, x->p[0], x->n[0]);
			j->outcap = x->n[3] + j->taglen;
			break;
		case CC_ENCRYPT:
		case CC_DECRYPT:
			rc = !(j->cipher = LOOKUP(ciphers, part[0])) || !(j->mode = LOOKUP(modes, part[1])) ||
			     P(gcry_cipher_open)(&j->ch, j->cipher, j->mode, 0) || P(gcry_cipher_setkey)(j->ch, x->p[0], x->n[0]);
			j->outcap = x->n[2];
			break;
		case CC_SIGN:
		case CC_VERIFY:
			rc = parse_sign(j, alg) || build_key(j, kind == CC_SIGN, x->p[0], x->n[0]);
			if (!rc && j->eddsa) rc = gc_data(j, x->p[1], x->n[1]);
			if (!rc && j->md) j->hashlen = P(gcry_md_get_algo_dlen)(j->md), rc = P(gcry_md_open)(&j->mdh, j->md, 0);
			if (!rc && kind == CC_VERIFY) {
				// The signature s-expression is built once: r and s from
				// DER (ECDSA) or the two halves (EdDSA).
				const uint8_t *r, *s;
				size_t rn, sn;
				if (j->eddsa) {
					rc = x->n[2] != 64;
					r = x->p[2], rn = 32, s = x->p[2] + 32, sn = 32;
				} else
					rc = der_parse(x->p[2], x->n[2], &r, &rn, &s, &sn);
				if (!rc)
					rc = j->eddsa ? P(gcry_sexp_build)(&j->sig, NULL, "(sig-val (eddsa (r %b) (s %b)))", (int)rn, r, (int)sn, s)
					              : P(gcry_sexp_build)(&j->sig, NULL, "(sig-val (ecdsa (r %b) (s %b)))", (int)rn, r, (int)sn, s);
				if (rc) rc = 0, j->outlen = (size_t)-1; // a malformed signature: every run rejects it
			}
			break;
		case CC_KEYGEN:
			rc = parse_sign(j, alg);
			if (!rc && !j->curve)
				rc = j->eddsa ? P(gcry_sexp_build)(&j->data, NULL, "(genkey (ecc (curve Ed25519) (flags eddsa)))")
				              : P(gcry_sexp_build)(&j->data, NULL, "(genkey (ecc (curve %s)))", j->curvename);
			break;
		case CC_DERIVE:
			rc = parse_sign(j, alg) || !j->curve || x->n[0] != (size_t)j->flen || x->n[1] != (size_t)j->flen;
			j->outcap = j->flen;
			break;
		}
	if (rc && !err[0]) CC_ERR(err, errlen, "%s: unsupported, or bad key or parameters", alg);
	if (!rc && !(j->out = malloc(j->outcap ? j->outcap : 1))) rc = -1;
	if (rc) {
		gc_free(j);
		return NULL;
	}
	return j;
}

static int gc_once(cc_job *j) {
	cc_inputs *x = &j->in;
	switch (j->kind) {
	case CC_DIGEST: {
		P(gcry_md_reset)(j->mdh);
		P(gcry_md_write)(j->mdh, x->p[0], x->n[0]);
		const unsigned char *d = P(gcry_md_read)(j->mdh, j->md);
		if (!d) return -1;
		j->outlen = P(gcry_md_get_algo_dlen)(j->md);
		memcpy(j->out, d, j->outlen);
		return 0;
	}
	case CC_MAC: {
		size_t n = j->outcap;
		if (j->mac == GCRY_MAC_POLY1305 ? P(gcry_mac_setkey)(j->mach, x->p[0], x->n[0]) : P(gcry_mac_ctl)(j->mach, GCRYCTL_RESET, NULL, 0))
			return -1;
		if (P(gcry_mac_write)(j->mach, x->p[1], x->n[1]) || P(gcry_mac_read)(j->mach, j->out, &n)) return -1;
		j->outlen = n;
		return 0;
	}
	case CC_SEAL:
	case CC_OPEN: {
		int seal = j->kind == CC_SEAL;
		size_t len = x->n[3] - (seal ? 0 : j->taglen);
		if (P(gcry_cipher_ctl)(j->ch, GCRYCTL_RESET, NULL, 0) || P(gcry_cipher_setiv)(j->ch, x->p[1], x->n[1])) return -1;
		if (j->mode == GCRY_CIPHER_MODE_CCM) {
			uint64_t lens[3] = {len, x->n[2], (uint64_t)j->taglen};
			if (P(gcry_cipher_ctl)(j->ch, GCRYCTL_SET_CCM_LENGTHS, lens, sizeof lens)) return -1;
		}
		if (x->n[2] && P(gcry_cipher_authenticate)(j->ch, x->p[2], x->n[2])) return -1;
		if (j->mode == GCRY_CIPHER_MODE_GCM_SIV && !seal &&
		    P(gcry_cipher_ctl)(j->ch, GCRYCTL_SET_DECRYPTION_TAG, (void *)(x->p[3] + len), j->taglen))
			return -1;
		P(gcry_cipher_ctl)(j->ch, GCRYCTL_FINALIZE, NULL, 0);
		if (seal) {
			if (P(gcry_cipher_encrypt)(j->ch, j->out, j->outcap, x->p[3], len) ||
			    P(gcry_cipher_gettag)(j->ch, j->out + len, j->taglen))
				return -1;
			j->outlen = len + j->taglen;
			return 0;
		}
		if (P(gcry_cipher_decrypt)(j->ch, j->out, j->outcap, x->p[3], len)) return -2;
		if (j->mode != GCRY_CIPHER_MODE_GCM_SIV && P(gcry_cipher_checktag)(j->ch, x->p[3] + len, j->taglen)) return -2;
		j->outlen = len;
		return 0;
	}
	case CC_ENCRYPT:
	case CC_DECRYPT: {
		// Each call starts from the IV (or counter); a stream cipher without
		// an IV (RC4) is keyed again.
		int rc;
		switch (j->mode) {
		case GCRY_CIPHER_MODE_ECB: rc = 0; break;
		case GCRY_CIPHER_MODE_CTR: rc = P(gcry_cipher_setctr)(j->ch, x->p[1], x->n[1]); break;
		case GCRY_CIPHER_MODE_STREAM:
			rc = x->n[1] ? P(gcry_cipher_setiv)(j->ch, x->p[1], x->n[1]) : P(gcry_cipher_setkey)(j->ch, x->p[0], x->n[0]);
			break;
		default: rc = P(gcry_cipher_setiv)(j->ch, x->p[1], x->n[1]);
		}
		if (rc) return -1;
		j->outlen = x->n[2];
		return j->kind == CC_ENCRYPT ? P(gcry_cipher_encrypt)(j->ch, j->out, j->outcap, x->p[2], x->n[2])
		                             : P(gcry_cipher_decrypt)(j->ch, j->out, j->outcap, x->p[2], x->n[2]);
	}
	case CC_SIGN:
	case CC_VERIFY: {
		if (j->outlen == (size_t)-1) return -2;
		if (!j->eddsa) {
			P(gcry_md_reset)(j->mdh);
			P(gcry_md_write)(j->mdh, x->p[1], x->n[1]);
			const unsigned char *d = P(gcry_md_read)(j->mdh, j->md);
			// FIPS 186-5 §6.4.1: the leftmost bits of the digest, as many
			// as the group order has (whole bytes for these curves);
			// gcrypt's raw mode would reduce the whole digest instead.
			if (!d || gc_data(j, d, j->hashlen < j->flen ? j->hashlen : j->flen)) return -1;
		}
		if (j->kind == CC_VERIFY) return P(gcry_pk_verify)(j->sig, j->data, j->key) ? -2 : 0;
		P(gcry_sexp_release)(j->sig);
		j->sig = NULL;
		return P(gcry_pk_sign)(&j->sig, j->data, j->key) ? -1 : 0;
	}
	case CC_KEYGEN: {
		if (j->curve) {
			uint8_t k[56], pub[56], base[56] = {0};
			base[0] = j->curve == GCRY_ECC_CURVE25519 ? 9 : 5;
			P(gcry_randomize)(k, j->flen, GCRY_STRONG_RANDOM);
			return P(gcry_ecc_mul_point)(j->curve, pub, k, base) ? -1 : 0;
		}
		gcry_sexp_t key = NULL;
		int rc = P(gcry_pk_genkey)(&key, j->data) ? -1 : 0;
		P(gcry_sexp_release)(key);
		return rc;
	}
	case CC_DERIVE: {
		j->outlen = j->flen;
		if (P(gcry_ecc_mul_point)(j->curve, j->out, x->p[0], x->p[1])) return -1;
		uint8_t acc = 0; // reject the all-zero secret of a low-order peer (RFC 7748 §6.1)
		for (int i = 0; i < j->flen; i++) acc |= j->out[i];
		return acc ? 0 : -1;
	}
	}
	return -1;
}

int gc_run(cc_job *j, long n) {
	for (long i = 0; i < n; i++)
		if (gc_once(j)) return -1;
	if (j->kind == CC_SIGN && j->sig) {
		// The last signature as bytes: r || s for EdDSA, DER for ECDSA.
		uint8_t r[80], s[80];
		long rn = token(j->sig, "r", r, sizeof r, j->eddsa ? 32 : 0), sn = token(j->sig, "s", s, sizeof s, j->eddsa ? 32 : 0);
		if (rn < 0 || sn < 0) return -1;
		if (j->eddsa) {
			memcpy(j->out, r, 32), memcpy(j->out + 32, s, 32);
			j->outlen = 64;
		} else
			j->outlen = der_rs(j->out, r, rn, s, sn);
	}
	return 0;
}

const uint8_t *gc_output(cc_job *j, size_t *n) {
	*n = j->outlen == (size_t)-1 ? 0 : j->outlen;
	return j->out;
}

#else

int gc_load(char *version, size_t vlen, char *err, size_t errlen) {
	CC_ERR(err, errlen, "built without libgcrypt's headers (<gcrypt.h> was not found)");
	return -2;
}
cc_job *gc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) { return NULL; }
int gc_run(cc_job *j, long n) { return -1; }
const uint8_t *gc_output(cc_job *j, size_t *n) { *n = 0; return NULL; }
void gc_free(cc_job *j) {}
int gc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) { return -1; }
int gc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) { return -1; }
#endif

void gc_null(void) {}
