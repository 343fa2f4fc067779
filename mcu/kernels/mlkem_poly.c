/*
 * mlkem_poly.c: ML-KEM's polynomial arithmetic (FIPS 203 §4.3 and §4.2),
 * written here from the standard in the shape of the Kyber reference
 * implementation (Montgomery and Barrett reductions on 16-bit
 * coefficients, the NTT's twiddle factors precomputed in bit-reversed
 * order). Nothing branches on or indexes by secret data; the rejection
 * sampling of SampleNTT branches on public data (the matrix seed ρ).
 */
#include "mlkem_poly.h"

#define Q MLKEM_Q
#define QINV 62209u /* q^-1 mod 2^16 */

/* ζ^BitRev7(i) · 2^16 mod q, centred, for ζ = 17 (FIPS 203 §4.3,
 * Appendix A), in Montgomery form; generated from that definition. */
static const int16_t zetas[128] PQ_FLASH = {
	-1044, -758, -359, -1517, 1493, 1422, 287, 202,
	-171, 622, 1577, 182, 962, -1202, -1474, 1468,
	573, -1325, 264, 383, -829, 1458, -1602, -130,
	-681, 1017, 732, 608, -1542, 411, -205, -1571,
	1223, 652, -552, 1015, -1293, 1491, -282, -1544,
	516, -8, -320, -666, -1618, -1162, 126, 1469,
	-853, -90, -271, 830, 107, -1421, -247, -951,
	-398, 961, -1508, -725, 448, -1065, 677, -1275,
	-1103, 430, 555, 843, -1251, 871, 1550, 105,
	422, 587, 177, -235, -291, -460, 1574, 1653,
	-246, 778, 1159, -147, -777, 1483, -602, 1119,
	-1590, 644, -872, 349, 418, 329, -156, -75,
	817, 1097, 603, 610, 1322, -1285, -1465, 384,
	-1215, -136, 1218, -1335, -874, 220, -1187, -1659,
	-1185, -1530, -1278, 794, -1510, -854, -870, 478,
	-108, -308, 996, 991, 958, -1460, 1522, 1628,
};

#if defined(__AVR__)
/*
 * a · b for signed 16-bit a, b. avr-libgcc's signed 16 × 16 → 32-bit
 * multiplications (__mulhisi3, __usmulhisi3) branch on the operands' signs
 * and so take a cycle or two more for negative ones: a timing leak on
 * secret coefficients, which the eight-secret sweep of decapsulation showed
 * (a few hundred cycles of spread; docs/mcu.md). Here the product is the
 * unsigned one (__umulhisi3: no branch) corrected with masks: for
 * a = ua − 2^16·[a < 0], a·b ≡ ua·ub − 2^16·(ub·[a < 0] + ua·[b < 0])
 * (mod 2^32). Elsewhere the multiplier takes signed operands in fixed time.
 */
static __attribute__((noinline)) uint32_t mul16u(uint16_t a, uint16_t b) { return (uint32_t)a * b; }

static int32_t mul16s(int16_t a, int16_t b)
{
	uint16_t ua = (uint16_t)a, ub = (uint16_t)b;
	uint16_t ma = (uint16_t)(a >> 15), mb = (uint16_t)(b >> 15); /* 0 or 0xFFFF */
	uint32_t p = mul16u(ua, ub);
	p -= (uint32_t)(uint16_t)(ub & ma) << 16;
	p -= (uint32_t)(uint16_t)(ua & mb) << 16;
	return (int32_t)p;
}
#else
static int32_t mul16s(int16_t a, int16_t b) { return (int32_t)a * b; }
#endif

/* a · 2^-16 mod q in (−q, q), for |a| < q · 2^15 (Montgomery reduction) */
static int16_t montgomery_reduce(int32_t a)
{
	/* the 16-bit product wraps on purpose: computed unsigned, then as a
	 * two's-complement int16_t */
	int16_t t = (int16_t)(uint16_t)((uint32_t)(uint16_t)a * QINV);
	return (int16_t)((a - mul16s(t, Q)) >> 16);
}

int16_t mlkem_fqmul(int16_t a, int16_t b) { return montgomery_reduce(mul16s(a, b)); }

/* the centred representative of a mod q, in [−(q−1)/2, (q−1)/2] */
int16_t mlkem_barrett(int16_t a)
{
	const int16_t v = (int16_t)(((1L << 26) + Q / 2) / Q); /* 20159 */
	int16_t t = (int16_t)((mul16s(v, a) + (1L << 25)) >> 26);
	return (int16_t)(a - (int32_t)t * Q);
}

/* NTT (Algorithm 9), in place; the output is in bit-reversed order, each
 * coefficient below 7q in absolute value until reduced. */
void mlkem_ntt(mlkem_poly *r)
{
	uint16_t len, start, j;
	uint8_t k = 1;
	for (len = 128; len >= 2; len >>= 1) {
		for (start = 0; start < MLKEM_N; start = j + len) {
			int16_t zeta = pq_read16(&zetas[k++]);
			for (j = start; j < start + len; j++) {
				int16_t t = mlkem_fqmul(zeta, r->c[j + len]);
				r->c[j + len] = r->c[j] - t;
				r->c[j] = r->c[j] + t;
			}
		}
	}
	mlkem_poly_reduce(r);
}

/* NTT^-1 (Algorithm 10) times 2^16: the final scaling by 128^-1 also
 * multiplies by the Montgomery factor, undoing the 2^-16 of a preceding
 * MultiplyNTTs. Input coefficients must be reduced. */
void mlkem_invntt(mlkem_poly *r)
{
	const int16_t f = 1441; /* 2^32 / 128 mod q */
	uint16_t len, start, j;
	uint8_t k = 127;
	for (len = 2; len <= 128; len <<= 1) {
		for (start = 0; start < MLKEM_N; start = j + len) {
			int16_t zeta = pq_read16(&zetas[k--]);
			for (j = start; j < start + len; j++) {
				int16_t t = r->c[j];
				r->c[j] = mlkem_barrett(t + r->c[j + len]);
				r->c[j + len] = mlkem_fqmul(zeta, r->c[j + len] - t);
			}
		}
	}
	for (j = 0; j < MLKEM_N; j++)
		r->c[j] = mlkem_fqmul(r->c[j], f);
}

void mlkem_poly_reduce(mlkem_poly *r)
{
	for (uint16_t i = 0; i < MLKEM_N; i++)
		r->c[i] = mlkem_barrett(r->c[i]);
}

/* multiply by 2^16 (to undo the 2^-16 of MultiplyNTTs without an inverse NTT) */
void mlkem_poly_tomont(mlkem_poly *r)
{
	const int16_t f = 1353; /* 2^32 mod q */
	for (uint16_t i = 0; i < MLKEM_N; i++)
		r->c[i] = mlkem_fqmul(r->c[i], f);
}

void mlkem_poly_add(mlkem_poly *r, const mlkem_poly *a)
{
	for (uint16_t i = 0; i < MLKEM_N; i++)
		r->c[i] += a->c[i];
}

void mlkem_poly_sub(mlkem_poly *r, const mlkem_poly *a)
{
	for (uint16_t i = 0; i < MLKEM_N; i++)
		r->c[i] = a->c[i] - r->c[i];
}

void mlkem_poly_zero(mlkem_poly *r) { memset(r, 0, sizeof *r); }

/* BaseCaseMultiply (Algorithm 12) of the pair (a0 + a1 X)(b0 + b1 X) mod
 * X^2 − γ, accumulated into r[0], r[1]; pair p has γ = ζ^(2·BitRev7(p/2)+1),
 * which is zetas[64 + p/2] for even p and its negative for odd p. */
static void basemul_pair(int16_t *r, int16_t a0, int16_t a1, int16_t b0, int16_t b1, uint8_t p)
{
	int16_t zeta = pq_read16(&zetas[64 + (p >> 1)]);
	if (p & 1) /* p is a public index */
		zeta = -zeta;
	r[0] += mlkem_fqmul(mlkem_fqmul(a1, b1), zeta) + mlkem_fqmul(a0, b0);
	r[1] += mlkem_fqmul(a0, b1) + mlkem_fqmul(a1, b0);
}

/* the pair p of a ByteEncode_12 encoding: three bytes, two 12-bit values */
static void unpack_pair(const uint8_t *b, uint8_t p, int16_t *b0, int16_t *b1)
{
	b += 3 * (uint16_t)p;
	*b0 = (int16_t)((b[0] | (uint16_t)b[1] << 8) & 0xFFF);
	*b1 = (int16_t)((b[1] >> 4) | (uint16_t)b[2] << 4);
}

void mlkem_basemul_acc(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b)
{
	for (uint16_t p = 0; p < MLKEM_N / 2; p++)
		basemul_pair(&r->c[2 * p], a->c[2 * p], a->c[2 * p + 1], b->c[2 * p], b->c[2 * p + 1], (uint8_t)p);
}

void mlkem_basemul_acc_packed(mlkem_poly *r, const mlkem_poly *a, const uint8_t b[MLKEM_POLYBYTES])
{
	int16_t b0, b1;
	for (uint16_t p = 0; p < MLKEM_N / 2; p++) {
		unpack_pair(b, (uint8_t)p, &b0, &b1);
		basemul_pair(&r->c[2 * p], a->c[2 * p], a->c[2 * p + 1], b0, b1, (uint8_t)p);
	}
}

/* the same with both operands encoded (t̂ of ek and the lean kernel's ŷ) */
void mlkem_basemul_acc_packed2(mlkem_poly *r, const uint8_t a[MLKEM_POLYBYTES], const uint8_t b[MLKEM_POLYBYTES])
{
	int16_t a0, a1, b0, b1;
	for (uint16_t p = 0; p < MLKEM_N / 2; p++) {
		unpack_pair(a, (uint8_t)p, &a0, &a1);
		unpack_pair(b, (uint8_t)p, &b0, &b1);
		basemul_pair(&r->c[2 * p], a0, a1, b0, b1, (uint8_t)p);
	}
}

/*
 * SampleNTT (Algorithm 7) from SHAKE128(ρ‖x‖y), three bytes at a time.
 * With b and bp NULL the coefficients are stored in r; otherwise each pair
 * is multiplied as it arrives by the pair of b (or of the encoding bp) and
 * added to r, so the sampled matrix entry is never held in memory.
 */
static void sample_ntt(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const mlkem_poly *b, const uint8_t *bp)
{
	keccak_state st;
	uint8_t buf[3], n;
	uint16_t j = 0;
	int16_t d[2], a0 = 0, b0, b1;

	keccak_init(&st, SHAKE128_RATE);
	keccak_absorb(&st, rho, 32);
	keccak_absorb(&st, &x, 1);
	keccak_absorb(&st, &y, 1);
	keccak_finalize(&st, SHAKE_DS);
	while (j < MLKEM_N) {
		keccak_squeeze(&st, buf, 3);
		d[0] = (int16_t)(buf[0] | ((uint16_t)buf[1] & 15) << 8);
		d[1] = (int16_t)((buf[1] >> 4) | (uint16_t)buf[2] << 4);
		for (n = 0; n < 2 && j < MLKEM_N; n++) {
			if (d[n] >= Q)
				continue; /* rejected: public data */
			if (!b && !bp) {
				r->c[j++] = d[n];
			} else if (!(j & 1)) {
				a0 = d[n];
				j++;
			} else {
				uint8_t p = (uint8_t)(j >> 1);
				if (b) {
					b0 = b->c[j - 1];
					b1 = b->c[j];
				} else {
					unpack_pair(bp, p, &b0, &b1);
				}
				basemul_pair(&r->c[j - 1], a0, d[n], b0, b1, p);
				j++;
			}
		}
	}
}

void mlkem_poly_uniform(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y) { sample_ntt(r, rho, x, y, 0, 0); }

void mlkem_uniform_basemul_acc(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const mlkem_poly *b)
{
	sample_ntt(r, rho, x, y, b, 0);
}

void mlkem_uniform_basemul_acc_packed(mlkem_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const uint8_t b[MLKEM_POLYBYTES])
{
	sample_ntt(r, rho, x, y, 0, b);
}

/*
 * SamplePolyCBD_η(PRF_η(s, n)) (Algorithm 8; PRF_η is SHAKE256(s‖n) to
 * 64η bytes, §4.1), streamed: η = 2 takes 4 bytes per 8 coefficients, η = 3
 * 3 bytes per 4. Coefficient i is the number of ones among its first η bits
 * minus those among the next η.
 */
static void cbd(mlkem_poly *r, uint8_t eta, const uint8_t s[32], uint8_t n, uint8_t add)
{
	keccak_state st;
	uint8_t buf[4], per = eta == 2 ? 8 : 4, j;
	uint16_t i = 0;

	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, s, 32);
	keccak_absorb(&st, &n, 1);
	keccak_finalize(&st, SHAKE_DS);
	while (i < MLKEM_N) {
		uint32_t t, d;
		if (eta == 2) {
			keccak_squeeze(&st, buf, 4);
			t = pq_load32(buf);
			d = (t & 0x55555555UL) + ((t >> 1) & 0x55555555UL);
		} else {
			keccak_squeeze(&st, buf, 3);
			t = pq_load24(buf);
			d = (t & 0x249249UL) + ((t >> 1) & 0x249249UL) + ((t >> 2) & 0x249249UL);
		}
		for (j = 0; j < per; j++) {
			int16_t a = (int16_t)(d & (eta == 2 ? 3 : 7));
			d >>= eta;
			int16_t b = (int16_t)(d & (eta == 2 ? 3 : 7));
			d >>= eta;
			if (add)
				r->c[i++] += a - b;
			else
				r->c[i++] = a - b;
		}
	}
}

void mlkem_poly_cbd(mlkem_poly *r, uint8_t eta, const uint8_t s[32], uint8_t n) { cbd(r, eta, s, n, 0); }
void mlkem_poly_cbd_add(mlkem_poly *r, uint8_t eta, const uint8_t s[32], uint8_t n) { cbd(r, eta, s, n, 1); }

/* the representative in [0, q) of a coefficient in (−q, q) */
static uint16_t canonical(int16_t a) { return (uint16_t)(a + ((a >> 15) & Q)); }

void mlkem_poly_tobytes(uint8_t out[MLKEM_POLYBYTES], const mlkem_poly *a)
{
	for (uint16_t i = 0; i < MLKEM_N / 2; i++) {
		uint16_t t0 = canonical(a->c[2 * i]), t1 = canonical(a->c[2 * i + 1]);
		out[3 * i] = (uint8_t)t0;
		out[3 * i + 1] = (uint8_t)(t0 >> 8 | t1 << 4);
		out[3 * i + 2] = (uint8_t)(t1 >> 4);
	}
}

void mlkem_poly_frombytes(mlkem_poly *r, const uint8_t in[MLKEM_POLYBYTES])
{
	for (uint16_t p = 0; p < MLKEM_N / 2; p++)
		unpack_pair(in, (uint8_t)p, &r->c[2 * p], &r->c[2 * p + 1]);
}

uint8_t mlkem_poly_bytes_ok(const uint8_t in[MLKEM_POLYBYTES])
{
	int16_t b0, b1;
	uint8_t bad = 0;
	for (uint16_t p = 0; p < MLKEM_N / 2; p++) {
		unpack_pair(in, (uint8_t)p, &b0, &b1);
		bad |= (b0 >= Q) | (b1 >= Q); /* public data */
	}
	return !bad;
}

/*
 * Compress_d(x) = round(2^d · x / q) mod 2^d, with multiplications instead
 * of a division by q (a division instruction's time can depend on its
 * operands: KyberSlash, Bernstein et al. 2024). Checked exhaustively for
 * x in [0, q) against the definition (mcu/pq_test.go runs the check on the
 * host; the constants are those of the Kyber reference and mlkem-native).
 */
static uint16_t compress10(uint16_t x)
{
	/* round(2^43 / q) = 2642263041 = 40317 · 2^16 + 47937; the product
	 * x · 2642263041 (43 bits) is formed in two 32-bit halves so no
	 * 64-bit multiplication is needed on 8- and 32-bit cores. */
	uint32_t hi = (uint32_t)x * 40317u + (((uint32_t)x * 47937u) >> 16);
	return (uint16_t)(((hi + 65536UL) >> 17) & 0x3FF);
}

static uint8_t compress4(uint16_t x)
{
	/* 80635 = round(2^28 / q); bits above 31 are lost to the 32-bit
	 * product and not needed: only bits 28–31 are kept */
	return (uint8_t)(((((uint32_t)x << 4) + 1665) * 80635UL) >> 28 & 15);
}

static void pack10(uint8_t out[5], const mlkem_poly *a, uint16_t i)
{
	uint16_t t[4];
	for (uint8_t j = 0; j < 4; j++)
		t[j] = compress10(canonical(a->c[4 * i + j]));
	out[0] = (uint8_t)t[0];
	out[1] = (uint8_t)(t[0] >> 8 | t[1] << 2);
	out[2] = (uint8_t)(t[1] >> 6 | t[2] << 4);
	out[3] = (uint8_t)(t[2] >> 4 | t[3] << 6);
	out[4] = (uint8_t)(t[3] >> 2);
}

void mlkem_poly_compress_du(uint8_t out[MLKEM_POLYDU_BYTES], const mlkem_poly *a)
{
	for (uint16_t i = 0; i < MLKEM_N / 4; i++)
		pack10(out + 5 * i, a, i);
}

uint8_t mlkem_poly_compress_du_cmp(const uint8_t in[MLKEM_POLYDU_BYTES], const mlkem_poly *a)
{
	uint8_t buf[5], d = 0;
	for (uint16_t i = 0; i < MLKEM_N / 4; i++) {
		pack10(buf, a, i);
		d |= pq_verify(buf, in + 5 * i, 5);
	}
	return d;
}

void mlkem_poly_decompress_du(mlkem_poly *r, const uint8_t in[MLKEM_POLYDU_BYTES])
{
	for (uint16_t i = 0; i < MLKEM_N / 4; i++) {
		const uint8_t *b = in + 5 * i;
		uint16_t t[4] = {
			(uint16_t)((b[0] | (uint16_t)b[1] << 8) & 0x3FF),
			(uint16_t)((b[1] >> 2 | (uint16_t)b[2] << 6) & 0x3FF),
			(uint16_t)((b[2] >> 4 | (uint16_t)b[3] << 4) & 0x3FF),
			(uint16_t)((b[3] >> 6 | (uint16_t)b[4] << 2) & 0x3FF),
		};
		/* Decompress_10(y) = round(q · y / 2^10) */
		for (uint8_t j = 0; j < 4; j++)
			r->c[4 * i + j] = (int16_t)(((uint32_t)t[j] * Q + 512) >> 10);
	}
}

void mlkem_poly_compress_dv(uint8_t out[MLKEM_POLYDV_BYTES], const mlkem_poly *a)
{
	for (uint16_t i = 0; i < MLKEM_N / 2; i++)
		out[i] = compress4(canonical(a->c[2 * i])) | compress4(canonical(a->c[2 * i + 1])) << 4;
}

uint8_t mlkem_poly_compress_dv_cmp(const uint8_t in[MLKEM_POLYDV_BYTES], const mlkem_poly *a)
{
	uint8_t d = 0;
	for (uint16_t i = 0; i < MLKEM_N / 2; i++)
		d |= in[i] ^ (compress4(canonical(a->c[2 * i])) | compress4(canonical(a->c[2 * i + 1])) << 4);
	return (uint8_t)((uint16_t)(0u - d) >> 15);
}

void mlkem_poly_decompress_dv(mlkem_poly *r, const uint8_t in[MLKEM_POLYDV_BYTES])
{
	for (uint16_t i = 0; i < MLKEM_N / 2; i++) {
		/* Decompress_4(y) = round(q · y / 16) */
		r->c[2 * i] = (int16_t)(((uint16_t)(in[i] & 15) * Q + 8) >> 4);
		r->c[2 * i + 1] = (int16_t)(((uint16_t)(in[i] >> 4) * Q + 8) >> 4);
	}
}

void mlkem_poly_frommsg_add(mlkem_poly *r, const uint8_t m[32])
{
	for (uint16_t i = 0; i < 32; i++)
		for (uint8_t j = 0; j < 8; j++) {
			int16_t mask = (int16_t)(0 - (int16_t)((m[i] >> j) & 1));
			r->c[8 * i + j] += mask & ((Q + 1) / 2); /* Decompress_1(1) = 1665 */
		}
}

void mlkem_poly_tomsg(uint8_t m[32], const mlkem_poly *a)
{
	for (uint16_t i = 0; i < 32; i++) {
		m[i] = 0;
		for (uint8_t j = 0; j < 8; j++) {
			/* Compress_1(x) = round(2x / q) mod 2, by 80635 = round(2^28 / q) */
			uint32_t t = ((uint32_t)canonical(a->c[8 * i + j]) << 1) + 1665;
			m[i] |= (uint8_t)(((t * 80635UL) >> 28) & 1) << j;
		}
	}
}
