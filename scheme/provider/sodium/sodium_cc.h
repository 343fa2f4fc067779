// The libsodium provider's ccjob.h functions (sodium.c).
#include "ccjob.h"
int sc_load(char *version, size_t vlen, char *err, size_t errlen);
cc_job *sc_new(int kind, const char *alg, const cc_buf *in, int nin, char *err, size_t errlen);
int sc_run(cc_job *j, long n);
const uint8_t *sc_output(cc_job *j, size_t *n);
void sc_free(cc_job *j);
int sc_keypair(const char *alg, uint8_t *pub, size_t *publen, uint8_t *priv, size_t *privlen, char *err, size_t errlen);
int sc_public(const char *alg, const uint8_t *priv, size_t privlen, uint8_t *pub, size_t *publen, char *err, size_t errlen);
void sc_null(void);
int sc_aes_gcm(void);
