// The OpenSSL provider's ccjob.h functions (openssl.c).
#include "ccjob.h"
int oc_load(char *version, size_t vlen, char *err, size_t errlen);
cc_job *oc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen);
int oc_run(cc_job *j, long n);
const uint8_t *oc_output(cc_job *j, size_t *n);
void oc_free(cc_job *j);
int oc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen);
int oc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen);
void oc_null(void);
