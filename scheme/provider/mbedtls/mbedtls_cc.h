// The mbedTLS provider's ccjob.h functions (mbedtls.c).
#include "ccjob.h"
int mc_load(char *version, size_t vlen, char *err, size_t errlen);
cc_job *mc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen);
int mc_run(cc_job *j, long n);
const uint8_t *mc_output(cc_job *j, size_t *n);
void mc_free(cc_job *j);
int mc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen);
int mc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen);
void mc_null(void);
