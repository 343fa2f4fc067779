/*
 * compress_check.c: checks mlkem_poly.c's division-free Compress_d against
 * FIPS 203's definition, round(2^d · x / q) mod 2^d (§4.2.1; round half up),
 * for every x in [0, q), and Decompress_d against round(q · y / 2^d) for
 * every y. Built and run by mcu/pq_test.go. Prints "ok" or the first
 * mismatch.
 */
#include <stdio.h>
#define MLKEM_K 2
#include "mlkem_poly.c"

/* round(n / d) for n, d > 0, half up: floor((2n + d) / 2d) */
static unsigned long rnd(unsigned long n, unsigned long d) { return (2 * n + d) / (2 * d); }

int main(void)
{
	for (uint16_t x = 0; x < Q; x++) {
		if (compress10(x) != (rnd((unsigned long)x << 10, Q) & 0x3FF)) {
			printf("Compress_10(%u) = %u\n", x, compress10(x));
			return 1;
		}
		if (compress4(x) != (rnd((unsigned long)x << 4, Q) & 15)) {
			printf("Compress_4(%u) = %u\n", x, compress4(x));
			return 1;
		}
		mlkem_poly a;
		uint8_t m[32];
		for (int i = 0; i < MLKEM_N; i++)
			a.c[i] = (int16_t)(i == 0 ? x : 0);
		mlkem_poly_tomsg(m, &a);
		if ((m[0] & 1) != (rnd((unsigned long)x << 1, Q) & 1)) {
			printf("Compress_1(%u) = %u\n", x, m[0] & 1);
			return 1;
		}
	}
	for (uint16_t y = 0; y < 1024; y++) {
		uint8_t in[MLKEM_POLYDU_BYTES] = {0};
		mlkem_poly r;
		in[0] = (uint8_t)y, in[1] = (uint8_t)(y >> 8);
		mlkem_poly_decompress_du(&r, in);
		if ((unsigned long)r.c[0] != rnd((unsigned long)Q * y, 1024)) {
			printf("Decompress_10(%u) = %d\n", y, r.c[0]);
			return 1;
		}
		if (y < 16) {
			uint8_t v[MLKEM_POLYDV_BYTES] = {0};
			v[0] = (uint8_t)y;
			mlkem_poly_decompress_dv(&r, v);
			if ((unsigned long)r.c[0] != rnd((unsigned long)Q * y, 16)) {
				printf("Decompress_4(%u) = %d\n", y, r.c[0]);
				return 1;
			}
		}
	}
	printf("ok\n");
	return 0;
}
