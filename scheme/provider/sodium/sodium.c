// libsodium behind ccjob.h. See doc.go.
#include "ccjob.h"
#include "sodium_cc.h"

#if __has_include(<sodium.h>)
#include <dlfcn.h>
#include <sodium.h>

#define FUNCS(X)                                                                                         \
	X(sodium_init) X(sodium_version_string) X(randombytes_buf) X(crypto_hash_sha256) X(crypto_hash_sha512) \
	X(crypto_generichash) X(crypto_auth_hmacsha256_init) X(crypto_auth_hmacsha256_update)                 \
	X(crypto_auth_hmacsha256_final) X(crypto_auth_hmacsha512_init) X(crypto_auth_hmacsha512_update)       \
	X(crypto_auth_hmacsha512_final) X(crypto_onetimeauth_poly1305)                                        \
	X(crypto_aead_chacha20poly1305_ietf_encrypt) X(crypto_aead_chacha20poly1305_ietf_decrypt)             \
	X(crypto_aead_xchacha20poly1305_ietf_encrypt) X(crypto_aead_xchacha20poly1305_ietf_decrypt)           \
	X(crypto_aead_aes256gcm_is_available) X(crypto_aead_aes256gcm_beforenm)                               \
	X(crypto_aead_aes256gcm_encrypt_afternm) X(crypto_aead_aes256gcm_decrypt_afternm)                     \
	X(crypto_sign_seed_keypair) X(crypto_sign_detached) X(crypto_sign_verify_detached)                    \
	X(crypto_scalarmult) X(crypto_scalarmult_base) X(crypto_stream_chacha20_ietf_xor)                     \
	X(crypto_stream_salsa20_xor)

FUNCS(CC_DECLARE)

static void *cc_handle;
static const char *cc_soname = "libsodium.so.23";

int sc_load(char *version, size_t vlen, char *err, size_t errlen) {
	cc_handle = dlopen(cc_soname, RTLD_NOW | RTLD_LOCAL);
	if (!cc_handle) {
		CC_ERR(err, errlen, "cannot open %s: %s", cc_soname, dlerror());
		return -1;
	}
	FUNCS(CC_RESOLVE)
	if (P(sodium_init)() < 0) {
		CC_ERR(err, errlen, "sodium_init failed");
		return -1;
	}
	snprintf(version, vlen, "libsodium %s", P(sodium_version_string)());
	return 0;
}

int sc_aes_gcm(void) { return P(crypto_aead_aes256gcm_is_available)(); }

enum { A_SHA256 = 1, A_SHA512, A_BLAKE2B, A_HMAC256, A_HMAC512, A_POLY1305, A_CHACHAPOLY, A_XCHACHAPOLY,
       A_AESGCM, A_ED25519, A_X25519, A_CHACHA20, A_SALSA20 };

static int sc_alg(const char *alg) {
	static const struct { const char *name; int id; } t[] = {
		{"sha256", A_SHA256}, {"sha512", A_SHA512}, {"blake2b-512", A_BLAKE2B}, {"hmacsha256", A_HMAC256},
		{"hmacsha512", A_HMAC512}, {"poly1305", A_POLY1305}, {"chacha20poly1305-ietf", A_CHACHAPOLY},
		{"xchacha20poly1305-ietf", A_XCHACHAPOLY}, {"aes256gcm", A_AESGCM}, {"ed25519", A_ED25519},
		{"x25519", A_X25519}, {"chacha20-ietf", A_CHACHA20}, {"salsa20", A_SALSA20},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].name, alg)) return t[i].id;
	return 0;
}

struct cc_job {
	int kind, alg;
	cc_inputs in;
	uint8_t *out;
	size_t outcap, outlen;
	union {
		crypto_auth_hmacsha256_state h256;
		crypto_auth_hmacsha512_state h512;
	} keyed; // HMAC keyed once; each call copies it, as a keyed Go MAC is Reset
	crypto_aead_aes256gcm_state *gcm;
	uint8_t pk[32], sk[64];
};

int sc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) {
	int a = sc_alg(alg);
	if ((a != A_ED25519 && a != A_X25519) || *publen < 32 || *privlen < 32) {
		CC_ERR(err, errlen, "no key pairs for %s", alg);
		return -1;
	}
	uint8_t sk[64];
	P(randombytes_buf)(priv, 32);
	if (a == A_ED25519 ? P(crypto_sign_seed_keypair)(pub, sk, priv) : P(crypto_scalarmult_base)(pub, priv)) {
		CC_ERR(err, errlen, "%s key generation failed", alg);
		return -1;
	}
	*publen = *privlen = 32;
	return 0;
}

int sc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) {
	int a = sc_alg(alg);
	uint8_t sk[64];
	if ((a != A_ED25519 && a != A_X25519) || privlen != 32 || *publen < 32 ||
	    (a == A_ED25519 ? P(crypto_sign_seed_keypair)(pub, sk, priv) : P(crypto_scalarmult_base)(pub, priv))) {
		CC_ERR(err, errlen, "%s: bad private key", alg);
		return -1;
	}
	*publen = 32;
	return 0;
}

void sc_free(cc_job *j) {
	if (!j) return;
	cc_free_inputs(&j->in);
	free(j->out);
	free(j->gcm);
	free(j);
}

static const int sc_nin[] = {[CC_DIGEST] = 1, [CC_MAC] = 2, [CC_SEAL] = 4, [CC_OPEN] = 4, [CC_ENCRYPT] = 3,
                             [CC_DECRYPT] = 3, [CC_SIGN] = 2, [CC_VERIFY] = 3, [CC_KEYGEN] = 0, [CC_DERIVE] = 2};

cc_job *sc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) {
	if (kind < CC_DIGEST || kind > CC_DERIVE) {
		CC_ERR(err, errlen, "unknown job kind %d", kind);
		return NULL;
	}
	cc_job *j = calloc(1, sizeof *j);
	if (!j) return NULL;
	j->kind = kind;
	j->alg = sc_alg(alg);
	int rc = j->alg ? cc_copy_inputs(&j->in, in, nin, sc_nin[kind], err, errlen) : (CC_ERR(err, errlen, "unknown algorithm %s", alg), -1);
	j->outcap = 64;
	if (!rc) switch (j->alg) {
		case A_HMAC256: P(crypto_auth_hmacsha256_init)(&j->keyed.h256, j->in.p[0], j->in.n[0]); break;
		case A_HMAC512: P(crypto_auth_hmacsha512_init)(&j->keyed.h512, j->in.p[0], j->in.n[0]); break;
		case A_POLY1305:
			if (j->in.n[0] != 32) rc = (CC_ERR(err, errlen, "Poly1305 keys are 32 bytes"), -1);
			break;
		case A_CHACHAPOLY:
		case A_XCHACHAPOLY:
		case A_AESGCM: {
			size_t nonce = j->alg == A_XCHACHAPOLY ? 24 : 12;
			if (j->in.n[0] != 32 || j->in.n[1] != nonce || (kind == CC_OPEN && j->in.n[3] < 16)) {
				rc = (CC_ERR(err, errlen, "%s takes a 32-byte key and a %zu-byte nonce", alg, nonce), -1);
				break;
			}
			j->outcap = j->in.n[3] + 16;
			if (j->alg == A_AESGCM) {
				// The key schedule once (beforenm), each call encrypts.
				j->gcm = aligned_alloc(16, (sizeof(crypto_aead_aes256gcm_state) + 15) & ~(size_t)15);
				if (!j->gcm || P(crypto_aead_aes256gcm_beforenm)(j->gcm, j->in.p[0]))
					rc = (CC_ERR(err, errlen, "AES-256-GCM key"), -1);
			}
			break;
		}
		case A_CHACHA20:
		case A_SALSA20: j->outcap = j->in.n[2]; break;
		case A_ED25519:
			if (kind == CC_KEYGEN) break;
			if (j->in.n[0] != 32) rc = (CC_ERR(err, errlen, "Ed25519 keys are 32 bytes"), -1);
			else if (kind == CC_SIGN) P(crypto_sign_seed_keypair)(j->pk, j->sk, j->in.p[0]);
			break;
		case A_X25519:
			if (kind == CC_DERIVE && (j->in.n[0] != 32 || j->in.n[1] != 32))
				rc = (CC_ERR(err, errlen, "X25519 keys are 32 bytes"), -1);
			break;
		}
	if (!rc && !(j->out = malloc(j->outcap ? j->outcap : 1))) rc = -1;
	if (rc) {
		sc_free(j);
		return NULL;
	}
	return j;
}

static int sc_once(cc_job *j) {
	const cc_inputs *in = &j->in;
	unsigned long long l = 0;
	switch (j->kind) {
	case CC_DIGEST:
		switch (j->alg) {
		case A_SHA256: j->outlen = 32; return P(crypto_hash_sha256)(j->out, in->p[0], in->n[0]);
		case A_SHA512: j->outlen = 64; return P(crypto_hash_sha512)(j->out, in->p[0], in->n[0]);
		case A_BLAKE2B: j->outlen = 64; return P(crypto_generichash)(j->out, 64, in->p[0], in->n[0], NULL, 0);
		}
		return -1;
	case CC_MAC:
		switch (j->alg) {
		case A_HMAC256: {
			crypto_auth_hmacsha256_state st = j->keyed.h256;
			j->outlen = 32;
			return P(crypto_auth_hmacsha256_update)(&st, in->p[1], in->n[1]) || P(crypto_auth_hmacsha256_final)(&st, j->out);
		}
		case A_HMAC512: {
			crypto_auth_hmacsha512_state st = j->keyed.h512;
			j->outlen = 64;
			return P(crypto_auth_hmacsha512_update)(&st, in->p[1], in->n[1]) || P(crypto_auth_hmacsha512_final)(&st, j->out);
		}
		case A_POLY1305: j->outlen = 16; return P(crypto_onetimeauth_poly1305)(j->out, in->p[1], in->n[1], in->p[0]);
		}
		return -1;
	case CC_SEAL:
	case CC_OPEN: {
		int seal = j->kind == CC_SEAL, rc = -1;
		const uint8_t *k = in->p[0], *nonce = in->p[1], *ad = in->p[2], *m = in->p[3];
		size_t adlen = in->n[2], mlen = in->n[3];
		switch (j->alg) {
		case A_CHACHAPOLY:
			rc = seal ? P(crypto_aead_chacha20poly1305_ietf_encrypt)(j->out, &l, m, mlen, ad, adlen, NULL, nonce, k)
			          : P(crypto_aead_chacha20poly1305_ietf_decrypt)(j->out, &l, NULL, m, mlen, ad, adlen, nonce, k);
			break;
		case A_XCHACHAPOLY:
			rc = seal ? P(crypto_aead_xchacha20poly1305_ietf_encrypt)(j->out, &l, m, mlen, ad, adlen, NULL, nonce, k)
			          : P(crypto_aead_xchacha20poly1305_ietf_decrypt)(j->out, &l, NULL, m, mlen, ad, adlen, nonce, k);
			break;
		case A_AESGCM:
			rc = seal ? P(crypto_aead_aes256gcm_encrypt_afternm)(j->out, &l, m, mlen, ad, adlen, NULL, nonce, j->gcm)
			          : P(crypto_aead_aes256gcm_decrypt_afternm)(j->out, &l, NULL, m, mlen, ad, adlen, nonce, j->gcm);
			break;
		}
		j->outlen = l;
		return rc;
	}
	case CC_ENCRYPT:
	case CC_DECRYPT:
		j->outlen = in->n[2];
		if (j->alg == A_CHACHA20 && in->n[0] == 32 && in->n[1] == 12)
			return P(crypto_stream_chacha20_ietf_xor)(j->out, in->p[2], in->n[2], in->p[1], in->p[0]);
		if (j->alg == A_SALSA20 && in->n[0] == 32 && in->n[1] == 8)
			return P(crypto_stream_salsa20_xor)(j->out, in->p[2], in->n[2], in->p[1], in->p[0]);
		return -1;
	case CC_SIGN:
		return P(crypto_sign_detached)(j->out, &l, in->p[1], in->n[1], j->sk) || (j->outlen = l, 0);
	case CC_VERIFY:
		return in->n[2] != 64 || in->n[0] != 32 ? -2 : P(crypto_sign_verify_detached)(in->p[2], in->p[1], in->n[1], in->p[0]);
	case CC_KEYGEN: {
		uint8_t seed[32], pk[32], sk[64];
		P(randombytes_buf)(seed, 32);
		return j->alg == A_ED25519 ? P(crypto_sign_seed_keypair)(pk, sk, seed) : P(crypto_scalarmult_base)(pk, seed);
	}
	case CC_DERIVE:
		// crypto_scalarmult rejects an all-zero result (a low-order peer).
		j->outlen = 32;
		return P(crypto_scalarmult)(j->out, in->p[0], in->p[1]);
	}
	return -1;
}

int sc_run(cc_job *j, long n) {
	for (long i = 0; i < n; i++)
		if (sc_once(j)) return -1;
	return 0;
}

const uint8_t *sc_output(cc_job *j, size_t *n) {
	*n = j->outlen;
	return j->out;
}

#else

int sc_load(char *version, size_t vlen, char *err, size_t errlen) {
	CC_ERR(err, errlen, "built without libsodium's headers (<sodium.h> was not found)");
	return -2;
}
int sc_aes_gcm(void) { return 0; }
cc_job *sc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen) { return NULL; }
int sc_run(cc_job *j, long n) { return -1; }
const uint8_t *sc_output(cc_job *j, size_t *n) { *n = 0; return NULL; }
void sc_free(cc_job *j) {}
int sc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen) { return -1; }
int sc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen) { return -1; }
#endif

void sc_null(void) {}
