/*
 * ecc_host.c: the ECDSA kernels' C built for the host, driven line by line
 * from TestECCOnHost (ecchost_test.go), which checks every answer with
 * math/big. The arithmetic is portable C99 (ecc_port.h), so the host runs
 * the same code the AVR does — thousands of random cases in a second, where
 * the simulator runs a handful of known answers in minutes.
 *
 * Built with one of -DECC_CURVE_* and -DECC_HOST_FAST or -DECC_HOST_CT.
 * It includes the style's file so that its static field arithmetic can be
 * called. Commands (numbers big-endian hex of fixed length), one per line:
 *
 *   F a b            a·b mod p with the style's field multiplication
 *   Q a              a² mod p (its squaring)
 *   B k              k·G: x y
 *   M u1 u2 qx qy    x of u1·G + u2·Q, or "inf"
 *   C x y            1 if (x, y) is on the curve
 *   I a              a⁻¹ mod n (ecc_scalar_inv, out of Montgomery form)
 *   P d              ecdsa_public_key
 *   S d k h          ecdsa_sign: r‖s, or "fail"
 *   V sig h pub      ecdsa_verify: 1 or 0
 */
#include <stdio.h>
#include <string.h>

#if defined(ECC_HOST_FAST)
#include "ecc_fast.c"
static void field_mul(fe r, const fe a, const fe b) { fe_mul(r, a, b); }
static void field_sqr(fe r, const fe a) { fe_sqr(r, a); }
#elif defined(ECC_HOST_CT)
#include "ecc_ct.c"
static void field_mul(fe r, const fe a, const fe b)
{
	fe am, bm;
	to_mont(am, a, 0);
	to_mont(bm, b, 0);
	fm_mul(r, am, bm);
	from_mont(r, r);
}
static void field_sqr(fe r, const fe a)
{
	fe am;
	to_mont(am, a, 0);
	fm_sqr(r, am);
	from_mont(r, r);
}
#else
#error "define ECC_HOST_FAST or ECC_HOST_CT"
#endif
#include "ecdsa.h"

/* reads the next hex token of n bytes, big-endian */
static int read_hex(char **s, uint8_t *out, int n)
{
	char *p = *s;
	while (*p == ' ')
		p++;
	for (int i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(p + 2 * i, "%2x", &v) != 1)
			return 0;
		out[i] = v;
	}
	*s = p + 2 * n;
	return 1;
}

static void put_hex(const uint8_t *b, int n)
{
	for (int i = 0; i < n; i++)
		printf("%02x", b[i]);
}

/* little-endian internal ↔ big-endian wire */
static int read_le(char **s, uint8_t *out, int n)
{
	uint8_t be[64];
	if (!read_hex(s, be, n))
		return 0;
	bn_from_be(out, be, n);
	return 1;
}

static void put_le(const uint8_t *a, int n)
{
	uint8_t be[64];
	bn_to_be(be, a, n);
	put_hex(be, n);
}

int main(void)
{
	char line[1024];
	while (fgets(line, sizeof line, stdin)) {
		char *s = line + 1;
		uint8_t a[ECC_MAXB], b[ECC_MAXB], c[ECC_MAXB], d[ECC_MAXB];
		uint8_t pub[ECDSA_PUBLIC_BYTES], sig[ECDSA_SIGNATURE_BYTES], h[32];
		int ok = 1;
		switch (line[0]) {
		case 'F':
			ok = read_le(&s, a, ECC_PB) && read_le(&s, b, ECC_PB);
			if (ok) {
				field_mul(c, a, b);
				put_le(c, ECC_PB);
			}
			break;
		case 'Q':
			ok = read_le(&s, a, ECC_PB);
			if (ok) {
				field_sqr(c, a);
				put_le(c, ECC_PB);
			}
			break;
		case 'B':
			ok = read_le(&s, a, ECC_NB);
			if (ok) {
				ecc_mul_base(b, c, a);
				put_le(b, ECC_PB);
				putchar(' ');
				put_le(c, ECC_PB);
			}
			break;
		case 'M':
			ok = read_le(&s, a, ECC_NB) && read_le(&s, b, ECC_NB) && read_le(&s, c, ECC_PB) && read_le(&s, d, ECC_PB);
			if (ok) {
				uint8_t x[ECC_PB];
				if (ecc_mul_add(x, a, b, c, d))
					put_le(x, ECC_PB);
				else
					printf("inf");
			}
			break;
		case 'C':
			ok = read_le(&s, a, ECC_PB) && read_le(&s, b, ECC_PB);
			if (ok)
				printf("%d", ecc_on_curve(a, b));
			break;
		case 'I':
			ok = read_le(&s, a, ECC_NB);
			if (ok) {
				uint8_t one[ECC_NB] = {1};
				ecc_scalar_inv(b, a);
				bn_mont_mul(b, b, one, ecc_n, ECC_NINV, ECC_NB);
				put_le(b, ECC_NB);
			}
			break;
		case 'P':
			ok = read_hex(&s, a, ECC_NB);
			if (ok) {
				ecdsa_public_key(pub, a);
				put_hex(pub, sizeof pub);
			}
			break;
		case 'S':
			ok = read_hex(&s, a, ECC_NB) && read_hex(&s, b, ECC_NB) && read_hex(&s, h, 32);
			if (ok) {
				if (ecdsa_sign(sig, h, 32, a, b))
					put_hex(sig, sizeof sig);
				else
					printf("fail");
			}
			break;
		case 'V':
			ok = read_hex(&s, sig, sizeof sig) && read_hex(&s, h, 32) && read_hex(&s, pub, sizeof pub);
			if (ok)
				printf("%d", ecdsa_verify(sig, h, 32, pub));
			break;
		default:
			ok = 0;
		}
		if (!ok)
			printf("error: %s", line);
		putchar('\n');
		fflush(stdout);
	}
	return 0;
}
