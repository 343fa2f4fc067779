/*
 * mldsa_params.h: ML-DSA-44's parameters (FIPS 204 §4, Table 1) and the
 * byte lengths that follow (Table 2).
 */
#ifndef CRYPTOCOST_MLDSA_PARAMS_H
#define CRYPTOCOST_MLDSA_PARAMS_H

#define MLDSA_N 256
#define MLDSA_Q 8380417L            /* 2^23 − 2^13 + 1 */
#define MLDSA_D 13                  /* dropped bits of t */
#define MLDSA_K 4                   /* rows of A */
#define MLDSA_L 4                   /* columns of A */
#define MLDSA_ETA 2
#define MLDSA_TAU 39                /* ±1s in the challenge */
#define MLDSA_BETA 78               /* τ · η */
#define MLDSA_GAMMA1 (1L << 17)
#define MLDSA_GAMMA2 ((MLDSA_Q - 1) / 88) /* 95232 */
#define MLDSA_OMEGA 80              /* most hint ones */
#define MLDSA_CTILDEBYTES 32        /* λ/4 for λ = 128 */

/* bits per packed coefficient */
#define MLDSA_T1_BITS 10            /* bitlen(q − 1) − d */
#define MLDSA_T0_BITS 13            /* d */
#define MLDSA_ETA_BITS 3            /* bitlen(2η) */
#define MLDSA_Z_BITS 18             /* 1 + bitlen(γ1 − 1) */
#define MLDSA_W1_BITS 6             /* bitlen((q − 1)/(2γ2) − 1) */

#define MLDSA_POLYT1_BYTES 320
#define MLDSA_POLYT0_BYTES 416
#define MLDSA_POLYETA_BYTES 96
#define MLDSA_POLYZ_BYTES 576
#define MLDSA_POLYW1_BYTES 192

#define MLDSA_PKBYTES (32 + MLDSA_K * MLDSA_POLYT1_BYTES)                   /* 1312 */
#define MLDSA_SKBYTES (128 + (MLDSA_L + MLDSA_K) * MLDSA_POLYETA_BYTES + MLDSA_K * MLDSA_POLYT0_BYTES) /* 2560 */
#define MLDSA_SIGBYTES (MLDSA_CTILDEBYTES + MLDSA_L * MLDSA_POLYZ_BYTES + MLDSA_OMEGA + MLDSA_K)      /* 2420 */

/* where the parts of sk and sig start (skEncode, sigEncode: §7.2) */
#define MLDSA_SK_RHO 0
#define MLDSA_SK_KEY 32
#define MLDSA_SK_TR 64
#define MLDSA_SK_S1 128
#define MLDSA_SK_S2 (MLDSA_SK_S1 + MLDSA_L * MLDSA_POLYETA_BYTES)
#define MLDSA_SK_T0 (MLDSA_SK_S2 + MLDSA_K * MLDSA_POLYETA_BYTES)
#define MLDSA_SIG_Z MLDSA_CTILDEBYTES
#define MLDSA_SIG_H (MLDSA_SIG_Z + MLDSA_L * MLDSA_POLYZ_BYTES)

#endif
