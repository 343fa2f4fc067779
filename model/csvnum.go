package model

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// appendG12 appends v as strconv.AppendFloat(dst, v, 'g', 12, 64) does,
// byte for byte, in a fraction of the time for the values sweeps write.
// A wide-CSV sweep formats 15 outputs per point, and strconv's
// fixed-precision path (about 80 ns a number here) was most of a
// row's cost, so 10⁶ points took seconds.
//
// The fast path scales |v| to a 12-digit integer m = |v|·10^(11−e) with
// one correctly rounded multiplication or division by an exact power of
// ten (10^k is exact in float64 for k ≤ 22), so m is within half an ulp
// (< 1.3e-4 for m < 1e12) of the exact product. Rounding m to an integer
// is then the correctly rounded 12-digit mantissa unless m lies within
// that error of a half-way point; those values, and everything outside
// the exact range (|v| < 1e-11, ≥ 1e22, infinities, NaN), go to strconv.
// The layout follows strconv's %g rule (ftoa.go formatDigits): with the
// trailing zeros dropped, exponent form iff the decimal exponent is
// below −4 or at least the precision, 12. TestAppendG12 compares the two
// on 200 000 values and the edge cases, alone and after other text.
func appendG12(dst []byte, v float64) []byte {
	n := len(dst)
	dst = slices.Grow(dst, maxG12)
	w := dst[:cap(dst)]
	return w[:putG12(w, n, v)]
}

// maxG12 is the room putG12 needs: %.12g is at most 19 bytes
// ("-1.23456789012e-308"), but the dd.ddd layout writes whole words, up
// to 29 bytes from where it starts.
const maxG12 = 32

// putG12 writes appendG12's text of v into b at i, where b has at least
// maxG12 bytes from i, and returns where it ends: the sweep's rows
// reserve their room once and write in place, without an append's
// checks and copies per number.
func putG12(b []byte, i int, v float64) int {
	_ = b[i+maxG12-1]
	if v == 0 {
		if math.Signbit(v) {
			b[i], b[i+1] = '-', '0'
			return i + 2
		}
		b[i] = '0'
		return i + 1
	}
	a, start := math.Abs(v), i
	if v < 0 {
		b[i], i = '-', i+1
	}
	if a < 1e12 {
		if u := int64(a); float64(u) == a {
			// An integer of at most 12 digits: strconv prints its digits.
			nd := digits(uint64(u))
			putDigits(b[i:i+nd], uint64(u))
			return i + nd
		}
	}
	if !(a >= 1e-11 && a < 1e22) {
		return start + len(strconv.AppendFloat(b[start:start], v, 'g', 12, 64))
	}
	e := decimalExponent(a)
	m, ok := scale12(a, e)
	if ok && m >= 1e12 { // rounded up to 10^12: one digit, a higher exponent
		m, e = 1e11, e+1
	}
	if !ok || m < 1e11 || m >= 1e12 {
		return start + len(strconv.AppendFloat(b[start:start], v, 'g', 12, 64))
	}
	// The 12 digits, in two halves of six, and how many of them are
	// trailing zeros (strconv's %g drops them): nd are printed.
	d := uint64(m)
	hi, lo := uint32(d/1e6), uint32(d%1e6)
	nd := 12 - trailingZeros(hi, lo)
	if e < -4 || e >= 12 {
		// d.ddde±XX; here −11 ≤ e ≤ 21, so the exponent has two digits.
		put12(b[i+1:i+13], hi, lo)
		b[i], b[i+1] = b[i+1], '.'
		i += nd + 1
		if nd == 1 {
			i-- // no point without digits after it
		}
		b[i], b[i+1] = 'e', '+'
		if e < 0 {
			b[i+1], e = '-', -e
		}
		b[i+2], b[i+3] = digitPairs[2*e], digitPairs[2*e+1]
		return i + 4
	}
	dp := e + 1 // digits before the decimal point
	switch {
	case dp <= 0: // 0.000ddd
		b[i], b[i+1] = '0', '.'
		i += 2
		for range -dp {
			b[i], i = '0', i+1
		}
		put12(b[i:i+12], hi, lo)
		return i + nd
	case nd <= dp: // no digits after the point (dp = 12 when e = 11)
		put12(b[i:i+12], hi, lo)
		return i + dp
	default: // dd.ddd
		// The digits go to t, then out in two runs — the dp before the
		// point, the rest after it — each as two 8-byte words: past its
		// digits a run writes bytes the next run or row overwrites, which
		// the room allows for (a byte loop here cost more than the rest).
		var t [28]byte
		put12(t[:12], hi, lo)
		le := binary.LittleEndian
		le.PutUint64(b[i:], le.Uint64(t[0:]))
		le.PutUint64(b[i+8:], le.Uint64(t[8:]))
		b[i+dp] = '.'
		le.PutUint64(b[i+dp+1:], le.Uint64(t[dp:]))
		le.PutUint64(b[i+dp+9:], le.Uint64(t[dp+8:]))
		return i + nd + 1
	}
}

// trailingZeros counts the trailing zero digits of the 12-digit number
// hi·10^6 + lo, hi ≥ 10^5: at most 11.
func trailingZeros(hi, lo uint32) int {
	z, x := 0, lo
	if lo == 0 {
		z, x = 6, hi
	}
	for x%100 == 0 { // x ≠ 0: at most two rounds
		x /= 100
		z += 2
	}
	if x%10 == 0 {
		z++
	}
	return z
}

// digits is the number of decimal digits of 0 < u < 10^12: the bit
// length times log10(2) (1233/4096), corrected against the powers.
func digits(u uint64) int {
	t := bits.Len64(u) * 1233 >> 12
	if u < pow10u[t] {
		return t
	}
	return t + 1
}

// pow10u are the powers of ten that digits corrects with.
var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

// putDigits writes the last len(b) ≤ 12 decimal digits of d into b.
func putDigits(b []byte, d uint64) {
	if len(b) > 6 {
		hi, lo := uint32(d/1e6), uint32(d%1e6)
		put6(b[len(b)-6:], lo)
		putSmall(b[:len(b)-6], hi)
		return
	}
	putSmall(b, uint32(d))
}

// put12 writes the 12 digits of hi·10^6 + lo (hi, lo < 10^6) into
// b[:12]: put6 twice, in one call.
func put12(b []byte, hi, lo uint32) {
	h1, l1 := lo/10000, lo%10000
	m1, l1 := l1/100, l1%100
	b[11], b[10] = digitPairs[2*l1+1], digitPairs[2*l1]
	b[9], b[8] = digitPairs[2*m1+1], digitPairs[2*m1]
	b[7], b[6] = digitPairs[2*h1+1], digitPairs[2*h1]
	h0, l0 := hi/10000, hi%10000
	m0, l0 := l0/100, l0%100
	b[5], b[4] = digitPairs[2*l0+1], digitPairs[2*l0]
	b[3], b[2] = digitPairs[2*m0+1], digitPairs[2*m0]
	b[1], b[0] = digitPairs[2*h0+1], digitPairs[2*h0]
}

// put6 writes the 6 digits of x < 10^6 into b[:6].
func put6(b []byte, x uint32) {
	hi, lo := x/10000, x%10000
	mid, lo := lo/100, lo%100
	b[5], b[4] = digitPairs[2*lo+1], digitPairs[2*lo] // b[5] first: one bounds check
	b[3], b[2] = digitPairs[2*mid+1], digitPairs[2*mid]
	b[1], b[0] = digitPairs[2*hi+1], digitPairs[2*hi]
}

// putSmall writes the last len(b) ≤ 6 digits of x into b.
func putSmall(b []byte, x uint32) {
	i := len(b)
	for i >= 2 {
		q := x / 100
		r := x - 100*q
		i -= 2
		b[i], b[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		x = q
	}
	if i == 1 {
		b[0] = byte('0' + x%10)
	}
}

// digitPairs is "00" to "99": two digits per division.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// decimalExponent returns floor(log10(a)) for 1e-11 ≤ a < 1e22: the
// binary exponent times log10(2) (78913/2^18 = 0.30103, within 2e-6),
// which is at most one too small, corrected against the table.
func decimalExponent(a float64) int {
	e2 := int(math.Float64bits(a)>>52&0x7ff) - 1023 // a = 1.f·2^e2 (a is normal here)
	e := (e2 * 78913) >> 18
	if a >= pow10At(e+1) {
		e++
	}
	return e
}

// pow10At returns 10^k for −22 ≤ k ≤ 22: exact for k ≥ 0, the nearest
// float64 for k < 0. A value just below a true negative power of ten
// that rounds to its float is then counted in the decade above, where
// scaling gives the mantissa 10^11: the correct 12-digit rounding.
func pow10At(k int) float64 { return pow10[k+22] }

var pow10 = [...]float64{1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11,
	1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1,
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
	1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// scale12 returns round(a·10^(11−e)) and whether the rounding is certain:
// the scaled value, carrying at most half an ulp of error from one
// correctly rounded operation, is not within 1e-3 of a half-way point.
func scale12(a float64, e int) (float64, bool) {
	k := 11 - e
	var s float64
	switch {
	case k >= 0 && k <= 22:
		s = a * pow10At(k) // exact power: one rounding
	case k < 0 && k >= -22:
		s = a / pow10At(-k)
	default:
		return 0, false
	}
	r := math.Round(s)
	if f := math.Abs(s - math.Trunc(s)); math.Abs(f-0.5) < 1e-3 {
		return r, false
	}
	return r, true
}
