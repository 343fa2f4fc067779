// The wolfSSL provider's ccjob.h functions (wolfssl.c).
#include "ccjob.h"
int wo_load(char *version, size_t vlen, char *err, size_t errlen);
cc_job *wo_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen);
int wo_run(cc_job *j, long n);
const uint8_t *wo_output(cc_job *j, size_t *n);
void wo_free(cc_job *j);
int wo_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen);
int wo_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen);
void wo_null(void);
