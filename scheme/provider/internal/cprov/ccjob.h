/* ccjob.h: the C interface every cryptocost C-library provider implements
 * (scheme/provider/<name>/*.c). Go (package cprov) calls it through the
 * function pointers a provider hands over, so the Go side is shared and a
 * provider is one C file plus a table of algorithms.
 *
 * A job is one operation prepared with copies of its inputs: keys imported,
 * contexts made, output buffer allocated. Running it calls the library n
 * times inside C, so one cgo crossing serves n calls. */
#ifndef CRYPTOCOST_CCJOB_H
#define CRYPTOCOST_CCJOB_H

#include <stddef.h>
#include <stdint.h>

/* Job kinds, and the inputs each takes (in[0], in[1], ...). */
enum {
	CC_DIGEST = 1, /* msg */
	CC_MAC,        /* key, msg */
	CC_SEAL,       /* key, nonce, ad, pt          -> ct || tag */
	CC_OPEN,       /* key, nonce, ad, ct || tag   -> pt; run fails on a bad tag */
	CC_ENCRYPT,    /* key, iv (empty for ECB), in; alg names cipher and mode */
	CC_DECRYPT,    /* key, iv, in */
	CC_SIGN,       /* priv, msg                   -> signature */
	CC_VERIFY,     /* pub, msg, sig; run fails if it does not verify */
	CC_KEYGEN,     /* (none): n key generations */
	CC_DERIVE      /* priv, peer public           -> shared secret */
};

typedef struct {
	const uint8_t *p;
	size_t n;
} cc_buf;

typedef struct cc_job cc_job;

/* Returns NULL with a message in err on failure. */
typedef cc_job *(*cc_new_fn)(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen);
/* 0 when all n calls succeeded. */
typedef int (*cc_run_fn)(cc_job *, long n);
typedef const uint8_t *(*cc_output_fn)(cc_job *, size_t *n);
typedef void (*cc_free_fn)(cc_job *);
/* Raw key encodings as scheme/provided.go defines them. *publen and
 * *privlen hold the capacities on entry, the lengths on return. 0 = ok. */
typedef int (*cc_keypair_fn)(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen);
typedef int (*cc_public_fn)(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen);
/* Does nothing: the cost of one cgo crossing. */
typedef void (*cc_null_fn)(void);

#define CC_ERR(err, errlen, ...) snprintf((err), (errlen), __VA_ARGS__)



/* Loading a library with dlopen, each function through a pointer whose type
 * is the header's own prototype (no guessed signatures):
 *   #define FUNCS(X) X(EVP_MD_fetch) X(EVP_DigestInit_ex) ...
 *   FUNCS(CC_DECLARE)
 *   ... in the loader: FUNCS(CC_RESOLVE)
 * and calls are written P(EVP_MD_fetch)(...). */
#define CC_DECLARE(f) static __typeof__(&f) p_##f;
#define CC_RESOLVE(f)                                                                   \
	if (!(p_##f = (__typeof__(&f))dlsym(cc_handle, #f))) {                            \
		CC_ERR(err, errlen, "%s has no symbol %s (a different version?)", cc_soname, #f); \
		return -1;                                                                    \
	}
#define P(f) (p_##f)

/* Small helpers every provider uses. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static inline uint8_t *cc_dup(const cc_buf *b) {
	uint8_t *p = malloc(b->n ? b->n : 1);
	if (p && b->n) memcpy(p, b->p, b->n);
	return p;
}

/* cc_inputs copies the job's inputs into job-owned memory. */
#define CC_MAXIN 4
typedef struct {
	uint8_t *p[CC_MAXIN];
	size_t n[CC_MAXIN];
} cc_inputs;

static inline int cc_copy_inputs(cc_inputs *dst, const cc_buf *in, int nin, int want, char *err, size_t errlen) {
	if (nin != want || nin > CC_MAXIN) {
		CC_ERR(err, errlen, "want %d inputs, got %d", want, nin);
		return -1;
	}
	for (int i = 0; i < nin; i++) {
		dst->p[i] = cc_dup(&in[i]);
		dst->n[i] = in[i].n;
	}
	return 0;
}

static inline void cc_free_inputs(cc_inputs *in) {
	for (int i = 0; i < CC_MAXIN; i++) {
		free(in->p[i]);
		in->p[i] = NULL;
	}
}

/* cc_split splits "A:B:C" into at most 3 parts in buf. */
static inline int cc_split(const char *alg, char *buf, size_t buflen, char **part, int max) {
	snprintf(buf, buflen, "%s", alg);
	int n = 0;
	char *s = buf;
	while (n < max) {
		part[n++] = s;
		char *c = strchr(s, ':');
		if (!c) break;
		*c = 0;
		s = c + 1;
	}
	for (int i = n; i < max; i++) part[i] = NULL;
	return n;
}
#endif
