// The libgcrypt provider's ccjob.h functions (gcrypt.c).
#include "ccjob.h"
int gc_load(char *version, size_t vlen, char *err, size_t errlen);
cc_job *gc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen);
int gc_run(cc_job *j, long n);
const uint8_t *gc_output(cc_job *j, size_t *n);
void gc_free(cc_job *j);
int gc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen);
int gc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen);
void gc_null(void);
