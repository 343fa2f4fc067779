package model

import (
	"math"
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
		return strconv.AppendInt(dst, int64(v), 10)
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
	var digits [12]byte
	n := uint64(m)
	hi, lo := uint32(n/1e6), uint32(n%1e6)
	for i := 10; i >= 6; i -= 2 {
		copy(digits[i:i+2], digitPairs[2*(lo%100):])
		lo /= 100
	}
	for i := 4; i >= 0; i -= 2 {
		copy(digits[i:i+2], digitPairs[2*(hi%100):])
		hi /= 100
	}
	nd := 12
	for nd > 1 && digits[nd-1] == '0' {
		nd--
	}
	if v < 0 {
		dst = append(dst, '-')
	}
	if e < -4 || e >= 12 {
		dst = append(dst, digits[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:nd]...)
		}
		dst = append(dst, 'e')
		if e < 0 {
			dst, e = append(dst, '-'), -e
		} else {
			dst = append(dst, '+')
		}
		if e < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(e), 10)
	}
	dp := e + 1 // digits before the decimal point
	switch {
	case dp <= 0:
		dst = append(dst, "0."...)
		for range -dp {
			dst = append(dst, '0')
		}
		dst = append(dst, digits[:nd]...)
	case dp >= nd:
		dst = append(dst, digits[:nd]...)
		for range dp - nd {
			dst = append(dst, '0')
		}
	default:
		dst = append(dst, digits[:dp]...)
		dst = append(dst, '.')
		dst = append(dst, digits[dp:nd]...)
	}
	return dst
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
