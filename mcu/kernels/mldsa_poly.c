/*
 * mldsa_poly.c: ML-DSA's polynomial arithmetic, sampling, rounding and
 * packing (FIPS 204 §7), written here from the standard in the shape of
 * the Dilithium reference implementation: 32-bit coefficients, Montgomery
 * reduction with R = 2^32, twiddle factors precomputed in bit-reversed
 * order.
 *
 * The rejection samplers branch on the XOF output (public ρ for the matrix;
 * for s1, s2 and the challenge, as FIPS 204 allows: the number of
 * rejections does not depend on the accepted values); MakeHint, UseHint and
 * the norm checks branch as the reference does. The arithmetic does not.
 */
#include "mldsa_poly.h"

#define Q MLDSA_Q
#define QINV 58728449UL /* q^-1 mod 2^32 */

/* ζ^BitRev8(k) · 2^32 mod q, centred, for ζ = 1753 (FIPS 204 §7.5,
 * Appendix B), in Montgomery form; generated from that definition.
 * zetas[0] is unused. */
static const int32_t zetas[MLDSA_N] PQ_FLASH = {
	0L, 25847L, -2608894L, -518909L, 237124L, -777960L, -876248L, 466468L,
	1826347L, 2353451L, -359251L, -2091905L, 3119733L, -2884855L, 3111497L, 2680103L,
	2725464L, 1024112L, -1079900L, 3585928L, -549488L, -1119584L, 2619752L, -2108549L,
	-2118186L, -3859737L, -1399561L, -3277672L, 1757237L, -19422L, 4010497L, 280005L,
	2706023L, 95776L, 3077325L, 3530437L, -1661693L, -3592148L, -2537516L, 3915439L,
	-3861115L, -3043716L, 3574422L, -2867647L, 3539968L, -300467L, 2348700L, -539299L,
	-1699267L, -1643818L, 3505694L, -3821735L, 3507263L, -2140649L, -1600420L, 3699596L,
	811944L, 531354L, 954230L, 3881043L, 3900724L, -2556880L, 2071892L, -2797779L,
	-3930395L, -1528703L, -3677745L, -3041255L, -1452451L, 3475950L, 2176455L, -1585221L,
	-1257611L, 1939314L, -4083598L, -1000202L, -3190144L, -3157330L, -3632928L, 126922L,
	3412210L, -983419L, 2147896L, 2715295L, -2967645L, -3693493L, -411027L, -2477047L,
	-671102L, -1228525L, -22981L, -1308169L, -381987L, 1349076L, 1852771L, -1430430L,
	-3343383L, 264944L, 508951L, 3097992L, 44288L, -1100098L, 904516L, 3958618L,
	-3724342L, -8578L, 1653064L, -3249728L, 2389356L, -210977L, 759969L, -1316856L,
	189548L, -3553272L, 3159746L, -1851402L, -2409325L, -177440L, 1315589L, 1341330L,
	1285669L, -1584928L, -812732L, -1439742L, -3019102L, -3881060L, -3628969L, 3839961L,
	2091667L, 3407706L, 2316500L, 3817976L, -3342478L, 2244091L, -2446433L, -3562462L,
	266997L, 2434439L, -1235728L, 3513181L, -3520352L, -3759364L, -1197226L, -3193378L,
	900702L, 1859098L, 909542L, 819034L, 495491L, -1613174L, -43260L, -522500L,
	-655327L, -3122442L, 2031748L, 3207046L, -3556995L, -525098L, -768622L, -3595838L,
	342297L, 286988L, -2437823L, 4108315L, 3437287L, -3342277L, 1735879L, 203044L,
	2842341L, 2691481L, -2590150L, 1265009L, 4055324L, 1247620L, 2486353L, 1595974L,
	-3767016L, 1250494L, 2635921L, -3548272L, -2994039L, 1869119L, 1903435L, -1050970L,
	-1333058L, 1237275L, -3318210L, -1430225L, -451100L, 1312455L, 3306115L, -1962642L,
	-1279661L, 1917081L, -2546312L, -1374803L, 1500165L, 777191L, 2235880L, 3406031L,
	-542412L, -2831860L, -1671176L, -1846953L, -2584293L, -3724270L, 594136L, -3776993L,
	-2013608L, 2432395L, 2454455L, -164721L, 1957272L, 3369112L, 185531L, -1207385L,
	-3183426L, 162844L, 1616392L, 3014001L, 810149L, 1652634L, -3694233L, -1799107L,
	-3038916L, 3523897L, 3866901L, 269760L, 2213111L, -975884L, 1717735L, 472078L,
	-426683L, 1723600L, -1803090L, 1910376L, -1667432L, -1104333L, -260646L, -3833893L,
	-2939036L, -2235985L, -420899L, -2286327L, 183443L, -976891L, 1612842L, -3545687L,
	-554416L, 3919660L, -48306L, -1362209L, 3937738L, 1400424L, -846154L, 1976782L,
};

#if !defined(__AVR__)
/* the high 32 bits of a, floor(a / 2^32) */
static int32_t hi32(int64_t a) { return (int32_t)(a >> 32); }
#endif

/*
 * a · b · 2^-32 mod q in (−q, q), for |a · b| < q · 2^31: Montgomery
 * multiplication. With t = a·b·q^-1 mod 2^32, a·b − t·q is a multiple of
 * 2^32, so the result is the difference of the high words of a·b and t·q,
 * without a 64-bit subtraction (on AVR a loop of one-bit shifts). Splitting
 * the products into 16-bit ones was measured slower on AVR than libgcc's
 * 64-bit multiplication.
 */
#if defined(__AVR__)
/*
 * avr-libgcc's signed 32 × 32 → 64-bit multiplication (__mulsidi3)
 * branches on the operands' signs: the unsigned one (__umulsidi3) does not,
 * so the signed high word is formed from it with masks, as for ML-KEM
 * (mlkem_poly.c): hi(a·b) = hi(ua·ub) − ub·[a < 0] − ua·[b < 0] (mod 2^32);
 * the low word is the same either way.
 */
static __attribute__((noinline)) uint64_t mul32u(uint32_t a, uint32_t b) { return (uint64_t)a * b; }

static int32_t mulhi_lo(int32_t a, int32_t b, uint32_t *lo)
{
	uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
	uint32_t ma = (uint32_t)(a >> 31), mb = (uint32_t)(b >> 31); /* 0 or all ones */
	union {
		uint64_t w;
		uint32_t h[2]; /* little-endian: h[0] low, h[1] high */
	} p = {mul32u(ua, ub)};
	*lo = p.h[0];
	return (int32_t)(p.h[1] - (ub & ma) - (ua & mb));
}

int32_t mldsa_fqmul(int32_t a, int32_t b)
{
	uint32_t lo, lo2;
	int32_t hi = mulhi_lo(a, b, &lo);
	int32_t t = (int32_t)(lo * QINV); /* wraps mod 2^32 on purpose */
	return hi - mulhi_lo(t, Q, &lo2);
}
#else
int32_t mldsa_fqmul(int32_t a, int32_t b)
{
	int64_t p = (int64_t)a * b;
	int32_t t = (int32_t)((uint32_t)p * QINV); /* wraps mod 2^32 on purpose */
	return hi32(p) - hi32((int64_t)t * Q);
}
#endif

/* a mod q in [−6283009, 6283008], for a ≤ 2^31 − 2^22 − 1 */
int32_t mldsa_reduce32(int32_t a)
{
	int32_t t = (a + (1L << 22)) >> 23;
	return a - t * Q;
}

/* a + q if a is negative */
int32_t mldsa_caddq(int32_t a) { return a + ((a >> 31) & Q); }

/* NTT (Algorithm 41), in place, output in bit-reversed order; input below
 * q in absolute value, output below 9q. */
void mldsa_ntt(mldsa_poly *a)
{
	uint16_t len, start, j;
	uint8_t k = 0;
	for (len = 128; len > 0; len >>= 1) {
		for (start = 0; start < MLDSA_N; start = j + len) {
			int32_t zeta = pq_read32(&zetas[++k]);
			for (j = start; j < start + len; j++) {
				int32_t t = mldsa_fqmul(zeta, a->c[j + len]);
				a->c[j + len] = a->c[j] - t;
				a->c[j] = a->c[j] + t;
			}
		}
	}
}

/* NTT^-1 (Algorithm 42) times 2^32: the scaling by 256^-1 also carries the
 * Montgomery factor, undoing the 2^-32 of a preceding pointwise product.
 * Input below 2^31/256 in absolute value (reduce32 first); output below q. */
void mldsa_invntt(mldsa_poly *a)
{
	const int32_t f = 41978; /* 2^64 / 256 mod q */
	uint16_t len, start, j;
	uint16_t k = 256;
	for (len = 1; len < MLDSA_N; len <<= 1) {
		for (start = 0; start < MLDSA_N; start = j + len) {
			int32_t zeta = -pq_read32(&zetas[--k]);
			for (j = start; j < start + len; j++) {
				int32_t t = a->c[j];
				a->c[j] = t + a->c[j + len];
				a->c[j + len] = mldsa_fqmul(zeta, t - a->c[j + len]);
			}
		}
	}
	for (j = 0; j < MLDSA_N; j++)
		a->c[j] = mldsa_fqmul(f, a->c[j]);
}

void mldsa_poly_reduce(mldsa_poly *a)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		a->c[i] = mldsa_reduce32(a->c[i]);
}

void mldsa_poly_caddq(mldsa_poly *a)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		a->c[i] = mldsa_caddq(a->c[i]);
}

void mldsa_poly_add(mldsa_poly *r, const mldsa_poly *a)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		r->c[i] += a->c[i];
}

void mldsa_poly_sub(mldsa_poly *r, const mldsa_poly *a)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		r->c[i] -= a->c[i];
}

void mldsa_poly_shiftl(mldsa_poly *a)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		a->c[i] <<= MLDSA_D;
}

void mldsa_poly_pointwise(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		r->c[i] = mldsa_fqmul(a->c[i], b->c[i]);
}

void mldsa_poly_pointwise_acc(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		r->c[i] += mldsa_fqmul(a->c[i], b->c[i]);
}

/* ‖a‖∞ ≥ bound, for reduced a. As in the reference, the loop may stop at
 * the first large coefficient (which coefficient it is does not depend on
 * the secret), but the sign of a coefficient is never branched on. */
uint8_t mldsa_poly_chknorm(const mldsa_poly *a, int32_t bound)
{
	for (uint16_t i = 0; i < MLDSA_N; i++) {
		int32_t t = a->c[i] >> 31;
		t = a->c[i] - (t & 2 * a->c[i]); /* |a_i| */
		if (t >= bound)
			return 1;
	}
	return 0;
}

static void xof_init(keccak_state *st, uint8_t rate, const uint8_t *seed, uint8_t seedlen, uint8_t n0, uint8_t n1)
{
	keccak_init(st, rate);
	keccak_absorb(st, seed, seedlen);
	keccak_absorb(st, &n0, 1);
	keccak_absorb(st, &n1, 1);
	keccak_finalize(st, SHAKE_DS);
}

/* RejNTTPoly: SHAKE128(ρ‖x‖y), three bytes per candidate, the top bit of
 * the third dropped (CoeffFromThreeBytes, Algorithm 14) */
static void uniform(mldsa_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const mldsa_poly *b)
{
	keccak_state st;
	uint8_t buf[3];
	uint16_t j = 0;
	xof_init(&st, SHAKE128_RATE, rho, 32, x, y);
	while (j < MLDSA_N) {
		keccak_squeeze(&st, buf, 3);
		int32_t t = (int32_t)(pq_load24(buf) & 0x7FFFFF);
		if (t >= Q)
			continue; /* rejected: public data */
		if (b)
			r->c[j] += mldsa_fqmul(t, b->c[j]);
		else
			r->c[j] = t;
		j++;
	}
}

void mldsa_poly_uniform(mldsa_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y) { uniform(r, rho, x, y, 0); }

void mldsa_uniform_pointwise_acc(mldsa_poly *r, const uint8_t rho[32], uint8_t x, uint8_t y, const mldsa_poly *b)
{
	uniform(r, rho, x, y, b);
}

/* RejBoundedPoly for η = 2: SHAKE256(ρ'‖n), two half-bytes per byte, each
 * below 15 accepted as 2 − (z mod 5) (CoeffFromHalfByte, Algorithm 15) */
void mldsa_poly_uniform_eta(mldsa_poly *r, uint8_t *out, const uint8_t rho[64], uint16_t n)
{
	keccak_state st;
	uint8_t b, z, h;
	uint16_t j = 0;
	xof_init(&st, SHAKE256_RATE, rho, 64, (uint8_t)n, (uint8_t)(n >> 8));
	while (j < MLDSA_N) {
		keccak_squeeze(&st, &b, 1);
		for (h = 0; h < 2 && j < MLDSA_N; h++) {
			z = h ? b >> 4 : b & 15;
			if (z >= 15)
				continue;
			z = z - (uint8_t)((205 * (uint16_t)z) >> 10) * 5; /* z mod 5 for z < 15 */
			if (r)
				r->c[j] = 2 - (int32_t)z;
			else
				mldsa_putbits(out, j, MLDSA_ETA_BITS, z); /* η − (2 − z) */
			j++;
		}
	}
}

/* ExpandMask's polynomial for γ1 = 2^17: 18 bits per coefficient, nine
 * bytes per four, each stored as γ1 − value */
void mldsa_poly_uniform_gamma1(mldsa_poly *r, const uint8_t rho[64], uint16_t n)
{
	keccak_state st;
	uint8_t buf[9];
	xof_init(&st, SHAKE256_RATE, rho, 64, (uint8_t)n, (uint8_t)(n >> 8));
	for (uint16_t i = 0; i < MLDSA_N; i += 4) {
		keccak_squeeze(&st, buf, 9);
		for (uint8_t j = 0; j < 4; j++)
			r->c[i + j] = MLDSA_GAMMA1 - (int32_t)mldsa_getbits(buf, j, MLDSA_Z_BITS);
	}
}

/* SampleInBall: SHAKE256(c̃); 8 bytes of signs, then for i = 256 − τ …
 * 255 a byte j ≤ i (rejection), c_i ← c_j, c_j ← ±1 */
void mldsa_challenge(int8_t c[MLDSA_N], const uint8_t ctilde[MLDSA_CTILDEBYTES])
{
	keccak_state st;
	uint8_t signs[8], b;
	keccak_init(&st, SHAKE256_RATE);
	keccak_absorb(&st, ctilde, MLDSA_CTILDEBYTES);
	keccak_finalize(&st, SHAKE_DS);
	keccak_squeeze(&st, signs, 8);
	memset(c, 0, MLDSA_N);
	for (uint16_t i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; i++) {
		do
			keccak_squeeze(&st, &b, 1);
		while (b > i);
		uint8_t k = (uint8_t)(i - (MLDSA_N - MLDSA_TAU)); /* h[i + τ − 256] */
		c[i] = c[b];
		c[b] = (int8_t)(1 - 2 * ((signs[k >> 3] >> (k & 7)) & 1));
	}
}

/* Power2Round: a = a1 · 2^d + a0 with a0 in (−2^(d−1), 2^(d−1)] */
int32_t mldsa_power2round(int32_t *a0, int32_t a)
{
	int32_t a1 = (a + (1L << (MLDSA_D - 1)) - 1) >> MLDSA_D;
	*a0 = a - (a1 << MLDSA_D);
	return a1;
}

/* Decompose for 2γ2 = (q − 1)/44: a = a1 · 2γ2 + a0, a0 in (−γ2, γ2], and
 * a1 = 0 (a0 − 1) where a − a0 would be q − 1. The quotient by 2γ2 is
 * formed by multiplication (11275 ≈ 2^24 / 1488 with the first shift by 7),
 * as in the reference implementation. */
int32_t mldsa_decompose(int32_t *a0, int32_t a)
{
	int32_t a1 = (a + 127) >> 7;
	a1 = (a1 * 11275L + (1L << 23)) >> 24;
	a1 ^= ((43 - a1) >> 31) & a1; /* 44 → 0 */
	*a0 = a - a1 * 2 * MLDSA_GAMMA2;
	*a0 -= (((Q - 1) / 2 - *a0) >> 31) & Q;
	return a1;
}

/* MakeHint in the reference's form: given a0 = LowBits(w − cs2) + ct0 and
 * a1 = HighBits(w − cs2), 1 when adding −ct0 changes the high bits. */
uint8_t mldsa_make_hint(int32_t a0, int32_t a1)
{
	return a0 > MLDSA_GAMMA2 || a0 < -MLDSA_GAMMA2 || (a0 == -MLDSA_GAMMA2 && a1 != 0);
}

int32_t mldsa_use_hint(int32_t a, uint8_t hint)
{
	int32_t a0, a1 = mldsa_decompose(&a0, a);
	if (!hint)
		return a1;
	if (a0 > 0)
		return a1 == 43 ? 0 : a1 + 1;
	return a1 == 0 ? 43 : a1 - 1;
}

/* 2^w − 1 for the widths used (a variable shift is a loop on AVR) */
static const uint32_t MASK[MLDSA_Z_BITS + 1] PQ_FLASH = {
	0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767, 65535, 131071, 262143,
};

uint32_t mldsa_getbits(const uint8_t *p, uint16_t i, uint8_t w)
{
	uint16_t bit = i * w;
	uint8_t sh = bit & 7, n = (uint8_t)((sh + w + 7) >> 3);
	uint32_t v = 0;
	p += bit >> 3;
	while (n--)
		v = v << 8 | p[n];
	return (v >> sh) & (uint32_t)pq_read32((const int32_t *)&MASK[w]);
}

void mldsa_putbits(uint8_t *p, uint16_t i, uint8_t w, uint32_t v)
{
	uint16_t bit = i * w;
	uint8_t sh = bit & 7, n = (uint8_t)((sh + w + 7) >> 3), k;
	uint32_t mask = (uint32_t)pq_read32((const int32_t *)&MASK[w]) << sh;
	v = (v << sh) & mask;
	p += bit >> 3;
	for (k = 0; k < n; k++, mask >>= 8, v >>= 8)
		p[k] = (uint8_t)((p[k] & ~mask) | v);
}

int32_t mldsa_unpack1(const uint8_t *p, uint16_t i, uint8_t w, int32_t b)
{
	int32_t v = (int32_t)mldsa_getbits(p, i, w);
	return b ? b - v : v;
}

void mldsa_poly_pack(uint8_t *out, const mldsa_poly *a, uint8_t w, int32_t b)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		mldsa_putbits(out, i, w, (uint32_t)(b ? b - a->c[i] : a->c[i]));
}

void mldsa_poly_unpack(mldsa_poly *r, const uint8_t *in, uint8_t w, int32_t b)
{
	for (uint16_t i = 0; i < MLDSA_N; i++)
		r->c[i] = mldsa_unpack1(in, i, w, b);
}

uint8_t mldsa_hints_ok(const uint8_t h[MLDSA_OMEGA + MLDSA_K])
{
	uint8_t index = 0, i, j;
	for (i = 0; i < MLDSA_K; i++) {
		uint8_t end = h[MLDSA_OMEGA + i];
		if (end < index || end > MLDSA_OMEGA)
			return 0;
		for (j = index; j < end; j++)
			if (j > index && h[j - 1] >= h[j])
				return 0;
		index = end;
	}
	for (j = index; j < MLDSA_OMEGA; j++)
		if (h[j])
			return 0;
	return 1;
}
