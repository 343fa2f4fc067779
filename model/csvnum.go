package model

import (
	"math"
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
// on a million values.
func appendG12(dst []byte, v float64) []byte {
	if v == 0 {
		if math.Signbit(v) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	a := math.Abs(v)
	if a < 1e12 && a == math.Trunc(a) {
		// An integer of at most 12 digits: strconv prints its digits.
		return appendInt12(dst, v < 0, uint64(a))
	}
	if !(a >= 1e-11 && a < 1e22) {
		return strconv.AppendFloat(dst, v, 'g', 12, 64)
	}
	e := decimalExponent(a)
	m, ok := scale12(a, e)
	if !ok {
		return strconv.AppendFloat(dst, v, 'g', 12, 64)
	}
	if m >= 1e12 { // rounded up to 10^12: one digit, a higher exponent
		m, e = 1e11, e+1
	}
	if m < 1e11 || m >= 1e12 {
		return strconv.AppendFloat(dst, v, 'g', 12, 64)
	}
	// The 12 digits without their trailing zeros: d, nd digits long.
	d, nd := uint64(m), 12
	for d%100 == 0 {
		d, nd = d/100, nd-2
	}
	if d%10 == 0 {
		d, nd = d/10, nd-1
	}
	// Every layout below is at most 19 bytes ("-1.23456789012e-11",
	// "-0.000123456789012"): written in place, no appends.
	n := len(dst)
	dst = slices.Grow(dst, 20)[:n+20]
	b := dst[n:]
	i := 0
	if v < 0 {
		b[0], i = '-', 1
	}
	if e < -4 || e >= 12 {
		// d.ddde±XX; here −11 ≤ e ≤ 21, so the exponent has two digits.
		if nd == 1 {
			b[i], i = byte('0'+d), i+1
		} else {
			putDigits(b[i+1:i+1+nd], d)
			b[i], b[i+1] = b[i+1], '.'
			i += nd + 1
		}
		b[i], b[i+1] = 'e', '+'
		if e < 0 {
			b[i+1], e = '-', -e
		}
		b[i+2], b[i+3] = digitPairs[2*e], digitPairs[2*e+1]
		return dst[:n+i+4]
	}
	dp := e + 1 // digits before the decimal point
	switch {
	case dp <= 0: // 0.000ddd
		b[i], b[i+1] = '0', '.'
		i += 2
		for range -dp {
			b[i], i = '0', i+1
		}
		putDigits(b[i:i+nd], d)
		i += nd
	case dp >= nd: // ddd000
		putDigits(b[i:i+nd], d)
		i += nd
		for range dp - nd {
			b[i], i = '0', i+1
		}
	default: // dd.ddd
		putDigits(b[i+1:i+1+nd], d)
		copy(b[i:i+dp], b[i+1:i+1+dp])
		b[i+dp] = '.'
		i += nd + 1
	}
	return dst[:n+i]
}

// appendInt12 appends the integer u < 10^12, negated if neg.
func appendInt12(dst []byte, neg bool, u uint64) []byte {
	nd := 1
	for nd < 12 && u >= pow10u[nd] {
		nd++
	}
	n := len(dst)
	if neg {
		dst = append(dst, '-')
		n++
	}
	dst = slices.Grow(dst, nd)[:n+nd]
	putDigits(dst[n:], u)
	return dst
}

// pow10u are the powers of ten that appendInt12 counts digits with.
var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11}

// putDigits writes the last len(b) decimal digits of d into b, two at a
// time.
func putDigits(b []byte, d uint64) {
	i := len(b)
	for i >= 2 {
		q := d / 100
		r := d - 100*q
		i -= 2
		b[i], b[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		d = q
	}
	if i == 1 {
		b[0] = byte('0' + d%10)
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
