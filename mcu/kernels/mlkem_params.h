/*
 * mlkem_params.h: ML-KEM parameter sets (FIPS 203 §8, Table 2) and the
 * byte lengths that follow from them (Table 3). Build with -DMLKEM_K=2 for
 * ML-KEM-512 or -DMLKEM_K=3 for ML-KEM-768; one image holds one set.
 */
#ifndef CRYPTOCOST_MLKEM_PARAMS_H
#define CRYPTOCOST_MLKEM_PARAMS_H

#ifndef MLKEM_K
#error "build with -DMLKEM_K=2 (ML-KEM-512) or -DMLKEM_K=3 (ML-KEM-768)"
#endif

#define MLKEM_N 256
#define MLKEM_Q 3329

#if MLKEM_K == 2
#define MLKEM_ETA1 3
#elif MLKEM_K == 3
#define MLKEM_ETA1 2
#else
#error "MLKEM_K must be 2 or 3 (ML-KEM-1024's d_u = 11, d_v = 5 are not written here)"
#endif
#define MLKEM_ETA2 2
#define MLKEM_DU 10
#define MLKEM_DV 4

#define MLKEM_POLYBYTES 384                     /* ByteEncode_12: 256 · 12 / 8 */
#define MLKEM_POLYVECBYTES (MLKEM_K * MLKEM_POLYBYTES)
#define MLKEM_POLYDU_BYTES (32 * MLKEM_DU)      /* 320 */
#define MLKEM_POLYDV_BYTES (32 * MLKEM_DV)      /* 128 */

#define MLKEM_PKBYTES (MLKEM_POLYVECBYTES + 32)                   /* ek: 800, 1184 */
#define MLKEM_SKBYTES (MLKEM_POLYVECBYTES + MLKEM_PKBYTES + 64)   /* dk: 1632, 2400 */
#define MLKEM_CTBYTES (MLKEM_K * MLKEM_POLYDU_BYTES + MLKEM_POLYDV_BYTES) /* c: 768, 1088 */
#define MLKEM_SSBYTES 32

#endif
